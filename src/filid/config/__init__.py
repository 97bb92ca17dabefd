"""Configuration: ``.filid/config.json`` → typed, immutable ``Config``.

Importing this package never imports pydantic; ``load_config`` does so only when a config
file exists. ``filid.config.schema.config_json_schema`` (pydantic) is deliberately not
re-exported here for the same reason.
"""

from __future__ import annotations

from filid.config.globs import matches_any_glob, matches_glob
from filid.config.load import CONFIG_RELATIVE_PATH, find_config_file, load_config
from filid.config.model import (
    DEFAULT_MAX_DEPTH,
    AllowedPeer,
    Config,
    RuleConfig,
    StructureConfig,
)
from filid.config.template import render_default_config

__all__ = [
    "CONFIG_RELATIVE_PATH",
    "DEFAULT_MAX_DEPTH",
    "AllowedPeer",
    "Config",
    "RuleConfig",
    "StructureConfig",
    "find_config_file",
    "load_config",
    "matches_any_glob",
    "matches_glob",
    "render_default_config",
]
