"""Imports read only through thunks: ``forwardRef(() => UsersModule)``, TypeORM's
``@ManyToOne(() => User)``, drizzle's ``references(() => users.id)``, type-graphql's
``@Field(() => Workspace)``, and drizzle's ``relations(table, ({ many }) => …)`` callbacks.

A thunk is an arrow function with no parameters whose body is the binding itself or a member
chain on it (``() => X``, ``() => X.y.z``), handed to a call (an argument, or a property of
an object argument: ``@ApiProperty({ type: () => X })``). Loading the file creates the thunk
and reads nothing; the framework calls it once every module has loaded. That is how maintainers
deliberately break a load-time import cycle, so an import with a read in a thunk and no value
read at load time — every other read sits in a function or method body, or in a type position
(decorated or not) — is marked ``deferred``: NestJS ``@Inject(forwardRef(() => ApplyChange))``
beside ``ApplyChangeCommand.create(…)`` in a method of the same class. Only the undeclared
regime's barrel loops use the mark (SPEC §0: a claim must hold for any TypeScript project);
the declared regime keeps upstream's edges.
"""

from __future__ import annotations

from collections.abc import Iterable

from tree_sitter import Node

from filid.model.facts import ImportFact
from filid.parse.ancestors import Ancestors
from filid.parse.load_reads import FUNCTION_NODES, calls_back_at_once

__all__ = ["is_thunk_read", "lazy_callees"]

# Calls whose callback arguments a library documents as read lazily, once every module has
# loaded: drizzle's `relations(table, ({ one, many }) => ({ … }))`. Keyed by import source.
_LAZY_CALLBACKS = {"drizzle-orm": "relations"}

# Names of a binding read as a value (a JSX element name is an `identifier` too).
_VALUE_LEAVES = frozenset({"identifier", "shorthand_property_identifier"})


def lazy_callees(imports: Iterable[ImportFact]) -> frozenset[str]:
    """The names this file calls with lazily read callbacks (imported under their own name)."""
    return frozenset(
        name
        for fact in imports
        if (name := _LAZY_CALLBACKS.get(fact.specifier or "")) is not None and name in fact.names
    )


def is_thunk_read(node: Node, above: Ancestors, lazy: frozenset[str] = frozenset()) -> bool:
    """Whether the value read ``node`` (an identifier in a value position, with ancestors
    ``above``) is read in a thunk: the body of ``() => node`` handed to a call, or a callback
    of a ``lazy`` callee.

    An import is ``deferred`` when some read of its bindings is a thunk read and every other
    value read lies inside a function (``filid.parse.load_reads.inside_a_function``); see
    ``filid.parse.import_elision``.
    """
    return _is_thunk_body(node, above) or _in_lazy_callback(above, lazy)


def _in_lazy_callback(above: Ancestors, lazy: frozenset[str]) -> bool:
    """The read lies in a function handed to a call of a ``lazy`` callee (``relations``)."""
    if not lazy:
        return False
    types = above.types
    for index in range(len(types) - 1, -1, -1):
        if types[index] in FUNCTION_NODES:
            holder = above.at(index - 1)
            call = above.at(index - 2)
            if holder is not None and holder.type == "arguments" and call is not None:
                callee = call.child_by_field_name("function")
                text = callee.text if callee is not None else None
                if text is not None and text.decode("utf-8", "replace") in lazy:
                    return True
    return False


def _is_thunk_body(node: Node, above: Ancestors) -> bool:
    """``node`` (or the member chain it starts) is the whole body of ``() => …``."""
    types = above.types
    index = len(types) - 1
    current = node
    while index >= 0 and types[index] == "member_expression":
        parent = above.nodes[index]
        target = parent.child_by_field_name("object")
        if target is None or target.id != current.id:
            return False
        current = parent
        index -= 1
    if index < 0 or types[index] != "arrow_function":
        return False
    arrow = above.nodes[index]
    body = arrow.child_by_field_name("body")
    if body is None or body.id != current.id or arrow.child_by_field_name("parameter"):
        return False
    parameters = arrow.child_by_field_name("parameters")
    if parameters is None or parameters.named_child_count != 0:
        return False
    return _handed_to_a_call(arrow, above, index)


def _handed_to_a_call(arrow: Node, above: Ancestors, index: int) -> bool:
    """The thunk ``arrow`` (``above.nodes[index]``) is given to a call (``forwardRef(…)``,
    ``@ManyToOne(…)``), directly or as a property of an object argument (``@ApiProperty({
    type: () => X })``): the callee decides when to read it. ``export const f = () => X`` is
    an ordinary function, not a thunk."""
    holder_index = index - 1
    holder = above.at(holder_index)
    if holder is not None and above.types[holder_index] == "pair":
        value = holder.child_by_field_name("value")
        if value is None or value.id != arrow.id:
            return False
        # the pair's parent (an object) holds the object's parent
        holder_index -= 2
        holder = above.at(holder_index)
    # a built-in that calls it before returning (`list.map(() => X)`) reads it at load
    return (
        holder is not None
        and above.types[holder_index] == "arguments"
        and not calls_back_at_once(above.at(holder_index - 1))
    )
