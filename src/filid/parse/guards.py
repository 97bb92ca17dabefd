"""Module calls whose failure the file handles: the optional-dependency idiom.

``try { nativeBinding = require('./x.wasi.cjs') } catch (err) { … }`` (the loader NAPI-RS
generates), ``try { require('fsevents') } catch {}``, ``try { await import('x') } catch {}``,
``import('x').catch(() => null)``: the code expects that the target may be missing (an
optional build output, an optional dependency, a platform binding) and carries on when it is.
Such a call is marked ``ImportFact.guarded``; a guarded call that resolves to nothing is no
claim.
"""

from __future__ import annotations

from tree_sitter import Node

# Code inside these runs later, when it is called, outside any `try` that encloses its text.
_FUNCTION_BOUNDARIES = frozenset(
    {
        "function_declaration",
        "function_expression",
        "function",
        "generator_function",
        "generator_function_declaration",
        "arrow_function",
        "method_definition",
        "public_field_definition",
        "field_definition",
    }
)


def is_guarded(call: Node, *, dynamic: bool) -> bool:
    """Whether the failure of the module call ``call`` is handled where it is made.

    A ``require()`` is guarded when it is evaluated inside the block of a ``try`` statement
    (not inside a function defined there, which runs later) that has a ``catch`` clause not
    simply rethrowing (no ``throw`` among its block's own statements; a conditional rethrow
    such as ``if (e.code !== 'MODULE_NOT_FOUND') throw e`` still handles a missing module). A
    dynamic ``import()`` fails by rejecting its promise, which a ``try`` catches only when the
    call is awaited there; ``import('x').catch(…)`` handles the rejection itself.

    A call whose specifier the author silenced the compiler on (``// @ts-expect-error`` or
    ``// @ts-ignore`` on the line before it, inside the call's parentheses or before the call)
    is guarded too: the author states the path does not resolve here (lit's benchmark tries
    ``lit-element/lib/decorators.js``, the 2.x layout, when the 3.x path fails).
    """
    if _silenced(call):
        return True
    node = call
    if dynamic:
        parent = _unparenthesized_parent(call)
        if parent is not None and parent.type == "member_expression":
            prop = parent.child_by_field_name("property")
            outer = parent.parent
            if (
                prop is not None
                and prop.text == b"catch"
                and outer is not None
                and outer.type == "call_expression"
            ):
                return True
        if parent is None or parent.type != "await_expression":
            return False
        node = parent
    child = node
    parent = node.parent
    while parent is not None:
        kind = parent.type
        if kind in _FUNCTION_BOUNDARIES:
            return False
        if kind == "try_statement":
            body = parent.child_by_field_name("body")
            if body is not None and body.id == child.id:
                handler = parent.child_by_field_name("handler")
                if handler is not None and _handles(handler):
                    return True
        child = parent
        parent = parent.parent
    return False


def _unparenthesized_parent(node: Node) -> Node | None:
    parent = node.parent
    while parent is not None and parent.type == "parenthesized_expression":
        parent = parent.parent
    return parent


def _handles(handler: Node) -> bool:
    """A ``catch`` clause that does not simply rethrow: no ``throw`` among its own statements."""
    body = handler.child_by_field_name("body")
    if body is None:
        return False
    return not any(statement.type == "throw_statement" for statement in body.named_children)


_DIRECTIVES = (b"@ts-expect-error", b"@ts-ignore")


def _silenced(call: Node) -> bool:
    """A ``@ts-expect-error``/``@ts-ignore`` comment ends on the line before the call's first
    argument, inside its parentheses, or on the line before the call itself."""
    arguments = call.child_by_field_name("arguments")
    if arguments is not None:
        previous: Node | None = None
        for child in arguments.named_children:
            if child.type != "comment":
                if previous is not None and _directs(previous, child.start_point.row):
                    return True
                break
            previous = child
    holder = call
    row = call.start_point.row
    while (
        holder.parent is not None
        and holder.parent.type not in ("program", "statement_block")
        and holder.parent.start_point.row == row
    ):
        holder = holder.parent
    sibling = holder.prev_named_sibling
    return sibling is not None and _directs(sibling, row)


def _directs(comment: Node, row: int) -> bool:
    """``comment``, or a comment in the run of line comments that ends on the line before
    ``row``, silences a resolution error there: a compiler directive (``@ts-expect-error``,
    ``@ts-ignore``) or an eslint disable of its unresolved-import rules."""
    current: Node | None = comment
    while current is not None and current.type == "comment" and current.end_point.row == row - 1:
        text = (current.text or b"").lstrip(b"/* ")
        if text.startswith(_DIRECTIVES) or (
            text.startswith(b"eslint-disable") and any(r in text for r in _LINT_RULES)
        ):
            return True
        row = current.start_point.row
        current = current.prev_named_sibling
    return False


# eslint rules that report an import that does not resolve (eslint-plugin-import, -import-x, -n)
_LINT_RULES = (b"no-unresolved", b"no-missing-import", b"no-missing-require")


def in_function_body(call: Node) -> bool:
    """Whether ``call`` is evaluated inside a function or method body: it runs when that
    function is called, not when the file loads (a lazy ``require()``)."""
    parent = call.parent
    while parent is not None:
        if parent.type in _FUNCTION_BOUNDARIES:
            return True
        parent = parent.parent
    return False


def silenced_after(previous: Node | None, row: int) -> bool:
    """A ``@ts-expect-error``/``@ts-ignore`` comment ends on the line before ``row`` (the
    0-based row where a top-level ``import … from`` starts): the author silenced the compiler
    on its path. ``previous`` is the statement's previous named sibling (None for none)."""
    return previous is not None and _directs(previous, row)
