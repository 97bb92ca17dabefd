"""ERROR and MISSING nodes: which are real syntax errors, which mark legal TypeScript the
grammar does not parse (tree-sitter-typescript 0.23), and where the first real one sits."""

from __future__ import annotations

from tree_sitter import Node


def is_type_keyword_error(node: Node) -> bool:
    """An ERROR node that holds exactly the ``type`` keyword (``export type * …``)."""
    return node.child_count == 1 and node.children[0].type == "type"


# Modifiers TypeScript accepts that tree-sitter-typescript 0.23.2 does not know: variance
# annotations on type parameters (`<in out T>`, TS 4.7) and `static accessor` fields (TS 4.9).
_VARIANCE_MODIFIERS = frozenset({b"in", b"out"})


def grammar_gaps(root: Node, source: bytes) -> set[int]:
    """ERROR and MISSING nodes that mark legal TypeScript the grammar does not parse, each
    recognised by its shape in the tree (tsc --noEmit accepts every one; see the tests):

    - a tagged template with type arguments whose type is not a plain name
      (``sql<Row[]>`…` ``, ``styled.div<{ on: boolean }>`…` ``): the grammar either invents a
      missing ``!`` after ``f<…>`` (the template then reads as the call's arguments) or wraps
      ``f<…>`` in an ERROR just before the template;
    - ``in``/``out`` variance modifiers of a type parameter (with or without a constraint or a
      default);
    - in an object type without separators, a generic call signature on the line after
      another call signature (Effect's overload sets);
    - the ``accessor`` keyword after another modifier (``static accessor x = 1``);
    - an import type followed by ``[]`` or an indexed access in a parameter's or a return
      type, a property's type or a type argument (``(p: import('x').T[])``,
      ``Record<import('x').T['k'], V>``; the import itself is a type import either way);
    - a mapped type's key named like a keyword (``{ [namespace in keyof M]: … }``).
    """
    gaps: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        for child in node.children:
            if child.is_missing:
                if _is_tagged_template_bang(child, node) or _is_function_type_paren(child, source):
                    gaps.add(child.id)
            elif child.is_error:
                if _is_gap_error(child, node, source):
                    gaps.add(child.id)
                else:
                    stack.append(child)
            elif child.has_error:
                stack.append(child)
    return gaps


def _is_tagged_template_bang(missing: Node, parent: Node) -> bool:
    """The ``!`` the grammar inserts in ``f<T[]>`…` ``: ``(f<T[]>)!`…` ``."""
    if parent.type != "non_null_expression" or missing.type != "!":
        return False
    inner = parent.named_children
    call = parent.parent
    return (
        bool(inner)
        and inner[0].type == "instantiation_expression"
        and call is not None
        and call.type == "call_expression"
        and (arguments := call.child_by_field_name("arguments")) is not None
        and arguments.type == "template_string"
    )


def _text(node: Node | None, source: bytes) -> bytes:
    return source[node.start_byte : node.end_byte] if node is not None else b""


