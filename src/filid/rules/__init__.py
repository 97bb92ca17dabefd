"""Rules: one module per rule plus the explicit registry."""

from __future__ import annotations
