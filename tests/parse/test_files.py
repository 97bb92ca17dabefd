"""parse_files: size / encoding guards, the disk cache and the parallel path."""

from __future__ import annotations

import dataclasses
import marshal
import os
from pathlib import Path

import pytest

from filid.parse import files as files_module
from filid.parse import parse_files, parse_source
from filid.parse.cache import RACY_WINDOW_NS, cache_file, delta_file, load_cache

from .corpus import write_corpus


def _write(root: Path, files: dict[str, str | bytes]) -> list[str]:
    for rel, content in files.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            target.write_bytes(content)
        else:
            target.write_text(content, encoding="utf-8")
    return sorted(files)


def _age(root: Path, paths: list[str]) -> None:
    """Move mtimes into the past so stat alone can prove a cached file unchanged."""
    old = (os.stat(root / paths[0]).st_mtime_ns - 10 * RACY_WINDOW_NS) // 1_000_000_000
    for rel in paths:
        os.utime(root / rel, (old, old))


def test_facts_match_parse_source(tmp_path: Path) -> None:
    paths = _write(
        tmp_path,
        {
            "src/a.ts": "import { b } from './b';\nexport const a = b;\n",
            "src/b.tsx": "export const b = <i/>;\n",
            "src/index.ts": "export { a } from './a';\nexport const x = 1;\n",
        },
    )
    result = parse_files(tmp_path, paths, cache_dir=None)
    assert list(result.facts) == paths
    for rel in paths:
        full = parse_source(rel, (tmp_path / rel).read_bytes())
        if rel == "src/index.ts":
            # entry files keep everything, statements included
            assert result.facts[rel] == full
            assert result.facts[rel].statements
        else:
            # other files keep imports, exports and side-effect freedom, not statements
            assert result.facts[rel] == dataclasses.replace(
                full, declarations=(), statements=(), imported_bindings=()
            )
    assert result.parsed == 3
    assert result.notes == ()


def test_large_invalid_and_missing_files_are_noted_not_fatal(tmp_path: Path) -> None:
    paths = _write(
        tmp_path,
        {
            "src/big.ts": "// " + "x" * (1 << 20) + "\n",
            "src/latin1.ts": b"export const s = '\xe9';\n",
            "src/ok.ts": "export const ok = 1;\n",
            "src/broken.ts": "export const a = ;\n",
        },
    )
    result = parse_files(tmp_path, [*paths, "src/gone.ts"], cache_dir=None)
    assert sorted(result.facts) == ["src/broken.ts", "src/ok.ts"]
    assert result.notes[0] == "src/big.ts: skipped, larger than 1 MiB"
    assert result.notes[1] == "src/broken.ts: syntax error at line 1 (facts may be partial)"
    assert result.notes[2].startswith("src/gone.ts: skipped, cannot be read")
    assert result.notes[3] == "src/latin1.ts: skipped, not valid UTF-8"
    assert len(result.notes) == 4


def test_exactly_one_mib_is_parsed(tmp_path: Path) -> None:
    body = "export const a = 1;\n"
    content = body + "//" + "x" * ((1 << 20) - len(body) - 3) + "\n"
    assert len(content.encode()) == 1 << 20
    paths = _write(tmp_path, {"src/edge.ts": content})
    assert "src/edge.ts" in parse_files(tmp_path, paths, cache_dir=None).facts


def test_second_run_parses_nothing(tmp_path: Path) -> None:
    paths = write_corpus(tmp_path, 20)
    cache = tmp_path / ".filid" / "cache"
    first = parse_files(tmp_path, paths, cache_dir=cache)
    assert first.parsed == 20
    assert cache_file(cache).is_file()
    # Freshly written files fall in the racy window: they are re-hashed, still not parsed.
    second = parse_files(tmp_path, paths, cache_dir=cache)
    assert second.parsed == 0
    assert second.facts == first.facts
    _age(tmp_path, paths)
    parse_files(tmp_path, paths, cache_dir=cache)
    third = parse_files(tmp_path, paths, cache_dir=cache)
    assert third.parsed == 0
    assert third.facts == first.facts


