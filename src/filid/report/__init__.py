"""Output formats: one module per format, each a pure function of a ``ValidationResult``.

``text`` and ``json`` for people and scripts; ``sarif``, ``junit``, ``github`` (workflow
commands), ``summary`` (the Markdown job summary) and ``mermaid`` for CI. No module here
writes files or prints: the CLI and MCP layers do the IO.
"""
