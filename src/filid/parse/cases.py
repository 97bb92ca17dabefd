"""How many test cases a ``*.spec.*`` / ``*.test.*`` file declares, read from its syntax tree.

The count follows the upstream filid plugin's semantic case counter (vincent-kk/ogham
``adapters/ecmascript/verification/countSemanticCases.ts``), on tree-sitter nodes instead of
its token scanner: every call of ``it``, ``test`` or ``specify`` (with any modifier chain:
``it.skip``, ``test.todo``, ``test.prop([…])``) is one case; ``it.each(table)`` is one case per
row of a static array (also ``[…] as const``) or tagged-template table (a spread, a computed
table or an interpolated template make the count inexact; unlike upstream, a type argument,
``it.each<Row>([…])``, does not); ``describe.each``/``suite.each`` multiplies the cases inside
its callback by its rows. A case function reached through an alias (``const t = it``) makes
the count inexact. ``filid:contract <id>`` markers in comments link the file to acceptance
groups of its owner's DETAIL.md.
"""

from __future__ import annotations

import re

from tree_sitter import Node

from filid.model.facts import CaseCount

_CASE_APIS = frozenset({"it", "specify", "test"})
_SUITE_APIS = frozenset({"describe", "suite"})
_FUNCTIONS = frozenset({"arrow_function", "function_expression", "function"})
_WRAPPERS = frozenset({"as_expression", "satisfies_expression", "parenthesized_expression"})
# Bytes that continue an identifier (a name found next to one is part of a longer name).
_WORD_BYTES = frozenset(
    bytes([c]) for c in b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$"
)
_CONTRACT_MARKER = re.compile(r"\bfilid:contract\s+([A-Za-z][A-Za-z0-9._-]*)")


def is_verification_candidate(path: str) -> bool:
    """True for a source file whose stem ends in ``.spec`` or ``.test`` (``a.spec.ts``)."""
    name = path.rpartition("/")[2]
    stem = name.rpartition(".")[0]
    return stem.endswith((".spec", ".test"))


def count_cases(root: Node, source: bytes) -> CaseCount:
    """The case count and contract ids of one parsed verification candidate."""
    counter = _Counter(root, source)
    counter.scan()
    return CaseCount(
        count=counter.count,
        reasons=tuple(dict.fromkeys(counter.reasons)),
        contract_ids=tuple(dict.fromkeys(counter.contract_ids)),
    )


