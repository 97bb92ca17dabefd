"""A deep import rewritten to go through the module's entry point, in the importer's own
specifier style.
"""

from __future__ import annotations

from filid.fix.candidate import Candidate, NotFixable, basename
from filid.fix.planning import FixKind, PlanningContext
from filid.fix.specifiers import (
    JS_EXTENSIONS,
    SpecifierStyle,
    is_relative,
    relative_specifier,
    segment_of,
    specifier_extension,
    specifier_for_file,
    split_ext,
)
from filid.graph.compiler_paths import is_within, parent_dir
from filid.model.facts import ImportFact, ImportKind
from filid.model.violations import SyncActionKind

__all__ = ["KIND", "plan"]


def plan(ctx: PlanningContext, candidate: Candidate) -> None:
    """Fill ``candidate`` with this fix's operations, or raise ``NotFixable`` saying why."""
    violation = candidate.violation
    importer = violation.location.file
    entry = candidate.result_path
    fact = ctx.find_import(importer, violation.location.line, violation.location.column)
    specifier = fact.specifier
    if specifier is None:
        raise NotFixable("the import has no literal specifier")
    if fact.kind not in (ImportKind.STATIC, ImportKind.TYPE, ImportKind.RE_EXPORT):
        raise NotFixable(f"a {fact.kind.value} import cannot be redirected to an entry point")
    if not fact.names or "*" in fact.names:
        raise NotFixable("a namespace or side-effect import cannot be redirected safely")
    module = parent_dir(entry)
    if is_within(importer, module):
        raise NotFixable(f"{importer} is inside {module}; it would import its own barrel")
    available = ctx.exported_names(entry)
    missing = sorted(set(fact.names) - (available or set()))
    if available is None or missing:
        raise NotFixable(f"{entry} does not export {', '.join(missing) or 'every imported name'}")
    current = ctx.project.resolver.resolve(importer, specifier)
    if current.target is None:
        raise NotFixable(f"'{specifier}' does not resolve")
    candidate.reads |= _same_bindings(ctx, importer, fact, current.target, entry)
    new_specifier = _entry_specifier(ctx, importer, specifier, current.target, entry)
    if ctx.project.resolver.resolve(importer, new_specifier).target != entry:
        raise NotFixable(f"'{new_specifier}' would not resolve to {entry}")
    candidate.edits[importer] = [ctx.specifier_edit(importer, fact, new_specifier)]
    candidate.reads |= {entry, current.target}


def _same_bindings(
    ctx: PlanningContext, importer: str, fact: ImportFact, target: str, entry: str
) -> set[str]:
    """Refuse unless ``entry`` exports each imported name as the very binding ``target``
    does (a namespace, a default or another declaration of the same name is not), and in a
    meaning space the import can use (a name the entry gives type-only, for a value import,
    is not). Returns the files declaring the bindings."""
    types = ctx.import_types(importer, fact)
    files: set[str] = set()
    for name in fact.names:
        deep = ctx.reach(target, name)
        through = ctx.reach(entry, name)
        if deep is None or through is None:
            raise NotFixable(f"cannot tell what {entry} exports as {name}")
        if deep.bindings != through.bindings:
            raise NotFixable(f"{entry} exports another {name} than {target}")
        if through.type_only and not deep.type_only and not types.get(name, False):
            raise NotFixable(f"{entry} exports {name} as a type only; this import takes a value")
        files |= {b.file for b in deep.bindings}
    return files


def _entry_specifier(
    ctx: PlanningContext, importer: str, specifier: str, target: str, entry: str
) -> str:
    module = parent_dir(entry)
    entry_name = basename(entry)
    stem = split_ext(entry_name)[0]
    ext = specifier_extension(specifier)
    style = (
        SpecifierStyle.EXTENSIONLESS
        if not ext
        else (SpecifierStyle.RUNTIME if ext in JS_EXTENSIONS else SpecifierStyle.SOURCE)
    )
    if is_relative(specifier):
        base = relative_specifier(parent_dir(importer), module)
        if style is SpecifierStyle.EXTENSIONLESS and stem == "index":
            return base
        return specifier_for_file(f"{base.rstrip('/')}/{stem}", entry_name, style)
    segments = specifier.split("/")
    position = segment_of(segments, target, module.count("/") + 1 if module != "." else 0)
    if position is None or position < 0:
        raise NotFixable(f"cannot tell which part of '{specifier}' names {module}")
    base_segments = segments[: position + 1]
    if style is SpecifierStyle.EXTENSIONLESS and stem == "index":
        return "/".join(base_segments)
    return specifier_for_file("/".join([*base_segments, stem]), entry_name, style)


KIND = FixKind(SyncActionKind.REWRITE_IMPORT, plan, rule_id=None)
