"""The five tools' input schemas (hand-written JSON Schema) and the check that enforces them.

The MCP SDK's low-level server does not validate ``tools/call`` arguments, so
:func:`validate_arguments` does, driven by the very schema ``tools/list`` publishes: what a
client is told and what the server accepts cannot drift apart. It supports exactly the
keywords these schemas use (``type`` — one name or a list —, ``enum``,
``minimum``/``maximum``, ``multipleOf``, ``minLength``/``maxLength``, ``minItems``/``maxItems``,
``items``, ``required``,
``additionalProperties: false``, ``default``) and turns the first problem into a one-line
:class:`~filid.model.errors.UsageError`.

Besides each tool's own arguments, every tool takes ``maxChars`` (the budget of its answer),
and the tools that return long lists take ``offset`` (page) and ``paths`` (glob filter);
those that report violations also take ``rules``; ``list`` names the one list an
``offset`` pages.

Every string argument has a length limit (``maxLength``: 4,096 characters for a filesystem
path, 1,024 for a root-relative folder or glob, 200 for a rule id or plan token) and every
array at most 100 items, checked here before any work; a rejected value is echoed as a short
prefix only. ``maxChars`` is capped at 50,000 (see ``MAX_CHARS_MAX``).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any, Final

from filid.mcp.budget import MIN_CHARS
from filid.model.errors import UsageError
from filid.rules.base import RuleCategory

JsonSchema = dict[str, Any]

DEPTH_MIN: Final = 1
DEPTH_MAX: Final = 20
DEPTH_DEFAULT: Final = 10

MAX_CHARS_DEFAULT: Final = 20_000
MAX_CHARS_MIN: Final = MIN_CHARS
# Claude Code cuts a tool result at 25,000 tokens (MAX_MCP_OUTPUT_TOKENS, NOTES.md); JSON of
# paths and numbers runs at 2.5-4 characters a token, so 50,000 characters stay under that cut
# even at 2 characters a token. The default stays under its 10,000-token warning.
MAX_CHARS_MAX: Final = 50_000

# Length limits, checked before any work (an error echoes at most a short prefix).
PATH_MAX_LENGTH: Final = 4096  # PATH_MAX on Linux
NAME_MAX_LENGTH: Final = 1024  # a root-relative module or folder, a glob
ID_MAX_LENGTH: Final = 200  # a rule id, a plan token
LIST_MAX_ITEMS: Final = 100  # globs in `paths`, ids in `rules`

DRIFT_SEVERITIES: Final = ("critical", "high", "medium", "low")
RULE_QUERY_ACTIONS: Final = ("list", "get", "check")
# The seed's six values for ``category``: a node category filters by ``appliesTo``, a rule
# category by ``category`` (CONTRACT "MCP"). The other rule categories go in ``ruleCategory``.
CATEGORIES: Final = ("fractal", "organ", "pure-function", "hybrid", "structure", "dependency")
RULE_CATEGORY_VALUES: Final = tuple(c.value for c in RuleCategory)

_PATH: Final[JsonSchema] = {
    "type": "string",
    "minLength": 1,
    "maxLength": PATH_MAX_LENGTH,
    "description": (
        "The project root: an absolute path, or one relative to the server's working "
        "directory. It must lie inside one of the roots the server was started with."
    ),
}


_MAX_CHARS: Final[JsonSchema] = {
    "type": "integer",
    "minimum": MAX_CHARS_MIN,
    "maximum": MAX_CHARS_MAX,
    "default": MAX_CHARS_DEFAULT,
    "description": (
        "The budget of the answer in characters of its JSON text. The summary always comes "
        "first; items beyond the budget are left out, `truncated` says how many, and "
        "nextActions holds the call that shows the next page."
    ),
}

_OFFSET: Final[JsonSchema] = {
    "type": "integer",
    "minimum": 0,
    "default": 0,
    "description": (
        "Skip this many items of the list named by `list` (`truncated.<list>.nextOffset` "
        "of the previous answer); without `list`, of the first list."
    ),
}

_PATHS: Final[JsonSchema] = {
    "type": "array",
    "items": {"type": "string", "minLength": 1, "maxLength": NAME_MAX_LENGTH},
    "minItems": 1,
    "maxItems": LIST_MAX_ITEMS,
    "description": (
        "Keep only items whose root-relative path matches one of these globs ('src/auth' "
        "and 'src/auth/**' both match everything below src/auth; '**/utils' anywhere)."
    ),
}


def _rules(description: str) -> JsonSchema:
    return {
        "type": "array",
        "items": {"type": "string", "minLength": 1, "maxLength": ID_MAX_LENGTH},
        "minItems": 1,
        "maxItems": LIST_MAX_ITEMS,
        "description": description,
    }


def _list(*names: str) -> JsonSchema:
    """The ``list`` argument of a tool whose answer pages the lists ``names``."""
    return {
        "type": "string",
        "enum": list(names),
        "description": (
            "Page this list only, from `offset` (the call in nextActions when an answer "
            "says `truncated.<list>.nextOffset`). Without it the first page shows every list, "
            "each with its share of maxChars."
        ),
    }


def _name(description: str, max_length: int = NAME_MAX_LENGTH) -> JsonSchema:
    return {"type": "string", "minLength": 1, "maxLength": max_length, "description": description}


def _object(properties: dict[str, JsonSchema], required: list[str]) -> JsonSchema:
    return {
        "type": "object",
        "properties": {**properties, "maxChars": _MAX_CHARS},
        "required": required,
        "additionalProperties": False,
    }


FRACTAL_SCAN: Final = _object(
    {
        "path": _PATH,
        "depth": {
            # The seed types it as a number; whole numbers only.
            "type": "number",
            "multipleOf": 1,
            "minimum": DEPTH_MIN,
            "maximum": DEPTH_MAX,
            "default": DEPTH_DEFAULT,
            "description": "Include nodes down to this depth (the root is depth 0).",
        },
        "includeModuleInfo": {
            "type": "boolean",
            "default": False,
            "description": (
                "List every fractal/hybrid module with its entry point and export count "
                "(modules). tree.nodes always holds the node objects that fit the budget; "
                "the nodes that do not fit are listed compactly in tree.types (path -> type)."
            ),
        },
        "paths": _PATHS,
        "list": _list("tree.nodes", "modules", "unresolved"),
        "offset": _OFFSET,
    },
    ["path"],
)

DRIFT_DETECT: Final = _object(
    {
        "path": _PATH,
        "severity": {
            "type": "string",
            "enum": list(DRIFT_SEVERITIES),
            "description": "Keep drift items of this severity and worse (default: all).",
        },
        "generatePlan": {
            "type": "boolean",
            "default": False,
            "description": "Add syncPlan: the corrective actions in a safe order.",
        },
        "rules": _rules("Keep only drift items of these rule ids."),
        "paths": _PATHS,
        "list": _list("items", "syncPlan"),
        "offset": _OFFSET,
    },
    ["path"],
)

LCA_RESOLVE: Final = _object(
    {
        "path": _PATH,
        "moduleA": _name("A module directory, root-relative (e.g. 'src/auth')."),
        "moduleB": _name("Another module directory, root-relative (e.g. 'src/billing')."),
    },
    ["path", "moduleA", "moduleB"],
)

RULE_QUERY: Final = _object(
    {
        "action": {
            "type": "string",
            "enum": list(RULE_QUERY_ACTIONS),
            "description": (
                "'list' the rules (optionally by category), 'get' one rule's rationale and "
                "examples (needs ruleId), or 'check' one subtree (needs targetPath)."
            ),
        },
        "path": _PATH,
        "ruleId": _name("For action 'get': a rule id such as 'module-entry-point'.", ID_MAX_LENGTH),
        "category": {
            "type": "string",
            "enum": list(CATEGORIES),
            "description": (
                "For action 'list': a node category (fractal, organ, pure-function, hybrid) "
                "keeps the rules that apply to it; a rule category keeps that category."
            ),
        },
        "ruleCategory": {
            "type": "string",
            "enum": list(RULE_CATEGORY_VALUES),
            "description": "For action 'list': keep the rules of this rule category.",
        },
        "targetPath": _name(
            "For action 'check': the directory to evaluate with its subtree, root-relative "
            "(e.g. 'src/auth') or absolute.",
            PATH_MAX_LENGTH,
        ),
        "rules": _rules("For action 'check': keep only violations of these rule ids."),
        "paths": _PATHS,
        "list": _list("rules", "violations"),
        "offset": _OFFSET,
    },
    ["action", "path"],
)

STRUCTURE_VALIDATE: Final = _object(
    {
        "path": _PATH,
        "rules": _rules("Evaluate only these rule ids (default: every enabled rule)."),
        "fix": {
            "type": "boolean",
            "default": False,
            "description": (
                "true: apply the safe fixes (WRITES FILES), then re-validate; the report lists "
                "fixedItems and remainingViolations. With planToken: apply exactly the "
                "previewed plan, refused if any file it touches changed since."
            ),
        },
        "preview": {
            "type": "boolean",
            "default": False,
            "description": (
                "true: write nothing; return the diff of the safe fixes and a planToken "
                "(then fix=true with that planToken applies exactly that plan)."
            ),
        },
        "planToken": _name("With fix=true: the planToken of a preview=true answer.", ID_MAX_LENGTH),
        "baseline": _name(
            "A baseline file (filid check --write-baseline), relative to the project root "
            "or absolute inside it: report only violations it does not record, with "
            "counts of the suppressed and the fixed ones.",
            PATH_MAX_LENGTH,
        ),
        "fixRun": _name(
            "With list and offset: page the lists of a fix answer (its summary.fixRun); the "
            "fix is not run again.",
            ID_MAX_LENGTH,
        ),
        "paths": _PATHS,
        "list": _list("violations", "notes", "fixedItems", "changedFiles", "fixes", "diff"),
        "offset": _OFFSET,
    },
    ["path"],
)

_TYPE_NAMES: Final = {
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "a boolean",
    "array": "an array",
    "object": "an object",
}


def _shown(value: object) -> str:
    """A short JSON rendering of a rejected value for the one-line reason."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def shown_prefix(value: str, limit: int = 80) -> str:
    """``value`` as an error message may echo it: at most ``limit`` characters."""
    return value if len(value) <= limit else f"{value[: limit - 1]}… ({len(value)} characters)"


