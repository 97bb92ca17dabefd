"""What planning one fix produces (a :class:`Candidate`, or :class:`NotFixable` saying why
not), what the planner reads of a project (:class:`ProjectView`), and the risk gate."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from filid.config.model import Config
from filid.fix.actions import Edit
from filid.graph.resolve import Resolver
from filid.model.facts import FileFacts
from filid.model.graph import FileGraph
from filid.model.nodes import FractalTree
from filid.model.violations import Risk, SyncActionKind, Violation

__all__ = [
    "AliasRewrite",
    "Candidate",
    "NotFixable",
    "ProjectView",
    "Remap",
    "basename",
    "risk_allows",
]

_RISK_RANK = {Risk.SAFE: 0, Risk.MODERATE: 1, Risk.RISKY: 2}


class ProjectView(Protocol):
    """What the planner reads of a loaded project (``filid.check.project.Project`` satisfies it)."""

    @property
    def root(self) -> Path: ...

    @property
    def config(self) -> Config: ...

    @property
    def tree(self) -> FractalTree: ...

    @property
    def facts(self) -> Mapping[str, FileFacts]: ...

    @property
    def file_graph(self) -> FileGraph: ...

    @property
    def resolver(self) -> Resolver: ...

    @property
    def test_files(self) -> frozenset[str]: ...

    @property
    def absent_files(self) -> frozenset[str]: ...


def risk_allows(risk: Risk, max_risk: Risk) -> bool:
    """Whether a fix of ``risk`` may be applied under ``max_risk`` (risky never is)."""
    return risk is not Risk.RISKY and _RISK_RANK[risk] <= _RISK_RANK[max_risk]


class NotFixable(Exception):
    """A candidate cannot be computed in full; the message says why."""


@dataclass(slots=True)
class Candidate:
    """One planned fix: the files it creates, moves, edits and removes, and what it read."""

    violation: Violation
    action: SyncActionKind
    risk: Risk
    result_path: str
    creates: dict[str, str] = field(default_factory=dict)
    moves: dict[str, str] = field(default_factory=dict)
    edits: dict[str, list[Edit]] = field(default_factory=dict)
    removes: list[str] = field(default_factory=list)
    reads: set[str] = field(default_factory=set)
    renamed_dir: str | None = None


# Maps a root-relative path a specifier points at to where it will be (None: it does not move).
Remap = Callable[[str], str | None]
# Rewrites a non-relative specifier of a moved file (None: it cannot be done safely).
AliasRewrite = Callable[[str, str], str | None]


def basename(path: str) -> str:
    """The last segment of a root-relative POSIX path."""
    return path.rpartition("/")[2]