def _is_gap_error(error: Node, parent: Node, source: bytes) -> bool:
    named = error.named_children
    if (
        parent.type == "type_parameters"
        and named
        and all(n.type == "identifier" and _text(n, source) in _VARIANCE_MODIFIERS for n in named)
        and (following := error.next_named_sibling) is not None
        and following.type == "type_parameter"
    ):
        # `<in out K extends string>`, `<in I, out P = I>`: the modifiers alone in an ERROR
        # before the parameter they modify (one with a constraint or a default)
        return True
    if parent.type in _SIGNATURE_TAILS and _is_next_call_signature(error, source):
        return True
    if parent.type in ("type_parameters", "type_parameter"):
        # `<in out T>`: the grammar takes the first modifier for the parameter's name and
        # wraps what follows (more modifiers, then the real name) in an ERROR.
        modifier = (
            parent.child_by_field_name("name")
            if parent.type == "type_parameter"
            else error.prev_named_sibling
        )
        if modifier is None or _text(modifier, source) not in _VARIANCE_MODIFIERS:
            return False
        return (
            bool(named)
            and all(n.type == "identifier" for n in named)
            and all(_text(n, source) in _VARIANCE_MODIFIERS for n in named[:-1])
        )
    if parent.type == "public_field_definition":
        # `static accessor x`: the grammar takes `accessor` for the field's name.
        previous = error.prev_sibling
        return (
            len(named) == 1
            and named[0].type
            in ("property_identifier", "identifier", "private_property_identifier")
            and previous is not None
            and previous.type == "property_identifier"
            and _text(previous, source) == b"accessor"
        )
    text = _text(error, source)
    if (
        text.startswith(b"\x00")
        and parent.type in ("template_string", "string")
        and not any(c in text for c in b"\"'`\n")
    ):
        # a raw NUL character inside a template or string literal (legal: Dokploy's
        # `${provider}\0${ref}` key); the grammar cannot take it
        return True
    if text.startswith(b"&") and _in_jsx_text(parent):
        # `Plans & Billing`, `href="?a=1&b=2"`: an ampersand that starts no entity is text
        return not any(c in text for c in b"<>{}\"'")
    if text.startswith(b"=>") or (not text and error.prev_sibling is not None):
        # `(string) => void`: a function type whose one parameter is named like a type
        previous = error.prev_named_sibling
        rest = text[2:].strip().rstrip(b")").strip()
        return (
            previous is not None
            and _ends_in_parenthesized_type(previous)
            and not any(c in rest for c in b"{};=")
            and (bool(rest) or not text)
        )
    if text.startswith(b">") and named and named[0].type in ("formal_parameters", "arguments"):
        # `await importOriginal<typeof import('x')>()` (vitest mocks): the grammar reads
        # `f < typeof import('x')` as a comparison and the `>(…)` that follows as an ERROR
        return _ends_in_typeof_import_comparison(error.prev_named_sibling)
    if text == b"," and parent.type == "parenthesized_expression":
        # `vi.importActual<typeof import('x')>('./x.ts',)`: read as `(… < …) > ('./x.ts',)`,
        # where the trailing comma of the call's arguments is an error
        comparison = parent.parent
        if comparison is not None and comparison.type == "binary_expression":
            operator = comparison.child_by_field_name("operator")
            left = comparison.child_by_field_name("left")
            return (
                operator is not None
                and operator.type == ">"
                and _ends_in_typeof_import_comparison(left)
            )
        return False
    if parent.type == "template_string":
        # an invalid escape is legal in a tagged template (``String.raw`\u00` ``)
        call = parent.parent
        return (
            call is not None
            and call.type == "call_expression"
            and call.child_by_field_name("arguments") == parent
            and b"\\" in _text(parent, source)
        )
    if (
        len(named) == 1
        and parent.type in _TYPE_POSITIONS
        and _is_import_type_member(named[0])
        and error.next_sibling is not None
        and error.next_sibling.type in ("tuple_type", "array_type")
    ):
        # `(p: import('x').T[])`, `Record<import('x').T['k'], V>`: an import type followed by
        # `[]` or an indexed access; the grammar reads `import('x').T` as an expression
        return True
    if parent.type == "computed_property_name" and _is_keyword_named_mapped_key(error, source):
        return True
    if len(named) == 1 and named[0].type == "instantiation_expression":
        following = error.next_sibling
        while following is not None and following.type != "template_string":
            following = following.children[0] if following.children else None
        # only whitespace may separate `f<T[]>` from its template
        return following is not None and not source[error.end_byte : following.start_byte].strip()
    return False


# Where a type is expected (the parents of the ERROR an import type with `[…]` becomes).
_TYPE_POSITIONS = frozenset({"type_annotation", "type_arguments"})


def _is_import_type_member(node: Node) -> bool:
    """Is ``node`` ``import('…').a.b`` (a member chain on an ``import`` call of one string)?"""
    current = node
    while current.type == "member_expression":
        inner = current.child_by_field_name("object")
        if inner is None:
            return False
        current = inner
    if current is node or current.type != "call_expression":
        return False
    function = current.child_by_field_name("function")
    arguments = current.child_by_field_name("arguments")
    return (
        function is not None
        and function.type == "import"
        and arguments is not None
        and [a.type for a in arguments.named_children] == ["string"]
    )


# Where the return type of a call signature ends (see _is_next_call_signature).
_SIGNATURE_TAILS = frozenset({"function_type", "union_type", "type_annotation"})


def _is_next_call_signature(error: Node, source: bytes) -> bool:
    """``{ <A>(a: A): A⏎ <A, B>(a: A, b: B): B }``: in an object type written without
    separators (Effect's overload sets), the grammar reads a call signature's return type and
    the next line's generic call signature as one type: the ERROR holds that return type (or
    ``A<A, B>``, the name glued to the next line's type parameters), then the next
    signature's type parameters or parameters, which start on a new line."""
    named = error.named_children
    if len(named) < 2 or not _in_object_type(error):
        return False
    first, second = named[0], named[1]
    if first.type not in ("generic_type", "type_identifier", "nested_type_identifier"):
        return False
    if second.type not in ("type_parameters", "formal_parameters"):
        return False
    if b"\n" in source[first.end_byte : second.start_byte]:
        return True
    name = first.child_by_field_name("name")
    arguments = first.child_by_field_name("type_arguments")
    return (
        first.type == "generic_type"
        and second.type == "formal_parameters"
        and name is not None
        and arguments is not None
        and b"\n" in source[name.end_byte : arguments.start_byte]
    )