def _check_type(name: str, expected: str, value: object) -> object:
    """``value`` converted to the schema type (integral floats become ints) or UsageError."""
    if expected == "string" and isinstance(value, str):
        return value
    if expected == "boolean" and isinstance(value, bool):
        return value
    if expected == "integer" and not isinstance(value, bool):
        if isinstance(value, int):
            return value
        # JSON has one number type: 10.0 is the integer 10 (JSON Schema agrees).
        if isinstance(value, float) and math.isfinite(value) and value.is_integer():
            return int(value)
    if expected == "number" and not isinstance(value, bool):
        if isinstance(value, int):
            return value
        if isinstance(value, float) and math.isfinite(value):
            return int(value) if value.is_integer() else value
    if expected == "array" and isinstance(value, list):
        return value
    if expected == "object" and isinstance(value, dict):
        return value
    raise UsageError(f"{name}: must be {_TYPE_NAMES[expected]} (got {_shown(value)})")


def _check_types(name: str, expected: object, value: object) -> object:
    """``value`` checked against one type name or the first of a list that accepts it."""
    if isinstance(expected, str):
        return _check_type(name, expected, value)
    names = [str(e) for e in expected] if isinstance(expected, list) else [str(expected)]
    for each in names:
        try:
            return _check_type(name, each, value)
        except UsageError:
            continue
    wanted = " or ".join(_TYPE_NAMES[n] for n in names)
    raise UsageError(f"{name}: must be {wanted} (got {_shown(value)})")


