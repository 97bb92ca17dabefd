"""Whether a ``require`` identifier names a local binding rather than Node's ``require``.

A ``require(...)`` call is a module reference only when ``require`` is the CommonJS
function Node (or a bundler emulating it) passes to the file. A parameter named
``require`` shadows it: browserify's committed bundles wrap every module in
``[function(require,module,exports){ … },{"./constants":1}]`` and look each request up in
that table, never on disk (karma's ``static/karma.js``); AMD's ``define(function (require)
{ … })`` resolves through the loader's configuration. A function or variable the file
declares under that name is its own function too — except ``createRequire(…)``
(``module.createRequire``), which *is* Node's require, resolving from the URL or path it
is given (``const require = createRequire(import.meta.url)`` in an ES module), so such a
binding keeps its calls imports. A ``declare const require`` only types the global.
"""

from __future__ import annotations

from tree_sitter import Node

from filid.parse.load_reads import FUNCTION_NODES

_PARAMETERS = frozenset({"required_parameter", "optional_parameter", "identifier"})
_SCOPES = frozenset({"program", "statement_block"})
_NAME = b"require"


def is_local_require(identifier: Node) -> bool:
    """Whether the ``require`` identifier is bound by a parameter or a declaration of an
    enclosing scope (other than a ``createRequire`` call), so that calling it is no import."""
    node = identifier.parent
    while node is not None:
        kind = node.type
        if kind in FUNCTION_NODES and _binds_parameter(node):
            return True
        if kind in _SCOPES and _declares(node):
            return True
        node = node.parent
    return False


def _binds_parameter(function: Node) -> bool:
    single = function.child_by_field_name("parameter")
    if single is not None:
        return single.type == "identifier" and single.text == _NAME
    parameters = function.child_by_field_name("parameters")
    if parameters is None:
        return False
    for parameter in parameters.named_children:
        if parameter.type not in _PARAMETERS:
            continue
        pattern = (
            parameter.child_by_field_name("pattern")
            if parameter.type != "identifier"
            else parameter
        )
        if pattern is not None and pattern.type == "identifier" and pattern.text == _NAME:
            return True
    return False


def _declares(scope: Node) -> bool:
    for statement in scope.named_children:
        kind = statement.type
        if kind == "function_declaration":
            name = statement.child_by_field_name("name")
            if name is not None and name.text == _NAME:
                return True
        elif kind in ("lexical_declaration", "variable_declaration"):
            for declarator in statement.named_children:
                if declarator.type != "variable_declarator":
                    continue
                name = declarator.child_by_field_name("name")
                if name is None or name.type != "identifier" or name.text != _NAME:
                    continue
                return not _creates_require(declarator.child_by_field_name("value"))
    return False


def _creates_require(value: Node | None) -> bool:
    """``createRequire(…)`` or ``module.createRequire(…)``: Node's own require."""
    if value is None or value.type != "call_expression":
        return False
    function = value.child_by_field_name("function")
    if function is None:
        return False
    if function.type == "member_expression":
        function = function.child_by_field_name("property")
    return function is not None and function.text == b"createRequire"
