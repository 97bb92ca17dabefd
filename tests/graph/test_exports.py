"""exported_names: follows `export *`, drops default through it, unknowable when external."""

from __future__ import annotations

from filid.graph.exports import exported_names
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
