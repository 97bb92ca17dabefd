"""The encoded facts (what workers send back and the parse cache stores): lossless, and a
cache of another layout or format version is parsed again, never mis-read."""

from __future__ import annotations

import marshal
import os
import pickle
from pathlib import Path

import pytest

from filid.model.facts import FileFacts
from filid.parse import cache as cache_module
from filid.parse import parse_files, parse_source
from filid.parse.cache import cache_file, digest_pair, load_cache
from filid.parse.encoding import decode_facts, encode_facts
from filid.store.sealed import write_sealed

from .corpus import write_corpus

# Every kind of fact, spans on non-ASCII lines, a computed dynamic import (no specifier span).
SOURCES = {
    "src/index.ts": (
        "'use client';\n"
        "import a, { b as c, type D } from './a';\n"
        'import * as ns from "./ns";\n'
        "import './side.css';\n"
        "import type { T } from './t';\n"
        "import x = require('./x');\n"
        "export * from './star';\n"
        "export type * from './types';\n"
        "export * as grouped from './grouped';\n"
        "export { e, f as g } from './ef';\n"
        "export { c, ns };\n"
        "export {};\n"
        "const é = '😀'; export const h = () => import(é);\n"
        "export default class K {}\n"
        "export function over(a: string): void;\n"
        "export function over(a: unknown): void {}\n"
        "declare global { interface Window { k: K } }\n"
        "namespace N { export const n = 1; }\n"
        "console.log(a, x, await import('./lazy'), require('./req'));\n"
    ),
    "src/k.tsx": (
        "import { forwardRef } from '@nestjs/common';\n"
        "import { Other } from './other';\n"
        "import { OnlyType } from './only-type';\n"
        "export const r = forwardRef(() => Other);\n"
        "let v: OnlyType;\n"
        "export default <div>ö {v}</div>;\n"
    ),
    "src/broken.ts": "import { a } from './a'\nexport const = ;\n",
    "src/k.test.ts": (
        "import { it } from 'vitest';\n"
        "it('works', () => {});\n"
        "it.each([1, 2])('each %s', () => {});\n"
    ),
}


def _all_facts() -> list[FileFacts]:
    return [
        parse_source(path, source.encode("utf-8"), full=full)
        for path, source in SOURCES.items()
        for full in (True, False)
    ]


def test_encode_decode_round_trip_keeps_every_fact() -> None:
    facts = _all_facts()
    assert any(f.has_syntax_error for f in facts)
    assert any(f.cases is not None for f in facts)
    assert any(i.specifier_span is None for f in facts for i in f.imports)
    assert any(not i.value_used for f in facts for i in f.imports)
    assert any(i.deferred for f in facts for i in f.imports)
    assert any(not i.load_read for f in facts for i in f.imports)
    assert any(i.load_read for f in facts for i in f.imports)
    assert any(i.span.utf16_column != i.span.column for f in facts for i in f.imports)
    for fact in facts:
        encoded = encode_facts(fact)
        # as the workers send it and as the cache stores it
        sent = pickle.loads(pickle.dumps(encoded))
        stored = marshal.loads(marshal.dumps(encoded))
        for copy in (encoded, sent, stored):
            assert decode_facts(copy) == fact


def test_round_trip_of_a_generated_tree(tmp_path: Path) -> None:
    for path in write_corpus(tmp_path, 40):
        source = (tmp_path / path).read_bytes()
        for full in (True, False):
            fact = parse_source(path, source, full=full)
            assert decode_facts(marshal.loads(marshal.dumps(encode_facts(fact)))) == fact


def test_shape_digest_ignores_positions_only() -> None:
    before = parse_source("src/a.ts", b"import { b } from './b';\nexport const a = b;\n")
    moved = parse_source("src/a.ts", b"\n\nimport { b } from './b';\nexport const a = b;\n")
    renamed = parse_source("src/a.ts", b"import { b } from './c';\nexport const a = b;\n")
    computed = parse_source("src/a.ts", b"import('./b');\nexport const a = 1;\n")
    literal = parse_source("src/a.ts", b"import(b);\nexport const a = 1;\n")
    digest, shape = digest_pair(encode_facts(before)).split(" ")
    moved_digest, moved_shape = digest_pair(encode_facts(moved)).split(" ")
    assert moved_digest != digest and moved_shape == shape
    assert digest_pair(encode_facts(renamed)).split(" ")[1] != shape
    assert (
        digest_pair(encode_facts(computed)).split(" ")[1]
        != digest_pair(encode_facts(literal)).split(" ")[1]
    )


