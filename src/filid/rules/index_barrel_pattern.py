"""index-barrel-pattern: a module's ``index.*`` only imports and re-exports."""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from filid.model.facts import FileFacts, ImportKind, StatementKind, TopStatement
from filid.model.nodes import NodeCategory
from filid.model.violations import FixInfo, Location, Risk, Severity, SyncActionKind
from filid.rules.base import (
    Finding,
    NoOptions,
    RuleCategory,
    RuleContext,
    RuleExample,
    RuleMeta,
)

_ALWAYS_FINE = frozenset(
    {StatementKind.IMPORT, StatementKind.RE_EXPORT, StatementKind.EXPORT_EMPTY}
)
MOVABLE_STATEMENTS = frozenset(
    {
        StatementKind.DECLARATION,
        StatementKind.EXPORTED_DECLARATION,
        StatementKind.EXPORT_DEFAULT_EXPRESSION,
        StatementKind.EXPORT_NAMES,
        StatementKind.EXPORT_DEFAULT_NAME,
    }
)


def barrel_offenders(facts: FileFacts) -> list[TopStatement]:
    """The top-level statements that a pure barrel may not hold."""
    imported = set(facts.imported_bindings)
    offenders: list[TopStatement] = []
    for statement in facts.statements:
        if statement.kind in _ALWAYS_FINE:
            continue
        if statement.kind in (
            StatementKind.EXPORT_NAMES,
            StatementKind.EXPORT_DEFAULT_NAME,
        ) and all(name in imported for name in statement.names):
            continue
        offenders.append(statement)
    return offenders


def split_target(directory: str, dirname: str, existing: Iterable[str], extension: str) -> str:
    """``<dir>/<dirname>.ts``, or the next free name (``<dirname>-impl.ts``, ``-impl2`` …)."""
    taken = set(existing)
    prefix = "" if directory == "." else f"{directory}/"
    candidates = [dirname, f"{dirname}-impl"] + [f"{dirname}-impl{i}" for i in range(2, 100)]
    for stem in candidates:
        name = f"{stem}{extension}"
        if not any(t.rsplit(".", 1)[0] == stem for t in taken if "/" not in t):
            return f"{prefix}{name}"
    return f"{prefix}{dirname}-split{extension}"


class IndexBarrelPattern:
    """Flags index files that declare or execute code instead of re-exporting."""

    meta: ClassVar[RuleMeta] = RuleMeta(
        id="index-barrel-pattern",
        category=RuleCategory.INDEX,
        default_severity=Severity.WARNING,
        applies_to=frozenset({NodeCategory.FRACTAL, NodeCategory.HYBRID}),
        description="A module's index.* holds only imports and re-exports (a pure barrel).",
        rationale=(
            "The entry point is read to learn a module's public surface. Logic in it is hidden "
            "from the module's own files, runs on every import, and invites import cycles; keep "
            "it in the module's eponymous file and re-export it."
        ),
        valid=(
            RuleExample(
                "a program entry that nothing imports (it renders or starts a server)",
                {"src/server/index.ts": "const port = 3000;\nconsole.log(port);\n"},
            ),
            RuleExample(
                "re-exports and exports of imported names",
                {
                    "src/orders/index.ts": (
                        "import { place } from './orders';\nexport { place };\n"
                        "export type { Order } from './orders';\nexport * from './status';\n"
                    ),
                    "src/orders/orders.ts": (
                        "export interface Order { id: string }\nexport function place(): void {}\n"
                    ),
                    "src/orders/status.ts": "export const OPEN = 'open';\n",
                },
            ),
        ),
        invalid=(
            RuleExample(
                "a function declared in a barrel another module imports",
                {
                    "src/orders/index.ts": "export function place(): void {}\n",
                    "src/app/index.ts": "export { place } from '../orders';\n",
                },
            ),
            RuleExample(
                "a side effect in the barrel",
                {
                    "src/orders/index.ts": "export { place } from './orders';\nconsole.log('x');\n",
                    "src/orders/orders.ts": "export function place(): void {}\n",
                },
            ),
        ),
        fix_action=SyncActionKind.SPLIT,
        fix_risk=Risk.MODERATE,
        enabled_by_default=False,
    )
    options_type: ClassVar[type[NoOptions]] = NoOptions

    def check(self, context: RuleContext, options: NoOptions) -> Iterable[Finding]:
        """Yield one finding per impure barrel, at its first offending statement.

        Only an ``index.*`` that serves as a barrel is checked: a non-test file outside its
        directory imports it at run time, or it re-exports. One that nothing imports (or only
        for its types, as a client imports a server's ``AppRouter`` type) is a program's entry
        (``tsx src/server``, a React ``render``) and may run code.
        """
        imported_from_outside: set[str] = set()
        for edge in context.file_graph.edges:
            if edge.source in context.test_files or edge.fact.kind is ImportKind.TYPE:
                continue
            if (edge.source.rpartition("/")[0] or ".") != (edge.target.rpartition("/")[0] or "."):
                imported_from_outside.add(edge.target)
        for node in context.tree.nodes.values():
            if node.category not in (NodeCategory.FRACTAL, NodeCategory.HYBRID):
                continue
            if node.index_file is None:
                continue
            index = node.file_path(node.index_file)
            facts = context.facts.get(index)
            if facts is None or facts.has_syntax_error:
                continue
            if index not in imported_from_outside and not any(
                s.kind is StatementKind.RE_EXPORT for s in facts.statements
            ):
                continue
            offenders = barrel_offenders(facts)
            if not offenders:
                continue
            first = offenders[0].span
            movable = all(s.kind in MOVABLE_STATEMENTS for s in offenders)
            extension = "." + node.index_file.rsplit(".", 1)[1]
            target = split_target(node.path, node.name, node.files, extension)
            kinds = sorted({s.kind.value for s in offenders})
            yield Finding(
                node=node.path,
                path=node.path,
                message=(
                    f"{node.index_file} is not a pure barrel: {len(offenders)} top-level "
                    f"statement(s) besides imports and re-exports ({', '.join(kinds)})"
                ),
                location=Location(
                    file=index,
                    line=first.line,
                    column=first.column,
                    end_line=first.end_line,
                    end_column=first.end_column,
                    utf16_column=first.utf16_column,
                ),
                suggestion=f"move the declarations into {target} and re-export them",
                fix=FixInfo(
                    action=SyncActionKind.SPLIT,
                    risk=Risk.MODERATE if movable else Risk.RISKY,
                    description=(
                        f"move the declarations of {index} into {target} and re-export them"
                        if movable
                        else f"{index} has side effects; move them out by hand"
                    ),
                    target_path=target,
                ),
            )
