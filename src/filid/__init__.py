"""filid: Fractal Context Architecture checks for TypeScript/JavaScript code bases."""

from __future__ import annotations

__version__ = "0.1.0"

__all__ = ["__version__"]