def test_malformed_rows_raise_instead_of_decoding() -> None:
    encoded = encode_facts(parse_source("src/a.ts", b"import { b } from './b';\n"))
    for damage in (lambda row: row.pop(), lambda row: row.append(1)):
        broken = [*encoded[:1], [list(encoded[1][0])], *encoded[2:]]
        damage(broken[1][0])
        with pytest.raises((ValueError, TypeError, KeyError, IndexError)):
            decode_facts(broken)


def _aged(root: Path, files: dict[str, str]) -> list[str]:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
        old = os.stat(root / rel).st_mtime_ns // 1_000_000_000 - 3600
        os.utime(root / rel, (old, old))
    return sorted(files)


def test_an_entry_in_the_previous_layout_is_parsed_again_not_misread(tmp_path: Path) -> None:
    """Facts format 7 (spans as nested lists) under the current file name: the rows no longer
    fit, so the whole cache counts as empty and the file is parsed again."""
    paths = _aged(tmp_path, {"src/a.ts": "import { b } from './b';\nexport const a = b;\n"})
    cache = tmp_path / "cache"
    cache.mkdir()
    info = os.stat(tmp_path / "src/a.ts")
    old_layout = [
        "src/a.ts",
        [
            [
                "./b",
                "static",
                [1, 1, 1, 25, 0, 24, 1],
                [1, 20, 1, 23, 19, 22, 20],
                ["b"],
                False,
                True,
                False,
            ]
        ],
        [["a", "named", False, None, None, 2]],
        [],
        [],
        [],
        True,
        False,
        None,
        None,
    ]
    write_sealed(
        cache_file(cache),
        {
            "checked_ns": info.st_mtime_ns + 10**12,
            "token": "t",
            "entries": {"src/a.ts": [info.st_mtime_ns, info.st_size, "0" * 64, old_layout, "x"]},
        },
    )
    assert load_cache(cache).entries == {}
    result = parse_files(tmp_path, paths, cache_dir=cache)
    assert result.parsed == 1
    fresh = parse_source("src/a.ts", (tmp_path / "src/a.ts").read_bytes(), full=False)
    assert result.facts["src/a.ts"] == fresh
    assert parse_files(tmp_path, paths, cache_dir=cache).parsed == 0


def test_a_cache_of_another_facts_format_is_ignored_and_removed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = _aged(tmp_path, {"src/a.ts": "export const a = 1;\n", "src/b.ts": "export {};\n"})
    cache = tmp_path / "cache"
    with monkeypatch.context() as patched:
        patched.setattr(cache_module, "FACTS_FORMAT", cache_module.FACTS_FORMAT - 1)
        old_file = cache_file(cache)
        assert parse_files(tmp_path, paths, cache_dir=cache).parsed == 2
        assert parse_files(tmp_path, paths, cache_dir=cache).parsed == 0
    assert old_file.is_file() and old_file != cache_file(cache)
    assert parse_files(tmp_path, paths, cache_dir=cache).parsed == 2
    assert not old_file.exists()
    assert parse_files(tmp_path, paths, cache_dir=cache).parsed == 0


def test_on_parsed_sees_each_parsed_file_once_with_its_facts(tmp_path: Path) -> None:
    paths = _aged(tmp_path, {"src/a.ts": "import './b';\n", "src/b.ts": "export {};\n"})
    cache = tmp_path / "cache"
    seen: list[tuple[str, FileFacts]] = []
    result = parse_files(tmp_path, paths, cache_dir=cache, on_parsed=lambda *a: seen.append(a))
    assert sorted(seen) == sorted(result.facts.items())
    (tmp_path / "src/a.ts").write_text("import './c';\n", encoding="utf-8")
    seen.clear()
    result = parse_files(tmp_path, paths, cache_dir=cache, on_parsed=lambda *a: seen.append(a))
    assert seen == [("src/a.ts", result.facts["src/a.ts"])]
    assert result.facts["src/a.ts"].imports[0].specifier == "./c"
