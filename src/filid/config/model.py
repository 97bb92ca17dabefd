"""The typed configuration the pipeline reads (plain frozen dataclasses, no pydantic).

Pydantic is used only at the edge (``config/schema.py``) when a config file exists, which keeps
it off the start-up path of a run without one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from filid.model.facts import BoundaryExemption
from filid.model.violations import Severity

DEFAULT_MAX_DEPTH = 10

# The folders the upstream plugin (ogham plugins/filid 0.10.12, ``constants/scanDefaults.ts``)
# leaves out of its scan by default, at any depth: the project's documentation, its build and
# dev scripts, and generated bridges. A declared project (SPEC §0) gets the same universe.
UPSTREAM_SKIPPED_DIRECTORIES: tuple[str, ...] = ("bridge", "docs", "next", "scripts")


@dataclass(frozen=True, slots=True)
class AllowedPeer:
    """A file name allowed beside a fractal's entry point, optionally only under ``paths`` globs."""

    basename: str
    paths: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class StructureConfig:
    """The ``structure`` section."""

    max_depth: int = DEFAULT_MAX_DEPTH
    additional_organ_names: tuple[str, ...] = ()
    additional_excluded_directories: tuple[str, ...] = ()
    additional_allowed_peers: tuple[AllowedPeer, ...] = ()
    naming_patterns: tuple[str, ...] = ()
    pure_function_paths: tuple[str, ...] = ()
    infer_pure_functions: bool = False
    generated_paths: tuple[str, ...] = ()
    entry_point_overrides: tuple[str, ...] = ()
    skipped_directories: tuple[str, ...] = UPSTREAM_SKIPPED_DIRECTORIES

    @property
    def excluded_directories(self) -> tuple[str, ...]:
        """Every directory name left out of the file universe besides the fixed ones (SPEC §1):
        ``skipped_directories`` (the upstream plugin's default skips, what a declared project
        gets; an undeclared project's config sets it to ``()``) and the configured
        ``additionalExcludedDirectories``."""
        return tuple(
            dict.fromkeys((*self.skipped_directories, *self.additional_excluded_directories))
        )


@dataclass(frozen=True, slots=True)
class RuleConfig:
    """One entry of the ``rules`` section; ``None`` means "the rule's default"."""

    enabled: bool | None = None
    severity: Severity | None = None
    exempt: tuple[str, ...] = ()
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Config:
    """A whole configuration. ``path`` is the file it came from (``None``: defaults).

    ``notes`` are non-fatal warnings found while loading (e.g. an upstream-only rule id).
    """

    rules: Mapping[str, RuleConfig] = field(default_factory=dict)
    structure: StructureConfig = field(default_factory=StructureConfig)
    version: str = "2.0"
    path: Path | None = None
    notes: tuple[str, ...] = ()
    # ``--exemptions-from REF`` (the Action's ``config: base``): the DETAIL.md boundary
    # exemptions of REF, by document path, used instead of the work tree's; None: the tree's.
    pinned_exemptions: tuple[tuple[str, tuple[BoundaryExemption, ...]], ...] | None = None
