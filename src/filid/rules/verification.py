"""The verification records the case-cap and spec-contract rules read (not a rule itself).

Follows the upstream plugin 1.0 (vincent-kk/ogham ``core/verification/**`` and the ECMAScript
verification adapter): a source file whose stem ends in ``.spec`` is a *spec document*, one
ending in ``.test`` a *test record*, provided it declares at least one case or its count is
inexact (an exact zero means it verifies nothing: the role is earned by content, not by a
rename). Each record belongs to the owner of its folder (SPEC §4); a spec document links to
acceptance groups of its owner's DETAIL.md with ``filid:contract <id>`` comments.

Upstream also reports, for each verification rule that found nothing itself, that the
evidence is "indeterminate" when any file's count is inexact. filid leaves that echo out: the
file whose count is inexact is already reported by its case-cap rule, by name.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from filid.model.facts import CaseCount
from filid.model.violations import Location, Severity
from filid.rules.base import Finding, RuleContext
from filid.scan.document_contract import acceptance_groups

SPEC_DOCUMENT = "spec-document"
TEST_RECORD = "test-record"


@dataclass(frozen=True, slots=True)
class VerificationFile:
    """One verification record: its path, role, case count and owner node."""

    path: str
    role: str
    cases: CaseCount
    owner: str


@dataclass(frozen=True, slots=True)
class ContractProblem:
    """A spec-contract finding: which rule, the spec file, its owner and the message."""

    rule_id: str
    path: str
    owner: str
    message: str
    group: str


def role_of(path: str) -> str:
    """``spec-document`` for ``*.spec.*``, else ``test-record``."""
    stem = path.rpartition("/")[2].rpartition(".")[0]
    return SPEC_DOCUMENT if stem.endswith(".spec") else TEST_RECORD


def _path_of(record: tuple[str, CaseCount]) -> str:
    return record[0]


def verification_files(context: RuleContext) -> Iterator[VerificationFile]:
    """Every verification record of the project, sorted by path."""
    # the few records sorted, not every parsed file (four rules ask, at 50,000 files)
    records = [
        (path, cases)
        for path, facts in context.facts.items()
        if (cases := facts.cases) is not None and not (cases.is_exact and cases.count == 0)
    ]
    records.sort(key=_path_of)
    for path, cases in records:
        yield VerificationFile(path, role_of(path), cases, context.tree.owner_of(path).path)


def _detail_of(owner: str) -> str:
    return "DETAIL.md" if owner == "." else f"{owner}/DETAIL.md"


def contract_problems(context: RuleContext) -> list[ContractProblem]:
    """Where several spec documents share one owner: specs that link to no acceptance group
    or to one their owner's DETAIL.md does not declare (``spec-contract-link``), and groups
    that more than one spec claims (``spec-fragmentation``)."""
    specs: dict[str, list[VerificationFile]] = {}
    for record in verification_files(context):
        if record.role == SPEC_DOCUMENT:
            specs.setdefault(record.owner, []).append(record)
    problems: list[ContractProblem] = []
    for owner, owned in sorted(specs.items()):
        if len(owned) <= 1:
            continue
        node = context.tree.nodes[owner]
        available: set[str] = set()
        if node.detail_doc == "DETAIL.md":
            facts = context.tree.documents.get(node.file_path("DETAIL.md"))
            if facts is not None:
                available = set(acceptance_groups(facts.lines))
        claimed: dict[str, str] = {}
        label = "the project root" if owner == "." else owner
        for spec in owned:
            if not spec.cases.contract_ids:
                problems.append(
                    ContractProblem(
                        "spec-contract-link",
                        spec.path,
                        owner,
                        f"multiple spec documents owned by {label} must each declare at least "
                        "one DETAIL acceptance group (a `filid:contract <id>` comment)",
                        "",
                    )
                )
                continue
            for group in spec.cases.contract_ids:
                if group not in available:
                    problems.append(
                        ContractProblem(
                            "spec-contract-link",
                            spec.path,
                            owner,
                            f'contract group "{group}" is not declared by {_detail_of(owner)}',
                            group,
                        )
                    )
                previous = claimed.get(group)
                if previous is not None and previous != spec.path:
                    problems.append(
                        ContractProblem(
                            "spec-fragmentation",
                            spec.path,
                            owner,
                            f'contract group "{group}" is split across {previous} and {spec.path}',
                            group,
                        )
                    )
                else:
                    claimed[group] = spec.path
    return problems


def case_cap_findings(
    context: RuleContext, role: str, rule_id: str, max_cases: int
) -> Iterator[Finding]:
    """The findings of a case-cap rule (``spec-document-case-cap``, ``test-record-case-cap``):
    each record of ``role`` over ``max_cases``, and each whose cases cannot be counted exactly
    (a warning, as upstream reports it)."""
    for record in verification_files(context):
        if record.role != role:
            continue
        cases = record.cases
        if not cases.is_exact:
            yield Finding(
                node=record.owner,
                path=record.path,
                message=(
                    f"{rule_id} is indeterminate for {record.path}: " + "; ".join(cases.reasons)
                ),
                location=Location(file=record.path),
                suggestion="write the table's rows literally, or call the case function by name",
                fingerprint_parts=("indeterminate",),
                severity=Severity.WARNING,
            )
        elif cases.count > max_cases:
            yield Finding(
                node=record.owner,
                path=record.path,
                message=(
                    f"{role} has {cases.count} semantic cases; the per-file cap is {max_cases}"
                ),
                location=Location(file=record.path),
                suggestion="split it by behaviour, or turn cases into rows of one table",
                fingerprint_parts=("cap",),
            )
