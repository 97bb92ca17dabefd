"""JUnit XML output: one ``<testsuite>`` per rule, one ``<testcase>`` per (rule, node) pair.

JUnit has no official schema; the shape here is the subset consumers read (Jenkins, GitLab,
mikepenz/action-junit-report): ``<testsuites name tests failures errors>`` /
``<testsuite name tests failures errors skipped time>`` / ``<testcase classname name file line
time>`` / ``<failure message type>``. ``failures`` count failed testcases (pairs), matching
filid's pass/fail counts over (rule, node) pairs; a failed testcase holds one ``<failure>`` per
violation. ``file``/``line`` are set on failed testcases only (the first violation's location):
a passing pair's node is a directory, and annotating consumers need a real file.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import defaultdict
from collections.abc import Sequence

from filid.model.escape import xml_text
from filid.model.report import ValidationResult
from filid.model.violations import Violation
from filid.report.limits import most_severe
from filid.rules.base import RuleMeta

# Characters XML 1.0 forbids (C0 controls other than TAB/LF/CR, surrogates, U+FFFE/U+FFFF)
# plus DEL and the C1 controls, which are legal but break many JUnit readers.
_CONTROL_CHARS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")


MAX_JUNIT_FAILURES = 25_000


def render_junit(
    result: ValidationResult, rules: Sequence[RuleMeta], *, max_failures: int = MAX_JUNIT_FAILURES
) -> str:
    """Render ``result`` as a JUnit XML document (text with an XML declaration).

    At most ``max_failures`` ``<failure>`` elements (the most severe violations); past that
    the ``testsuites`` element carries a ``filid-truncated`` count in its name attribute note.

    Suites are the evaluated rules plus any rule with a violation, sorted by id; testcases are
    the evaluated nodes plus any node with a violation, sorted by path. ``rules`` supply each
    suite's description as a ``<properties>`` entry when known.
    """
    descriptions = {meta.id: meta.description for meta in rules}
    by_pair: dict[tuple[str, str], list[Violation]] = defaultdict(list)
    kept = most_severe(result.violations, max_failures)
    for violation in kept:
        by_pair[(violation.rule_id, violation.node)].append(violation)
    nodes_by_rule: dict[str, set[str]] = defaultdict(set)
    for rule_id, evaluated_nodes in result.evaluated.items():
        nodes_by_rule[rule_id].update(evaluated_nodes)
    for rule_id, node in by_pair:
        nodes_by_rule[rule_id].add(node)

    root = ET.Element("testsuites", {"name": "filid"})
    total_tests = total_failures = 0
    for rule_id in sorted(nodes_by_rule):
        nodes = sorted(nodes_by_rule[rule_id])
        failed = sum(1 for node in nodes if (rule_id, node) in by_pair)
        suite = ET.SubElement(
            root,
            "testsuite",
            {
                "name": _clean(rule_id),
                "tests": str(len(nodes)),
                "failures": str(failed),
                "errors": "0",
                "skipped": "0",
                "time": "0",
            },
        )
        if rule_id in descriptions:
            properties = ET.SubElement(suite, "properties")
            ET.SubElement(
                properties,
                "property",
                {"name": "description", "value": _clean(descriptions[rule_id])},
            )
        for node in nodes:
            _add_testcase(suite, rule_id, node, by_pair.get((rule_id, node), []))
        total_tests += len(nodes)
        total_failures += failed
    if len(kept) < len(result.violations):
        left_out = len(result.violations) - len(kept)
        root.set("name", f"filid ({left_out} of {len(result.violations)} violations left out)")
    root.set("tests", str(total_tests))
    root.set("failures", str(total_failures))
    root.set("errors", "0")
    root.set("time", "0")
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


def _add_testcase(
    suite: ET.Element, rule_id: str, node: str, violations: Sequence[Violation]
) -> None:
    attributes = {"classname": _clean(f"filid.{rule_id}"), "name": _clean(node)}
    if violations:
        first = violations[0].location
        attributes["file"] = _clean(first.file)
        attributes["line"] = str(max(first.line, 1))
    attributes["time"] = "0"
    testcase = ET.SubElement(suite, "testcase", attributes)
    for violation in violations:
        location = violation.location
        failure = ET.SubElement(
            testcase,
            "failure",
            {"message": _clean(violation.message), "type": _clean(rule_id)},
        )
        failure.text = _clean(
            f"{location.file}:{location.line}:{location.column} "
            f"{violation.severity}: {violation.message}"
        )


def _clean(text: str) -> str:
    """Remove characters that XML cannot carry; make bidi controls visible."""
    return xml_text(_CONTROL_CHARS.sub("", text))
