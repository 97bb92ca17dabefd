"""File universe → classified fractal tree (SPEC §1-2)."""

from __future__ import annotations