def test_stat_fresh_entries_are_not_even_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = write_corpus(tmp_path, 5)
    _age(tmp_path, paths)
    cache = tmp_path / ".filid" / "cache"
    parse_files(tmp_path, paths, cache_dir=cache)
    parse_files(tmp_path, paths, cache_dir=cache)  # re-stamps the cache after the aging

    def no_reading(*args: object, **kwargs: object) -> object:
        raise AssertionError("a stat-fresh file was read")

    monkeypatch.setattr(files_module, "_process", no_reading)
    assert parse_files(tmp_path, paths, cache_dir=cache).parsed == 0


def test_edited_file_is_reparsed_even_with_the_same_size_and_mtime(tmp_path: Path) -> None:
    paths = _write(
        tmp_path, {"src/a.ts": "export const a = 1;\n", "src/b.ts": "export const b = 2;\n"}
    )
    cache = tmp_path / ".filid" / "cache"
    parse_files(tmp_path, paths, cache_dir=cache)
    before = os.stat(tmp_path / "src/a.ts")
    (tmp_path / "src/a.ts").write_text("export const z = 1;\n", encoding="utf-8")
    os.utime(tmp_path / "src/a.ts", ns=(before.st_atime_ns, before.st_mtime_ns))
    result = parse_files(tmp_path, paths, cache_dir=cache)
    assert result.parsed == 1
    assert [e.name for e in result.facts["src/a.ts"].exports] == ["z"]


def test_touched_but_unchanged_file_is_reused_by_hash(tmp_path: Path) -> None:
    paths = _write(tmp_path, {"src/a.ts": "export const a = 1;\n"})
    _age(tmp_path, paths)
    cache = tmp_path / ".filid" / "cache"
    parse_files(tmp_path, paths, cache_dir=cache)
    os.utime(tmp_path / "src/a.ts")  # new mtime, same content
    assert parse_files(tmp_path, paths, cache_dir=cache).parsed == 0


def test_corrupt_cache_is_ignored_and_replaced(tmp_path: Path) -> None:
    paths = _write(tmp_path, {"src/a.ts": "export const a = 1;\n"})
    cache = tmp_path / ".filid" / "cache"
    cache.mkdir(parents=True)
    malformed = marshal.dumps({"written_ns": 1, "entries": {"src/a.ts": [1]}})
    for garbage in (b"\x00not marshal", malformed, marshal.dumps([]), b""):
        cache_file(cache).write_bytes(garbage)
        result = parse_files(tmp_path, paths, cache_dir=cache)
        assert result.parsed == 1
        assert [e.name for e in result.facts["src/a.ts"].exports] == ["a"]
    assert parse_files(tmp_path, paths, cache_dir=cache).parsed == 0


def test_no_cache_neither_reads_nor_writes(tmp_path: Path) -> None:
    paths = _write(tmp_path, {"src/a.ts": "export const a = 1;\n"})
    assert parse_files(tmp_path, paths, cache_dir=None).parsed == 1
    assert parse_files(tmp_path, paths, cache_dir=None).parsed == 1
    assert not (tmp_path / ".filid").exists()


def test_deleted_files_leave_the_cache_and_other_versions_are_removed(tmp_path: Path) -> None:
    paths = _write(
        tmp_path, {"src/a.ts": "export const a = 1;\n", "src/b.ts": "export const b = 1;\n"}
    )
    cache = tmp_path / ".filid" / "cache"
    stale = cache / "parse-filid0.0.0-old.json"
    cache.mkdir(parents=True)
    stale.write_text("{}", encoding="utf-8")
    parse_files(tmp_path, paths, cache_dir=cache)
    assert not stale.exists()
    (tmp_path / "src/b.ts").unlink()
    parse_files(tmp_path, ["src/a.ts"], cache_dir=cache)
    assert set(load_cache(cache).entries) == {"src/a.ts"}


