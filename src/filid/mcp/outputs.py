"""The five tools' output schemas: the seed's result types, exactly, with the extras beside.

The seed design (CONTRACT.md "MCP") defines the result types below; where it defines a field,
the schema holds its type exactly (``duration`` a number of milliseconds, ``filtered`` a
boolean, ``rulesApplied``/``rulesSkipped`` numbers, rule ``examples`` ``{valid: string[],
invalid: string[]}``, ``remainingViolations`` after a fix, SyncActions from its list). What
filid adds — ``summary``, ``truncated`` (per list), ``restored``, ``nextActions``,
``rulesAppliedIds``, ``tree.types``, ``preview``, ``baseline``… — sits beside those fields
(objects stay open).

``rewrite-import`` is a documented extension of the seed's SyncAction list: no seed action
means "rewrite this import through the module's entry point". "manual" is not an action: a
drift item that needs a manual change has no ``suggestedAction`` and says what to do in its
``description``.
"""

from __future__ import annotations

from typing import Any, Final

JsonSchema = dict[str, Any]

__all__ = [
    "DRIFT_DETECT",
    "DRIFT_ITEM",
    "DRIFT_REPORT",
    "FRACTAL_SCAN",
    "LCA_RESOLVE",
    "LCA_RESOLVE_RESULT",
    "RULE_DETAIL",
    "RULE_EVALUATION_RESULT",
    "RULE_LIST_RESULT",
    "RULE_QUERY",
    "SCAN_REPORT",
    "SEED_SYNC_ACTIONS",
    "STRUCTURE_VALIDATE",
    "SYNC_ACTION_EXTENSIONS",
    "VALIDATION_REPORT",
]

SEED_SYNC_ACTIONS: Final = (
    "move",
    "rename",
    "create-index",
    "create-main",
    "reclassify",
    "split",
    "merge",
)
SYNC_ACTION_EXTENSIONS: Final = ("rewrite-import",)
TOOL_NAMES: Final = (
    "fractal-scan",
    "drift-detect",
    "lca-resolve",
    "rule-query",
    "structure-validate",
)

_STRING: Final[JsonSchema] = {"type": "string"}
_NUMBER: Final[JsonSchema] = {"type": "number"}
_BOOLEAN: Final[JsonSchema] = {"type": "boolean"}
_STRINGS: Final[JsonSchema] = {"type": "array", "items": _STRING}


def _object(properties: dict[str, JsonSchema], optional: tuple[str, ...] = ()) -> JsonSchema:
    """An open object: every property required unless named in ``optional``."""
    return {
        "type": "object",
        "properties": properties,
        "required": [name for name in properties if name not in optional],
    }


def _array(items: JsonSchema) -> JsonSchema:
    return {"type": "array", "items": items}


def _enum(*values: str) -> JsonSchema:
    return {"type": "string", "enum": list(values)}


_SYNC_ACTION: Final = _enum(*SEED_SYNC_ACTIONS, *SYNC_ACTION_EXTENSIONS)
_RISK: Final = _enum("safe", "moderate", "risky")

LOCATION: Final = _object(
    {
        "file": _STRING,
        "line": _NUMBER,
        "column": _NUMBER,
        "endLine": _NUMBER,
        "endColumn": _NUMBER,
    },
    optional=("endLine", "endColumn"),
)

VIOLATION: Final = _object(
    {
        "ruleId": _STRING,
        "severity": _enum("error", "warning", "info"),
        "message": _STRING,
        "path": _STRING,
        "location": LOCATION,
        "suggestion": _STRING,
        "fix": _object(
            {
                "action": _SYNC_ACTION,
                "risk": _RISK,
                "description": _STRING,
                "targetPath": _STRING,
            }
        ),
        "related": _array(LOCATION),
    },
    optional=("suggestion", "fix", "related"),
)

RULE_EVALUATION_RESULT: Final = _object(
    {
        "path": _STRING,
        "category": _STRING,
        "violations": _array(VIOLATION),
        "passed": _NUMBER,
        "failed": _NUMBER,
        "warnings": _NUMBER,
    },
    optional=("category",),
)

VALIDATION_REPORT: Final = _object(
    {
        "root": _STRING,
        "result": RULE_EVALUATION_RESULT,
        "config": _object(
            {
                "configPath": {"type": ["string", "null"]},
                "rulesApplied": _NUMBER,
                "rulesSkipped": _NUMBER,
            }
        ),
        "fixedItems": _array(
            _object(
                {
                    "violation": VIOLATION,
                    "action": _SYNC_ACTION,
                    "resultPath": _STRING,
                    "success": _BOOLEAN,
                }
            )
        ),
        "remainingViolations": _array(VIOLATION),
        "notes": _STRINGS,
        "timestamp": _STRING,
    },
    optional=("fixedItems", "remainingViolations", "notes"),
)

DRIFT_ITEM: Final = _object(
    {
        "path": _STRING,
        "rule": _STRING,
        "expected": _STRING,
        "actual": _STRING,
        "severity": _enum("critical", "high", "medium", "low"),
        "suggestedAction": _SYNC_ACTION,
    },
    optional=("suggestedAction",),
)

DRIFT_REPORT: Final = _object(
    {
        "items": _array(DRIFT_ITEM),
        "totalDrifts": _NUMBER,
        "bySeverity": _object(
            {"critical": _NUMBER, "high": _NUMBER, "medium": _NUMBER, "low": _NUMBER}
        ),
        "scanTimestamp": _STRING,
        "syncPlan": _array(
            _object(
                {
                    "action": _SYNC_ACTION,
                    "targetPath": _STRING,
                    "description": _STRING,
                    "estimatedRisk": _RISK,
                }
            )
        ),
    },
    optional=("syncPlan",),
)

