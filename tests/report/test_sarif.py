"""SARIF output: golden file, the official 2.1.0 schema, and what GitHub code scanning reads."""

from __future__ import annotations

import dataclasses
import json
import os
import stat
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from filid.model.escape import visible_keeping_breaks
from filid.model.report import ValidationResult
from filid.model.violations import Location, Severity, Violation
from filid.report.sarif import render_sarif
from filid.rules.base import RuleMeta
from tests.report.conftest import make_result


def _render(result: ValidationResult, rules: tuple[RuleMeta, ...]) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(render_sarif(result, rules, tool_version="0.1.0"))
    return document


def _validate(schema: dict[str, Any], document: dict[str, Any]) -> list[str]:
    validator_class = jsonschema.validators.validator_for(schema)
    validator_class.check_schema(schema)
    validator = validator_class(schema)
    return [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(document)]


def test_golden(
    sample_result: ValidationResult,
    sample_rules: tuple[RuleMeta, ...],
    check_golden: Callable[[str, str], None],
) -> None:
    check_golden("sample.sarif", render_sarif(sample_result, sample_rules, tool_version="0.1.0"))


def test_valid_against_the_official_schema(
    sample_result: ValidationResult,
    sample_rules: tuple[RuleMeta, ...],
    sarif_schema: dict[str, Any],
) -> None:
    assert _validate(sarif_schema, _render(sample_result, sample_rules)) == []


def test_empty_result_is_valid(
    sample_rules: tuple[RuleMeta, ...], sarif_schema: dict[str, Any]
) -> None:
    document = _render(make_result(violations=()), sample_rules)
    assert _validate(sarif_schema, document) == []
    assert document["runs"][0]["results"] == []


def test_the_schema_check_catches_a_broken_log(
    sample_result: ValidationResult,
    sample_rules: tuple[RuleMeta, ...],
    sarif_schema: dict[str, Any],
) -> None:
    # Guards the validation above against a schema that accepts anything.
    document = _render(sample_result, sample_rules)
    document["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] = 0
    assert _validate(sarif_schema, document) != []


def test_driver_and_rules(
    sample_result: ValidationResult, sample_rules: tuple[RuleMeta, ...]
) -> None:
    driver = _render(sample_result, sample_rules)["runs"][0]["tool"]["driver"]
    assert driver["name"] == "filid"
    assert driver["version"] == "0.1.0"
    assert driver["informationUri"].startswith("https://")
    assert [r["id"] for r in driver["rules"]] == sorted(m.id for m in sample_rules)
    cycle = driver["rules"][0]
    meta = sample_rules[0]
    assert cycle["name"] == "CircularDependency"
    assert cycle["shortDescription"]["text"] == meta.description
    assert cycle["fullDescription"]["text"] == meta.rationale
    assert cycle["help"]["text"]
    # Examples are part of the markdown help, each file fenced.
    assert "src/b/index.ts" in cycle["help"]["markdown"]
    assert "import { a } from '../a';" in cycle["help"]["markdown"]
    assert cycle["defaultConfiguration"]["level"] == "error"
    assert cycle["properties"]["category"] == "dependency"
    levels = {r["id"]: r["defaultConfiguration"]["level"] for r in driver["rules"]}
    assert levels["hybrid-node"] == "note"
    assert levels["module-entry-point"] == "warning"


def test_example_fence_outlasts_backticks_in_the_example(
    sample_result: ValidationResult, sample_rules: tuple[RuleMeta, ...]
) -> None:
    rules = _render(sample_result, sample_rules)["runs"][0]["tool"]["driver"]["rules"]
    markdown = next(r for r in rules if r["id"] == "intent-document-contract")["help"]["markdown"]
    assert "````markdown\n# A\n\n```ts\ncode\n```\n````" in markdown


def test_one_result_per_violation_in_order_with_explicit_level(
    sample_result: ValidationResult, sample_rules: tuple[RuleMeta, ...]
) -> None:
    run = _render(sample_result, sample_rules)["runs"][0]
    results = run["results"]
    rules = run["tool"]["driver"]["rules"]
    assert [r["ruleId"] for r in results] == [v.rule_id for v in sample_result.violations]
    expected_levels = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}
    for result, violation in zip(results, sample_result.violations, strict=True):
        # "warning" is sarif-om's default: a default-dropping serializer would lose it.
        assert result["level"] == expected_levels[violation.severity]
        assert rules[result["ruleIndex"]]["id"] == violation.rule_id
        assert result["message"]["text"].startswith(visible_keeping_breaks(violation.message))
        assert result["partialFingerprints"] == {"filid/v1": violation.fingerprint}


def test_overridden_severity_keeps_its_level(sample_rules: tuple[RuleMeta, ...]) -> None:
    # circular-dependency defaults to error; a config override to warning must show as warning.
    violation = dataclasses.replace(make_result().violations[0], severity=Severity.WARNING)
    result = _render(make_result(violations=(violation,)), sample_rules)["runs"][0]["results"][0]
    assert result["level"] == "warning"