def test_a_small_change_writes_a_delta_and_leaves_the_full_cache_file_alone(
    tmp_path: Path,
) -> None:
    files = {f"src/f{i}.ts": f"export const f{i} = {i};\n" for i in range(100)}
    paths = _write(tmp_path, files)
    old = 1_600_000_000
    for path in paths:
        os.utime(tmp_path / path, (old, old))
    cache = tmp_path / "cache"
    parse_files(tmp_path, paths, cache_dir=cache)
    full = cache_file(cache).read_bytes()
    (tmp_path / "src/f1.ts").write_text("import { f2 } from './f2';\nexport const f1 = f2;\n")
    os.utime(tmp_path / "src/f1.ts", (old + 60, old + 60))
    (tmp_path / "src/f3.ts").unlink()
    (tmp_path / "src/new.ts").write_text("export const n = 1;\n")
    os.utime(tmp_path / "src/new.ts", (old + 60, old + 60))
    now = sorted({*paths, "src/new.ts"} - {"src/f3.ts"})
    second = parse_files(tmp_path, now, cache_dir=cache)
    assert cache_file(cache).read_bytes() == full
    assert delta_file(cache).exists()
    loaded = load_cache(cache)
    assert set(loaded.entries) == set(now)
    assert loaded.entries["src/f1.ts"].facts == second.facts["src/f1.ts"]
    assert [i.specifier for i in loaded.entries["src/f1.ts"].facts.imports] == ["./f2"]
    # Nothing parsed again: every file is proven by the full file plus the delta.
    assert parse_files(tmp_path, now, cache_dir=cache).parsed == 0
    # A delta for another full file (or forged) is ignored: the full file alone applies.
    delta_file(cache).write_bytes(b"filid-sealed-1\nnot signed")
    assert "src/new.ts" not in load_cache(cache).entries
    # Past a tenth of the entries, the full file is rewritten and the delta dropped.
    for i in range(20, 90):  # 70 changes: more than max(64, a tenth)
        (tmp_path / f"src/f{i}.ts").write_text(f"export const g{i} = {i};\n")
    parse_files(tmp_path, now, cache_dir=cache)
    assert not delta_file(cache).exists()
    assert cache_file(cache).read_bytes() != full
    assert "g25" in str(load_cache(cache).entries["src/f25.ts"].facts)


def test_unwritable_cache_directory_is_a_note(tmp_path: Path) -> None:
    paths = _write(tmp_path, {"src/a.ts": "export const a = 1;\n"})
    blocker = tmp_path / "blocker"
    blocker.write_text("a file, not a directory", encoding="utf-8")
    result = parse_files(tmp_path, paths, cache_dir=blocker / "cache")
    assert result.parsed == 1
    assert result.notes[-1].startswith("parse cache not written")


def test_progress_reaches_the_total(tmp_path: Path) -> None:
    paths = write_corpus(tmp_path, 7)
    seen: list[tuple[int, int]] = []
    parse_files(
        tmp_path, paths, cache_dir=None, progress=lambda done, total: seen.append((done, total))
    )
    assert seen[-1] == (7, 7)
    assert [done for done, _ in seen] == sorted(done for done, _ in seen)


def test_parallel_path_gives_the_same_facts_as_serial(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = write_corpus(tmp_path, 60)
    (tmp_path / "src/bad.ts").write_bytes(b"export const s = '\xff';\n")
    paths.append("src/bad.ts")
    serial = parse_files(tmp_path, paths, cache_dir=None, jobs=1)
    monkeypatch.setattr(files_module, "PARALLEL_THRESHOLD", 10)
    parallel = parse_files(tmp_path, paths, cache_dir=None, jobs=2)
    assert parallel.parsed == serial.parsed == 60
    assert parallel.facts == serial.facts
    assert list(parallel.facts) == list(serial.facts)
    assert parallel.notes == serial.notes == ("src/bad.ts: skipped, not valid UTF-8",)


@pytest.mark.parametrize("jobs", [1, 2])
def test_meanwhile_runs_once_before_any_parsed_file_is_handed_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, jobs: int
) -> None:
    # load_project builds the tree there while the workers parse: it must have run (once)
    # before the caller sees the first file, with or without worker processes
    paths = write_corpus(tmp_path, 60)
    monkeypatch.setattr(files_module, "PARALLEL_THRESHOLD", 10)
    events: list[str] = []
    result = parse_files(
        tmp_path,
        paths,
        cache_dir=None,
        jobs=jobs,
        on_parsed=lambda path, _facts: events.append(path),
        meanwhile=lambda: events.append("(meanwhile)"),
    )
    assert events[0] == "(meanwhile)"
    assert events.count("(meanwhile)") == 1
    assert sorted(events[1:]) == sorted(result.facts)


def test_an_error_in_meanwhile_ends_the_parse_with_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = write_corpus(tmp_path, 60)
    monkeypatch.setattr(files_module, "PARALLEL_THRESHOLD", 10)

    def fail() -> None:
        raise RuntimeError("meanwhile failed")

    with pytest.raises(RuntimeError, match="meanwhile failed"):
        parse_files(tmp_path, paths, cache_dir=None, jobs=2, meanwhile=fail)
