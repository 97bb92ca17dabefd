"""Plan fixes: turn violations into concrete file operations before anything is written.

Each fixable violation becomes a candidate — the files it creates, moves and edits, computed
against the project as it is now. A candidate that cannot be computed in full (an import it
cannot rewrite, a target that exists, a name the entry point does not export) is skipped with
the reason. Candidates whose moved and rewritten imports would not resolve to the same files
afterwards (checked with the project's own resolver over the planned file universe) are
skipped too. Accepted candidates must not conflict: two fixes may not move or create the same
path, edit overlapping bytes, or rely on a file another fix moves; the later one is skipped
(a later pass of :func:`filid.fix.run.run_fix` picks it up once the first is applied).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from filid.fix.actions import (
    CreateFile,
    Edit,
    EditFile,
    FixPlan,
    MoveFile,
    PlannedFix,
    RemoveDirIfEmpty,
    SkippedFix,
    SyncAction,
    digest,
)
from filid.fix.candidate import Candidate, NotFixable, ProjectView, basename, risk_allows
from filid.fix.formatting import Formatting, FormattingIndex
from filid.fix.kinds import KINDS
from filid.fix.merge_imports import merge_equal_specifiers
from filid.fix.planned_paths import dropped_paths
from filid.fix.planning import PlanningContext
from filid.fix.specifiers import (
    SOURCE_EXTENSIONS,
    split_ext,
)
from filid.graph.compiler_paths import is_within
from filid.model.errors import FilidError
from filid.model.violations import Risk, SyncActionKind, Violation
from filid.scan.universe import CODE_EXTENSIONS
from filid.store.files import replace_refusal

__all__ = ["ProjectView", "plan_fixes", "risk_allows"]

# Apply order of the candidates (see filid.drift.detect for the same order of the SyncPlan).
_PHASE = {
    SyncActionKind.RENAME: 0,
    SyncActionKind.CREATE_INDEX: 1,
    SyncActionKind.SPLIT: 2,
    SyncActionKind.MOVE: 3,
    SyncActionKind.REWRITE_IMPORT: 4,
}

# Moving these would change how every import below them resolves.


def _plan(ctx: PlanningContext, violation: Violation) -> Candidate:
    fix = violation.fix
    assert fix is not None
    candidate = Candidate(violation, fix.action, fix.risk, fix.target_path)
    for kind in KINDS:
        if kind.handles(violation):
            kind.plan(ctx, candidate)
            return candidate
    raise NotFixable(f"{fix.action.value} is a plan-only action")


def _plan_order(violation: Violation) -> tuple[int, int, str, int, int]:
    fix = violation.fix
    assert fix is not None
    depth = violation.path.count("/") + 1
    deeper_first = -depth if fix.action is SyncActionKind.RENAME else 0
    return (
        _PHASE.get(fix.action, 9),
        deeper_first,
        violation.path,
        violation.location.line,
        violation.location.column,
    )


@dataclass(slots=True)
class _Accepted:
    """The union of accepted candidates, in original coordinates."""

    creates: dict[str, str] = field(default_factory=dict)
    moves: dict[str, str] = field(default_factory=dict)
    edits: dict[str, list[Edit]] = field(default_factory=dict)
    removes: set[str] = field(default_factory=set)
    reads: set[str] = field(default_factory=set)
    renamed: set[str] = field(default_factory=set)

    def conflict(self, candidate: Candidate) -> str | None:
        occupied = set(self.creates) | set(self.moves.values())
        new_paths = set(candidate.creates) | set(candidate.moves.values())
        for path in sorted(new_paths):
            if path in occupied:
                return f"another fix already writes {path}"
            if any(is_within(path, d) for d in self.renamed):
                return f"another fix renames the directory of {path}"
        if candidate.renamed_dir is not None:
            inside = sorted(p for p in occupied | self.reads if is_within(p, candidate.renamed_dir))
            if inside:
                return f"another fix works on {inside[0]} inside {candidate.renamed_dir}"
        for source in sorted(candidate.moves):
            if source in self.moves:
                return f"another fix already moves {source}"
            if source in self.reads:
                return f"another fix relies on {source} where it is"
        for path in sorted(candidate.reads):
            if path in self.moves:
                return f"another fix moves {path}"
        for path, edits in candidate.edits.items():
            for edit in edits:
                for other in self.edits.get(path, ()):
                    if edit != other and edit.overlaps(other):
                        return f"another fix edits the same part of {path}"
        return None

    def add(self, candidate: Candidate) -> None:
        self.creates.update(candidate.creates)
        self.moves.update(candidate.moves)
        for path, edits in candidate.edits.items():
            existing = self.edits.setdefault(path, [])
            existing.extend(e for e in edits if e not in existing)
        self.removes.update(candidate.removes)
        self.reads |= candidate.reads | set(candidate.edits)
        if candidate.renamed_dir is not None:
            self.renamed.add(candidate.renamed_dir)


def _unsafe_target(root: Path, candidate: Candidate) -> str | None:
    """Why a file this candidate rewrites or moves must be left alone (read-only, hard
    link…); only this fix is skipped, the independent ones still apply."""
    for path in sorted({*candidate.edits, *candidate.moves}):
        reason = replace_refusal(root / path)
        if reason is not None:
            return f"refusing to rewrite {path}: {reason}"
    return None


def _operations(
    candidate_like: _Accepted | Candidate,
    read: Callable[[str], bytes],
    *,
    merge: Callable[[str], Formatting | None] | None = None,
) -> tuple[SyncAction, ...]:
    """Operations in apply order: creations, moves, edits at post-move paths, removals.

    ``merge`` (the whole plan; gives a file's formatter settings): imports whose specifiers
    the edits made equal become one.
    """
    operations: list[SyncAction] = []
    for path in sorted(candidate_like.creates):
        operations.append(CreateFile(path, candidate_like.creates[path]))
    for source in sorted(candidate_like.moves):
        operations.append(MoveFile(source, candidate_like.moves[source], digest(read(source))))
    for path in sorted(candidate_like.edits):
        edits = tuple(sorted(candidate_like.edits[path], key=lambda e: (e.start_byte, e.end_byte)))
        if merge and len(edits) > 0 and split_ext(basename(path))[1] in SOURCE_EXTENSIONS:
            edits = tuple(merge_equal_specifiers(path, read(path), edits, merge(path)))
        if edits:
            final = candidate_like.moves.get(path, path)
            operations.append(EditFile(final, digest(read(path)), edits))
    for directory in sorted(candidate_like.removes, key=lambda d: (-d.count("/"), d)):
        operations.append(RemoveDirIfEmpty(directory))
    return tuple(operations)


# The actions whose fix moves files (another kind's candidate that moves is caught after
# planning).
_MOVING = frozenset({SyncActionKind.MOVE, SyncActionKind.RENAME})


def _unseen_sources(absent: frozenset[str]) -> str | None:
    """Why no move can be planned when the clone lacks source files (a partial clone's,
    ``scan.universe``: listed, never read): their imports are unknown, so a move could break
    one of them unseen; None when it lacks none."""
    lacked = sorted(f for f in absent if f.endswith(CODE_EXTENSIONS))
    if not lacked:
        return None
    return (
        f"this clone lacks {len(lacked)} source file(s) (e.g. {lacked[0]}) whose imports a "
        "move could break unseen"
    )


def plan_fixes(
    project: ProjectView,
    violations: Iterable[Violation],
    *,
    max_risk: Risk = Risk.SAFE,
    operations: bool = True,
) -> FixPlan:
    """Plan every fix of ``violations`` whose risk is at most ``max_risk`` (risky never).

    Violations without a fix are ignored; the others become a :class:`PlannedFix` or a
    :class:`SkippedFix` with the reason. Reads files (for digests and text), writes nothing.
    ``operations=False`` only decides what is planned and what skipped (the operations,
    which decide nothing, are left empty: the digests and merged imports cost a read and a
    parse per file).
    """
    planner = PlanningContext(project)
    unseen = _unseen_sources(project.absent_files)
    fixable = sorted((v for v in violations if v.fix is not None), key=_plan_order)
    accepted = _Accepted()
    planned: list[PlannedFix] = []
    skipped: list[SkippedFix] = []
    candidates: list[Candidate] = []
    for violation in fixable:
        fix = violation.fix
        assert fix is not None
        if not risk_allows(fix.risk, max_risk):
            reason = (
                "risky: plan only"
                if fix.risk is Risk.RISKY
                else f"{fix.risk.value}: needs --unsafe-fixes"
            )
            skipped.append(SkippedFix(violation, reason))
            continue
        if unseen is not None and fix.action in _MOVING:
            skipped.append(SkippedFix(violation, unseen))
            continue
        try:
            candidate = _plan(planner, violation)
        except (NotFixable, FilidError) as error:
            skipped.append(SkippedFix(violation, str(error)))
            continue
        if candidate.moves and unseen:
            skipped.append(SkippedFix(violation, unseen))
            continue
        candidates.append(candidate)

    # One git call for every path the candidates would create.
    # Files outside the universe (dot files, git-ignored ones) that a rename carries along
    # were never part of the project; only project files must stay in it.
    def kept(candidate: Candidate) -> list[str]:
        moved = (dst for src, dst in candidate.moves.items() if src in planner.files)
        return [*candidate.creates, *moved]

    dropped = dropped_paths(
        planner.root, planner.project.config, (path for c in candidates for path in kept(c))
    )
    for candidate in candidates:
        lost = sorted(p for p in kept(candidate) if p in dropped)
        problem = (
            f"{lost[0]} would drop out of the project: {dropped[lost[0]]}"
            if lost
            else _unsafe_target(project.root, candidate) or accepted.conflict(candidate)
        )
        if problem is not None:
            skipped.append(SkippedFix(candidate.violation, problem))
            continue
        accepted.add(candidate)
        planned.append(
            PlannedFix(
                violation=candidate.violation,
                action=candidate.action,
                risk=candidate.risk,
                result_path=candidate.result_path,
                operations=_operations(candidate, planner.read) if operations else (),
            )
        )
    return FixPlan(
        root=project.root,
        fixes=tuple(planned),
        skipped=tuple(skipped),
        operations=(
            _operations(accepted, planner.read, merge=FormattingIndex(project.root).for_file)
            if operations
            else ()
        ),
        reads=planner.reads,
        needles=planner.needles,
    )
