"""A barrel loop's message names the folders its route passes (primevue's metadata package:
the owners list folded `components/` into `src` and left it out of "3 folders (…)" while the
route showed it)."""

from __future__ import annotations

from filid.check.engine import evaluate
from filid.check.project import load_project
from tests.conftest import ProjectFactory

METADATA = {
    "package.json": '{"name": "@primevue/metadata", "main": "src/index.ts"}\n',
    "src/index.ts": (
        "export * from './components/index';\n"
        "export * from './composables/index';\n"
        "export const toMeta = (x: unknown) => x;\n"
    ),
    "src/components/index.ts": (
        "import { toMeta } from '../index';\nexport const components = toMeta([]);\n"
    ),
    "src/composables/index.ts": (
        "import { toMeta } from '../index';\nexport const composables = toMeta([]);\n"
    ),
}


def test_a_barrel_loop_message_lists_the_folders_of_its_route(
    make_project: ProjectFactory,
) -> None:
    result = evaluate(load_project(make_project(METADATA), use_cache=False))
    (cycle,) = [v for v in result.violations if v.rule_id == "circular-dependency"]
    head, _, route = cycle.message.partition("): ")
    listed = head.partition("(")[2].split(", ")
    shown = route.partition(" [")[0].split(" -> ")
    assert set(shown) == set(listed), cycle.message
    assert head.startswith(f"import cycle between {len(listed)} folders")
