"""Declared or undeclared: which claims a project signed up for (SPEC §0).

A project is declared when its root holds ``.filid/config.json`` (any version, filid's or the
upstream plugin's; a file given with ``--config`` counts the same) or any folder of its
universe holds a boundary document (``INTENT.md``, ``DETAIL.md``, or a ``CLAUDE.md`` with the
three boundary headings: what ``scan.documents.declared_documents`` already decided for the
tree). Otherwise it is undeclared. The classification is the same in both regimes; only the
set of rules that claim differs (``rules.catalogue.runs_by_default``).
"""

from __future__ import annotations

from pathlib import Path

from filid.model.nodes import FractalTree
from filid.model.report import Regime

__all__ = ["detect_regime"]


def detect_regime(
    root: Path, config_path: Path | None, tree: FractalTree
) -> tuple[Regime, str | None]:
    """The regime of the project at ``root`` and the root-relative file that declares it.

    ``config_path`` is the configuration file that was loaded (``None``: defaults). The
    declaring file is the config, else the first boundary document by path; ``None`` for an
    undeclared project.
    """
    if config_path is not None:
        try:
            shown = config_path.resolve().relative_to(root).as_posix()
        except (ValueError, OSError):
            shown = str(config_path)
        return Regime.DECLARED, shown
    for path in sorted(tree.nodes):
        node = tree.nodes[path]
        document = node.intent_doc or node.detail_doc
        if document is not None:
            return Regime.DECLARED, node.file_path(document)
    return Regime.UNDECLARED, None
