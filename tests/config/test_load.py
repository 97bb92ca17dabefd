"""load_config: which file, what it becomes, and every problem reported at once with key paths."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from filid.config.load import load_config
from filid.config.model import AllowedPeer, Config, RuleConfig, StructureConfig
from filid.model.errors import ConfigError
from filid.model.violations import Severity
from filid.rules.catalogue import ALIASES, RULE_IDS

KNOWN = RULE_IDS


def load(root: Path, explicit: Path | None = None) -> Config:
    return load_config(root, explicit, known_rule_ids=KNOWN, rule_aliases=ALIASES)


def write(root: Path, content: Any, name: str = ".filid/config.json") -> Path:
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content if isinstance(content, str) else json.dumps(content), "utf-8")
    return path


def error_of(root: Path, explicit: Path | None = None) -> str:
    with pytest.raises(ConfigError) as info:
        load(root, explicit)
    message = str(info.value)
    assert "\n" not in message
    return message


# ---- which file -------------------------------------------------------------------------------


def test_no_file_gives_defaults(tmp_path: Path) -> None:
    assert load(tmp_path) == Config()
    assert load(tmp_path).path is None


def test_default_location_is_read(tmp_path: Path) -> None:
    path = write(tmp_path, {"structure": {"maxDepth": 4}})
    config = load(tmp_path)
    assert config.structure.max_depth == 4
    assert config.path == path


def test_explicit_file_wins_over_default_location(tmp_path: Path) -> None:
    write(tmp_path, {"structure": {"maxDepth": 4}})
    explicit = write(tmp_path, {"structure": {"maxDepth": 7}}, "ci/filid.json")
    config = load(tmp_path, explicit)
    assert config.structure.max_depth == 7
    assert config.path == explicit


def test_explicit_missing_file_is_an_error(tmp_path: Path) -> None:
    message = error_of(tmp_path, tmp_path / "nope.json")
    assert message == "nope.json: config file not found"


def test_explicit_file_outside_root_is_named_as_given(tmp_path: Path) -> None:
    root = tmp_path / "project"
    root.mkdir()
    outside = write(tmp_path, "{", "elsewhere.json")
    assert error_of(root, outside).startswith(f"{outside}: invalid JSON")


# ---- parsing ----------------------------------------------------------------------------------


def test_invalid_json_names_line_and_column(tmp_path: Path) -> None:
    write(tmp_path, '{\n  "version": "2.0",\n  "rules": {,}\n}\n')
    message = error_of(tmp_path)
    assert message.startswith(".filid/config.json: invalid JSON at line 3 column 13: ")
    assert "double quotes" in message


def test_top_level_must_be_an_object(tmp_path: Path) -> None:
    write(tmp_path, "[]")
    assert error_of(tmp_path) == ".filid/config.json: expected a JSON object at the top level"


def test_byte_order_mark_is_tolerated(tmp_path: Path) -> None:
    path = tmp_path / ".filid" / "config.json"
    path.parent.mkdir()
    path.write_bytes(b"\xef\xbb\xbf" + b'{"structure": {"maxDepth": 3}}')
    assert load(tmp_path).structure.max_depth == 3


# ---- the full shape ---------------------------------------------------------------------------


def test_contract_example_loads_into_typed_config(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "version": "2.0",
            "rules": {
                "max-depth": {
                    "enabled": True,
                    "severity": "warning",
                    "exempt": ["src/legacy/**"],
                    "options": {"anything": [1, {"x": None}]},
                },
                "naming-convention": {"enabled": False},
            },
            "structure": {
                "maxDepth": 12,
                "additionalOrganNames": ["plans"],
                "additionalExcludedDirectories": ["generated"],
                "additionalAllowedPeers": [
                    {"basename": "vite.config.ts", "paths": ["apps/*"]},
                    "setupTests.ts",
                ],
                "namingPatterns": ["^[A-Z][A-Za-z0-9]*$", r"^\[[a-z]+\]$"],
            },
        },
    )
    config = load(tmp_path)
    assert config.rules == {
        "max-depth": RuleConfig(
            enabled=True,
            severity=Severity.WARNING,
            exempt=("src/legacy/**",),
            options={"anything": [1, {"x": None}]},
        ),
        "naming-convention": RuleConfig(enabled=False),
    }
    assert list(config.rules) == sorted(config.rules)
    assert config.structure == StructureConfig(
        max_depth=12,
        additional_organ_names=("plans",),
        additional_excluded_directories=("generated",),
        additional_allowed_peers=(
            AllowedPeer("vite.config.ts", ("apps/*",)),
            AllowedPeer("setupTests.ts", ()),
        ),
        naming_patterns=("^[A-Z][A-Za-z0-9]*$", r"^\[[a-z]+\]$"),
    )
    assert config.notes == ()
    assert config.version == "2.0"


def test_upstream_and_documentation_keys_are_accepted_and_ignored(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "$schema": "./node_modules/filid/config.schema.json",
            "$comment": "team settings",
            "version": "2.0",
            "language": "Korean",
            "adapters": {"mode": "auto", "enabled": []},
            "generatedPaths": ["src/gen/**"],
            "entryPointOverrides": {"typescript": ["cli.ts"]},
            "rules": {"max-depth": {"$comment": "why", "severity": "info"}},
            "structure": {
                "$comment": "shape",
                "entryPointOverrides": {"typescript": ["cli.ts"]},
                "additionalAllowedPeers": [{"basename": "a.ts", "adapterId": "typescript"}],
            },
        },
    )
    config = load(tmp_path)
    assert config.rules == {"max-depth": RuleConfig(severity=Severity.INFO)}
    assert config.structure.additional_allowed_peers == (AllowedPeer("a.ts"),)
    assert config.notes == ()


# ---- each error class, with its key path ------------------------------------------------------


@pytest.mark.parametrize(
    ("document", "expected"),
    [
        (
            {"structure": {"maxDepth": "x"}},
            "structure.maxDepth: expected an integer ≥ 1 (got 'x')",
        ),
        ({"structure": {"maxDepth": 0}}, "structure.maxDepth: expected an integer ≥ 1 (got 0)"),
        # No coercion: a JSON true is not the integer 1, a "5" is not 5.
        (
            {"structure": {"maxDepth": True}},
            "structure.maxDepth: expected an integer ≥ 1 (got true)",
        ),
        (
            {"rules": {"max-depth": {"enabled": "no"}}},
            "rules.max-depth.enabled: expected true or false (got 'no')",
        ),
        (
            {"rules": {"max-depth": {"severity": "critical"}}},
            "rules.max-depth.severity: expected one of 'error', 'warning', 'info' (got 'critical')",
        ),
        (
            {"rules": {"max-depth": {"exempt": "src/**"}}},
            "rules.max-depth.exempt: expected a list (got 'src/**')",
        ),
        (
            {"rules": {"max-depth": {"exempt": ["ok/**", 3]}}},
            "rules.max-depth.exempt[1]: expected a string (got 3)",
        ),
        (
            {"rules": {"max-depth": {"options": []}}},
            "rules.max-depth.options: expected an object (got [])",
        ),
        (
            {"rules": {"max-depth": "off"}},
            'rules.max-depth: expected an object such as {"enabled": false} or '
            '{"severity": "warning"} (got \'off\')',
        ),
        (
            {"rules": {"max-depth": {"sevrity": "error"}}},
            "rules.max-depth.sevrity: unknown key (did you mean 'severity'?)",
        ),
        ({"verison": "2.0"}, "verison: unknown key (did you mean 'version'?)"),
        ({"maxDepth": 3}, "maxDepth: unknown key (did you mean 'structure.maxDepth'?)"),
        (
            {"structure": {"namingPattern": []}},
            "structure.namingPattern: unknown key (did you mean 'namingPatterns'?)",
        ),
        (
            {"structure": {"namingPatterns": ["^ok$", "[a-"]}},
            "structure.namingPatterns[1]: not a valid regular expression: "
            "unterminated character set at position 0 (got '[a-')",
        ),
        (
            {"structure": {"additionalAllowedPeers": [7]}},
            "structure.additionalAllowedPeers[0]: expected a file name or an object "
            '{"basename": …, "paths": […]} (got 7)',
        ),
        (
            {"structure": {"additionalAllowedPeers": [{"paths": ["a"]}]}},
            "structure.additionalAllowedPeers[0].basename: required key missing",
        ),
        ({"version": "3.0"}, 'version: expected "1.0" or "2.0" (got \'3.0\')'),
        (
            {"rules": {"max-dept": {}}},
            "rules.max-dept: unknown rule id (did you mean 'max-depth'?)",
        ),
        (
            {"rules": {"no-such-thing-at-all": {}}},
            "rules.no-such-thing-at-all: unknown rule id (`filid rules list` shows the ids)",
        ),
        (
            {"rules": {"organ-no-intentmd": {}, "organ-no-claudemd": {}}},
            "rules.organ-no-intentmd: configures the same rule as rules.organ-no-claudemd; "
            "keep one",
        ),
    ],
)
def test_each_problem_names_file_and_key_path(
    tmp_path: Path, document: dict[str, Any], expected: str
) -> None:
    write(tmp_path, document)
    assert error_of(tmp_path) == f".filid/config.json: {expected}"


def test_all_problems_are_reported_at_once(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "verison": "2.0",
            "rules": {
                "max-depth": {"sevrity": "error"},
                "circular-dependncy": {"enabled": False},
                "zero-peer-file": {"severity": "fatal"},
            },
            "structure": {"maxDepth": "x", "namingPatterns": ["(", "ok"]},
        },
    )
    message = error_of(tmp_path)
    assert message.startswith(".filid/config.json: ")
    parts = message.removeprefix(".filid/config.json: ").split("; ")
    assert [part.split(": ")[0] for part in parts] == [
        "rules.circular-dependncy",
        "rules.max-depth.sevrity",
        "rules.zero-peer-file.severity",
        "structure.maxDepth",
        "structure.namingPatterns[0]",
        "verison",
    ]
    assert "did you mean 'circular-dependency'?" in parts[0]


# ---- rule ids ---------------------------------------------------------------------------------


def test_alias_configures_its_target(tmp_path: Path) -> None:
    write(tmp_path, {"rules": {"organ-no-intentmd": {"severity": "warning"}}})
    assert load(tmp_path).rules == {"organ-no-claudemd": RuleConfig(severity=Severity.WARNING)}


def test_upstream_1_0_rules_configure_like_any_other(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "rules": {
                "spec-fragmentation": {"enabled": False},
                "entry-point-surface": {"severity": "error"},
                "max-depth": {"enabled": False},
            }
        },
    )
    config = load(tmp_path)
    assert config.rules == {
        "spec-fragmentation": RuleConfig(enabled=False),
        "entry-point-surface": RuleConfig(severity=Severity.ERROR),
        "max-depth": RuleConfig(enabled=False),
    }
    assert config.notes == ()


def test_upstream_only_rule_entry_is_still_shape_checked(tmp_path: Path) -> None:
    write(tmp_path, {"rules": {"spec-fragmentation": {"enabld": False}}})
    assert "rules.spec-fragmentation.enabld: unknown key" in error_of(tmp_path)


# ---- version 1.0 ------------------------------------------------------------------------------


def test_version_1_config_is_migrated(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "version": "1.0",
            "language": "Korean",
            "rules": {
                "organ-no-intentmd": {"enabled": True, "severity": "error"},
                "naming-convention": {"enabled": False},
                "module-entry-point": {"exempt": ["packages/legacy/**"]},
            },
            "scan": {"maxDepth": 6},
            "additional-organ-names": ["plans"],
            "additional-allowed": ["manifest.file", {"basename": "cli.ts", "paths": ["src/**"]}],
            "additional-entry-points": ["module.entry"],
            "additional-route-patterns": ["^legacy"],
        },
    )
    config = load(tmp_path)
    assert config.version == "2.0"
    assert config.rules == {
        "module-entry-point": RuleConfig(exempt=("packages/legacy/**",)),
        "naming-convention": RuleConfig(enabled=False),
        "organ-no-claudemd": RuleConfig(enabled=True, severity=Severity.ERROR),
    }
    assert config.structure == StructureConfig(
        max_depth=6,
        additional_organ_names=("plans",),
        additional_allowed_peers=(
            AllowedPeer("manifest.file"),
            AllowedPeer("cli.ts", ("src/**",)),
        ),
        entry_point_overrides=("module.entry",),
    )
    assert len(config.notes) == 1
    note = config.notes[0]
    assert note.startswith("version 1.0 keys read as version 2.0: ")
    for moved in (
        "scan.maxDepth → structure.maxDepth",
        "additional-organ-names → structure.additionalOrganNames",
        "additional-allowed → structure.additionalAllowedPeers",
        "additional-entry-points → structure.entryPointOverrides",
        "additional-route-patterns (ignored)",
    ):
        assert moved in note


def test_version_1_key_errors_name_the_version_1_key(tmp_path: Path) -> None:
    write(tmp_path, {"version": "1.0", "scan": {"maxDepth": -1}, "additional-allowed": [{}]})
    assert error_of(tmp_path) == (
        ".filid/config.json: additional-allowed[0].basename: required key missing; "
        "scan.maxDepth: expected an integer ≥ 1 (got -1)"
    )


def test_version_1_key_in_version_2_file_is_a_note_naming_the_new_key(tmp_path: Path) -> None:
    # upstream 0.10.12 drops a 1.0 key from a "2.0" file with a warning and runs; so does filid
    write(tmp_path, {"scan": {"maxDepth": 4}, "additional-route-patterns": []})
    config = load(tmp_path)
    assert config.structure.max_depth == 10
    assert config.notes == (
        'additional-route-patterns: version 1.0 key in a "2.0" file: ignored; remove it',
        "scan: version 1.0 key in a \"2.0\" file: ignored; write 'structure.maxDepth' instead",
    )


def test_version_1_key_and_its_new_place_together_uses_the_version_1_key(tmp_path: Path) -> None:
    write(tmp_path, {"version": "1.0", "scan": {"maxDepth": 4}, "structure": {"maxDepth": 5}})
    config = load(tmp_path)
    assert config.structure.max_depth == 4
    assert "scan: also given as 'structure.maxDepth': the version 1.0 key is used" in config.notes


def test_zero_peer_file_additional_allowed_under_the_rule_is_honoured(tmp_path: Path) -> None:
    # the shape a real FCA repository wrote (line-lore-vscode); upstream's own agents wrote it too
    write(
        tmp_path,
        {
            "version": "1.0",
            "rules": {
                "zero-peer-file": {
                    "enabled": True,
                    "severity": "warning",
                    "additional-allowed": ["extension.ts", {"basename": "x.ts", "paths": ["a/*"]}],
                },
            },
        },
    )
    config = load(tmp_path)
    assert config.structure.additional_allowed_peers == (
        AllowedPeer("extension.ts"),
        AllowedPeer("x.ts", ("a/*",)),
    )
    assert config.rules["zero-peer-file"].severity is Severity.WARNING
    assert any("rules.zero-peer-file.additional-allowed" in note for note in config.notes)


def test_additional_allowed_under_another_rule_is_a_note(tmp_path: Path) -> None:
    write(tmp_path, {"rules": {"max-depth": {"additional-allowed": ["a.ts"]}}})
    config = load(tmp_path)
    assert config.structure.additional_allowed_peers == ()
    assert config.notes == ("rules.max-depth.additional-allowed: read only under zero-peer-file",)


def test_injected_rules_is_a_note(tmp_path: Path) -> None:
    write(tmp_path, {"version": "1.0", "rules": {}, "injected-rules": {"fca": True}})
    assert load(tmp_path).notes == (
        "injected-rules: the upstream plugin's rule-document list; ignored",
    )


def test_a_key_no_version_defines_is_still_an_error(tmp_path: Path) -> None:
    # an agent-invented key seen in the wild next to the additional-allowed shape
    write(tmp_path, {"rules": {"module-entry-point": {"allowed-no-entry": ["src/x"]}}})
    message = error_of(tmp_path)
    assert message.startswith(".filid/config.json: rules.module-entry-point.allowed-no-entry: ")
    assert "unknown key" in message
