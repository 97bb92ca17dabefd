"""Boundary documents: what filid reads of an intent document (line count and headings)."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from pathlib import Path

from filid.model.facts import BoundaryExemption, DocumentFacts
from filid.scan.document_contract import missing_boundaries
from filid.store.files import UnsafePathError, read_regular_file

INTENT_DOCUMENTS = ("CLAUDE.md", "INTENT.md")
DETAIL_DOCUMENTS = ("SPEC.md", "DETAIL.md")
MAX_DOCUMENT_BYTES = 1024 * 1024
# The upstream plugin's pre-1.0 acceptance-criteria ledger (``legacy-criteria-ledger``); it
# lies under a dot folder, outside the file universe, so its presence is looked up directly.
LEGACY_LEDGER = ".filid/criteria.md"


def has_legacy_ledger(root: Path) -> bool:
    """True when ``root`` holds the legacy criteria ledger as a regular file (not a link)."""
    path = root / LEGACY_LEDGER
    return not path.parent.is_symlink() and not path.is_symlink() and path.is_file()


def missing_headings(facts: DocumentFacts) -> list[str]:
    """The boundary headings (SPEC §5) that ``facts`` lacks, in their canonical order.

    The same test as ``intent-document-contract``'s (a ``##``/``###`` heading *starting* with
    the words, case and spacing free), so a document that declares a project is never one that
    rule then says lacks its sections. A heading that only contains the words does not count:
    the agent-guidelines template many repositories copy into a root ``CLAUDE.md`` (``### ✅
    Always Do`` / ``### ⚠️ Ask First`` / ``### 🚫 Never Do``, auth0/auth0-spa-js) is a Claude
    Code memory file, not an FCA intent document.
    """
    return missing_boundaries(facts.lines)


def declared_documents(
    directory: str, names: Collection[str], documents: Mapping[str, DocumentFacts]
) -> tuple[str | None, str | None]:
    """The (intent, detail) documents that ``directory`` really declares (SPEC §1).

    ``INTENT.md`` and ``DETAIL.md`` always count. A ``CLAUDE.md`` is an intent document only
    when it carries the three boundary headings; otherwise it is a Claude Code memory file
    (repository and package roots usually hold one) and declares nothing. ``SPEC.md`` is a
    detail document only beside an intent document. ``documents`` holds the facts of the
    intent-document candidates that could be read, by root-relative path.
    """
    prefix = "" if directory == "." else directory + "/"
    intent: str | None = None
    if "INTENT.md" in names:
        intent = "INTENT.md"
    elif "CLAUDE.md" in names:
        facts = documents.get(prefix + "CLAUDE.md")
        if facts is not None and not missing_headings(facts):
            intent = "CLAUDE.md"
    detail: str | None = None
    if "DETAIL.md" in names:
        detail = "DETAIL.md"
    elif "SPEC.md" in names and intent is not None:
        detail = "SPEC.md"
    return intent, detail


def read_document(root: Path, rel: str) -> tuple[DocumentFacts | None, str | None]:
    """Read a Markdown boundary document: (facts, None) or (None, a note why it was skipped)."""
    try:
        data = read_regular_file(root / rel, MAX_DOCUMENT_BYTES)
    except UnsafePathError as error:
        reason = str(error).rpartition(": ")[2]
        if "larger than" in reason:
            reason = "larger than 1 MiB"
        return None, f"{rel}: skipped, {reason}"
    except OSError as error:
        return None, f"{rel}: skipped, cannot read ({error.strerror})"
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None, f"{rel}: skipped, not valid UTF-8"
    return parse_document(rel, text), None


def parse_document(rel: str, text: str) -> DocumentFacts:
    """The facts of a boundary document at root-relative ``rel`` whose text is ``text``
    (what :func:`read_document` reads from disk; the Claude Code hooks pass the text a file
    would have after an edit)."""
    lines = text.splitlines()
    headings: list[tuple[int, str]] = []
    in_fence = False
    for number, line in enumerate(lines, start=1):
        stripped = line.strip()
        if stripped.startswith(("```", "~~~")):
            in_fence = not in_fence
            continue
        if not in_fence and line.startswith("#"):
            headings.append((number, line.lstrip("#").strip()))
    directory = rel.rpartition("/")[0] or "."
    exemptions = parse_boundary_exemptions(directory, lines)
    return DocumentFacts(
        path=rel,
        line_count=len(lines),
        headings=tuple(headings),
        exemptions=exemptions,
        # Split as the upstream plugin does (``/\r?\n/``), not on every Unicode break.
        lines=tuple(line.removesuffix("\r") for line in text.split("\n")),
    )


_SECTION_HEADINGS = ("## Boundary Exemptions", "## Organ Exemptions")
_FIELDS = ("Consumers", "Direct import", "Reason")


def _unwrap_code_span(value: str) -> str:
    """The value inside one matching pair of backtick runs, else the trimmed value."""
    value = value.strip()
    run = len(value) - len(value.lstrip("`"))
    if run and len(value) > 2 * run and value.endswith("`" * run):
        return value[run:-run].strip()
    return value


def parse_boundary_exemptions(
    directory: str, lines: Sequence[str]
) -> tuple[BoundaryExemption, ...]:
    """Read a DETAIL.md ``## Boundary Exemptions`` section, as the upstream plugin does.

    Format (vincent-kk/ogham ``parseBoundaryExemptions.ts``): after the section heading (or its
    legacy name ``## Organ Exemptions``), each ``### <target> — <title>`` opens an entry whose
    bullet fields are ``- **Consumers**: a, b`` (globs), ``- **Direct import**: allowed`` and
    ``- **Reason**: …``; the section ends at the next ``## `` heading. Values may sit inside
    code spans. A relative target is joined to the document's ``directory``.
    """
    entries: list[BoundaryExemption] = []
    current: dict[str, object] | None = None
    inside = False

    def close() -> None:
        if current is not None:
            entries.append(BoundaryExemption(**current))  # type: ignore[arg-type]

    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if line in _SECTION_HEADINGS:
            inside = True
            continue
        if not inside:
            continue
        if line.startswith("## "):
            break
        if line.startswith("###") and " — " in line:
            head = line.lstrip("#")
            if head[:1].isspace():
                target, _, _title = head.strip().partition(" — ")
                target = _unwrap_code_span(target)
                if target and " " not in target:
                    close()
                    if target.startswith("/"):
                        target = target.lstrip("/")
                    elif directory != ".":
                        target = f"{directory}/{target}"
                    current = {
                        "target": target.rstrip("/"),
                        "consumers": (),
                        "direct_import": False,
                        "reason": "",
                        "line": number,
                    }
                    continue
        if current is None or not line.startswith("- **"):
            continue
        name, sep, value = line[4:].partition("**:")
        if not sep or name not in _FIELDS:
            continue
        if name == "Consumers":
            current["consumers"] = tuple(
                c for c in (_unwrap_code_span(v) for v in value.split(",")) if c
            )
        elif name == "Direct import":
            current["direct_import"] = _unwrap_code_span(value).lower() == "allowed"
        else:
            current["reason"] = value.strip()
    close()
    return tuple(entries)
