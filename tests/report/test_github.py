"""GitHub workflow commands: golden file, escaping, and the per-level annotation cap."""

from __future__ import annotations

import re
from collections.abc import Callable

from hypothesis import given
from hypothesis import strategies as st

from filid.model.escape import visible_keeping_breaks
from filid.model.report import ValidationResult
from filid.model.violations import Location, Severity, Violation
from filid.report.github import escape_data, escape_property, render_github
from tests.report.conftest import make_result

COMMAND = re.compile(r"^::(error|warning|notice)(?: (?P<props>[^:]*))?::(?P<data>.*)$")


def _unescape(text: str) -> str:
    # The runner's decoding (toolkit/src/command.ts): every %XX we emit, with %25 last.
    for escaped, raw in (("%0D", "\r"), ("%0A", "\n"), ("%3A", ":"), ("%2C", ","), ("%25", "%")):
        text = text.replace(escaped, raw)
    return text


def _violation(severity: Severity, n: int) -> Violation:
    return Violation(
        rule_id=f"rule-{severity}",
        severity=severity,
        message=f"{severity} number {n}",
        path=f"src/m{n:02}",
        location=Location(f"src/m{n:02}/index.ts", n, 1),
        node=f"src/m{n:02}",
    )


def test_golden(sample_result: ValidationResult, check_golden: Callable[[str, str], None]) -> None:
    check_golden("github.txt", render_github(sample_result))


def test_one_annotation_per_violation_with_location_and_title(
    sample_result: ValidationResult,
) -> None:
    lines = render_github(sample_result).splitlines()
    assert len(lines) == len(sample_result.violations)
    commands = {"error": Severity.ERROR, "warning": Severity.WARNING, "notice": Severity.INFO}
    # Errors first, then warnings, then notices; each level keeps the violations' order.
    expected = sorted(sample_result.violations, key=lambda v: v.severity.rank)
    for line, violation in zip(lines, expected, strict=True):
        match = COMMAND.match(line)
        assert match, line
        assert commands[match.group(1)] is violation.severity
        props = dict(p.split("=", 1) for p in match.group("props").split(","))
        assert _unescape(props["file"]) == violation.location.file
        assert props["line"] == str(violation.location.line)
        assert props["col"] == str(violation.location.column)
        assert props["title"] == violation.rule_id
        assert _unescape(match.group("data")) == visible_keeping_breaks(violation.message)


def test_escaping_of_message_and_properties(sample_result: ValidationResult) -> None:
    text = render_github(sample_result)
    # "100% private):...\nsee | docs" -> one line, % and LF escaped, ":" left alone in data.
    assert "(100%25 private): use src/c%0Asee | docs" in text
    # A comma in a file name would otherwise split the properties.
    assert "file=src/c/x%2Cy.ts,line=7,col=3,endLine=7,endColumn=20" in text
    assert escape_property("C:\\a,b%\r\n") == "C%3A\\a%2Cb%25%0D%0A"
    assert escape_data("a:b,c%\r\n") == "a:b,c%25%0D%0A"


@given(st.text())
def test_escaped_text_is_one_line_and_decodes_back(text: str) -> None:
    # Line breaks round-trip through %0D/%0A; every other control or bidi character is shown
    # as a visible escape (repository text must not reach the runner's log raw).
    shown = visible_keeping_breaks(text)
    for escaped in (escape_data(text), escape_property(text)):
        assert "\n" not in escaped
        assert "\r" not in escaped
        assert _unescape(escaped) == shown
        assert not any(ch in escaped for ch in "\x00\x07\x1b\u202e\u2066")
    assert ":" not in escape_property(text)
    assert "," not in escape_property(text)


def test_at_most_max_per_level_then_a_count() -> None:
    violations = (
        [_violation(Severity.INFO, n) for n in range(12)]
        + [_violation(Severity.WARNING, n) for n in range(3)]
        + [_violation(Severity.ERROR, n) for n in range(15)]
    )
    lines = render_github(make_result(violations=tuple(violations))).splitlines()
    kinds = [line.split(" ", 1)[0].split("::")[1] for line in lines[:-1]]
    assert kinds == ["error"] * 10 + ["warning"] * 3 + ["notice"] * 10
    assert lines[:10] == [line for line in lines if line.startswith("::error ")], (
        "errors come first"
    )
    summary = lines[-1]
    assert summary.startswith("::notice::")
    assert "7 more violations" in summary
    assert "5 error" in summary
    assert "2 info" in summary
    assert "warning" not in summary
    assert "job summary" in summary


def test_custom_cap_and_no_count_when_nothing_is_left_out() -> None:
    violations = tuple(_violation(Severity.ERROR, n) for n in range(3))
    assert len(render_github(make_result(violations=violations), max_per_level=1).splitlines()) == 2
    lines = render_github(make_result(violations=violations), max_per_level=3).splitlines()
    assert len(lines) == 3
    assert all(line.startswith("::error ") for line in lines)


def test_no_violations_no_output() -> None:
    assert render_github(make_result(violations=())) == ""


def test_under_new_since_findings_on_changed_lines_are_annotated_first() -> None:
    import dataclasses

    from filid.model.report import NewSince

    errors = tuple(_violation(Severity.ERROR, n) for n in range(1, 16))
    changed = {
        "src/m14/index.ts": frozenset({14}),  # the finding's own line changed
        "src/m12/index.ts": frozenset({1}),  # the file changed, not the finding's line
        "src/m13/index.ts": None,  # a new file
    }
    result = dataclasses.replace(
        make_result(errors),
        new_since=NewSince("main", "0" * 40, 15, 0, 0, changed_lines=changed),
    )
    files = [
        re.search(r"file=([^,]+)", line)[1]  # type: ignore[index]
        for line in render_github(result).splitlines()
        if line.startswith("::error")
    ]
    assert files[:3] == ["src/m13/index.ts", "src/m14/index.ts", "src/m12/index.ts"]
    assert files[3:] == [f"src/m{n:02}/index.ts" for n in range(1, 8)]
