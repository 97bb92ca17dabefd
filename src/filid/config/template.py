"""The default ``.filid/config.json`` that ``filid init`` writes.

One file serves this tool and the upstream filid plugin (vincent-kk/ogham ``plugins/filid``)
in the same repository (CONTRACT "Config"). Upstream validates the file with a strict zod
schema (``configSchemas.ts``: ``version`` "2.0", ``language``, ``adapters`` {mode, enabled},
``rules`` {enabled, severity, exempt}, ``structure`` {maxDepth, additionalOrganNames,
additionalAllowedPeers, additionalExcludedDirectories, entryPointOverrides, generatedPaths})
and drops any other key with a warning, so the template writes only those keys: no
``$comment`` and none of this tool's own additions (``namingPatterns``,
``pureFunctionPaths``…), which ``filid rules get ID`` and the README document instead. Every
rule is listed with ``enabled`` (false for a rule that is off by default), its default
``severity`` and an empty ``exempt``; the file loads back into a configuration that behaves
exactly like no file at all.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from typing import Any

from filid.config.model import DEFAULT_MAX_DEPTH
from filid.model.violations import Severity

__all__ = ["render_default_config"]

# The keys upstream's strict schema accepts (vincent-kk/ogham plugins/filid
# src/core/infra/configLoader/loaders/configSchemas.ts); a test keeps the template inside them.
UPSTREAM_TOP_LEVEL_KEYS = frozenset({"version", "language", "adapters", "rules", "structure"})
UPSTREAM_RULE_KEYS = frozenset({"enabled", "severity", "exempt"})
UPSTREAM_STRUCTURE_KEYS = frozenset(
    {
        "maxDepth",
        "additionalOrganNames",
        "additionalAllowedPeers",
        "additionalExcludedDirectories",
        "entryPointOverrides",
        "generatedPaths",
    }
)


def render_default_config(
    rule_defaults: Sequence[tuple[str, str, str]],
    *,
    exempt: Sequence[str] = (),
    generated: Sequence[str] = (),
    disabled: Collection[str] = (),
) -> str:
    """The file text for (rule id, default severity, one-line description) triples.

    ``exempt`` globs go on every rule, ``generated`` into ``structure.generatedPaths``
    (what ``filid init`` proposes after looking at the repository). Rules in ``disabled``
    (off unless enabled, like the style rules upstream 1.0 removed) are written with
    ``"enabled": false``.
    """
    rules: dict[str, dict[str, Any]] = {}
    for rule_id, severity, _description in sorted(rule_defaults):
        rules[rule_id] = {
            "enabled": rule_id not in disabled,
            # Severity(...) rejects a typo in the caller's registry instead of writing it out.
            "severity": Severity(severity).value,
            "exempt": list(exempt),
        }
    document = {
        "version": "2.0",
        "adapters": {"mode": "auto", "enabled": ["ecmascript"]},
        "rules": rules,
        "structure": {
            "maxDepth": DEFAULT_MAX_DEPTH,
            "additionalOrganNames": [],
            "additionalExcludedDirectories": [],
            "additionalAllowedPeers": [],
            "generatedPaths": list(generated),
        },
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