def _in_object_type(node: Node) -> bool:
    """Is ``node`` inside an object type or an interface body (within its member's type)?"""
    current = node.parent
    while current is not None:
        if current.type in ("object_type", "interface_body"):
            return True
        if current.type in ("statement_block", "program", "class_body"):
            return False
        current = current.parent
    return False


def _is_keyword_named_mapped_key(error: Node, source: bytes) -> bool:
    """``{ [namespace in keyof M]: … }``: a mapped type whose key is named like a keyword
    (``namespace``, ``module``, ``type``, ``declare``); the grammar reads ``namespace in keyof``
    as an expression and the type after ``keyof`` as an ERROR."""
    previous = error.prev_named_sibling
    signature = error.parent.parent if error.parent is not None else None
    if previous is None or previous.type != "binary_expression" or signature is None:
        return False
    operator = previous.child_by_field_name("operator")
    right = previous.child_by_field_name("right")
    return (
        signature.type == "property_signature"
        and operator is not None
        and operator.type == "in"
        and right is not None
        and _text(right, source) == b"keyof"
        and [n.type for n in error.named_children] == ["identifier"]
    )


def _is_function_type_paren(missing: Node, source: bytes) -> bool:
    """The ``)`` the grammar inserts in ``(x, f: (string) => void) => …``, before it reads
    ``=> void)`` as an ERROR."""
    parent = missing.parent
    previous = missing.prev_named_sibling
    following = parent.next_sibling if parent is not None else None
    return (
        missing.type == ")"
        and parent is not None
        and parent.type == "formal_parameters"
        and previous is not None
        and _ends_in_parenthesized_type(previous)
        and following is not None
        and following.is_error
        and _text(following, source).startswith(b"=>")
    )


def _ends_in_typeof_import_comparison(node: Node | None) -> bool:
    """Does ``node`` end with ``x < typeof import('…')`` (the start of a generic call)?"""
    current = node
    while current is not None:
        if current.type == "binary_expression":
            operator = current.child_by_field_name("operator")
            right = current.child_by_field_name("right")
            if (
                operator is not None
                and operator.type == "<"
                and right is not None
                and right.type == "unary_expression"
                and (argument := right.child_by_field_name("argument")) is not None
                and argument.type == "call_expression"
                and (function := argument.child_by_field_name("function")) is not None
                and function.type == "import"
            ):
                return True
        children = [c for c in current.named_children if not c.is_error]
        current = children[-1] if children else None
    return False


def _in_jsx_text(parent: Node) -> bool:
    """Is ``parent`` JSX children or a JSX attribute's string?"""
    if parent.type in ("jsx_element", "jsx_fragment"):
        return True
    grand = parent.parent
    return parent.type == "string" and grand is not None and grand.type == "jsx_attribute"


def _ends_in_parenthesized_type(node: Node) -> bool:
    """Does ``node`` end with a parenthesized type of one name (``onChange: (string)``)?"""
    current: Node | None = node
    while current is not None:
        if current.type == "parenthesized_type":
            inner = current.named_children
            return len(inner) == 1 and inner[0].type in ("predefined_type", "type_identifier")
        children = [c for c in current.named_children if not c.is_error]
        current = children[-1] if children else None
    return False


def has_unrecovered_error(root: Node, recovered: set[int]) -> bool:
    """True when the tree holds an ERROR or MISSING node the walker did not read past."""
    stack = [root]
    while stack:
        node = stack.pop()
        for child in node.children:
            if (child.is_missing or child.is_error) and child.id not in recovered:
                return True
            if child.has_error and not (child.is_error and child.id in recovered):
                stack.append(child)
    return False


def first_error_line(root: Node, recovered: set[int]) -> int:
    """1-based line of the first ERROR or MISSING node that the walker did not read past."""
    stack = [root]
    first: int | None = None
    while stack:
        node = stack.pop()
        for child in node.children:
            if (child.is_missing or child.is_error) and child.id not in recovered:
                line = child.start_point[0] + 1
                first = line if first is None else min(first, line)
            elif child.has_error and not (child.is_error and child.id in recovered):
                stack.append(child)
    return first if first is not None else root.start_point[0] + 1
