"""JUnit XML output: golden file, the (extended) pytest JUnit XSD, counts over pairs."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import xmlschema

from filid.model.report import ValidationResult
from filid.model.violations import Location, Severity, Violation
from filid.report.junit import render_junit
from filid.rules.base import RuleMeta
from tests.report.conftest import SCHEMA_DIR, make_result

XSD = SCHEMA_DIR / "junit-10-filid.xsd"


def _schema() -> xmlschema.XMLSchema:
    return xmlschema.XMLSchema(str(XSD))


def test_golden(
    sample_result: ValidationResult,
    sample_rules: tuple[RuleMeta, ...],
    check_golden: Callable[[str, str], None],
) -> None:
    check_golden("sample.junit.xml", render_junit(sample_result, sample_rules))


def test_valid_against_the_junit_xsd(
    sample_result: ValidationResult, sample_rules: tuple[RuleMeta, ...], tmp_path: Path
) -> None:
    text = render_junit(sample_result, sample_rules)
    path = tmp_path / "junit.xml"
    path.write_text(text, encoding="utf-8")
    _schema().validate(str(path))


def test_the_xsd_rejects_a_testcase_without_name() -> None:
    # Guards the validation above against a schema that accepts anything.
    broken = (
        '<testsuites><testsuite name="r" tests="1" failures="0" errors="0">'
        '<testcase classname="x"/></testsuite></testsuites>'
    )
    assert not _schema().is_valid(broken)


def test_suites_and_testcases_are_rule_node_pairs(
    sample_result: ValidationResult, sample_rules: tuple[RuleMeta, ...]
) -> None:
    root = ET.fromstring(render_junit(sample_result, sample_rules))
    assert root.tag == "testsuites"
    assert root.get("name") == "filid"
    assert root.get("tests") == str(sample_result.total_pairs)
    assert root.get("failures") == str(sample_result.failed_pairs)
    assert root.get("errors") == "0"
    suites = {s.get("name"): s for s in root.findall("testsuite")}
    assert list(suites) == sorted(sample_result.evaluated)
    for rule_id, nodes in sample_result.evaluated.items():
        suite = suites[rule_id]
        cases = suite.findall("testcase")
        assert [c.get("name") for c in cases] == sorted(nodes)
        assert {c.get("classname") for c in cases} == {f"filid.{rule_id}"}
        assert suite.get("tests") == str(len(nodes))
        failing = {v.node for v in sample_result.violations if v.rule_id == rule_id}
        assert suite.get("failures") == str(len(failing))
        for case in cases:
            failures = case.findall("failure")
            expected = [
                v
                for v in sample_result.violations
                if (v.rule_id, v.node) == (rule_id, case.get("name"))
            ]
            assert len(failures) == len(expected)
            assert {f.get("type") for f in failures} <= {rule_id}
            if expected:
                assert case.get("file") == expected[0].location.file
                assert case.get("line") == str(expected[0].location.line)
            else:
                assert case.get("file") is None


def test_failure_text_has_location_and_no_control_characters(
    sample_result: ValidationResult, sample_rules: tuple[RuleMeta, ...]
) -> None:
    text = render_junit(sample_result, sample_rules)
    assert "\x07" not in text
    root = ET.fromstring(text)
    case = root.find("testsuite[@name='module-entry-point']/testcase[@name='src/d']")
    assert case is not None
    failure = case.find("failure")
    assert failure is not None
    assert failure.get("message") == "Module src/d has no index.* or main.*"
    assert failure.text == "src/d/d.ts:1:1 warning: Module src/d has no index.* or main.*"
    # Newlines in messages survive as attribute character references.
    deep = root.find("testsuite[@name='external-import-boundary']/testcase[@name='src/b']/failure")
    assert deep is not None
    assert deep.get("message") == sample_result.violations[1].message


def test_violation_outside_evaluated_pairs_still_reported(
    sample_rules: tuple[RuleMeta, ...],
) -> None:
    stray = Violation(
        rule_id="max-depth",
        severity=Severity.ERROR,
        message="too deep",
        path="src/a/b/c",
        location=Location("src/a/b/c/index.ts", 1, 1),
        node="src/a/b/c",
    )
    root = ET.fromstring(render_junit(make_result(violations=(stray,), evaluated={}), sample_rules))
    assert root.get("tests") == "1"
    assert root.get("failures") == "1"
    case = root.find("testsuite[@name='max-depth']/testcase")
    assert case is not None
    assert case.get("name") == "src/a/b/c"


def test_several_violations_of_one_pair(sample_rules: tuple[RuleMeta, ...], tmp_path: Path) -> None:
    violations = tuple(
        Violation(
            rule_id="external-import-boundary",
            severity=Severity.ERROR,
            message=f"deep import {i}",
            path="src/b/x.ts",
            location=Location("src/b/x.ts", i, 1),
            node="src/b",
        )
        for i in (3, 9)
    )
    text = render_junit(make_result(violations=violations), sample_rules)
    root = ET.fromstring(text)
    suite = root.find("testsuite[@name='external-import-boundary']")
    assert suite is not None
    assert suite.get("failures") == "1"
    case = suite.find("testcase[@name='src/b']")
    assert case is not None
    assert case.get("line") == "3"
    assert [f.text for f in case.findall("failure")] == [
        "src/b/x.ts:3:1 error: deep import 3",
        "src/b/x.ts:9:1 error: deep import 9",
    ]
    path = tmp_path / "junit.xml"
    path.write_text(text, encoding="utf-8")
    _schema().validate(str(path))
