"""naming-convention: directory names are kebab-case or camelCase (or a configured pattern)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import ClassVar

from filid.config.regex import compile_user_regex
from filid.model.violations import FixInfo, Risk, Severity, SyncActionKind
from filid.rules.base import (
    ALL_CATEGORIES,
    Finding,
    NoOptions,
    RuleCategory,
    RuleContext,
    RuleExample,
    RuleMeta,
    join_path,
    parent_path,
)
from filid.scan.classify import is_infra_name

KEBAB_CASE = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")
CAMEL_CASE = re.compile(r"^[a-z][a-zA-Z0-9]*$")
_WORD_BOUNDARY = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_SEPARATORS = re.compile(r"[^a-zA-Z0-9]+")


def to_kebab_case(name: str) -> str:
    """``UserProfile`` → ``user-profile``; ``my_folder`` → ``my-folder``; may return ``""``."""
    spaced = _WORD_BOUNDARY.sub("-", name)
    words = [w for w in _SEPARATORS.split(spaced) if w]
    kebab = "-".join(w.lower() for w in words)
    while kebab and not kebab[0].isalpha():
        kebab = kebab[1:].lstrip("-")
    return kebab


_ROUTE_SEGMENT = re.compile(r"^(\[\[?(\.\.\.)?[^\]/]+\]\]?|\([^)/]+\)|@[^/]+|_[^/]*|\+[^/]+)$")
MIGRATION_FOLDERS = frozenset({"migrations"})
# Test data mirrors something outside the project (a vault, a repository, an API's files):
# folder names under these are data, not design.
DATA_FOLDERS = frozenset({"fixtures", "__fixtures__", "__snapshots__", "__mocks__"})


def is_framework_significant(path: str) -> bool:
    """True for a name a framework gives meaning to (SPEC §5): route segments ``[id]``,
    ``[...slug]``, ``[[...slug]]``, ``(group)``, ``@slot``, ``_private``, ``+x`` (the last
    segment), everything under a ``migrations`` folder (Prisma, Drizzle, Knex), and test
    data under ``fixtures``/``__fixtures__``/``__snapshots__``/``__mocks__``."""
    segments = path.split("/")
    if any(s in MIGRATION_FOLDERS or s in DATA_FOLDERS for s in segments[:-1]):
        return True
    return _ROUTE_SEGMENT.match(segments[-1]) is not None


class NamingConvention:
    """Flags directory names that are neither kebab-case nor camelCase."""

    meta: ClassVar[RuleMeta] = RuleMeta(
        id="naming-convention",
        category=RuleCategory.NAMING,
        default_severity=Severity.WARNING,
        applies_to=ALL_CATEGORIES,
        description="Directory names are kebab-case or camelCase.",
        rationale=(
            "Predictable folder names let people and agents find a module from its import path; "
            "mixed conventions breed near-duplicate folders. Frameworks that need other names "
            "(PascalCase components, Next.js `[id]` or `(group)` routes) are allowed through "
            "`structure.namingPatterns`."
        ),
        valid=(
            RuleExample(
                "kebab-case and camelCase folders",
                {
                    "src/user-profile/index.ts": "export {};\n",
                    "src/authFlow/index.ts": "export {};\n",
                },
            ),
        ),
        invalid=(
            RuleExample(
                "a snake_case folder",
                {"src/user_profile/index.ts": "export {};\n"},
            ),
            RuleExample(
                "a PascalCase folder without a naming pattern",
                {"src/UserProfile/index.ts": "export {};\n"},
            ),
        ),
        fix_action=SyncActionKind.RENAME,
        fix_risk=Risk.MODERATE,
        enabled_by_default=False,
    )
    options_type: ClassVar[type[NoOptions]] = NoOptions

    def check(self, context: RuleContext, options: NoOptions) -> Iterable[Finding]:
        """Yield one finding per badly named node (not the root, infra or dot names)."""
        # Linear time (RE2): a pattern from the repository's config cannot hang the run.
        patterns = [compile_user_regex(p) for p in context.structure.naming_patterns]
        for node in context.tree.nodes.values():
            name = node.name
            if node.path == "." or is_infra_name(name) or name.startswith("."):
                continue
            if is_framework_significant(node.path) or context.is_in_route_tree(node.path):
                continue  # route folder names are URL segments
            if not context.holds_source(node.path):
                continue  # numbered docs folders, assets: no module name to judge
            if KEBAB_CASE.match(name) or CAMEL_CASE.match(name):
                continue
            if any(search(name) for search in patterns):
                continue
            kebab = to_kebab_case(name)
            parent = parent_path(node.path)
            fix = None
            suggestion = None
            target = join_path(parent, kebab) if kebab else None
            if target and target != node.path and target not in context.tree.nodes:
                suggestion = f"rename to '{kebab}'"
                fix = FixInfo(
                    action=SyncActionKind.RENAME,
                    risk=Risk.MODERATE,
                    description=f"rename {node.path} to {target} and rewrite the imports into it",
                    target_path=target,
                )
            yield Finding(
                node=node.path,
                path=node.path,
                message=f"directory name '{name}' is neither kebab-case nor camelCase",
                suggestion=suggestion,
                fix=fix,
            )
