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
_DECLARATIONS = frozenset({"lexical_declaration", "variable_declaration"})
_FUNCTIONS = frozenset({"arrow_function", "function_expression", "function"})
_WRAPPERS = frozenset({"as_expression", "satisfies_expression", "parenthesized_expression"})
_CONTRACT_MARKER = re.compile(r"\bfilid:contract\s+([A-Za-z][A-Za-z0-9._-]*)")


def is_verification_candidate(path: str) -> bool:
    """True for a source file whose stem ends in ``.spec`` or ``.test`` (``a.spec.ts``)."""
    name = path.rpartition("/")[2]
    stem = name.rpartition(".")[0]
    return stem.endswith((".spec", ".test"))


def count_cases(root: Node, source: bytes) -> CaseCount:
    """The case count and contract ids of one parsed verification candidate."""
    counter = _Counter(source)
    counter.scan(root)
    return CaseCount(
        count=counter.count,
        reasons=tuple(dict.fromkeys(counter.reasons)),
        contract_ids=tuple(dict.fromkeys(counter.contract_ids)),
    )


class _Counter:
    __slots__ = ("aliases", "contract_ids", "count", "reasons", "skipped", "source")

    def __init__(self, source: bytes) -> None:
        self.source = source
        self.count = 0
        self.reasons: list[str] = []
        self.contract_ids: list[str] = []
        self.skipped: set[int] = set()
        self.aliases: dict[str, int] = {}

    def text(self, node: Node) -> str:
        return self.source[node.start_byte : node.end_byte].decode("utf-8", "replace")

    def scan(self, root: Node) -> None:
        called: set[str] = set()
        stack: list[tuple[Node, int]] = [(root, 1)]
        while stack:
            node, multiplier = stack.pop()
            if node.id in self.skipped:
                continue
            kind = node.type
            if kind == "comment":
                self.contract_ids.extend(_CONTRACT_MARKER.findall(self.text(node)))
                continue
            if kind in _DECLARATIONS:
                self._note_aliases(node)
            elif kind == "call_expression":
                function = node.child_by_field_name("function")
                if function is not None and function.type == "identifier":
                    called.add(self.text(function))
            if kind == "identifier":
                name = self.text(node)
                if name in _CASE_APIS:
                    self._case(node, multiplier)
                elif name in _SUITE_APIS:
                    nested = self._suite(node, multiplier)
                    if nested is not None:
                        stack.append(nested)
                continue
            stack.extend((child, multiplier) for child in reversed(node.children))
        for alias, line in sorted(self.aliases.items(), key=lambda item: item[1]):
            if alias in called:
                self.reasons.append(
                    f'case API alias "{alias}" (line {line}) has an unknown expansion'
                )

    def _note_aliases(self, declaration: Node) -> None:
        """``const t = it``: calls of ``t`` are cases the count cannot see."""
        for declarator in declaration.named_children:
            if declarator.type != "variable_declarator":
                continue
            name = declarator.child_by_field_name("name")
            value = declarator.child_by_field_name("value")
            if name is None or value is None or name.type != "identifier":
                continue
            head = value
            while head.type in ("member_expression", "call_expression"):
                inner = head.child_by_field_name(
                    "object" if head.type == "member_expression" else "function"
                )
                if inner is None:
                    break
                head = inner
            if head.type == "identifier" and self.text(head) in _CASE_APIS:
                self.aliases[self.text(name)] = name.start_point[0] + 1

    def _chain(self, identifier: Node) -> tuple[Node, Node | None]:
        """The top of ``identifier``'s member chain (``it.skip.each``) and its ``.each``."""
        top = identifier
        each: Node | None = None
        parent = top.parent
        while parent is not None and parent.type == "member_expression":
            obj = parent.child_by_field_name("object")
            if obj is None or obj.id != top.id:
                break
            prop = parent.child_by_field_name("property")
            top = parent
            if prop is not None and self.text(prop) == "each" and each is None:
                each = parent
                break
            parent = top.parent
        return top, each

    def _rows(self, each: Node) -> tuple[int | None, Node | None]:
        """(row count or None when not static, the table node) of an ``.each`` member."""
        call = each.parent
        if call is None or call.type != "call_expression":
            return None, None
        function = call.child_by_field_name("function")
        if function is None or function.id != each.id:
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

    def _is_alias_assignment(self, identifier: Node) -> bool:
        """True when ``identifier`` is the value right after an ``=`` (``t = it.each``)."""
        node = identifier
        while node.prev_sibling is None and node.parent is not None:
            if node.parent.start_byte != identifier.start_byte:
                return False
            node = node.parent
        previous = node.prev_sibling
        return previous is not None and previous.type == "="

    def _case(self, identifier: Node, multiplier: int) -> None:
        line = identifier.start_point[0] + 1
        if self._is_alias_assignment(identifier):
            self.reasons.append(f"case API at line {line} is assigned through an alias")
            return
        top, each = self._chain(identifier)
        if each is not None:
            rows, table = self._rows(each)
            if table is not None:
                self.skipped.add(table.id)
            if rows is None:
                self.reasons.append(f"parameterized case at line {line} uses a dynamic table")
            else:
                self.count += multiplier * rows
            return
        parent = top.parent
        if parent is not None and parent.type == "call_expression":
            function = parent.child_by_field_name("function")
            if function is not None and function.id == top.id:
                self.count += multiplier

    def _suite(self, identifier: Node, multiplier: int) -> tuple[Node, int] | None:
        """For ``describe.each(rows)(name, fn)``: the callback body to scan with the rows as
        multiplier (its table and arguments are then skipped); None for a plain suite."""
        _top, each = self._chain(identifier)
        if each is None:
            return None
        rows, table = self._rows(each)
        line = identifier.start_point[0] + 1
        call = each.parent
        outer = call.parent if call is not None else None
        body: Node | None = None
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
            if body is not None and arguments is not None:
                self.skipped.add(arguments.id)
        if body is None:
            self.reasons.append(
                f"parameterized suite at line {line} has an unsupported callback shape"
            )
            return None
        if table is not None:
            self.skipped.add(table.id)
        if rows is None:
            self.reasons.append(f"parameterized suite at line {line} uses a dynamic table")
            return body, 0
        return body, multiplier * rows


def _same(node: Node | None, other: Node) -> bool:
    return node is not None and node.id == other.id
