"""Every rule's documented examples are executable: invalid ones fire, valid ones do not."""

from __future__ import annotations

import pytest

from filid.check.engine import evaluate
from filid.check.project import load_project
from filid.rules.base import RuleExample
from filid.rules.registry import RULES
from tests.conftest import ProjectFactory

CASES = [
    pytest.param(rule.meta.id, example, invalid, id=f"{rule.meta.id}-{kind}{i}")
    for rule in RULES
    for invalid, kind, examples in (
        (True, "invalid", rule.meta.invalid),
        (False, "valid", rule.meta.valid),
    )
    for i, example in enumerate(examples)
]


def test_every_rule_documents_both_kinds_of_example() -> None:
    for rule in RULES:
        assert rule.meta.valid, rule.meta.id
        assert rule.meta.invalid, rule.meta.id
        assert rule.meta.rationale and rule.meta.description


@pytest.mark.parametrize(("rule_id", "example", "invalid"), CASES)
def test_rule_example(
    make_project: ProjectFactory, rule_id: str, example: RuleExample, invalid: bool
) -> None:
    # The examples show the rule where it runs: a project whose config enables it (declared).
    # (An example that carries its own config is declared by it.)
    config = (
        None if ".filid/config.json" in example.files else {"rules": {rule_id: {"enabled": True}}}
    )
    root = make_project(dict(example.files), config)
    result = evaluate(load_project(root, use_cache=False), rule_ids=[rule_id])
    found = [v for v in result.violations if v.rule_id == rule_id]
    if invalid:
        assert found, f"{rule_id}: '{example.description}' should fire"
    else:
        assert not found, f"{rule_id}: '{example.description}' fired: {found}"


def test_zero_peer_eponymous_file_ignores_case_style_and_moves_into_kebab_folders(
    make_project: ProjectFactory,
) -> None:
    root = make_project(
        {
            "src/user-card/index.ts": "export { UserCard } from './UserCard';\n",
            "src/user-card/UserCard.tsx": "export const UserCard = (): null => null;\n",
            "src/user-card/AvatarImage.tsx": "export const AvatarImage = (): null => null;\n",
        },
        {"version": "2.0"},
    )
    result = evaluate(load_project(root, use_cache=False), rule_ids=["zero-peer-file"])
    assert [v.path for v in result.violations] == ["src/user-card/AvatarImage.tsx"]
    fix = result.violations[0].fix
    assert fix is not None
    assert fix.target_path == "src/user-card/avatar-image/AvatarImage.tsx"
