"""exported_names: follows `export *`, drops default through it, unknowable when external."""

from __future__ import annotations

from filid.graph.exports import ExportIndex, exported_names
from filid.parse import parse_source


def facts_of(files: dict[str, str]) -> dict[str, object]:
    return {path: parse_source(path, text.encode()) for path, text in files.items()}


def test_follows_star_reexports_without_default_and_stops_at_externals() -> None:
    facts = facts_of(
        {
            "a/index.ts": (
                "export * from './b';\nexport { x } from './c';\nexport type { T } from './c';\n"
            ),
            "a/b.ts": "export const b1 = 1;\nexport default 2;\nexport * from './index';\n",
            "a/c.ts": "export const x = 1;\nexport type T = number;\n",
            "a/ext.ts": "export * from 'react';\n",
        }
    )
    targets = {("a/index.ts", "./b"): "a/b.ts", ("a/b.ts", "./index"): "a/index.ts"}
    names = exported_names("a/index.ts", facts, lambda f, s: targets.get((f, s)))  # type: ignore[arg-type]
    assert names == {"b1", "x", "T"}
    assert exported_names("a/ext.ts", facts, lambda f, s: None) is None  # type: ignore[arg-type]
    assert exported_names("missing.ts", facts, lambda f, s: None) is None  # type: ignore[arg-type]


def test_index_agrees_with_a_plain_walk_on_chains_and_cycles() -> None:
    # a chain of barrels, each re-exporting the next, with a cycle closing at the end
    files = {f"m{i}/index.ts": f"export const n{i} = 1;\nexport default {i};\n" for i in range(6)}
    for i in range(5):
        files[f"m{i}/index.ts"] += f"export * from '../m{i + 1}';\n"
    files["m5/index.ts"] += "export * from '../m3';\n"
    facts = facts_of(files)

    def target_of(file: str, spec: str) -> str | None:
        return spec.removeprefix("../") + "/index.ts"

    index = ExportIndex(facts, target_of)  # type: ignore[arg-type]
    for i in range(6):
        expected = {f"n{j}" for j in range(min(i, 3), 6)} | {"default"}
        assert index.exported_names(f"m{i}/index.ts") == expected
    files["m4/index.ts"] += "export * from 'react';\n"
    facts = facts_of(files)
    index = ExportIndex(facts, lambda f, s: None if s == "react" else target_of(f, s))  # type: ignore[arg-type]
    assert index.exported_names("m5/index.ts") is None
    assert index.exported_names("m0/index.ts") is None
