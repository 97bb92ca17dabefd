"""The escaping of every output medium, kept in :mod:`filid.model.escape` (the lowest layer,
so that fixes, the store and reports share one module); re-exported here for the reports."""

from filid.model.escape import (
    git_path,
    markdown_cell,
    mermaid_label,
    ts_string_literal,
    unquote_git_path,
    visible,
    visible_keeping_breaks,
    workflow_data,
    workflow_property,
    xml_text,
)

__all__ = [
    "git_path",
    "markdown_cell",
    "mermaid_label",
    "ts_string_literal",
    "unquote_git_path",
    "visible",
    "visible_keeping_breaks",
    "workflow_data",
    "workflow_property",
    "xml_text",
]