def _is_listed(value: object, choices: list[Any]) -> bool:
    # ``True == 1`` in Python, not in JSON: compare types too.
    return any(type(value) is type(c) and value == c for c in choices)


def _check_value(name: str, schema: Mapping[str, Any], value: object) -> object:
    checked = _check_types(name, schema["type"], value)
    if "enum" in schema and not _is_listed(checked, schema["enum"]):
        choices = ", ".join(str(c) for c in schema["enum"])
        raise UsageError(f"{name}: must be one of {choices} (got {_shown(value)})")
    if isinstance(checked, int | float) and not isinstance(checked, bool):
        step = schema.get("multipleOf")
        if step is not None and checked % step != 0:
            raise UsageError(f"{name}: must be a whole number (got {_shown(value)})")
        low, high = schema.get("minimum"), schema.get("maximum")
        if (low is not None and checked < low) or (high is not None and checked > high):
            if high is None:
                raise UsageError(f"{name}: must be at least {low} (got {_shown(value)})")
            raise UsageError(f"{name}: must be between {low} and {high} (got {_shown(value)})")
    if isinstance(checked, str):
        if len(checked) < schema.get("minLength", 0):
            raise UsageError(f"{name}: must not be empty")
        if len(checked) > schema.get("maxLength", len(checked)):
            raise UsageError(
                f"{name}: at most {schema['maxLength']} characters "
                f"(got {len(checked)}: {_shown(checked)})"
            )
    if isinstance(checked, list):
        if len(checked) < schema.get("minItems", 0):
            raise UsageError(f"{name}: must list at least {schema['minItems']} item(s)")
        if len(checked) > schema.get("maxItems", len(checked)):
            raise UsageError(f"{name}: at most {schema['maxItems']} items (got {len(checked)})")
        items = schema.get("items")
        if items is not None:
            checked = [_check_value(f"{name}[{i}]", items, v) for i, v in enumerate(checked)]
    return checked


def validate_arguments(
    schema: Mapping[str, Any], arguments: Mapping[str, Any] | None
) -> dict[str, Any]:
    """The arguments checked against ``schema``, with defaults filled in.

    Raises ``UsageError`` with a one-line reason naming the argument: an unknown argument, a
    missing required one, a wrong type, a value outside its enum or range.
    """
    given = dict(arguments or {})
    properties: Mapping[str, Mapping[str, Any]] = schema["properties"]
    unknown = sorted(set(given) - set(properties))
    if unknown:
        valid = ", ".join(properties)
        raise UsageError(f"{unknown[0]}: unknown argument (valid arguments: {valid})")
    for name in schema.get("required", ()):
        if name not in given:
            raise UsageError(f"{name}: required argument missing")
    checked: dict[str, Any] = {}
    for name, spec in properties.items():
        if name in given:
            checked[name] = _check_value(name, spec, given[name])
        elif "default" in spec:
            checked[name] = spec["default"]
    return checked
