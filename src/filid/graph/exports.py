"""What a module file exports, following ``export *`` re-exports through the project."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from filid.model.facts import ExportKind, FileFacts

TargetOf = Callable[[str, str], "str | None"]


def exported_names(
    file: str,
    facts: Mapping[str, FileFacts],
    target_of: TargetOf,
    seen: set[str] | None = None,
) -> set[str] | None:
    """Names ``file`` exports; ``export *`` is followed through ``target_of(file, specifier)``.

    Returns None when the answer is unknowable: the file was not parsed, or an ``export *``
    points at something that does not resolve to a project file (an external package). A
    re-export cycle contributes nothing more. ``export *`` never re-exports ``default``.
    """
    seen = set() if seen is None else seen
    file_facts = facts.get(file)
    if file_facts is None:
        return None
    if file in seen:
        return set()
    seen.add(file)
    names: set[str] = set()
    for export in file_facts.exports:
        if export.kind is not ExportKind.STAR:
            names.add(export.name)
            continue
        target = target_of(file, export.source) if export.source is not None else None
        if target is None:
            return None
        inner = exported_names(target, facts, target_of, seen)
        if inner is None:
            return None
        names |= inner - {"default"}
    return names
