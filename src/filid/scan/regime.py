"""Declared or undeclared: which claims a project signed up for (SPEC §0).

A project is declared when its root holds ``.filid/config.json`` (any version, filid's or the
upstream plugin's; a file given with ``--config`` counts the same) or any folder of its
universe holds a boundary document (``INTENT.md``, ``DETAIL.md``, or a ``CLAUDE.md`` with the
three boundary headings: what ``scan.documents.declared_documents`` already decided for the
tree). Otherwise it is undeclared. The classification is the same in both regimes; only the
set of rules that claim differs (``rules.catalogue.runs_by_default``).

The one thing the regime changes before classification is the file universe: a declared
project gets the upstream plugin's default skipped folders (``docs/``, ``scripts/``,
``next/``, ``bridge/``, as upstream scans it), an undeclared one does not (SPEC §1: in a
repository that never opted into FCA, ``apps/docs`` is an application like any other, and its
imports close cycles like any other). :func:`list_project_universe` decides this once, for
every door.
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path

from filid.config.model import Config
from filid.model.nodes import FractalTree
from filid.model.report import Regime
from filid.scan.documents import missing_headings, read_document
from filid.scan.universe import Universe, list_universe

__all__ = ["detect_regime", "is_declared", "list_project_universe"]

_ALWAYS_DECLARING = frozenset(("INTENT.md", "DETAIL.md"))


def _declares_fca(root: Path, files: Collection[str]) -> bool:
    """True when ``files`` hold a boundary document: an INTENT.md or DETAIL.md, or a CLAUDE.md
    with the three boundary headings (a plain CLAUDE.md is a Claude Code memory file)."""
    for file in files:
        name = file.rpartition("/")[2]
        if name in _ALWAYS_DECLARING:
            return True
        if name == "CLAUDE.md":
            facts, _ = read_document(root, file)
            if facts is not None and not missing_headings(facts):
                return True
    return False


def _without_directories(universe: Universe, names: Collection[str]) -> Universe:
    """``universe`` less every file below a folder named one of ``names`` (at any depth)."""
    skipped = frozenset(names)
    folders: dict[str, bool] = {}  # folder → kept (asked once per folder, not per file)
    keep = []
    for i, file in enumerate(universe.files):
        folder = file.rpartition("/")[0]
        kept = folders.get(folder)
        if kept is None:
            kept = folders[folder] = skipped.isdisjoint(folder.split("/"))
        if kept:
            keep.append(i)
    stats = universe.stats
    return Universe(
        files=tuple(universe.files[i] for i in keep),
        notes=universe.notes,
        from_git=universe.from_git,
        stats=tuple(stats[i] for i in keep) if len(stats) == len(universe.files) else (),
        ids=tuple(universe.ids[i] for i in keep) if universe.ids else (),
        absent=universe.absent,
    )


def _universe_and_regime(root: Path, config: Config, index: bool = False) -> tuple[Universe, bool]:
    structure = config.structure
    if config.path is not None:
        universe = list_universe(
            root, structure.excluded_directories, structure.generated_paths, index=index
        )
        return universe, True
    full = list_universe(
        root, structure.additional_excluded_directories, structure.generated_paths, index=index
    )
    kept = _without_directories(full, structure.skipped_directories)
    if _declares_fca(root, kept.files):
        return kept, True
    return full, False


def list_project_universe(root: Path, config: Config, *, index: bool = False) -> Universe:
    """The file universe of the project at ``root`` under ``config`` (SPEC §0, §1).

    With a configuration file the project is declared and the upstream default skipped
    folders (``config.structure.skipped_directories``) are left out. Without one, the project
    is declared only by a boundary document outside those folders; otherwise it keeps them.
    ``index``: the staged files and their blob ids (``list_universe(..., index=True)``).
    """
    return _universe_and_regime(root, config, index)[0]


def is_declared(root: Path, config: Config) -> bool:
    """Whether the project at ``root`` declares FCA, decided as :func:`list_project_universe`
    decides it (``filid rules`` asks this without running the pipeline)."""
    return _universe_and_regime(root, config)[1]


def detect_regime(
    root: Path, config_path: Path | None, tree: FractalTree, skipped: Collection[str] = ()
) -> tuple[Regime, str | None]:
    """The regime of the project at ``root`` and the root-relative file that declares it.

    ``config_path`` is the configuration file that was loaded (``None``: defaults). The
    declaring file is the config, else the first boundary document by path outside the
    ``skipped`` folders (as :func:`list_project_universe` decides); ``None`` for an undeclared
    project.
    """
    if config_path is not None:
        try:
            shown = config_path.resolve().relative_to(root).as_posix()
        except (ValueError, OSError):
            shown = str(config_path)
        return Regime.DECLARED, shown
    for path in sorted(tree.nodes):
        if not frozenset(skipped).isdisjoint(path.split("/")):
            continue  # a document in an upstream skipped folder declares nothing
        node = tree.nodes[path]
        document = node.intent_doc or node.detail_doc
        if document is not None:
            return Regime.DECLARED, node.file_path(document)
    return Regime.UNDECLARED, None
