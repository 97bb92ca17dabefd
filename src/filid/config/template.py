"""The default ``.filid/config.json`` that ``filid init`` writes.

JSON has no comments, and unknown keys are errors, so the file explains itself with the JSON
Schema comment keyword ``$comment``, which the loader accepts at the top level, in
``structure`` and in every rule entry (``schema.py``). Every rule is listed with ``enabled``,
its default ``severity``, an empty ``exempt`` and its one-line description as ``$comment``;
every ``structure`` key is written at its default. The file is strict JSON, loads back into a
configuration that behaves exactly like no file at all, and validates against the shipped
``config.schema.json``. Rule ``options`` are left out: they differ per rule and default to
``{}`` (``filid rules get ID`` documents them).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from filid.config.model import DEFAULT_MAX_DEPTH
from filid.model.violations import Severity

__all__ = ["render_default_config"]

_FILE_COMMENT = (
    "filid configuration. Every key is optional; deleting one restores its default. "
    "rules.<id>: enabled, severity (error|warning|info), exempt (root-relative globs such as "
    "'src/legacy/**'), options. structure: maxDepth, additionalOrganNames, "
    "additionalExcludedDirectories, additionalAllowedPeers ('file.ts' or "
    "{'basename': 'file.ts', 'paths': ['apps/*']}), namingPatterns (Python regular "
    "expressions a folder name may match instead of kebab-case/camelCase). "
    "JSON Schema: config.schema.json in the filid package (filid/config/)."
)


def render_default_config(rule_defaults: Sequence[tuple[str, str, str]]) -> str:
    """The file text for (rule id, default severity, one-line description) triples."""
    rules: dict[str, dict[str, Any]] = {}
    for rule_id, severity, description in sorted(rule_defaults):
        rules[rule_id] = {
            "$comment": description,
            "enabled": True,
            # Severity(...) rejects a typo in the caller's registry instead of writing it out.
            "severity": Severity(severity).value,
            "exempt": [],
        }
    document = {
        "$comment": _FILE_COMMENT,
        "version": "2.0",
        "rules": rules,
        "structure": {
            "maxDepth": DEFAULT_MAX_DEPTH,
            "additionalOrganNames": [],
            "additionalExcludedDirectories": [],
            "additionalAllowedPeers": [],
            "namingPatterns": [],
        },
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
