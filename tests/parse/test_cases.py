"""Test-case counts of ``*.spec.*`` / ``*.test.*`` files, from the upstream plugin's own cases
(vincent-kk/ogham ``adapters/ecmascript/__tests__/verificationCounting.test.ts``,
``verificationAdapter.spec.ts``)."""

from __future__ import annotations

import pytest

from filid.model.facts import CaseCount
from filid.parse.extract import parse_source


def count(source: str, path: str = "a.test.ts") -> CaseCount:
    cases = parse_source(path, source.encode("utf-8")).cases
    assert cases is not None
    return cases


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("it('a', () => {}); test('b', () => {});", 2),
        ("it.skip('a', () => {});", 1),
        ("test.todo('later');", 1),
        ("test.prop([integer()])('property', ([value]) => value === value);", 1),
        ("it.each([1, 2, 3])('row %s', (value) => expect(value).toBeTruthy());", 3),
        ("test.each([{ value: 1 }, { value: 2 }])('row', ({ value }) => {});", 2),
        ("it.each`left | right\n1 | 2\n3 | 4`('row', ({ left }) => {});", 2),
        (
            "describe.each(['a', 'b'])('suite', () => { it('one', () => {}); "
            "test.each([1, 2])('row', () => {}); });",
            6,
        ),
        (
            "// it('fake', () => {});\nconst text = \"test('fake', () => {})\";\n"
            "it('real', () => {});",
            1,
        ),
        ("it.only('focused', () => {}); test.concurrent('parallel', () => {});", 2),
        ("it.each([])('never instantiated', () => {});", 0),
        # filid reads a `[…] as const` table as upstream does, and also one behind a type
        # argument (upstream gives up at the `<`).
        ("it.each([['a', 1], ['b', 2]] as const)('row %s', () => {});", 2),
        ("it.each<{ a: number }>([{ a: 1 }, { a: 2 }])('row', () => {});", 2),
    ],
)
def test_exact_counts(source: str, expected: int) -> None:
    cases = count(source)
    assert cases.is_exact, cases.reasons
    assert cases.count == expected


@pytest.mark.parametrize(
    "source",
    [
        "it.each(loadRows())('row', () => {});",
        "const scenario = it;\nscenario('wrapped', () => {});",
        "it.each`value\n${loadValue()}`('dynamic', ({ value }) => {});",
        "it.each([...rows, 1])('row', () => {});",
        "describe.each(suites)('suite', () => { it('one', () => {}); });",
    ],
)
def test_inexact_counts_say_why(source: str) -> None:
    cases = count(source)
    assert not cases.is_exact
    assert cases.reasons


def test_a_dynamic_suite_table_counts_nothing_inside_it() -> None:
    cases = count("describe.each(load())('s', () => { it('a', () => {}); });\nit('b', () => {});")
    assert cases.count == 1  # the known lower bound: only the case outside the suite


def test_contract_markers_come_from_comments_only() -> None:
    cases = count(
        "// filid:contract AC-create\n/* filid:contract AC-delete\n filid:contract AC-create */\n"
        "const text = 'filid:contract AC-string';\nit('holds a case', () => {});\n",
        "create.spec.ts",
    )
    assert cases.contract_ids == ("AC-create", "AC-delete")


@pytest.mark.parametrize("path", ["a.ts", "a.spec-helper.ts", "spec/a.ts", "a.stories.tsx"])
def test_only_spec_and_test_stems_are_counted(path: str) -> None:
    assert parse_source(path, b"it('a', () => {});").cases is None


@pytest.mark.parametrize("path", ["a.spec.ts", "a.test.js", "a.test.tsx", "a.spec.mjs"])
def test_spec_and_test_stems_of_any_source_extension_are_counted(path: str) -> None:
    assert count("it('works', () => {});", path).count == 1
