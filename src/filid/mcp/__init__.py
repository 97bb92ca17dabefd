"""The MCP server (``filid mcp``): the five fractal tools and the ``filid://rules`` resource.

A thin adapter over the same engine, report and fix functions the CLI uses; see
:mod:`filid.mcp.server` for ``build_server`` and ``run_stdio``.
"""

from __future__ import annotations
