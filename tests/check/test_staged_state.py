"""The staged state read by sections (``check.staged_state``): what a file's lookup and a
pre-commit run's violations read back equals what the whole state holds."""

from __future__ import annotations

import random
from typing import Any

from filid.check.staged_state import DIGEST_WIDTH, FILES_PER_BUCKET, StagedState


def _digest(number: int) -> str | None:
    if number % 7 == 3:
        return None  # not a source file
    return f"{number:032x} {number * 3:032x}"


def _violation(number: int, files: list[str], rng: random.Random) -> tuple[Any, ...]:
    path = rng.choice(files)
    if number % 5 == 0:
        path = path.rpartition("/")[0]  # a folder's violation
    location = (rng.choice(files), 1, 1, 1, 1, 1)
    related = [(rng.choice(files), 2, 1, 2, 1, 1) for _ in range(number % 3)]
    message = f"m{number}"
    return ("rule", "error", message, path, location, ".", None, None, related, [], str(number))


def _touches(data: tuple[Any, ...], files: frozenset[str]) -> bool:
    """``scoping._touches`` on an encoded violation."""
    directories = frozenset(f.rpartition("/")[0] or "." for f in files)
    path, location, related = data[3], data[4], data[8]
    if path in files or location[0] in files or path in directories:
        return True
    return any(r[0] in files for r in related)


def _state() -> tuple[StagedState, list[str], list[tuple[Any, ...]]]:
    rng = random.Random(7)
    files = sorted(
        {f"src/d{rng.randrange(40)}/f{rng.randrange(10_000)}.ts" for _ in range(1_400)}
        | {"a.ts", "z/last.ts"}
    )
    violations = [_violation(number, files, rng) for number in range(700)]
    state = StagedState.of(
        "token",
        "tree",
        {},
        files,
        [_digest(number) for number in range(len(files))],
        (),
        (),
        {"scope": ".", "evaluated": {"r": ["lib", "lib/x"], "s": []}, "notes": ["n"]},
        violations,
    )
    return state, files, violations


def test_every_file_is_found_in_its_bucket() -> None:
    state, files, _ = _state()
    assert len(files) > 2 * FILES_PER_BUCKET
    for number, name in enumerate(files):
        assert state.index_of(name) == number
        digest = state.digest_at(number)
        assert digest == _digest(number)
        assert digest is None or len(digest) == DIGEST_WIDTH
    for name in ("", "0.ts", "src/d1", "src/d1/f.ts", "zz.ts", "src/d1/f1.ts\0x", files[3][:-1]):
        assert state.index_of(name) is None, name
    assert state.file_list() == files


def test_the_violations_touching_some_files_are_those_restrict_keeps() -> None:
    state, files, violations = _state()
    rng = random.Random(3)
    for size in (1, 1, 2, 5, 30):
        chosen = frozenset(rng.sample(files, size))
        expected = [list(v) for v in violations if _touches(v, chosen)]
        found = [list(v) for v in state.violations_touching(chosen)]
        assert found == expected
        assert found or size == 1
    assert [list(v) for v in state.violations_touching(None)] == [list(v) for v in violations]
    assert state.violations_touching(frozenset({"elsewhere.ts"})) == []


def test_the_result_reads_back_whole() -> None:
    state, _, _ = _state()
    assert state.result == {
        "scope": ".",
        "evaluated": {"r": ["lib", "lib/x"], "s": []},
        "notes": ["n"],
    }
    assert dict(state.evaluated()) == {"r": ("lib", "lib/x"), "s": ()}
    assert state.mentions("lib/x") and not state.mentions_beyond_refusals("lib/x")
