"""What the upstream filid tool writes into ``.filid/config.json``, so its files load here.

Upstream is the Claude Code plugin "filid" (Fractal Context Architecture, FCA-AI; npm
``@lumy-pack/filid`` / ``@ogham/filid``, github.com/vincent-kk/ogham ``packages/filid``), read
from its published sources (``config-schemas.ts``, ``builtin-rule-ids.ts``, the v1→v2
migration ``migrateConfigV1``):

- **version "1.0"**: ``{version, rules: {<id>: {enabled?, severity?, exempt?}}, language?,
  scan?: {maxDepth?}, additional-allowed?: [basename | {basename, paths?}],
  additional-organ-names?: [name], additional-entry-points?: [file],
  additional-route-patterns?: [regex]}``.
- **version "2.0"**: ``{version, language?, adapters: {mode, enabled}, rules: {…},
  structure?: {maxDepth?, additionalOrganNames?, additionalAllowedPeers?: [{basename, paths?,
  adapterId?}], entryPointOverrides?: {<adapter id>: [file]}}}``.

Rule entries upstream are objects only (no ``"rule": "off"`` shorthand), so this filid accepts
objects only too: a file valid here stays readable by the upstream plugin in the same repository.
"""

from __future__ import annotations

# Every rule id the upstream plugin has defined in any released version (v1 and v2 lists).
# An id here that this filid neither implements nor aliases is noted and ignored, not an error.
UPSTREAM_RULE_IDS: frozenset[str] = frozenset(
    {
        "naming-convention",
        "organ-no-claudemd",
        "organ-no-intentmd",
        "index-barrel-pattern",
        "module-entry-point",
        "max-depth",
        "circular-dependency",
        "pure-function-isolation",
        "zero-peer-file",
        "external-import-boundary",
        "intent-document-contract",
        "detail-document-contract",
        "entry-point-surface",
        "spec-document-case-cap",
        "test-record-case-cap",
        "spec-fragmentation",
        "spec-contract-link",
        "legacy-criteria-ledger",
    }
)

# Version 1.0 top-level keys → where their value lives in version 2.0 (None: read and ignored).
V1_KEY_TARGETS: dict[str, str | None] = {
    "scan": "structure.maxDepth",
    "additional-organ-names": "structure.additionalOrganNames",
    "additional-allowed": "structure.additionalAllowedPeers",
    "additional-entry-points": "entryPointOverrides",
    "additional-route-patterns": None,
}
