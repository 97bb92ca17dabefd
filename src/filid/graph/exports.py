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

    Returns None when the answer is unknowable: a file on the way was not parsed, or an
    ``export *`` points at something that does not resolve to a project file (an external
    package). A re-export cycle contributes nothing more. ``export *`` never re-exports
    ``default``. The walk is iterative (an explicit stack), so a chain of thousands of
    ``export *`` files cannot exhaust Python's recursion limit; ``seen`` (files already
    accounted for) may be shared between calls.
    """
    seen = set() if seen is None else seen
    if facts.get(file) is None:
        return None
    if file in seen:
        return set()
    names: set[str] = set()
    stack = [file]
    seen.add(file)
    while stack:
        current = stack.pop()
        current_facts = facts.get(current)
        if current_facts is None:
            return None
        for export in current_facts.exports:
            if export.kind is not ExportKind.STAR:
                if current == file or export.name != "default":
                    names.add(export.name)
                continue
            target = target_of(current, export.source) if export.source is not None else None
            if target is None:
                return None
            if target not in seen:
                seen.add(target)
                stack.append(target)
    return names
