"""The project as it would be after one file's edit, computed in memory.

The Claude Code gate judges an edit before it happens, so nothing is written: the loaded
project (from the parse cache) is copied with one file's new text. A boundary document gets
new document facts and the tree is classified again (a new ``INTENT.md`` makes its folder a
module); a source file is parsed from the new text and only its own imports are resolved
again (every other file's edges are kept), then the module graph is rebuilt. Everything else
(the listing, the resolver and its memo, the other files' facts) is the loaded project's.
"""

from __future__ import annotations

import dataclasses

from filid.check.project import DOCUMENTS_READ, Project
from filid.graph import build_file_graph, build_module_graph
from filid.model.graph import FileGraph
from filid.parse.extract import parse_source
from filid.parse.files import is_entry_file
from filid.scan.classify import build_tree, is_test_file
from filid.scan.documents import parse_document
from filid.scan.universe import is_source_file

__all__ = ["is_judged_file", "project_after_edit"]


def is_judged_file(path: str) -> bool:
    """A file whose edit can change what filid reports: a source file or a boundary document."""
    return is_source_file(path) or path.rpartition("/")[2] in DOCUMENTS_READ


def project_after_edit(project: Project, path: str, text: str) -> Project:
    """``project`` with root-relative ``path`` holding ``text`` (created when it is new)."""
    files = project.tree.files
    is_new = path not in set(files)
    if is_new:
        files = tuple(sorted((*files, path)))
    facts = dict(project.facts)
    documents = dict(project.tree.documents)
    file_graph = project.file_graph
    test_files = project.test_files
    if path.rpartition("/")[2] in DOCUMENTS_READ:
        documents[path] = parse_document(path, text)
    if is_source_file(path):
        new_facts = parse_source(path, text.encode("utf-8"), full=is_entry_file(path))
        facts[path] = new_facts
        own = build_file_graph({path: new_facts}, project.resolver)
        file_graph = FileGraph(
            edges=tuple(
                sorted(
                    (*(e for e in file_graph.edges if e.source != path), *own.edges),
                    key=lambda e: (e.source, e.fact.line, e.fact.column, e.target),
                )
            ),
            unresolved=tuple(
                sorted(
                    (*(u for u in file_graph.unresolved if u.file != path), *own.unresolved),
                    key=lambda u: (u.file, u.line, u.specifier),
                )
            ),
        )
        if is_test_file(path):
            test_files = test_files | {path}
    structure = project.config.structure
    tree = project.tree
    # An existing source file's new text cannot change the classification (file names and
    # documents decide it; side effects only when pure-function folders are inferred).
    if is_new or not is_source_file(path) or structure.infer_pure_functions:
        tree = build_tree(
            project.root,
            files,
            structure,
            {p: f.is_side_effect_free for p, f in facts.items()},
            documents,
            route_directories=project.resolver.route_directories(),
        )
    module_graph = build_module_graph(tree, file_graph, test_files)
    return dataclasses.replace(
        project,
        tree=tree,
        facts=facts,
        file_graph=file_graph,
        module_graph=module_graph,
        test_files=test_files,
    )
