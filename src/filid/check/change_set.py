"""What a change deletes, and the imports that break because of it.

A commit that only deletes files (say a module's ``index.ts``) passes no file to a
pre-commit hook, yet breaks every file that imported it. ``check --staged`` adds the staged
deletions to the files it reports on, and both ``--staged`` and ``--new-since`` report each
import that no longer resolves because the change deleted its target (rule id
``broken-import``, an error): an import whose relative or root-absolute specifier names, as
TypeScript would resolve it, a file the change deleted, and that now finds no file. That is
always true breakage — the target existed and was importable, and is gone — so the finding
needs no configuration; an import that never resolved is never reported here. A file the
index deleted whose blob the clone never fetched (a mirror's failed checkout) still resolves
in the work tree's listing (``scan.universe``: listed as absent), yet the commit deletes it:
``--staged`` reports the imports of it as well; ``--new-since`` judges the work tree, where
it counts as present.
"""

from __future__ import annotations

import hashlib
import posixpath
from collections.abc import Collection, Iterable
from pathlib import Path

from filid.check.project import Project
from filid.graph.candidates import PROBE_EXTENSIONS, TS_TWINS
from filid.model.facts import ImportFact
from filid.model.violations import Severity, Violation
from filid.rules.base import import_location
from filid.scan.git_index import deleted_paths, staged_deletions

__all__ = ["BROKEN_IMPORT", "broken_imports", "deleted_since", "staged_deletions"]

BROKEN_IMPORT = "broken-import"


def deleted_since(root: Path, commit: str) -> tuple[str, ...]:
    """Root-relative paths present at ``commit`` and absent from the work tree."""
    return deleted_paths(root, [commit])


def broken_imports(
    project: Project, deleted: Collection[str], *, staged: bool = False
) -> tuple[Violation, ...]:
    """One error per import that resolved to a file in ``deleted`` and now finds none.

    ``project`` is the work tree's, which lists a file the clone never fetched (a partial
    clone: ``Project.absent_files``) as a file of the repository. With ``staged`` (``deleted``
    are the index's deletions against HEAD) such a file the index lacks is gone all the same:
    the commit deletes it, so an import that resolves to it breaks."""
    gone = frozenset(deleted)
    if not gone:
        return ()
    unresolved = {(u.file, u.line, u.specifier) for u in project.file_graph.unresolved}
    found: list[Violation] = []
    vanished = gone.intersection(project.absent_files) if staged else frozenset()
    for edge in project.file_graph.edges if vanished else ():
        specifier = edge.fact.specifier
        if (
            edge.target in vanished
            and specifier is not None
            and _deleted_target(edge.source, specifier, gone) is not None
        ):
            found.append(_violation(project, edge.source, edge.fact, specifier, edge.target))
    for path in sorted({u.file for u in project.file_graph.unresolved}):
        facts = project.facts.get(path)
        if facts is None:
            continue
        for fact in facts.imports:
            specifier = fact.specifier
            if specifier is None or (path, fact.line, specifier) not in unresolved:
                continue
            target = _deleted_target(path, specifier, gone)
            if target is not None:
                found.append(_violation(project, path, fact, specifier, target))
    return tuple(sorted(found, key=Violation.sort_key))


def _deleted_target(importer: str, specifier: str, gone: frozenset[str]) -> str | None:
    """The deleted file ``specifier`` (relative or root-absolute) named, if any."""
    if specifier.startswith(("./", "../")) or specifier in (".", ".."):
        base = posixpath.normpath(posixpath.join(posixpath.dirname(importer), specifier))
    elif specifier.startswith("/"):
        base = posixpath.normpath(specifier.lstrip("/"))
    else:
        return None
    if base.startswith("../") or base == "..":
        return None
    return next((c for c in _candidates(base) if c in gone), None)


def _candidates(base: str) -> Iterable[str]:
    stem, ext = posixpath.splitext(base)
    for twin in TS_TWINS.get(ext, ()):
        yield stem + twin
    yield base
    for probe in PROBE_EXTENSIONS:
        yield base + probe
    for probe in PROBE_EXTENSIONS:
        yield f"{base}/index{probe}"


def _violation(
    project: Project, path: str, fact: ImportFact, specifier: str, target: str
) -> Violation:
    location = import_location(path, fact)
    parts = "\x1f".join((BROKEN_IMPORT, path, specifier, target))
    return Violation(
        rule_id=BROKEN_IMPORT,
        severity=Severity.ERROR,
        message=f"import '{specifier}' no longer resolves: this change deletes {target}",
        path=path,
        location=location,
        node=project.tree.owner_of(path).path,
        suggestion=f"restore {target}, or change the import to where its code now lives",
        fingerprint=hashlib.sha256(parts.encode("utf-8")).hexdigest()[:32],
    )
