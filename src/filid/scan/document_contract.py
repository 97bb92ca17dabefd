"""What the FCA document contract reads in an INTENT.md or DETAIL.md text.

Pure functions over a document's lines, with the upstream plugin's semantics (vincent-kk/ogham
``plugins/filid/src/core/rules/documentValidator``): the three boundary sections of an intent
document, the ``## ``-level sections and their path tokens (a section naming three or more
paths is an inventory the tree already answers), and a detail document's required sections
and acceptance groups (``### <stable-id> — <title>`` under ``## Acceptance Criteria``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

INTENT_LINE_LIMIT = 50
REQUIRED_DETAIL_SECTIONS = ("Requirements", "API Contracts", "Acceptance Criteria", "Last Updated")
DERIVABLE_ENUMERATION_THRESHOLD = 3
# Below this many direct children, naming them all is not a directory listing.
MIN_CHILD_COUNT = 4

_BOUNDARIES = (
    ("Always do", re.compile(r"^###?\s*always\s*do", re.IGNORECASE | re.MULTILINE)),
    ("Ask first", re.compile(r"^###?\s*ask\s*first", re.IGNORECASE | re.MULTILINE)),
    ("Never do", re.compile(r"^###?\s*never\s*do", re.IGNORECASE | re.MULTILINE)),
)
_PATH_TOKEN = re.compile(r"`([^`\s]*/[^`\s]*)`")
_SCHEME_PREFIX = re.compile(r"^[a-z][a-z0-9+.-]*:")
_FENCE = re.compile(r"^\s*(```|~~~)")
_SECTION = re.compile(r"^##\s+(.*)$")
_GROUP_HEADING = re.compile(r"^###\s+([A-Za-z][A-Za-z0-9._-]*)\s+—\s+(.+?)\s*$")


@dataclass(frozen=True, slots=True)
class Section:
    """One ``## ``-level slice of a document: its title ('' for the preamble), the 1-based
    line of its heading (1 for the preamble) and its body with fenced code removed."""

    title: str
    line: int
    body: str


@dataclass(frozen=True, slots=True)
class DetailProblem:
    """One way a DETAIL.md misses its contract, with the 1-based line it points at."""

    kind: str
    message: str
    line: int = 1


def missing_boundaries(lines: Sequence[str]) -> list[str]:
    """The boundary sections ("Always do", "Ask first", "Never do") an intent document lacks:
    a ``##`` or ``###`` heading starting with the words, case and spacing free."""
    text = "\n".join(lines)
    return [name for name, pattern in _BOUNDARIES if pattern.search(text) is None]


def split_sections(lines: Sequence[str]) -> list[Section]:
    """The document's ``## ``-level sections, fenced code blocks left out of every body."""
    sections = [Section("", 1, "")]
    bodies: list[list[str]] = [[]]
    in_fence = False
    for number, line in enumerate(lines, start=1):
        if _FENCE.match(line):
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        heading = _SECTION.match(line)
        if heading:
            sections.append(Section(heading.group(1).strip(), number, ""))
            bodies.append([])
            continue
        bodies[-1].append(line)
    return [
        Section(s.title, s.line, "".join(f"{line}\n" for line in body))
        for s, body in zip(sections, bodies, strict=True)
    ]


def path_tokens(text: str) -> list[str]:
    """The distinct path-shaped code spans of ``text``: backticked, whitespace-free, with a
    ``/``. Globs, ``@scoped`` names, ``<placeholders>`` and ``scheme:`` specifiers are not
    paths; spellings that differ by a trailing ``/`` count once (the ``/`` spelling kept)."""
    by_key: dict[str, str] = {}
    for match in _PATH_TOKEN.finditer(text):
        token = match.group(1)
        if "*" in token or token.startswith("@"):
            continue
        if "<" in token or ">" in token or _SCHEME_PREFIX.match(token):
            continue
        key = token.rstrip("/")
        if not key:
            continue
        kept = by_key.get(key)
        if kept is None or (not kept.endswith("/") and token.endswith("/")):
            by_key[key] = token
    return list(by_key.values())


def section_label(section: Section, *, capital: bool = False) -> str:
    """How a message names a section: its quoted title, or the preamble."""
    if section.title == "":
        return "The preamble" if capital else "the preamble"
    return f'{"Section " if capital else ""}"{section.title}"'


def acceptance_groups(lines: Sequence[str]) -> list[str]:
    """The ids of the acceptance groups a DETAIL.md declares, first occurrence of each."""
    return [group for group, _ in _scan_acceptance(lines)[0]]


def _scan_acceptance(
    lines: Sequence[str],
) -> tuple[list[tuple[str, int]], list[DetailProblem]]:
    groups: list[tuple[str, int]] = []
    problems: list[DetailProblem] = []
    seen: set[str] = set()
    inside = False
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if line == "## Acceptance Criteria":
            inside = True
            continue
        if inside and line.startswith("## "):
            inside = False
            continue
        if not inside or not line.startswith("### "):
            continue
        match = _GROUP_HEADING.match(line)
        if match is None:
            problems.append(
                DetailProblem(
                    "group-heading",
                    f"invalid acceptance group heading at line {number}; expected "
                    '"### <stable-id> — <title>"',
                    number,
                )
            )
            continue
        group = match.group(1)
        if group in seen:
            problems.append(
                DetailProblem("duplicate-group", f'duplicate acceptance group id "{group}"', number)
            )
            continue
        seen.add(group)
        groups.append((group, number))
    return groups, problems


def detail_problems(lines: Sequence[str]) -> list[DetailProblem]:
    """The required sections a DETAIL.md lacks and its acceptance-group problems, in the
    upstream plugin's order (sections, then group headings, then "no group")."""
    problems = [
        DetailProblem("missing-section", f'DETAIL.md is missing required section "## {section}"')
        for section in REQUIRED_DETAIL_SECTIONS
        if not any(line.strip() == f"## {section}" for line in lines)
    ]
    groups, group_problems = _scan_acceptance(lines)
    problems.extend(group_problems)
    heading = next(
        (n for n, line in enumerate(lines, start=1) if line.strip() == "## Acceptance Criteria"),
        None,
    )
    if heading is not None and not groups:
        problems.append(
            DetailProblem(
                "no-group", "DETAIL.md must declare at least one acceptance group", heading
            )
        )
    return problems
