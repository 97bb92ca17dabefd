"""Configuration: ``.filid/config.json`` → typed, immutable ``Config``."""

from __future__ import annotations
