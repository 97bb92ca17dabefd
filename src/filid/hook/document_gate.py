"""The document gate: a boundary document's edit judged by the document rules, fast.

Whether an intent or detail document keeps its contract depends on the document and on the
folder that holds it (an organ-named folder with an intent document is hybrid), never on
imports. So the gate lists only that folder (its files and sub-folders, with the project's
exclusions), classifies that part of the tree before and after the edit, and runs the
engine's document rules on both: the rules in the ``documentation`` category plus
``organ-no-claudemd``. Nothing is parsed and nothing is resolved, so the answer does not grow
with the project. A finding counts when it is located in the edited document.

A finding that a module lacks one of its documents (``INTENT.md is required``, ``DETAIL.md is
required``) is about a sibling document, not about the one being written: the engine locates it
in whichever document the folder has, so writing a good ``INTENT.md`` into a new folder would
otherwise be denied because the ``DETAIL.md`` does not exist yet (and the ``DETAIL.md`` written
first, because the ``INTENT.md`` does not). An agent writes one file per call; the gate judges
only what the edit breaks in the edited document, and ``filid check`` still reports the missing
document.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from filid.check.engine import evaluate
from filid.check.project import DOCUMENTS_READ, Project
from filid.config.globs import matches_any_glob
from filid.config.model import Config
from filid.graph import build_module_graph, build_resolver
from filid.model.facts import DocumentFacts
from filid.model.graph import FileGraph
from filid.model.violations import Violation
from filid.rules.base import RuleCategory
from filid.rules.registry import RULES
from filid.scan.classify import build_tree
from filid.scan.documents import parse_document, read_document
from filid.scan.universe import is_excluded, list_universe

__all__ = ["DOCUMENT_RULE_IDS", "document_rule_ids", "judge_document"]

# Besides the documentation rules: the structure rule about where a document may live.
DOCUMENT_RULE_IDS = frozenset({"organ-no-claudemd"})

# The presence rules: the document each requires of a module. Against a node without that
# document, these rules report only its absence (a finding about a missing sibling).
_REQUIRED_DOCUMENT = {
    "intent-document-contract": "intent_doc",
    "detail-document-contract": "detail_doc",
}


def document_rule_ids() -> tuple[str, ...]:
    """The ids of the rules that judge boundary documents (any rule added to the
    ``documentation`` category joins them)."""
    return tuple(
        rule.meta.id
        for rule in RULES
        if rule.meta.category is RuleCategory.DOCUMENTATION or rule.meta.id in DOCUMENT_RULE_IDS
    )


def _parent(rel: str) -> str:
    return rel.rpartition("/")[0] or "."


def _listing_under(root: Path, config: Config, folder: str) -> list[str]:
    """The project's files below ``folder`` (root-relative), as the full listing has them."""
    base = root if folder == "." else root / folder
    if not base.is_dir():
        return []
    listed = list_universe(base, config.structure.excluded_directories)
    prefix = "" if folder == "." else folder + "/"
    files = [prefix + f for f in listed.files]
    generated = config.structure.generated_paths
    return [f for f in files if not matches_any_glob(f, generated)] if generated else files


def _project(
    root: Path, config: Config, files: Sequence[str], docs: dict[str, DocumentFacts]
) -> Project:
    resolver = build_resolver(root, files)
    tree = build_tree(
        root, files, config.structure, {}, docs, route_directories=resolver.route_directories()
    )
    graph = FileGraph(edges=(), unresolved=())
    return Project(
        root=root,
        config=config,
        tree=tree,
        facts={},
        file_graph=graph,
        module_graph=build_module_graph(tree, graph, ()),
        resolver=resolver,
        test_files=frozenset(),
        notes=(),
    )


def _is_missing_sibling(project: Project, violation: Violation) -> bool:
    """Whether ``violation`` reports that its module lacks a document (not the edited one,
    which exists after the edit)."""
    attribute = _REQUIRED_DOCUMENT.get(violation.rule_id)
    node = project.tree.nodes.get(violation.node)
    return attribute is not None and node is not None and getattr(node, attribute) is None


def judge_document(
    root: Path, config: Config, rel: str, after: str
) -> tuple[list[Violation], list[Violation]] | None:
    """(the document findings in ``rel`` that the edit introduces, those it already had),
    or ``None`` when ``rel`` is not a document the checks read (excluded, generated)."""
    if rel.rpartition("/")[2] not in DOCUMENTS_READ:
        return None
    structure = config.structure
    if is_excluded(rel, structure.excluded_directories) or matches_any_glob(
        rel, structure.generated_paths
    ):
        return None
    folder = _parent(rel)
    files = _listing_under(root, config, folder)
    documents: dict[str, DocumentFacts] = {}
    for file in files:
        if file.rpartition("/")[2] in DOCUMENTS_READ:
            facts, _note = read_document(root, file)
            if facts is not None:
                documents[file] = facts
    rules = document_rule_ids()
    before = evaluate(_project(root, config, files, documents), rule_ids=rules)
    after_files = sorted({*files, rel})
    after_documents = {**documents, rel: parse_document(rel, after)}
    after_project = _project(root, config, after_files, after_documents)
    result = evaluate(after_project, rule_ids=rules)
    known = {v.fingerprint for v in before.violations}
    mine = [
        v
        for v in result.violations
        if v.location.file == rel and not _is_missing_sibling(after_project, v)
    ]
    return [v for v in mine if v.fingerprint not in known], [
        v for v in mine if v.fingerprint in known
    ]