class _Counter:
    """Finds the case and suite functions by their names in the bytes (each occurrence is
    looked up in the tree by offset, in C, and kept only when the tree says it is that
    identifier), so a long test file costs its calls, not its every node."""

    __slots__ = (
        "contract_ids",
        "count",
        "factors",
        "reasons",
        "root",
        "source",
        "tables",
    )

    def __init__(self, root: Node, source: bytes) -> None:
        self.root = root
        self.source = source
        self.count = 0
        self.reasons: list[str] = []
        self.contract_ids: list[str] = []
        # describe.each: (arguments span, callback body span, row count or 0 when the table
        # is not static); in the arguments outside the body nothing is scanned.
        self.factors: list[tuple[tuple[int, int], tuple[int, int], int]] = []
        # .each table spans: nothing inside them is a case.
        self.tables: list[tuple[int, int]] = []

    def text(self, node: Node) -> str:
        return self.source[node.start_byte : node.end_byte].decode("utf-8", "replace")

    def identifiers(self, names: frozenset[str]) -> list[Node]:
        """Every identifier node spelling one of ``names``, in source order."""
        source = self.source
        found: list[tuple[int, Node]] = []
        for name in names:
            word = name.encode()
            size = len(word)
            position = source.find(word)
            while position >= 0:
                end = position + size
                if not (
                    (position and source[position - 1 : position] in _WORD_BYTES)
                    or source[end : end + 1] in _WORD_BYTES
                ):
                    node = self.root.descendant_for_byte_range(position, end)
                    if (
                        node is not None
                        and node.type == "identifier"
                        and node.start_byte == position
                        and node.end_byte == end
                    ):
                        found.append((position, node))
                position = source.find(word, end)
        found.sort(key=lambda item: item[0])
        return [node for _, node in found]

    def scan(self) -> None:
        position = self.source.find(b"filid:contract")
        seen_comments: set[int] = set()
        while position >= 0:
            node = self.root.descendant_for_byte_range(position, position + 14)
            if node is not None and node.type == "comment" and node.id not in seen_comments:
                seen_comments.add(node.id)
                self.contract_ids.extend(_CONTRACT_MARKER.findall(self.text(node)))
            position = self.source.find(b"filid:contract", position + 14)
        suites = self.identifiers(_SUITE_APIS)
        cases = self.identifiers(_CASE_APIS)
        for identifier in suites:
            if self._multiplier(identifier) is not None:
                self._suite(identifier)
        aliases: dict[str, int] = {}
        for identifier in cases:
            multiplier = self._multiplier(identifier)
            if multiplier is None:
                continue
            alias = self._case(identifier, multiplier)
            if alias is not None:
                aliases.setdefault(alias[0], alias[1])
        if aliases:
            self._check_aliases(aliases)

    def _multiplier(self, identifier: Node) -> int | None:
        """The product of the describe.each row counts around ``identifier``; None when it
        lies in an ``.each`` table or in a describe.each's arguments outside its body."""
        at = identifier.start_byte
        if any(start <= at < end for start, end in self.tables):
            return None
        multiplier = 1
        for (args_start, args_end), (body_start, body_end), factor in self.factors:
            if body_start <= at < body_end:
                multiplier *= factor
            elif args_start <= at < args_end:
                return None
        return multiplier

    def _check_aliases(self, aliases: dict[str, int]) -> None:
        """``const t = it`` and a later ``t(…)``: cases the count cannot see."""
        called = {
            self.text(node)
            for node in self.identifiers(frozenset(aliases))
            if node.parent is not None
            and node.parent.type == "call_expression"
            and _same(node.parent.child_by_field_name("function"), node)
        }
        for alias, line in sorted(aliases.items(), key=lambda item: item[1]):
            if alias in called:
                self.reasons.append(
                    f'case API alias "{alias}" (line {line}) has an unknown expansion'
                )

    def _chain(self, identifier: Node) -> tuple[Node, Node | None]:
        """The top of ``identifier``'s member chain (``it.skip.each``) and its ``.each``."""
        top = identifier
        each: Node | None = None
        parent = top.parent
        while parent is not None and parent.type == "member_expression":
            if not _same(parent.child_by_field_name("object"), top):
                break
            prop = parent.child_by_field_name("property")
            top = parent
            if prop is not None and self.text(prop) == "each":
                each = parent
                break
            parent = top.parent
        return top, each

    def _rows(self, each: Node) -> tuple[int | None, Node | None]:
        """(row count or None when not static, the table node) of an ``.each`` member."""
        call = each.parent
        if call is None or call.type != "call_expression":
            return None, None
        if not _same(call.child_by_field_name("function"), each):
            return None, None
        table = call.child_by_field_name("arguments")
        if table is None:
            return None, None
        first = table
        if table.type == "arguments":
            args = [c for c in table.named_children if c.type != "comment"]
            if not args:
                return None, table
            first = args[0]
        # `[…] as const`, `[…] satisfies Row[]`, `([…])`: the rows are the array's.
        while first.type in _WRAPPERS and first.named_children:
            first = first.named_children[0]
        if first.type == "array":
            if b"..." in self.source[first.start_byte : first.end_byte]:
                return None, table
            return len([c for c in first.named_children if c.type != "comment"]), table
        if first.type == "template_string":
            if any(c.type == "template_substitution" for c in first.named_children):
                return None, table
            body = self.source[first.start_byte + 1 : first.end_byte - 1].decode("utf-8", "replace")
            lines = [line.strip() for line in re.split(r"\r?\n", body) if line.strip()]
            return max(0, len(lines) - 1), table
        return None, table

    def _alias_target(self, identifier: Node) -> Node | None:
        """The declared name when ``identifier`` heads a variable's value (``const t = it``,
        ``const t = it.each(…)``)."""
        head = identifier
        parent = head.parent
        while parent is not None and parent.type in ("member_expression", "call_expression"):
            field = "object" if parent.type == "member_expression" else "function"
            if not _same(parent.child_by_field_name(field), head):
                break
            head = parent
            parent = head.parent
        if parent is None or parent.type != "variable_declarator":
            return None
        if not _same(parent.child_by_field_name("value"), head):
            return None
        name = parent.child_by_field_name("name")
        return name if name is not None and name.type == "identifier" else None

    def _is_alias_assignment(self, identifier: Node) -> bool:
        """True when ``identifier`` is the value right after an ``=`` (``t = it.each``)."""
        node = identifier
        while node.prev_sibling is None and node.parent is not None:
            if node.parent.start_byte != identifier.start_byte:
                return False
            node = node.parent
        previous = node.prev_sibling
        return previous is not None and previous.type == "="

    def _case(self, identifier: Node, multiplier: int) -> tuple[str, int] | None:
        """Count one case function occurrence; return (alias, line) when it is assigned to a
        variable that may be called later."""
        line = identifier.start_point[0] + 1
        name = self._alias_target(identifier)
        alias = None if name is None else (self.text(name), name.start_point[0] + 1)
        if self._is_alias_assignment(identifier):
            self.reasons.append(f"case API at line {line} is assigned through an alias")
            return alias
        top, each = self._chain(identifier)
        if each is not None:
            rows, table = self._rows(each)
            if table is not None:
                self.tables.append((table.start_byte, table.end_byte))
            if rows is None:
                self.reasons.append(f"parameterized case at line {line} uses a dynamic table")
            else:
                self.count += multiplier * rows
            return alias
        parent = top.parent
        if (
            parent is not None
            and parent.type == "call_expression"
            and _same(parent.child_by_field_name("function"), top)
        ):
            self.count += multiplier
        return alias

    def _suite(self, identifier: Node) -> None:
        """For ``describe.each(rows)(name, fn)``: record the callback body's row factor (its
        table and other arguments are then not scanned)."""
        _top, each = self._chain(identifier)
        if each is None:
            return
        rows, table = self._rows(each)
        line = identifier.start_point[0] + 1
        call = each.parent
        outer = call.parent if call is not None else None
        body: Node | None = None
        arguments: Node | None = None
        if (
            call is not None
            and outer is not None
            and outer.type == "call_expression"
            and _same(outer.child_by_field_name("function"), call)
        ):
            arguments = outer.child_by_field_name("arguments")
            callback = next(
                (
                    c
                    for c in (arguments.named_children if arguments else [])
                    if c.type in _FUNCTIONS
                ),
                None,
            )
            if callback is not None:
                candidate = callback.child_by_field_name("body")
                if candidate is not None and candidate.type == "statement_block":
                    body = candidate
        if body is None or arguments is None:
            self.reasons.append(
                f"parameterized suite at line {line} has an unsupported callback shape"
            )
            return
        if table is not None:
            self.tables.append((table.start_byte, table.end_byte))
        if rows is None:
            self.reasons.append(f"parameterized suite at line {line} uses a dynamic table")
        self.factors.append(
            (
                (arguments.start_byte, arguments.end_byte),
                (body.start_byte, body.end_byte),
                0 if rows is None else rows,
            )
        )


def _same(node: Node | None, other: Node) -> bool:
    return node is not None and node.id == other.id
