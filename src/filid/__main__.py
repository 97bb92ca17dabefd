"""Entry point for ``python -m filid``."""

from __future__ import annotations

from filid.cli import main

if __name__ == "__main__":
    main()
