"""The JSON text filid writes: exactly ``json.dumps(indent=2, ensure_ascii=False)`` plus a
newline, whether it is returned whole (``dumps``) or written piece by piece (``write_json``,
what ``filid check --format json`` streams to stdout)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from filid.report.json import dumps, write_json
from tests.conftest import EXAMPLES
from tests.test_cli import run


def _report_like(count: int) -> dict[str, object]:
    violations = [
        {
            "ruleId": "max-depth",
            "message": f'f\u00e9 "{index}" \x1b\n\t',
            "location": {"file": f"src/m{index}/a.ts", "line": index, "column": 0.5},
            "related": [] if index % 3 else [{"file": "src/x.ts", "line": 1}],
            "fix": None,
            "members": (f"src/m{index}", True, False),
        }
        for index in range(count)
    ]
    return {"root": "/r", "result": {"violations": violations, "empty": {}, "n": -3}, 7: "k"}


def test_pieces_join_to_the_standard_text() -> None:
    value = _report_like(3000)
    expected = json.dumps(value, indent=2, ensure_ascii=False) + "\n"
    pieces: list[str] = []
    write_json(value, pieces.append)
    assert len(pieces) > 2  # a large report is written as it is produced
    assert "".join(pieces) == dumps(value) == expected
    small: list[str] = []
    write_json({"a": [1, {"b": None}]}, small.append)
    assert small == [json.dumps({"a": [1, {"b": None}]}, indent=2) + "\n"]


@pytest.fixture
def examples(tmp_path: Path) -> Path:
    target = tmp_path / "examples"
    shutil.copytree(EXAMPLES, target, ignore=shutil.ignore_patterns("cache"))
    return target


def test_check_json_on_stdout_equals_the_output_file(examples: Path, tmp_path: Path) -> None:
    target = tmp_path / "report.json"
    args = ("check", str(examples), "--format", "json", "--no-cache")
    _, out, _ = run(*args)
    code, empty, _ = run(*args, "--output", str(target))
    assert code == 1 and empty == ""
    stamp = re.compile(r'"timestamp": "[^"]*"')
    written = target.read_text(encoding="utf-8")
    assert stamp.sub("", out) == stamp.sub("", written) and out.endswith("}\n")
