"""Each rule's declared inputs (``rules.base.RULE_READS``) cover what its code reads.

The staged patch path (``filid.check.staged_patch``) trusts these declarations to decide
which rules' findings an import edit can change; a rule that starts reading the file graph
or another file's imports without saying so would make it answer with a stale result. The
check is static: every ``context.<field>`` a rule module (or a ``filid.rules`` module it
imports) touches must map to a declared input.
"""

from __future__ import annotations

import ast
import importlib
import inspect
from types import ModuleType

from filid.rules.base import RULE_READS, UNDECLARED_READS, Reads
from filid.rules.catalogue import RULE_IDS
from filid.rules.registry import RULES

# What each RuleContext field (or helper) is derived from.
_FIELD_READS: dict[str, Reads] = {
    "tree": Reads.TREE,
    "structure": Reads.TREE,
    "test_files": Reads.TREE,
    "entry_files": Reads.TREE,
    "route_directories": Reads.TREE,
    "legacy_ledger": Reads.TREE,
    "declared": Reads.TREE,
    "source_directories": Reads.TREE,
    "package_directories": Reads.TREE,
    "holds_source": Reads.TREE,
    "is_in_route_tree": Reads.TREE,
    "is_entry_file": Reads.TREE,
    "owner_of_file": Reads.TREE,
    "file_owners": Reads.TREE,
    # where re-exports resolve, and the export surfaces that follows them (facts as well)
    "reexport_targets": Reads.RE_EXPORTS,
    "export_index": Reads.RE_EXPORTS,
    "facts": Reads.SURFACE,
    "module_graph": Reads.MODULE_GRAPH,
    "unpublished_imports": Reads.OWN_IMPORTS,
    # which unresolved imports no build reaches, no bundler reads, a package ships as data:
    # walks over the whole file graph (check.generated_code)
    "generated_imports": Reads.FILE_GRAPH,
}
_GRAPH_READS = Reads.OWN_IMPORTS | Reads.IMPORTED_FILES | Reads.RE_EXPORTS | Reads.FILE_GRAPH


def _modules(rule: object) -> list[ModuleType]:
    """The rule's module and the ``filid.rules`` modules it imports from."""
    module = inspect.getmodule(type(rule))
    assert module is not None
    found = [module]
    for node in ast.walk(ast.parse(inspect.getsource(module))):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("filid.rules."):
            name = node.module or ""
            if name != "filid.rules.base":
                found.append(importlib.import_module(name))
    return found


def _context_fields(module: ModuleType) -> tuple[set[str], bool]:
    """The ``context.<field>`` names used in ``module``, and whether it reads ``.imports``
    of any facts."""
    fields: set[str] = set()
    imports = False
    for node in ast.walk(ast.parse(inspect.getsource(module))):
        if isinstance(node, ast.Attribute):
            if isinstance(node.value, ast.Name) and node.value.id == "context":
                fields.add(node.attr)
            if node.attr == "imports":
                imports = True
    return fields, imports


def test_every_rule_declares_what_it_reads() -> None:
    assert set(RULE_READS) == set(RULE_IDS)
    for rule in RULES:
        rule_id = rule.meta.id
        declared = RULE_READS[rule_id] | UNDECLARED_READS.get(rule_id, Reads(0))
        for module in _modules(rule):
            fields, reads_imports = _context_fields(module)
            for field in fields:
                if field == "file_graph":
                    assert declared & _GRAPH_READS, (rule_id, module.__name__, field)
                    continue
                assert field in _FIELD_READS, (rule_id, module.__name__, field)
                assert _FIELD_READS[field] & declared, (rule_id, module.__name__, field)
            if reads_imports:
                assert declared & _GRAPH_READS, (rule_id, module.__name__, "imports")


def test_a_rule_reading_the_file_graph_undeclared_is_caught() -> None:
    # The check above must be able to fail: a tree-only rule that walked the file graph.
    source = "def check(context, options):\n    return list(context.file_graph.edges)\n"
    fields = {
        n.attr
        for n in ast.walk(ast.parse(source))
        if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)
    }
    assert "file_graph" in fields
    assert not (RULE_READS["max-depth"] & _GRAPH_READS)
