"""The CONTRACT.md JSON shapes (camelCase keys, sorted lists). MCP returns the same objects."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from json.encoder import encode_basestring
from typing import Any

from filid.model.facts import FileFacts
from filid.model.graph import FileGraph, LcaResult, ModuleGraph
from filid.model.nodes import FractalNode, FractalTree, NodeCategory
from filid.model.report import FixedItem, ValidationResult
from filid.model.violations import Location, Severity, Violation
from filid.report.regime import regime_sentence
from filid.report.rule_counts import count_by_rule
from filid.rules.base import RuleExample, RuleMeta

JsonObject = dict[str, Any]


def dumps(value: object) -> str:
    """Serialize deterministically: 2-space indent, UTF-8 kept, trailing newline.

    The same text as ``json.dumps(value, indent=2, ensure_ascii=False) + "\\n"``, written
    without the standard library's indenting encoder: before Python 3.13 it has no C fast
    path, and its chain of generators (one per nesting level, every token passing through
    each) took a fifth of a second for a 50,000-file report. Strings still go through
    ``json``'s C string encoder; numbers, ``null`` and the booleans are spelled as ``json``
    spells them (``NaN`` and ``Infinity`` included); a value ``json`` cannot serialize raises
    the same ``TypeError``.
    """
    chunks: list[str] = []
    write_json(value, chunks.append)
    return "".join(chunks)


def write_json(value: object, write: Callable[[str], object]) -> None:
    """Give :func:`dumps`'s text to ``write`` piece by piece (pieces of a few thousand tokens
    each): a 50,000-file report is never held whole, nor as its many small tokens at once
    (the tokens of such a report took twice the text's memory)."""
    parts: list[str] = []

    def flush() -> None:
        write("".join(parts))
        parts.clear()

    _write(value, parts, "\n", flush)
    parts.append("\n")
    flush()


_INDENT = "  "
# Tokens gathered before they are joined into one piece (write_json).
_PIECE = 4096


def _float(value: float) -> str:
    if value != value:
        return "NaN"
    if value == float("inf"):
        return "Infinity"
    if value == -float("inf"):
        return "-Infinity"
    return float.__repr__(value)


def _scalar(value: object) -> str | None:
    """``value`` as JSON if it is no container (``json``'s order of checks), else None."""
    if isinstance(value, str):
        return encode_basestring(value)
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return int.__repr__(value)
    if isinstance(value, float):
        return _float(value)
    return None


def _key(key: object) -> str:
    if isinstance(key, str):
        return encode_basestring(key)
    if isinstance(key, float):
        return encode_basestring(_float(key))
    if key is True:
        return '"true"'
    if key is False:
        return '"false"'
    if key is None:
        return '"null"'
    if isinstance(key, int):
        return encode_basestring(int.__repr__(key))
    raise TypeError(f"keys must be str, int, float, bool or None, not {key.__class__.__name__}")


def _write(value: object, parts: list[str], newline: str, flush: Callable[[], None]) -> None:
    """Append ``value``'s indented JSON to ``parts``; ``newline`` is the line break and
    indentation the value's own closing bracket goes on; ``flush`` empties ``parts`` (called
    between items once it holds :data:`_PIECE` tokens)."""
    kind = type(value)
    if isinstance(value, str) and kind is str:
        parts.append(encode_basestring(value))
        return
    if kind is dict:
        items: Any = value
    elif kind is list or kind is tuple:
        items = value
    else:
        text = _scalar(value)
        if text is not None:
            parts.append(text)
            return
        if isinstance(value, (list, tuple, dict)):
            items = value
        else:
            raise TypeError(f"Object of type {value.__class__.__name__} is not JSON serializable")
    inner = newline + _INDENT
    separator = "," + inner
    if isinstance(items, dict):
        if not items:
            parts.append("{}")
            return
        start = "{" + inner
        for key, item in items.items():
            name = encode_basestring(key) if type(key) is str else _key(key)
            kind = type(item)
            if kind is str:
                parts.append(f"{start}{name}: {encode_basestring(item)}")
            elif kind is int:
                parts.append(f"{start}{name}: {int.__repr__(item)}")
            else:
                parts.append(f"{start}{name}: ")
                _write(item, parts, inner, flush)
                if len(parts) >= _PIECE:
                    flush()
            start = separator
        parts.append(newline + "}")
        return
    if not items:
        parts.append("[]")
        return
    start = "[" + inner
    for item in items:
        if type(item) is str:
            parts.append(start + encode_basestring(item))
        else:
            parts.append(start)
            _write(item, parts, inner, flush)
            if len(parts) >= _PIECE:
                flush()
        start = separator
    parts.append(newline + "]")


def location_to_json(location: Location) -> JsonObject:
    """``{file, line, column, endLine?, endColumn?}``."""
    data: JsonObject = {"file": location.file, "line": location.line, "column": location.column}
    if location.end_line is not None:
        data["endLine"] = location.end_line
    if location.end_column is not None:
        data["endColumn"] = location.end_column
    return data


def violation_to_json(violation: Violation) -> JsonObject:
    """A Violation object of CONTRACT.md (plus ``fingerprint`` and cycle ``members``)."""
    data: JsonObject = {
        "ruleId": violation.rule_id,
        "severity": violation.severity.value,
        "message": violation.message,
        "path": violation.path,
        "location": location_to_json(violation.location),
    }
    if violation.suggestion is not None:
        data["suggestion"] = violation.suggestion
    if violation.fix is not None:
        data["fix"] = {
            "action": violation.fix.action.value,
            "risk": violation.fix.risk.value,
            "applicability": violation.fix.risk.value,
            "description": violation.fix.description,
            "targetPath": violation.fix.target_path,
        }
    if violation.related:
        data["related"] = [location_to_json(r) for r in violation.related]
    if violation.members:
        data["members"] = list(violation.members)
    data["fingerprint"] = violation.fingerprint
    return data


def evaluation_to_json(result: ValidationResult, tree: FractalTree | None = None) -> JsonObject:
    """RuleEvaluationResult: ``{path, category?, violations, passed, failed, warnings}``."""
    data: JsonObject = {"path": result.scope}
    category: object = None
    if tree is not None and result.scope in tree.nodes:
        category = tree.nodes[result.scope].category.value
    elif isinstance(result.extra.get("category"), str):
        category = result.extra["category"]
    # The root is nobody's organ: a root that declares nothing is just the root, so its
    # category is left out rather than called "organ" (the field is optional).
    if isinstance(category, str) and not (result.scope == "." and category == "organ"):
        data["category"] = category
    data["violations"] = [violation_to_json(v) for v in result.violations]
    # passed/failed (the seed's names) count (node, rule) pairs: each rule evaluated on each
    # node it applies to is one check, failed when it reported at least one violation.
    data["passed"] = result.passed_pairs
    data["failed"] = result.failed_pairs
    data["warnings"] = sum(1 for v in result.violations if v.severity.value == "warning")
    # Beside them, counts named for what they count.
    data["checkedPairs"] = result.total_pairs
    data["violationCount"] = len(result.violations)
    data["severityCounts"] = {s.value: result.count(s) for s in Severity}
    data["ruleCounts"] = [
        {"ruleId": rule, "count": count} for rule, count in count_by_rule(result.violations)
    ]
    return data


def _fixed_to_json(item: FixedItem) -> JsonObject:
    return {
        "violation": violation_to_json(item.violation),
        "action": item.action.value,
        "resultPath": item.result_path,
        "success": item.success,
    }


def validation_report(result: ValidationResult, tree: FractalTree | None = None) -> JsonObject:
    """ValidationReport (``check``, ``structure-validate``)."""
    data: JsonObject = {
        "root": str(result.root),
        # SPEC §0: beside the seed's fields (CONTRACT: extend, never rename).
        "regime": result.regime.value,
        "regimeNote": regime_sentence(result),
        "result": evaluation_to_json(result, tree),
        "config": {
            "configPath": result.config_path,
            "declaredBy": result.declared_by,
            # The seed types these as counts; the ids travel beside them.
            "rulesApplied": len(result.rules_applied),
            "rulesSkipped": len(result.rules_skipped),
            "rulesAppliedIds": list(result.rules_applied),
            "rulesSkippedIds": list(result.rules_skipped),
        },
    }
    if result.fixed:
        data["fixedItems"] = [_fixed_to_json(i) for i in result.fixed]
    if result.changed_files:
        data["changedFiles"] = list(result.changed_files)
    if result.remaining is not None:
        data["remainingViolations"] = [violation_to_json(v) for v in result.remaining]
    if result.baseline_suppressed:
        data["baselineSuppressed"] = result.baseline_suppressed
    if result.new_since is not None:
        since = result.new_since
        data["newSince"] = {
            "ref": since.ref,
            "mergeBase": since.commit,
            "new": since.new,
            "fixed": since.fixed,
            "unchanged": since.unchanged,
        }
    if result.notes:
        data["notes"] = list(result.notes)
    data["timestamp"] = result.timestamp
    return data


def node_to_json(node: FractalNode) -> JsonObject:
    """FractalNode: ``{path, name, type, parent, children, organs, hasClaudeMd, …}``."""
    return {
        "path": node.path,
        "name": node.name,
        "type": node.category.value,
        "parent": node.parent,
        "children": list(node.children),
        "organs": list(node.organs),
        "hasClaudeMd": node.has_intent_doc,
        "hasSpecMd": node.has_detail_doc,
        "hasIndex": node.index_file is not None,
        "hasMain": node.main_file is not None,
        "depth": node.depth,
        "metadata": {"files": len(node.files), **node.metadata},
    }


def module_infos(tree: FractalTree, facts: Mapping[str, FileFacts]) -> list[JsonObject]:
    """ModuleInfo per fractal/hybrid: ``{path, category, hasIndex, hasMain, exportCount}``."""
    modules: list[JsonObject] = []
    for node in tree.nodes.values():
        if node.category not in (NodeCategory.FRACTAL, NodeCategory.HYBRID):
            continue
        entry = node.index_file or node.main_file
        entry_facts = facts.get(node.file_path(entry)) if entry else None
        modules.append(
            {
                "path": node.path,
                "category": node.category.value,
                "hasIndex": node.index_file is not None,
                "hasMain": node.main_file is not None,
                "exportCount": len(entry_facts.exports) if entry_facts else 0,
            }
        )
    return sorted(modules, key=lambda m: str(m["path"]))


def scan_report(
    tree: FractalTree,
    facts: Mapping[str, FileFacts],
    file_graph: FileGraph,
    *,
    timestamp: str,
    duration: float,
    max_depth: int | None = None,
    include_modules: bool = True,
) -> JsonObject:
    """ScanReport: the classified tree (down to ``max_depth``), modules, unresolved imports."""
    nodes = {
        path: node_to_json(node)
        for path, node in sorted(tree.nodes.items())
        if max_depth is None or node.depth <= max_depth
    }
    data: JsonObject = {
        "tree": {
            "root": str(tree.root),
            "nodes": nodes,
            "depth": tree.depth,
            "totalNodes": len(tree.nodes),
        },
        "modules": module_infos(tree, facts) if include_modules else [],
        "unresolved": [
            {"file": u.file, "line": u.line, "specifier": u.specifier, "reason": u.reason}
            for u in sorted(file_graph.unresolved, key=lambda u: (u.file, u.line, u.specifier))
        ],
        "timestamp": timestamp,
        # Milliseconds, as the seed's ScanReport types it.
        "duration": round(duration * 1000),
    }
    return data


def _example_to_json(example: RuleExample) -> JsonObject:
    return {"description": example.description, "files": dict(sorted(example.files.items()))}


def example_text(example: RuleExample) -> str:
    """One example as one string of the seed's ``string[]``: its description, then each
    file under its path."""
    lines = [f"# {example.description}"]
    for path, content in sorted(example.files.items()):
        lines.append(f"// {path}")
        lines.append(content.rstrip("\n") if content.strip() else "(empty file)")
    return "\n".join(lines)


def rule_summary(meta: RuleMeta, enabled: bool) -> JsonObject:
    """One entry of RuleListResult."""
    return {
        "id": meta.id,
        "description": meta.description,
        "severity": meta.default_severity.value,
        "category": meta.category.value,
        "enabled": enabled,
    }


def rule_list(rules: Sequence[tuple[RuleMeta, bool]], total: int) -> JsonObject:
    """RuleListResult as the seed types it: ``{rules, total, filtered}``.

    ``total`` counts the rules listed and ``filtered`` says whether a filter narrowed the
    catalogue (the seed's number and boolean); ``catalogueTotal`` is the catalogue size.
    """
    return {
        "rules": [rule_summary(m, on) for m, on in rules],
        "total": len(rules),
        "filtered": len(rules) != total,
        "catalogueTotal": total,
    }


def rule_detail(
    meta: RuleMeta, enabled: bool, options: tuple[tuple[str, str, str], ...] = ()
) -> JsonObject:
    """RuleDetail: a rule summary plus rationale, appliesTo, examples and fix support."""
    data = rule_summary(meta, enabled)
    data["rationale"] = meta.rationale
    data["appliesTo"] = sorted(c.value for c in meta.applies_to)
    # The seed types each side as string[] (one string per example); the structured cases
    # travel beside it.
    data["examples"] = {
        "valid": [example_text(e) for e in meta.valid],
        "invalid": [example_text(e) for e in meta.invalid],
    }
    data["exampleCases"] = {
        "valid": [_example_to_json(e) for e in meta.valid],
        "invalid": [_example_to_json(e) for e in meta.invalid],
    }
    data["fix"] = (
        {"action": meta.fix_action.value, "risk": meta.fix_risk.value}
        if meta.fix_action is not None and meta.fix_risk is not None
        else None
    )
    data["aliases"] = list(meta.aliases)
    data["options"] = [
        {"name": name, "default": default, "description": doc} for name, default, doc in options
    ]
    return data


def file_graph_report(tree: FractalTree, graph: FileGraph) -> JsonObject:
    """GraphReport at file level: one edge per import."""
    nodes = sorted({e.source for e in graph.edges} | {e.target for e in graph.edges})
    edges = [
        {
            "from": e.source,
            "to": e.target,
            "specifier": e.fact.specifier,
            "kind": e.fact.kind.value,
            "line": e.fact.line,
        }
        for e in graph.edges
    ]
    return {"level": "file", "nodes": nodes, "edges": edges}


def module_graph_report(graph: ModuleGraph) -> JsonObject:
    """GraphReport at module level: one edge per owner pair, with its evidence."""
    edges: list[JsonObject] = []
    for edge in graph.edges:
        first = edge.evidence[0]
        edges.append(
            {
                "from": edge.source,
                "to": edge.target,
                "specifier": first.fact.specifier,
                "kind": first.fact.kind.value,
                "line": first.fact.line,
                "evidence": [
                    {
                        "file": e.source,
                        "target": e.target,
                        "line": e.fact.line,
                        "column": e.fact.column,
                        "specifier": e.fact.specifier,
                        "kind": e.fact.kind.value,
                    }
                    for e in edge.evidence
                ],
            }
        )
    return {"level": "module", "nodes": list(graph.nodes), "edges": edges}


def lca_to_json(result: LcaResult, root: str) -> JsonObject:
    """LcaResolveResult (``lca`` absolute)."""
    lca_abs = root if result.lca == "." else f"{root}/{result.lca}"
    return {
        "lca": lca_abs,
        "lcaPath": result.lca,
        "lcaCategory": result.lca_category,
        "lcaDepth": result.lca_depth,
        "distanceA": result.distance_a,
        "distanceB": result.distance_b,
        "suggestedPlacement": result.suggested_placement,
        "explanation": result.explanation,
    }
