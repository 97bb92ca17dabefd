"""The five tools' output schemas (JSON Schema of their structured content)."""

from __future__ import annotations

from typing import Any, Final

JsonSchema = dict[str, Any]

_RESULT: Final[JsonSchema] = {"type": "object", "required": ["summary", "nextActions"]}

FRACTAL_SCAN: Final = _RESULT
DRIFT_DETECT: Final = _RESULT
LCA_RESOLVE: Final = _RESULT
RULE_QUERY: Final = _RESULT
STRUCTURE_VALIDATE: Final = _RESULT
