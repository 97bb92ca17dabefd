"""The README's references resolve inside the repository (no citation of documents it lacks)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _anchor(heading: str) -> str:
    text = heading.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def test_readme_cites_no_section_of_a_document_outside_the_repository() -> None:
    assert not re.search(r"\bSPEC §", README)


def test_readme_anchor_links_name_existing_headings() -> None:
    anchors = {_anchor(m.group(1)) for m in re.finditer(r"^#{1,6} (.+)$", README, re.M)}
    for target in re.findall(r"\]\(#([^)]+)\)", README):
        assert target in anchors, target


def test_readme_relative_links_and_named_files_exist() -> None:
    for target in re.findall(r"\]\((?!#|https?:)([^)#]+)", README):
        assert (ROOT / target).exists(), target
    for path in (".ci/run", ".github/workflows/ci.yml", ".github/workflows/release.yml"):
        assert (ROOT / path).exists(), path


def test_every_rule_option_is_documented_in_the_readme_and_rules_get() -> None:
    from filid.rules.base import option_docs
    from filid.rules.registry import RULES

    for rule in RULES:
        for name, _default, doc in option_docs(rule.options_type):
            assert f"| `{rule.meta.id}` | `{name}` |" in README, (rule.meta.id, name)
            assert doc, (rule.meta.id, name)
