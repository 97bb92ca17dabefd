"""The ``.filid/config.json`` that ``filid init`` writes.

One file serves this tool and the upstream filid plugin (vincent-kk/ogham ``plugins/filid``)
in the same repository (CONTRACT "Config"). Upstream validates the file with a strict zod
schema (``configSchemas.ts``: ``version`` "2.0", ``language``, ``adapters`` {mode, enabled}
required, ``rules`` required (a record of {enabled, severity, exempt}), ``structure``
{maxDepth, additionalOrganNames, additionalAllowedPeers, additionalExcludedDirectories,
entryPointOverrides, generatedPaths}) and rejects any other key, so the template writes only
those keys: no ``$comment`` and none of this tool's own additions (``namingPatterns``,
``pureFunctionPaths``…), which ``filid rules get ID`` and the README document instead.

The file is compact: it holds only what ``filid init`` chose. ``rules`` is empty (every rule
at its default, exactly as with no file), and ``structure`` lists only the generated paths
and the excluded folder names init proposes, each once; without either, no ``structure``.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from typing import Any

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
    *,
    excluded_names: Sequence[str] = (),
    generated: Sequence[str] = (),
    disabled: Collection[str] = (),
) -> str:
    """The file text: ``excluded_names`` go into ``structure.additionalExcludedDirectories``
    (folder names left out at any depth), ``generated`` globs into
    ``structure.generatedPaths`` (what ``filid init`` proposes after looking at the
    repository). Every rule stays at its default."""
    structure: dict[str, Any] = {}
    if excluded_names:
        structure["additionalExcludedDirectories"] = sorted(set(excluded_names))
    if generated:
        structure["generatedPaths"] = list(generated)
    document: dict[str, Any] = {
        "version": "2.0",
        "adapters": {"mode": "auto", "enabled": ["ecmascript"]},
        "rules": {},
    }
    if structure:
        document["structure"] = structure
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
