"""The pydantic model of ``.filid/config.json`` and its error messages (the only pydantic user).

``load.py`` imports this module only when a config file exists, keeping pydantic off the
start-up path of a run without one. Everything here is about *shape*: types, unknown keys,
ranges, regular expressions. Meaning (rule ids, aliases, v1 migration) lives in ``load.py``.

Validation is strict (no ``"5"`` → ``5`` or ``true`` → ``1`` coercion) and every object
forbids unknown keys, except the free-form ones that belong to rules (``options``) or to the
upstream tool (``adapters``). Two documentation keys are accepted everywhere a user might want
them: ``$schema`` (top level, a JSON Schema URL/path for editors) and ``$comment`` (top level,
``structure`` and each rule: the JSON Schema comment keyword, which ``filid init`` uses to
explain the file because JSON has no comments).

Run ``python -m filid.config.schema`` to print the JSON Schema shipped as
``config.schema.json`` (a test checks the shipped file is current).
"""

from __future__ import annotations

import difflib
import json
from pathlib import Path
from typing import Annotated, Any, Literal, TypeAlias

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    GetJsonSchemaHandler,
    ValidationError,
    model_validator,
)
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema

from filid.config.regex import UserRegexError, compile_user_regex

__all__ = [
    "SCHEMA_FILE",
    "AllowedPeerModel",
    "ConfigModel",
    "KeyPath",
    "Problem",
    "RuleModel",
    "ScanV1Model",
    "StructureModel",
    "config_json_schema",
    "validate_document",
]

SCHEMA_FILE = Path(__file__).with_name("config.schema.json")

KeyPath: TypeAlias = tuple[str | int, ...]
Problem: TypeAlias = tuple[KeyPath, str]


def _compile_regex(value: str) -> str:
    try:
        compile_user_regex(value)
    except UserRegexError as error:
        raise ValueError(str(error)) from None
    return value


RegexStr = Annotated[str, AfterValidator(_compile_regex)]
NonEmptyStr = Annotated[str, Field(min_length=1)]
Comment = Annotated[str | None, Field(alias="$comment", description="A comment; ignored.")]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, populate_by_name=False)


class RuleModel(_Strict):
    """One entry of the rules section, keyed by rule id."""

    comment: Comment = None
    enabled: bool | None = Field(None, description="false turns the rule off.")
    severity: Literal["error", "warning", "info"] | None = Field(
        None, description="Replaces the severity of every violation of the rule."
    )
    exempt: list[NonEmptyStr] = Field(
        default_factory=list,
        description="Root-relative POSIX globs ('src/legacy/**'); matching findings are dropped.",
    )
    options: dict[str, Any] = Field(
        default_factory=dict, description="Rule-specific options (see `filid rules get ID`)."
    )
    additional_allowed: list[AllowedPeerModel] | None = Field(
        None,
        alias="additional-allowed",
        description=(
            "Version 1.0 era shape under rules.zero-peer-file: files allowed beside an entry "
            "point, read as structure.additionalAllowedPeers."
        ),
    )


