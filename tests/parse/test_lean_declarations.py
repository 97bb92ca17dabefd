"""The lean parse (non-entry files) keeps enum and namespace declarations: whether an import
reads only enums (``rules.enum_reads``) is answered from the facts, never by reading the file
again (a staged check must judge the staged content, not the work tree)."""

from __future__ import annotations

from filid.parse import parse_source

SOURCE = b"""export enum ReactiveFlags { SKIP = '__v_skip' }
const enum Local { B }
export { Local };
namespace Merged { export const x = 1; }
export const plain = 1;
function helper() {}
"""


def test_lean_facts_keep_enums_and_namespaces_only() -> None:
    lean = parse_source("packages/reactivity/src/constants.ts", SOURCE, full=False)
    assert [(d.kind, d.name, d.exported) for d in lean.declarations] == [
        ("enum", "ReactiveFlags", True),
        ("enum", "Local", False),
        ("namespace", "Merged", False),
    ]
    full = parse_source("packages/reactivity/src/constants.ts", SOURCE)
    assert {d.name for d in full.declarations} >= {"ReactiveFlags", "Local", "plain", "helper"}
