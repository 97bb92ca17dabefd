"""Baselines: write, then suppress recorded violations by fingerprint (as a multiset)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from filid.check.baseline import apply_baseline, write_baseline
from filid.model.errors import InputError
from filid.model.report import ValidationResult
from filid.model.violations import Location, Severity, Violation


def _violation(
    path: str, line: int, fingerprint: str, rule_id: str = "zero-peer-file"
) -> Violation:
    return Violation(
        rule_id=rule_id,
        severity=Severity.WARNING,
        message=f"{path} is a peer file",
        path=path,
        location=Location(path, line, 1),
        node=path.rsplit("/", 1)[0],
        fingerprint=fingerprint,
    )


def _result(*violations: Violation, suppressed: int = 0) -> ValidationResult:
    return ValidationResult(
        root=Path("/project"),
        scope=".",
        violations=tuple(sorted(violations, key=Violation.sort_key)),
        evaluated={"zero-peer-file": ("src",)},
        rules_applied=("zero-peer-file",),
        rules_skipped=(),
        config_path=None,
        timestamp="2025-01-02T03:04:05Z",
        baseline_suppressed=suppressed,
    )


OLD = (_violation("src/b.ts", 3, "fp-b"), _violation("src/a.ts", 1, "fp-a"))


def test_written_baseline_is_sorted_json_with_readable_fields() -> None:
    document = json.loads(write_baseline(_result(*OLD)))
    assert document == {
        "version": 1,
        "violations": [
            {
                "fingerprint": "fp-a",
                "ruleId": "zero-peer-file",
                "path": "src/a.ts",
                "message": "src/a.ts is a peer file",
            },
            {
                "fingerprint": "fp-b",
                "ruleId": "zero-peer-file",
                "path": "src/b.ts",
                "message": "src/b.ts is a peer file",
            },
        ],
    }


def test_round_trip_suppresses_everything() -> None:
    result = _result(*OLD, suppressed=1)
    filtered = apply_baseline(result, write_baseline(result), source="baseline.json")
    assert filtered.violations == ()
    assert filtered.baseline_suppressed == 3
    assert filtered.passed_pairs == filtered.total_pairs


def test_moved_line_is_still_suppressed_and_new_one_is_not() -> None:
    baseline = write_baseline(_result(*OLD))
    moved = dataclasses.replace(OLD[0], location=Location("src/b.ts", 40, 5))
    new = _violation("src/c.ts", 1, "fp-c")
    filtered = apply_baseline(_result(moved, OLD[1], new), baseline, source="baseline.json")
    assert filtered.violations == (new,)
    assert filtered.baseline_suppressed == 2


def test_duplicates_are_counted() -> None:
    first = _violation("src/a.ts", 1, "fp-same")
    second = _violation("src/a.ts", 9, "fp-same")
    baseline = write_baseline(_result(first))
    filtered = apply_baseline(_result(first, second), baseline, source="b.json")
    assert len(filtered.violations) == 1
    assert filtered.baseline_suppressed == 1
    both = write_baseline(_result(first, second))
    assert len(json.loads(both)["violations"]) == 2
    assert apply_baseline(_result(first, second), both, source="b.json").violations == ()


def test_remaining_after_fix_is_filtered_too() -> None:
    result = dataclasses.replace(
        _result(*OLD), remaining=(OLD[0], _violation("src/d.ts", 2, "fp-d"))
    )
    filtered = apply_baseline(result, write_baseline(_result(*OLD)), source="b.json")
    assert filtered.remaining is not None
    assert [v.fingerprint for v in filtered.remaining] == ["fp-d"]


def test_empty_fingerprint_gets_a_stable_fallback() -> None:
    bare = _violation("src/x.ts", 1, "")
    text = write_baseline(_result(bare))
    assert json.loads(text)["violations"][0]["fingerprint"] != ""
    other = _violation("src/y.ts", 1, "")
    filtered = apply_baseline(_result(bare, other), text, source="b.json")
    assert filtered.violations == (other,)


@pytest.mark.parametrize(
    ("text", "detail"),
    [
        ("{not json", "not valid JSON"),
        ("[]", "must be a JSON object"),
        ('{"violations": []}', "version"),
        ('{"version": 2, "violations": []}', "version: expected 1, got 2"),
        ('{"version": true, "violations": []}', "version"),
        ('{"version": 1}', "violations: expected a list"),
        ('{"version": 1, "violations": ["fp"]}', "violations[0]: expected an object"),
        ('{"version": 1, "violations": [{"ruleId": "x"}]}', "violations[0].fingerprint"),
        ('{"version": 1, "violations": [{"fingerprint": ""}]}', "violations[0].fingerprint"),
        (
            '{"version": 1, "violations": [{"fingerprint": "a"}, {"fingerprint": "b", "path": 3}]}',
            "violations[1].path: expected a string",
        ),
    ],
)
def test_malformed_baseline_names_the_file_and_key(text: str, detail: str) -> None:
    with pytest.raises(InputError) as raised:
        apply_baseline(_result(*OLD), text, source="ci/filid-baseline.json")
    message = str(raised.value)
    assert message.startswith("ci/filid-baseline.json: ")
    assert detail in message