class AllowedPeerModel(_Strict):
    """A file name allowed beside an entry point; a bare string means "anywhere"."""

    basename: NonEmptyStr
    paths: list[NonEmptyStr] = Field(
        default_factory=list, description="Root-relative globs of the folders it is allowed in."
    )
    adapter_id: str | None = Field(
        None, alias="adapterId", description="Upstream filid adapter id; accepted and ignored."
    )

    @model_validator(mode="before")
    @classmethod
    def _from_basename(cls, value: Any) -> Any:
        return {"basename": value} if isinstance(value, str) else value

    @classmethod
    def __get_pydantic_json_schema__(
        cls, core_schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        object_schema = handler(core_schema)
        return {"anyOf": [{"type": "string", "minLength": 1}, object_schema]}


class StructureModel(_Strict):
    """The ``structure`` section."""

    comment: Comment = None
    max_depth: int | None = Field(None, alias="maxDepth", ge=1, description="Default 10.")
    additional_organ_names: list[NonEmptyStr] = Field(
        default_factory=list, alias="additionalOrganNames"
    )
    additional_excluded_directories: list[NonEmptyStr] = Field(
        default_factory=list, alias="additionalExcludedDirectories"
    )
    additional_allowed_peers: list[AllowedPeerModel] = Field(
        default_factory=list, alias="additionalAllowedPeers"
    )
    naming_patterns: list[RegexStr] = Field(
        default_factory=list,
        alias="namingPatterns",
        description="Python regular expressions; a name matching one passes naming-convention.",
    )
    entry_point_overrides: dict[str, list[str]] | None = Field(
        None,
        alias="entryPointOverrides",
        description=(
            "Upstream filid: extra entry files per adapter id (root-relative paths or globs). "
            "They count as entry points; they never make a folder a module."
        ),
    )
    generated_paths: list[NonEmptyStr] | None = Field(
        None,
        alias="generatedPaths",
        description="Globs of generated files or folders (root-relative): left out of checks.",
    )
    pure_function_paths: list[NonEmptyStr] = Field(
        default_factory=list,
        alias="pureFunctionPaths",
        description="Globs of folders declared pure-function (SPEC §2 step 3).",
    )
    infer_pure_functions: bool = Field(
        False,
        alias="inferPureFunctions",
        description="Infer pure-function folders from side-effect freedom (SPEC §2 step 7).",
    )


RuleModel.model_rebuild()


class ScanV1Model(_Strict):
    """Version 1.0 ``scan`` section (migrated to ``structure.maxDepth``)."""

    max_depth: int | None = Field(None, alias="maxDepth", ge=1)


class ConfigModel(_Strict):
    """The whole file (version 2.0 keys, plus the version 1.0 keys ``load.py`` migrates)."""

    model_config = ConfigDict(title="filid configuration (.filid/config.json)")

    schema_: str | None = Field(None, alias="$schema", description="JSON Schema, for editors.")
    comment: Comment = None
    version: Literal["1.0", "2.0"] = "2.0"
    rules: dict[str, RuleModel] = Field(default_factory=dict)
    structure: StructureModel | None = None
    # Upstream filid keys: accepted so a shared file loads, otherwise ignored.
    language: str | None = None
    adapters: dict[str, Any] | None = None
    generated_paths: list[str] | None = Field(None, alias="generatedPaths")
    entry_point_overrides: dict[str, list[str]] | None = Field(None, alias="entryPointOverrides")
    # Version 1.0 keys (only with "version": "1.0"; load.py moves them to their 2.0 places).
    scan: ScanV1Model | None = Field(None, description="version 1.0: structure.maxDepth")
    additional_organ_names: list[NonEmptyStr] | None = Field(
        None, alias="additional-organ-names", description="version 1.0"
    )
    additional_allowed: list[AllowedPeerModel] | None = Field(
        None, alias="additional-allowed", description="version 1.0"
    )
    additional_entry_points: list[str] | None = Field(
        None, alias="additional-entry-points", description="version 1.0; ignored"
    )
    additional_route_patterns: list[str] | None = Field(
        None, alias="additional-route-patterns", description="version 1.0; ignored"
    )
    injected_rules: dict[str, Any] | None = Field(
        None,
        alias="injected-rules",
        description="version 1.0: the upstream plugin's rule documents to deploy; ignored",
    )


def validate_document(data: Any) -> tuple[ConfigModel | None, list[Problem]]:
    """Validate parsed JSON: the model, or ``None`` and every problem as (key path, message)."""
    try:
        return ConfigModel.model_validate(data), []
    except ValidationError as error:
        return None, [(tuple(e["loc"]), _describe(e)) for e in error.errors()]


def config_json_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of the config file, as shipped in ``config.schema.json``."""
    schema = ConfigModel.model_json_schema(by_alias=True, mode="validation")
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **schema}


# ---- error messages -------------------------------------------------------------------------

# Keys a v2 file may hold at each object location; unknown-key hints are drawn from these.
_TOP_LEVEL_KEYS = (
    "$schema",
    "$comment",
    "version",
    "rules",
    "structure",
    "language",
    "adapters",
    "generatedPaths",
    "entryPointOverrides",
)


def _keys_of(model: type[BaseModel]) -> tuple[str, ...]:
    return tuple(f.alias or name for name, f in model.model_fields.items())


def _known_keys(parent: KeyPath) -> tuple[str, ...]:
    if parent == ():
        return _TOP_LEVEL_KEYS
    head = parent[0]
    if head == "rules" and len(parent) == 2:
        return _keys_of(RuleModel)
    if head == "structure" and len(parent) == 1:
        return _keys_of(StructureModel)
    if head == "scan" and len(parent) == 1:
        return _keys_of(ScanV1Model)
    if parent[-1:] and isinstance(parent[-1], int):
        return _keys_of(AllowedPeerModel)
    return ()


def _unknown_key_message(loc: KeyPath) -> str:
    key = str(loc[-1])
    parent = loc[:-1]
    if parent == () and key in _keys_of(StructureModel):
        return f"unknown key (did you mean 'structure.{key}'?)"
    if parent == () and key in _keys_of(RuleModel):
        return f"unknown key (did you mean 'rules.<rule-id>.{key}'?)"
    candidates = [k for k in _known_keys(parent) if k != "$comment"]
    close = difflib.get_close_matches(key, candidates, n=1, cutoff=0.6)
    if close:
        return f"unknown key (did you mean '{close[0]}'?)"
    if candidates:
        return "unknown key (expected one of: " + ", ".join(sorted(candidates)) + ")"
    return "unknown key"


# What a key expects, by its location, where the generic per-error-type text would be vague.
def _expectation(loc: KeyPath) -> str | None:
    last = loc[-1] if loc else None
    if last == "maxDepth":
        return "an integer ≥ 1"
    if last == "severity" and len(loc) == 3 and loc[0] == "rules":
        return "one of 'error', 'warning', 'info'"
    if loc == ("version",):
        return '"1.0" or "2.0"'
    if len(loc) == 2 and loc[0] == "rules":
        return 'an object such as {"enabled": false} or {"severity": "warning"}'
    if (
        isinstance(last, int)
        and len(loc) >= 2
        and loc[-2] in ("additionalAllowedPeers", "additional-allowed")
    ):
        return 'a file name or an object {"basename": …, "paths": […]}'
    return None


_BY_TYPE = {
    "string_type": "a string",
    "bool_type": "true or false",
    "int_type": "an integer",
    "list_type": "a list",
    "dict_type": "an object",
    "model_type": "an object",
    "model_attributes_type": "an object",
}


def _describe(error: Any) -> str:
    loc: KeyPath = tuple(error["loc"])
    kind: str = error["type"]
    if kind == "extra_forbidden":
        return _unknown_key_message(loc)
    if kind == "missing":
        return "required key missing"
    got = f" (got {_show(error.get('input'))})"
    if kind == "value_error":
        return str(error["ctx"]["error"]) + got
    if kind == "string_too_short":
        return "must not be empty"
    expected = _expectation(loc) or _BY_TYPE.get(kind)
    if expected is None and kind == "literal_error":
        expected = "one of " + str(error["ctx"]["expected"])
    if expected is None:
        return str(error["msg"]) + got
    return f"expected {expected}{got}"


def _show(value: Any) -> str:
    text = repr(value) if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "…"


if __name__ == "__main__":  # pragma: no cover - regeneration helper for config.schema.json
    print(json.dumps(config_json_schema(), indent=2, ensure_ascii=False))