def test_locations_are_root_relative_and_utf16(
    sample_result: ValidationResult, sample_rules: tuple[RuleMeta, ...]
) -> None:
    text = render_sarif(sample_result, sample_rules, tool_version="0.1.0")
    assert str(sample_result.root) not in text
    assert "originalUriBaseIds" not in text
    results = json.loads(text)["runs"][0]["results"]
    by_fp = {r["partialFingerprints"]["filid/v1"]: r for r in results}

    deep = by_fp["fp-deep-b"]["locations"][0]["physicalLocation"]
    assert deep["artifactLocation"] == {"uri": "src/b/deep.ts", "uriBaseId": "%SRCROOT%"}
    # utf16_column wins; the character-based end column is then not a UTF-16 column.
    assert deep["region"] == {"startLine": 4, "startColumn": 11, "endLine": 4}

    comma = by_fp["fp-deep-c"]["locations"][0]["physicalLocation"]
    assert comma["artifactLocation"]["uri"] == "src/c/x%2Cy.ts"
    assert comma["region"] == {"startLine": 7, "startColumn": 3, "endLine": 7, "endColumn": 20}

    unicode = by_fp["fp-name-unicode"]["locations"][0]["physicalLocation"]
    assert unicode["artifactLocation"]["uri"] == "src/%C3%9Cn%C3%AFcode_M%C3%B6dul/index.ts"


def test_related_locations_for_cycle_hops(
    sample_result: ValidationResult, sample_rules: tuple[RuleMeta, ...]
) -> None:
    results = _render(sample_result, sample_rules)["runs"][0]["results"]
    cycle = next(r for r in results if r["ruleId"] == "circular-dependency")
    related = cycle["relatedLocations"]
    assert [r["id"] for r in related] == [1, 2, 3]
    assert [r["message"]["text"] for r in related] == ["hop 1", "hop 2", "hop 3"]
    assert [r["physicalLocation"]["artifactLocation"]["uri"] for r in related] == [
        "src/a/index.ts",
        "src/b/index.ts",
        "src/c/util/helpers.ts",
    ]
    assert all("relatedLocations" not in r for r in results if r is not cycle)


def test_fix_is_described_in_properties(
    sample_result: ValidationResult, sample_rules: tuple[RuleMeta, ...]
) -> None:
    results = _render(sample_result, sample_rules)["runs"][0]["results"]
    entry = next(r for r in results if r["ruleId"] == "module-entry-point")
    assert entry["properties"]["filid/fix"] == {
        "action": "create-index",
        "risk": "safe",
        "description": "Create src/d/index.ts re-exporting d.ts",
        "targetPath": "src/d/index.ts",
    }
    # No SARIF `fixes`: they require byte replacements, which file-level actions lack.
    assert all("fixes" not in r for r in results)


def test_unknown_rule_gets_a_descriptor(
    sample_rules: tuple[RuleMeta, ...], sarif_schema: dict[str, Any]
) -> None:
    stray = Violation(
        rule_id="parse-error",
        severity=Severity.ERROR,
        message="could not parse",
        path="src/x.ts",
        location=Location("src/x.ts", 3, 2),
        node="src",
    )
    document = _render(make_result(violations=(stray,)), sample_rules)
    run = document["runs"][0]
    assert run["tool"]["driver"]["rules"][run["results"][0]["ruleIndex"]]["id"] == "parse-error"
    assert _validate(sarif_schema, document) == []


@pytest.mark.slow
def test_sarif_multitool_finds_no_errors_or_warnings(
    sample_result: ValidationResult,
    sample_rules: tuple[RuleMeta, ...],
    sarif_schema_path: Path,
    tmp_path: Path,
) -> None:
    # Microsoft's validator also runs the SARIF and GitHub ingestion rules (SARIF1xxx, GH1xxx)
    # beyond the schema. It always exits 0, so its findings are read from its output log.
    tool = sarif_schema_path.parent / "Sarif.Multitool"
    if not tool.is_file():
        pytest.skip(f"no Sarif.Multitool next to {sarif_schema_path}")
    if not os.access(tool, os.X_OK):
        # What the package's postinstall script does (npm may skip install scripts).
        tool.chmod(tool.stat().st_mode | stat.S_IXUSR)
    log = tmp_path / "sample.sarif"
    log.write_text(
        render_sarif(sample_result, sample_rules, tool_version="0.1.0"), encoding="utf-8"
    )
    out = tmp_path / "validation.sarif"
    completed = subprocess.run(
        [str(tool), "validate", str(log), "-o", str(out), "--log", "ForceOverwrite",
         "--level", "Error;Warning", "--rule-kind", "Sarif;Gh"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )  # fmt: skip
    assert out.exists(), completed.stdout + completed.stderr
    findings = [
        f"{r['ruleId']}: {r['message'].get('arguments')}"
        for r in json.loads(out.read_text(encoding="utf-8"))["runs"][0].get("results", [])
    ]
    assert findings == []