_NODE_TYPE: Final = _enum("fractal", "organ", "pure-function", "hybrid")

FRACTAL_NODE: Final = _object(
    {
        "path": _STRING,
        "name": _STRING,
        "type": _NODE_TYPE,
        "parent": {"type": ["string", "null"]},
        "children": _STRINGS,
        "organs": _STRINGS,
        "hasClaudeMd": _BOOLEAN,
        "hasSpecMd": _BOOLEAN,
        "hasIndex": _BOOLEAN,
        "hasMain": _BOOLEAN,
        "depth": _NUMBER,
        "metadata": {"type": "object"},
    }
)

SCAN_REPORT: Final = _object(
    {
        "tree": _object(
            {
                "root": _STRING,
                "nodes": {"type": "object", "additionalProperties": FRACTAL_NODE},
                "depth": _NUMBER,
                "totalNodes": _NUMBER,
            }
        ),
        "modules": _array(
            _object(
                {
                    "path": _STRING,
                    "category": _STRING,
                    "hasIndex": _BOOLEAN,
                    "hasMain": _BOOLEAN,
                    "exportCount": _NUMBER,
                }
            )
        ),
        "unresolved": _array(
            _object({"file": _STRING, "line": _NUMBER, "specifier": _STRING, "reason": _STRING})
        ),
        "timestamp": _STRING,
        "duration": _NUMBER,
    }
)

LCA_RESOLVE_RESULT: Final = _object(
    {
        "lca": _STRING,
        "lcaCategory": _STRING,
        "lcaDepth": _NUMBER,
        "distanceA": _NUMBER,
        "distanceB": _NUMBER,
        "suggestedPlacement": _STRING,
        "explanation": _STRING,
    }
)

_RULE_SUMMARY: Final[dict[str, JsonSchema]] = {
    "id": _STRING,
    "description": _STRING,
    "severity": _enum("error", "warning", "info"),
    "category": _STRING,
    "enabled": _BOOLEAN,
}

RULE_LIST_RESULT: Final = _object(
    {"rules": _array(_object(_RULE_SUMMARY)), "total": _NUMBER, "filtered": _BOOLEAN}
)

RULE_DETAIL: Final = _object(
    {
        **_RULE_SUMMARY,
        "rationale": _STRING,
        "appliesTo": _STRINGS,
        "examples": _object({"valid": _STRINGS, "invalid": _STRINGS}),
    }
)

# What every answer carries beside the seed's fields.
_NEXT_ACTION: Final = {
    "type": "object",
    "properties": {
        "tool": _enum(*TOOL_NAMES),
        "args": {"type": "object", "properties": {"path": _STRING}, "required": ["path"]},
        "why": _STRING,
    },
    "required": ["tool", "args", "why"],
    "additionalProperties": False,
}

_TRUNCATED_LIST: Final = {
    "type": "object",
    "properties": {
        "shown": {"type": "integer", "minimum": 0},
        "total": {"type": "integer", "minimum": 0},
        "offset": {"type": "integer", "minimum": 0},
        "nextOffset": {"type": "integer", "minimum": 0},
        "cutItems": {"type": "integer", "minimum": 1},
        "compact": {"type": "integer", "minimum": 0},
    },
    "required": ["shown", "total", "offset"],
    "additionalProperties": False,
}

# One entry per list that was cut or paged, named as the `list` argument names it.
_TRUNCATED: Final = {"type": "object", "additionalProperties": _TRUNCATED_LIST}

_RESTORED: Final = {
    "type": "object",
    "properties": {
        "files": _STRINGS,
        "reason": _STRING,
        "more": {"type": "integer", "minimum": 1},
    },
    "required": ["files", "reason"],
    "additionalProperties": False,
}

_ENVELOPE: Final[dict[str, JsonSchema]] = {
    "summary": {"type": "object"},
    "truncated": _TRUNCATED,
    "restored": _RESTORED,
    "nextActions": _array(_NEXT_ACTION),
}


def _answer(seed: JsonSchema, extras: dict[str, JsonSchema] | None = None) -> JsonSchema:
    """A tool's output schema: the seed type plus the envelope (summary first)."""
    return {
        "type": "object",
        "properties": {**_ENVELOPE, **seed["properties"], **(extras or {})},
        "required": ["summary", "nextActions", *seed["required"]],
    }


FRACTAL_SCAN: Final = _answer(SCAN_REPORT)
DRIFT_DETECT: Final = _answer(DRIFT_REPORT)
LCA_RESOLVE: Final = _answer(LCA_RESOLVE_RESULT)
RULE_QUERY: Final = {
    "type": "object",
    "properties": _ENVELOPE,
    "required": ["summary", "nextActions"],
    "anyOf": [RULE_LIST_RESULT, RULE_DETAIL, RULE_EVALUATION_RESULT],
}
STRUCTURE_VALIDATE: Final = _answer(
    VALIDATION_REPORT,
    {
        "preview": _object(
            {
                "planToken": _STRING,
                "skipped": _NUMBER,
                "fixes": _array({"type": "object"}),
                "diff": _array(_object({"file": _STRING, "diff": _STRING})),
            }
        ),
        "baseline": _object(
            {"path": _STRING, "new": _NUMBER, "suppressed": _NUMBER, "fixed": _NUMBER}
        ),
    },
)
