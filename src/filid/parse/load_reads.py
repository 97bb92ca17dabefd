"""Which value reads of an imported binding run while the file loads (``ImportFact.load_read``).

An import cycle can fail at load time only where a module reads, during its own evaluation, a
binding of a module that has not finished evaluating: a temporal-dead-zone ``ReferenceError``
under ES modules, ``undefined`` (and then ``class extends undefined``, ``undefined.x``…) in
CommonJS output. A read inside a function body runs when the function is called, which for a
React component, a hook or a handler is long after every module has loaded.

A read runs at load when it lies outside every function (a top-level statement, a class's
``extends`` or decorator, a static field initialiser (an instance field's runs with each
``new``, as a method body does), a top-level call's argument, ``export
default X``, an ``enum`` or ``const`` initialiser), or when every function holding it runs
while its enclosing code runs:

- an immediately invoked function (``(() => X)()``);
- a callback of an ECMAScript built-in that calls it before returning: an array method
  (``list.map((k) => X[k])``, ``forEach``, ``reduce``…), ``Array.from(items, fn)``, or the
  executor of ``new Promise(fn)``;
- a named function or class declared in the file (``function f() {…}``, ``const f = () =>
  …``, ``class C { … }``) that the file calls, instantiates (``new C()``) or calls a member of
  (``C.create()``) outside every function.

Decision (issue 23): any other callee is taken to call its callback later (``memo``,
``forwardRef``, ``styled``, event registrations, test callbacks): filid cannot know what an
arbitrary function does with a callback, and a load-time failure claimed on a guess is worse
than a loop left as a warning. ``export { X }`` is a live binding (ES modules) or a getter
(TypeScript's, Babel's and esbuild's CommonJS output): no read.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from tree_sitter import Node

from filid.parse.ancestors import Ancestors

__all__ = ["FUNCTION_NODES", "LoadReads", "calls_back_at_once", "inside_a_function"]

# Nodes whose body runs when called, not when the file loads (filid.parse.thunks too).
FUNCTION_NODES = frozenset(
    {
        "function_declaration",
        "generator_function_declaration",
        "function_expression",
        "function",
        "generator_function",
        "arrow_function",
        "method_definition",
    }
)
# Built-in methods that call their callback before they return.
_SYNCHRONOUS_CALLERS = frozenset(
    {
        "every",
        "filter",
        "find",
        "findIndex",
        "findLast",
        "findLastIndex",
        "flatMap",
        "forEach",
        "from",
        "map",
        "reduce",
        "reduceRight",
        "some",
        "sort",
        "toSorted",
    }
)
_CLASSES = frozenset({"class_declaration", "class", "abstract_class_declaration"})
# A class field (TypeScript's and the TSX grammar's node for every field).
_FIELD = "public_field_definition"


class LoadReads:
    """Answers "does this read run while the file loads?" for one parsed file.

    ``mentions(name)`` yields the nodes that are exactly ``name`` in the file (the caller's
    byte search, looked up in the tree); ``ancestors(node)`` gives a node's ancestors
    (``filid.parse.ancestors``).
    """

    def __init__(
        self,
        mentions: Callable[[bytes], Iterator[Node]],
        ancestors: Callable[[Node], Ancestors],
    ) -> None:
        self._mentions = mentions
        self._ancestors = ancestors
        self._called: dict[bytes, bool] = {}
        self._runs: dict[int, bool] = {}

    def runs_at_load(self, above: Ancestors) -> bool:
        """Whether the value read whose ancestors are ``above`` runs while the file loads
        (module docstring)."""
        types = above.types
        index = len(types) - 1
        if index >= 0 and types[index] == "export_specifier":
            return False
        functions = FUNCTION_NODES
        if functions.isdisjoint(types) and _FIELD not in types:
            return True  # outside every function and class field
        runs = self._runs
        nodes = above.nodes
        while index >= 0:
            kind = types[index]
            if kind in functions or (kind == _FIELD and _in_instance_value(above, index)):
                current = nodes[index]
                known = runs.get(current.id)
                if known is None:
                    known = runs[current.id] = self._runs_with_its_scope(above, index)
                if not known:
                    return False
            index -= 1
        return True

    def _runs_with_its_scope(self, above: Ancestors, index: int) -> bool:
        """Whether the function ``above.nodes[index]`` runs whenever the code holding it
        runs."""
        inner = above.nodes[index]
        holder_index = index - 1
        while above.type_at(holder_index) == "parenthesized_expression":
            inner = above.nodes[holder_index]
            holder_index -= 1
        holder = above.at(holder_index)
        if holder is None:
            return False
        kind = above.types[holder_index]
        if kind == "call_expression":
            callee = holder.child_by_field_name("function")
            if callee is not None and callee.id == inner.id:
                return True  # immediately invoked
        if kind == "arguments" and calls_back_at_once(above.at(holder_index - 1)):
            return True
        name = _unit_name(above, index)
        return name is not None and self._called_at_load(name)

    def _called_at_load(self, name: bytes) -> bool:
        """Whether the file calls, instantiates or calls a member of ``name`` outside every
        function."""
        known = self._called.get(name)
        if known is None:
            known = False
            for node in self._mentions(name):
                if not _is_called(node):
                    continue
                if FUNCTION_NODES.isdisjoint(self._ancestors(node).types):
                    known = True
                    break
            self._called[name] = known
        return known


def calls_back_at_once(call: Node | None) -> bool:
    """``call`` is a built-in that calls its callback arguments before it returns."""
    if call is None:
        return False
    if call.type == "call_expression":
        callee = call.child_by_field_name("function")
        if callee is not None and callee.type == "member_expression":
            member = callee.child_by_field_name("property")
            return member is not None and member.text in _SYNCHRONOUS_NAMES
    if call.type == "new_expression":
        constructor = call.child_by_field_name("constructor")
        return constructor is not None and constructor.text == b"Promise"
    return False


_SYNCHRONOUS_NAMES = frozenset(name.encode() for name in _SYNCHRONOUS_CALLERS)


def _unit_name(above: Ancestors, index: int) -> bytes | None:
    """The name the file calls the function ``above.nodes[index]`` by: a declared function,
    a function assigned to a variable, or (for a method or an instance field) its class."""
    function = above.nodes[index]
    kind = above.types[index]
    if kind in ("function_declaration", "generator_function_declaration"):
        name = function.child_by_field_name("name")
        return name.text if name is not None else None
    if kind == "method_definition" or kind == _FIELD:
        # its parent is the class body
        owner = above.at(index - 2)
        if owner is None or above.types[index - 2] not in _CLASSES:
            return None
        name = owner.child_by_field_name("name")
        if name is not None:
            return name.text
        return _declared_as(owner, above.at(index - 3))
    return _declared_as(function, above.at(index - 1))


def _in_instance_value(above: Ancestors, index: int) -> bool:
    """Whether the read whose ancestors are ``above`` lies in the initialiser of the class
    field ``above.nodes[index]``, a field of each instance (not ``static``): that runs when
    the class is instantiated, not when it is defined (judge M1, VisActor/VTable's
    ``type: string = AggregationType.SUM``). Its name, a computed key and its decorators run
    at definition."""
    field = above.nodes[index]
    if any(child.type == "static" for child in field.children):
        return False
    if index == len(above.nodes) - 1:
        return True  # the read is a child of the field: its value (a name is no identifier)
    value = field.child_by_field_name("value")
    return value is not None and value.id == above.nodes[index + 1].id


def _declared_as(value: Node, holder: Node | None) -> bytes | None:
    """The variable ``value`` initialises (``const f = value``; ``holder`` is its parent),
    if any."""
    if holder is None or holder.type != "variable_declarator":
        return None
    assigned = holder.child_by_field_name("value")
    name = holder.child_by_field_name("name")
    if assigned is None or assigned.id != value.id or name is None or name.type != "identifier":
        return None
    return name.text


def _is_called(node: Node) -> bool:
    """``node`` is called (``f()``), instantiated (``new C()``) or has a member called
    (``C.create()``)."""
    parent = node.parent
    if parent is None:
        return False
    if parent.type == "call_expression":
        callee = parent.child_by_field_name("function")
        return callee is not None and callee.id == node.id
    if parent.type == "new_expression":
        constructor = parent.child_by_field_name("constructor")
        return constructor is not None and constructor.id == node.id
    if parent.type == "member_expression":
        target = parent.child_by_field_name("object")
        call = parent.parent
        if target is None or target.id != node.id or call is None:
            return False
        if call.type == "call_expression":
            callee = call.child_by_field_name("function")
            return callee is not None and callee.id == parent.id
    return False


def inside_a_function(node: Node) -> bool:
    """``node`` lies in the body of a function or method (read when called, not at load)."""
    current = node.parent
    while current is not None:
        if current.type in FUNCTION_NODES:
            return True
        current = current.parent
    return False
