"""external-import-boundary: modules are entered through their entry point (SPEC §5, a-d)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar

from filid.config.globs import matches_glob
from filid.model.facts import ImportKind
from filid.model.graph import ImportEdge
from filid.model.nodes import FractalNode, FractalTree, NodeCategory
from filid.model.violations import FixInfo, Risk, Severity, SyncActionKind
from filid.rules.base import (
    Finding,
    RuleCategory,
    RuleContext,
    RuleExample,
    RuleMeta,
    import_location,
)
from filid.scan.classify import entry_stem


def is_in_subtree(path: str, node: str) -> bool:
    """True when root-relative ``path`` lies at or below node path ``node``."""
    return node == "." or path == node or path.startswith(node + "/")


def _entry_of(node: FractalNode) -> str | None:
    name = node.index_file or node.main_file
    return node.file_path(name) if name else None


@dataclass(frozen=True, slots=True)
class ExternalImportBoundaryOptions:
    """``forbidParentImports``: report case (c), a sub-module importing a file that lies
    directly in an ancestor module (the upstream plugin's parent-barrel bypass; on by default,
    ``false`` turns it off; a DETAIL.md ``## Boundary Exemptions`` entry grants one import)."""

    forbidParentImports: bool = True


def _organ_of(tree: FractalTree, dest: str, target: FractalNode) -> str | None:
    """The top-most organ folder of ``target`` that holds ``dest``; None when ``dest`` lies
    directly in ``target``."""
    directory = dest.rpartition("/")[0] or "."
    if directory == target.path:
        return None
    prefix = "" if target.path == "." else target.path + "/"
    first = directory[len(prefix) :].split("/", 1)[0]
    return prefix + first


def _is_bare_root(node: FractalNode) -> bool:
    """The root acting as owner without being a module (no boundary document)."""
    return node.path == "." and node.category is NodeCategory.ORGAN


def _is_relative(edge: ImportEdge) -> bool:
    specifier = edge.fact.specifier or ""
    return specifier.startswith(("./", "../")) or specifier in (".", "..")


def _has_entry(context: RuleContext, node: FractalNode) -> bool:
    """``node`` has an entry point to go through, or is a module that should have one.

    A package root whose manifest names no existing file (``"main": "index.ts"`` with no
    ``index.ts``, no ``exports``) publishes every path: there is nothing an import could
    bypass. A declared module without an ``index.*`` still has its files reached into
    (``module-entry-point`` reports the missing entry, the deep import stays an error).
    """
    if node.index_file or node.main_file or "package.json" not in node.files:
        return True
    prefix = "" if node.path == "." else node.path + "/"
    return any(file.startswith(prefix) for file in context.entry_files)


def _re_exports(context: RuleContext, file: str) -> bool:
    """``file`` re-exports something (``export … from``): it serves as a barrel. An
    ``index.*`` that only declares (a Stripe client, a job API) is a module file like any
    other, and importing it from a sibling closes no barrel loop (case d)."""
    facts = context.facts.get(file)
    if facts is None:
        return False
    imported = set(facts.imported_bindings)
    return any(e.source is not None or (e.local or e.name) in imported for e in facts.exports)


def is_exemption_granted(tree: FractalTree, owner: FractalNode, target: str, consumer: str) -> bool:
    """Does ``owner``'s DETAIL.md ``## Boundary Exemptions`` grant ``consumer`` (an importing
    file) a direct import of ``target`` (an organ folder or a file)? All four conditions of the
    upstream plugin: the entry covers the target (itself or an ancestor folder), opens direct
    import, names the consumer by one of its globs, and gives a reason."""
    if owner.detail_doc is None:
        return False
    facts = tree.documents.get(owner.file_path(owner.detail_doc))
    if facts is None:
        return False
    return any(
        entry.direct_import
        and entry.reason.strip()
        and (target == entry.target or target.startswith(entry.target + "/"))
        and any(matches_glob(consumer, glob) for glob in entry.consumers)
        for entry in facts.exemptions
    )


def _case(
    context: RuleContext,
    edge: ImportEdge,
    source: FractalNode,
    target: FractalNode,
    options: ExternalImportBoundaryOptions,
) -> tuple[str, str] | None:
    """Which case (a-d) an import breaks, with a message; None when it is fine."""
    tree = context.tree
    file, dest = edge.source, edge.target
    if edge.via_manifest:
        return None  # through a workspace package's published entry (exports, main…)
    if _is_bare_root(target) or (_is_bare_root(source) and _is_relative(edge)):
        # A file no declared module owns (a tool config at a package root, a dev script beside
        # a package's src) sits outside every boundary, and so does a root that declares none:
        # a relative import from or to it crosses nothing (the upstream plugin has no owner for
        # such files either). An import through a package or alias name is still judged
        # against the module it names.
        return None
    organ = _organ_of(tree, dest, target)
    if organ is not None:
        if is_in_subtree(file, target.path):
            return None
        if is_exemption_granted(tree, target, organ, file):
            return None
        return "a", (
            f"imports '{dest}' from organ '{organ}' of module '{target.path}' "
            "from outside that module"
        )
    if source.path != target.path and is_in_subtree(source.path, target.path):
        if not options.forbidParentImports or is_exemption_granted(tree, target, dest, file):
            return None
        return "c", (
            f"sub-module '{source.path}' imports '{dest}' directly from its parent module "
            f"'{target.path}'"
        )
    if source.path != target.path:
        if (
            not _has_entry(context, target)
            or target.category is NodeCategory.PURE_FUNCTION
            or context.is_entry_file(dest)
            or is_exemption_granted(tree, target, dest, file)
        ):
            return None
        return "b", (f"deep import of '{dest}' bypasses the entry point of module '{target.path}'")
    dest_name = dest.rpartition("/")[2]
    file_dir = file.rpartition("/")[0] or "."
    is_entry = file_dir == target.path and context.is_entry_file(file)
    # A type-only import of the own barrel runs nothing and closes no runtime loop.
    if (
        entry_stem(dest_name) == "index"
        and not is_entry
        and edge.fact.kind is not ImportKind.TYPE
        and _re_exports(context, dest)
    ):
        return "d", f"'{file}' imports its own module's barrel '{dest}'"
    return None


_NAMED_KINDS = (ImportKind.STATIC, ImportKind.TYPE, ImportKind.RE_EXPORT)


def _through_entry(
    edge: ImportEdge,
    message: str,
    target: FractalNode,
    entry: str,
    available: set[str] | None,
) -> tuple[str, str | None, FixInfo]:
    """Message, help and fix of a deep import (cases a, b) into a module with entry ``entry``.

    Only when the entry already exports every imported name is "import it from the entry"
    true (and the rewrite safe). When it does not export some of them, the import is not
    bypassing anything: the name is simply not part of the module's public surface, and the
    two real remedies are exporting it from the entry or moving the importer inside the
    module. When the names cannot be known (a ``require``, a namespace import, an entry that
    re-exports an external package), no help names an import that might not compile.
    """
    names = edge.fact.names
    known = bool(names) and "*" not in names and edge.fact.kind in _NAMED_KINDS
    if known and available is not None and all(n in available for n in names):
        fix = FixInfo(
            action=SyncActionKind.REWRITE_IMPORT,
            risk=Risk.SAFE,
            description=f"rewrite '{edge.fact.specifier}' to import from {entry}",
            target_path=entry,
        )
        return message, f"import it from the module's entry point {entry}", fix
    fix = FixInfo(
        action=SyncActionKind.REWRITE_IMPORT,
        risk=Risk.RISKY,
        description=f"export the needed names from {entry}, then import from it",
        target_path=entry,
    )
    if not known or available is None:
        return message, None, fix
    missing = [n for n in names if n not in available]
    shown = ", ".join(f"`{n}`" for n in missing)
    verb = "is" if len(missing) == 1 else "are"
    # Case (a) keeps what it adds (an organ used from outside); case (b)'s "bypasses the
    # entry point" would be false: the entry has nothing to go through.
    detail = message if " from organ " in message else f"imported from '{edge.target}'"
    message = f"{shown} {verb} not part of module `{target.path}`'s public surface: {detail}"
    suggestion = f"export {shown} from {entry}, or move '{edge.source}' inside '{target.path}'"
    return message, suggestion, fix


class ExternalImportBoundary:
    """Flags imports that bypass a module's entry point or use another module's organs."""

    meta: ClassVar[RuleMeta] = RuleMeta(
        id="external-import-boundary",
        category=RuleCategory.DEPENDENCY,
        default_severity=Severity.ERROR,
        applies_to=frozenset(
            {NodeCategory.FRACTAL, NodeCategory.HYBRID, NodeCategory.PURE_FUNCTION}
        ),
        description=(
            "Other modules are imported through their entry point; organs only from inside "
            "their owner; no module imports its own barrel or its parent's files."
        ),
        rationale=(
            "The entry point is a module's contract. Deep imports and borrowed organs couple "
            "callers to internals, so any refactoring inside a module breaks code outside it."
        ),
        valid=(
            RuleExample(
                "importing another module through its index",
                {
                    "src/app/index.ts": (
                        "import { login } from '../auth';\nexport const go = login;\n"
                    ),
                    "src/auth/index.ts": "export { login } from './auth';\n",
                    "src/auth/auth.ts": "export function login(): void {}\n",
                },
            ),
        ),
        invalid=(
            RuleExample(
                "a deep import past the index",
                {
                    "src/app/index.ts": (
                        "import { login } from '../auth/auth';\nexport const go = login;\n"
                    ),
                    "src/auth/index.ts": "export { login } from './auth';\n",
                    "src/auth/auth.ts": "export function login(): void {}\n",
                },
            ),
            RuleExample(
                "an organ used from another module",
                {
                    "src/app/index.ts": (
                        "import { hash } from '../auth/utils/hash';\nexport const h = hash;\n"
                    ),
                    "src/auth/index.ts": "export {};\n",
                    "src/auth/utils/hash.ts": "export const hash = (s: string) => s;\n",
                },
            ),
        ),
        fix_action=SyncActionKind.REWRITE_IMPORT,
        fix_risk=Risk.SAFE,
    )
    options_type: ClassVar[type[ExternalImportBoundaryOptions]] = ExternalImportBoundaryOptions

    def check(
        self, context: RuleContext, options: ExternalImportBoundaryOptions
    ) -> Iterable[Finding]:
        """Yield one finding per offending import, at the import."""
        exports_cache: dict[str, set[str] | None] = {}
        exports = context.export_index()
        owner = context.file_owners().__getitem__
        test_files = context.test_files
        for edge in context.file_graph.edges:
            if edge.source in test_files:
                continue
            source = owner(edge.source)
            target = owner(edge.target)
            if source is target and not edge.target.rpartition("/")[2].startswith("index"):
                # Within one module only its own barrel can be misused (case d): most edges
                # of a project end here, without `_case`'s questions.
                continue
            verdict = _case(context, edge, source, target, options)
            if verdict is None:
                continue
            case, message = verdict
            entry = _entry_of(target)
            fix: FixInfo | None = None
            suggestion = None
            if case in ("a", "b") and entry is not None and target.path != ".":
                if entry not in exports_cache:
                    exports_cache[entry] = exports.exported_names(entry)
                message, suggestion, fix = _through_entry(
                    edge, message, target, entry, exports_cache[entry]
                )
            elif case == "d":
                suggestion = "import the file that declares the name instead of the barrel"
            elif case == "c":
                suggestion = (
                    f"move what '{source.path}' needs into it, or into a pure-function folder"
                )
            yield Finding(
                node=source.path,
                path=edge.source,
                message=f"{message} ('{edge.fact.specifier}')",
                location=import_location(edge.source, edge.fact),
                suggestion=suggestion,
                fix=fix,
                fingerprint_parts=(case, edge.fact.specifier or "", edge.target),
            )
