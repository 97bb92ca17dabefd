"""Shared inputs of the report tests: one hand-built result, golden files, the SARIF schema.

Set ``FILID_UPDATE_GOLDEN=1`` to rewrite the golden files under ``tests/report/golden/`` from
the current output (then review the diff). ``FILID_SARIF_SCHEMA`` may point at a local copy
of ``sarif-2.1.0.json``; otherwise the schema is taken from npm
``@microsoft/sarif-multitool-linux`` (installed into ``<repo>/.cache/npm-sarif`` if needed).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from filid.model.nodes import NodeCategory
from filid.model.report import ValidationResult
from filid.model.violations import FixInfo, Location, Risk, Severity, SyncActionKind, Violation
from filid.rules.base import RuleCategory, RuleExample, RuleMeta

REPO_ROOT = Path(__file__).resolve().parents[2]
GOLDEN_DIR = Path(__file__).parent / "golden"
SCHEMA_DIR = Path(__file__).parent / "schemas"
SARIF_NPM_PACKAGE = "@microsoft/sarif-multitool-linux@5.7.0"
SARIF_NPM_PREFIX = REPO_ROOT / ".cache" / "npm-sarif"

ALL = frozenset(NodeCategory)
MODULES = frozenset({NodeCategory.FRACTAL, NodeCategory.HYBRID})


def _rule(
    rule_id: str,
    category: RuleCategory,
    severity: Severity,
    description: str,
    fix: tuple[SyncActionKind, Risk] | None = None,
    invalid: tuple[RuleExample, ...] = (),
    valid: tuple[RuleExample, ...] = (),
) -> RuleMeta:
    return RuleMeta(
        id=rule_id,
        category=category,
        default_severity=severity,
        applies_to=MODULES,
        description=description,
        rationale=f"Why {rule_id} matters: boundaries stay visible.",
        valid=valid,
        invalid=invalid,
        fix_action=fix[0] if fix else None,
        fix_risk=fix[1] if fix else None,
    )


SAMPLE_RULES: tuple[RuleMeta, ...] = (
    _rule(
        "circular-dependency",
        RuleCategory.DEPENDENCY,
        Severity.ERROR,
        "Modules must not import each other in a cycle.",
        fix=(SyncActionKind.MOVE, Risk.RISKY),
        invalid=(
            RuleExample(
                "a and b import each other",
                {
                    "src/a/index.ts": "import { b } from '../b';\nexport const a = 1;\n",
                    "src/b/index.ts": "import { a } from '../a';\nexport const b = a;\n",
                },
            ),
        ),
        valid=(RuleExample("a one-way import", {"src/a/index.ts": "export const a = 1;\n"}),),
    ),
    _rule(
        "external-import-boundary",
        RuleCategory.DEPENDENCY,
        Severity.ERROR,
        "Import a module through its entry point.",
        fix=(SyncActionKind.REWRITE_IMPORT, Risk.SAFE),
    ),
    _rule(
        "hybrid-node",
        RuleCategory.STRUCTURE,
        Severity.INFO,
        "An organ-named folder has become a module.",
        fix=(SyncActionKind.RECLASSIFY, Risk.MODERATE),
    ),
    _rule(
        "intent-document-contract",
        RuleCategory.DOCUMENTATION,
        Severity.WARNING,
        "Intent documents are short and state their boundaries.",
        valid=(
            RuleExample(
                "a document with ``` fences",
                {"src/a/CLAUDE.md": "# A\n\n```ts\ncode\n```\n"},
            ),
        ),
    ),
    _rule(
        "module-entry-point",
        RuleCategory.MODULE,
        Severity.WARNING,
        "A module has an index or main file.",
        fix=(SyncActionKind.CREATE_INDEX, Risk.SAFE),
    ),
    _rule(
        "naming-convention",
        RuleCategory.NAMING,
        Severity.WARNING,
        "Node names are kebab-case or camelCase.",
        fix=(SyncActionKind.RENAME, Risk.MODERATE),
    ),
)

SAMPLE_VIOLATIONS: tuple[Violation, ...] = tuple(
    sorted(
        (
            Violation(
                rule_id="circular-dependency",
                severity=Severity.ERROR,
                message="Import cycle between 3 modules: src/a -> src/b -> src/c -> src/a",
                path="src/a",
                location=Location("src/a/index.ts", 2, 1, 2, 30),
                node="src/a",
                suggestion="Move the shared part into src, the lowest common ancestor.",
                fix=FixInfo(SyncActionKind.MOVE, Risk.RISKY, "Move the shared part", "src"),
                related=(
                    Location("src/a/index.ts", 2, 1, 2, 30),
                    Location("src/b/index.ts", 1, 1, 1, 28),
                    Location("src/c/util/helpers.ts", 5, 1, 5, 25),
                ),
                members=("src/a", "src/b", "src/c", "src/c/util"),
                fingerprint="fp-cycle-abc",
            ),
            Violation(
                rule_id="external-import-boundary",
                severity=Severity.ERROR,
                # %, :, newline and | all need escaping in one format or another.
                message="Deep import of src/c/impl.ts (100% private): use src/c\nsee | docs",
                path="src/b/deep.ts",
                location=Location("src/b/deep.ts", 4, 10, 4, 30, utf16_column=11),
                node="src/b",
                fix=FixInfo(
                    SyncActionKind.REWRITE_IMPORT,
                    Risk.SAFE,
                    "Import from src/c instead of src/c/impl.ts",
                    "src/b/deep.ts",
                ),
                fingerprint="fp-deep-b",
            ),
            Violation(
                rule_id="external-import-boundary",
                severity=Severity.ERROR,
                message="Deep import of src/a/x.ts, use src/a",
                path="src/c/x,y.ts",
                location=Location("src/c/x,y.ts", 7, 3, 7, 20),
                node="src/c",
                fingerprint="fp-deep-c",
            ),
            Violation(
                rule_id="module-entry-point",
                severity=Severity.WARNING,
                message="Module src/d has no index.* or main.*\x07",
                path="src/d",
                location=Location("src/d/d.ts", 1, 1),
                node="src/d",
                fix=FixInfo(
                    SyncActionKind.CREATE_INDEX,
                    Risk.SAFE,
                    "Create src/d/index.ts re-exporting d.ts",
                    "src/d/index.ts",
                ),
                fingerprint="fp-entry-d",
            ),
            Violation(
                rule_id="hybrid-node",
                severity=Severity.INFO,
                message="src/utils is an organ-named folder that became a module",
                path="src/utils",
                location=Location("src/utils/CLAUDE.md", 1, 1),
                node="src/utils",
                fingerprint="fp-hybrid-utils",
            ),
            Violation(
                rule_id="naming-convention",
                severity=Severity.WARNING,
                message="Name 'Ünïcode_Mödul' is not kebab-case — rename to 'unicode-modul'",
                path="src/Ünïcode_Mödul",
                location=Location("src/Ünïcode_Mödul/index.ts", 1, 1),
                node="src/Ünïcode_Mödul",
                suggestion="Rename to src/unicode-modul",
                fix=FixInfo(
                    SyncActionKind.RENAME,
                    Risk.MODERATE,
                    "Rename src/Ünïcode_Mödul to src/unicode-modul",
                    "src/unicode-modul",
                ),
                fingerprint="fp-name-unicode",
            ),
        ),
        key=Violation.sort_key,
    )
)

SAMPLE_EVALUATED: dict[str, tuple[str, ...]] = {
    "circular-dependency": ("src/a", "src/b", "src/c", "src/d"),
    "external-import-boundary": ("src/a", "src/b", "src/c"),
    "hybrid-node": ("src/utils",),
    "intent-document-contract": ("src/a", "src/b"),
    "module-entry-point": ("src/a", "src/b", "src/c", "src/d"),
    "naming-convention": ("src/a", "src/b", "src/c", "src/d", "src/utils", "src/Ünïcode_Mödul"),
}


def make_result(
    violations: tuple[Violation, ...] = SAMPLE_VIOLATIONS,
    evaluated: dict[str, tuple[str, ...]] | None = None,
    baseline_suppressed: int = 2,
) -> ValidationResult:
    """The sample result (or a variant with other violations)."""
    evaluated = SAMPLE_EVALUATED if evaluated is None else evaluated
    return ValidationResult(
        root=Path("/home/someone/project"),
        scope=".",
        violations=violations,
        evaluated=evaluated,
        rules_applied=tuple(sorted(evaluated)),
        rules_skipped=("max-depth",),
        config_path=".filid/config.json",
        timestamp="2025-01-02T03:04:05Z",
        notes=("1 file could not be parsed: src/broken.ts",),
        baseline_suppressed=baseline_suppressed,
    )


@pytest.fixture
def sample_result() -> ValidationResult:
    """One result exercising every feature the reporters render."""
    return make_result()


@pytest.fixture
def sample_rules() -> tuple[RuleMeta, ...]:
    """Metadata of the rules in ``sample_result``."""
    return SAMPLE_RULES


@pytest.fixture
def check_golden() -> Callable[[str, str], None]:
    """Compare output with ``golden/<name>`` (or rewrite it when FILID_UPDATE_GOLDEN=1)."""

    def check(name: str, actual: str) -> None:
        path = GOLDEN_DIR / name
        if os.environ.get("FILID_UPDATE_GOLDEN") == "1":
            GOLDEN_DIR.mkdir(exist_ok=True)
            with path.open("w", encoding="utf-8", newline="") as handle:
                handle.write(actual)
            return
        if not path.exists():
            pytest.fail(f"golden file {path} is missing: run with FILID_UPDATE_GOLDEN=1")
        with path.open(encoding="utf-8", newline="") as handle:
            expected = handle.read()
        assert actual == expected, f"output differs from {path} (FILID_UPDATE_GOLDEN=1 rewrites)"

    return check


@pytest.fixture(scope="session")
def sarif_schema(sarif_schema_path: Path) -> dict[str, Any]:
    """The official SARIF 2.1.0 JSON schema, from npm ``@microsoft/sarif-multitool-linux``."""
    schema: dict[str, Any] = json.loads(sarif_schema_path.read_text(encoding="utf-8"))
    assert "definitions" in schema, f"{sarif_schema_path} does not look like the SARIF schema"
    return schema


@pytest.fixture(scope="session")
def sarif_schema_path() -> Path:
    """Where ``sarif-2.1.0.json`` is (FILID_SARIF_SCHEMA, node_modules, or a fresh install)."""
    configured = os.environ.get("FILID_SARIF_SCHEMA")
    if configured:
        return Path(configured)
    found = _find_schema()
    if found is None:
        npm = shutil.which("npm")
        if npm is None:
            pytest.skip(
                "the SARIF 2.1.0 schema is not available: npm is not installed; "
                f"run `npm install --no-save --prefix .cache/npm-sarif {SARIF_NPM_PACKAGE}` "
                "or set FILID_SARIF_SCHEMA to a copy of sarif-2.1.0.json"
            )
        SARIF_NPM_PREFIX.mkdir(parents=True, exist_ok=True)
        completed = subprocess.run(
            [npm, "install", "--no-save", "--no-audit", "--no-fund", "--prefix",
             str(SARIF_NPM_PREFIX), SARIF_NPM_PACKAGE],
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )  # fmt: skip
        found = _find_schema()
        if found is None:
            pytest.fail(
                f"npm install {SARIF_NPM_PACKAGE} did not provide sarif-2.1.0.json "
                f"(exit {completed.returncode}): {completed.stderr[-2000:]}"
            )
    return found


def _find_schema() -> Path | None:
    for modules in (
        REPO_ROOT / "node_modules",
        REPO_ROOT / "tests" / "node" / "node_modules",
        SARIF_NPM_PREFIX / "node_modules",
    ):
        package = modules / "@microsoft" / "sarif-multitool-linux"
        if package.is_dir():
            for candidate in sorted(package.rglob("sarif-2.1.0.json")):
                return candidate
    return None
