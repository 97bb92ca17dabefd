"""The ``filid`` command line (click). The only module that prints; maps errors to exit codes.

Exit codes (all commands): 0 nothing at or above the fail level remains, 1 violations remain
(or ``--diff`` has changes), 2 usage/config/input error (one line on stderr), 3 internal error.
"""

from __future__ import annotations

import dataclasses
import functools
import gc
import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import click

from filid import __version__
from filid.model.errors import FilidError
from filid.model.escape import visible
from filid.model.report import ValidationResult
from filid.model.violations import Risk, Severity

if TYPE_CHECKING:
    from filid.adopt import Survey
    from filid.config.model import Config
    from filid.engine import Project
    from filid.rules.base import RuleMeta

EXIT_OK = 0
EXIT_VIOLATIONS = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 3

F = TypeVar("F", bound=Callable[..., Any])

FAIL_LEVELS = {"error": 0, "warning": 1, "info": 2, "never": -1}


def _fail(message: str, code: int = EXIT_USAGE) -> NoReturn:

    # One line, whatever the repository put in a path: no workflow command, no escape code.
    click.echo(f"filid: {visible(message)}", err=True)
    sys.exit(code)


def guarded(func: F) -> F:
    """Turn library errors into a one-line message and exit 2; anything else into exit 3."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except FilidError as error:
            _fail(str(error))
        except (click.exceptions.Exit, click.ClickException, SystemExit, KeyboardInterrupt):
            raise
        except BrokenPipeError:
            sys.exit(EXIT_OK)
        except Exception as error:
            if os.environ.get("FILID_DEBUG"):
                raise
            _fail(
                f"internal error: {type(error).__name__}: {error} (set FILID_DEBUG=1 for details)",
                EXIT_INTERNAL,
            )

    return wrapper  # type: ignore[return-value]


def _use_color() -> bool:
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR")


class _Progress:
    """A progress line on stderr, shown only on a TTY and only once a scan takes a moment."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled and sys.stderr.isatty()
        self.started = time.monotonic()
        self.last = 0.0
        self.shown = False

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if not self.enabled or now - self.started < 0.5:
            return
        # At most ten updates a second (one per file was 1.7 MB of output at 50k files).
        if done != total and now - self.last < 0.1:
            return
        self.last = now
        self.shown = True
        sys.stderr.write(f"\rfilid: parsing {done}/{total} files")
        sys.stderr.flush()

    def close(self) -> None:
        if self.shown:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()


def _load(
    path: str, config: str | None, *, use_cache: bool = True, progress: bool = False
) -> Project:
    from filid.engine import load_project

    bar = _Progress(progress)
    try:
        return load_project(
            path,
            config_path=Path(config) if config else None,
            use_cache=use_cache,
            progress=bar if bar.enabled else None,
        )
    finally:
        bar.close()


def _write_text(destination: str | None, text: str, *, append: bool = False) -> None:
    if destination is None or destination == "-":
        click.echo(text, nl=False)
        return
    from filid.store.files import write_file_atomically

    # Never through a symbolic link or over a non-regular file (a pull request can commit
    # `filid.sarif` as a link to the next CI step's script): UnsafePathError is exit 2.
    try:
        write_file_atomically(destination, text.encode("utf-8"), append=append, confine=Path.cwd())
    except OSError as error:
        raise FilidError(f"{destination}: cannot write ({error.strerror or error})") from None


def _require_files(path: str, files: Sequence[str]) -> None:
    """Every FILE must exist, unless git has its deletion staged (a pre-commit run of a
    commit that deletes it): a typo must not pass as "All checks passed!"."""
    missing = [f for f in files if not os.path.lexists(f)]
    if not missing:
        return
    import subprocess

    staged: set[str] = set()
    try:
        done = subprocess.run(
            ["git", "diff", "--cached", "--name-only", "--diff-filter=D", "-z"],
            cwd=path if os.path.isdir(path) else ".",
            capture_output=True,
            check=False,
        )
        top = subprocess.run(
            ["git", "rev-parse", "--show-toplevel"],
            cwd=path if os.path.isdir(path) else ".",
            capture_output=True,
            text=True,
            check=False,
        ).stdout.strip()
        if done.returncode == 0 and top:
            staged = {
                os.path.realpath(os.path.join(top, os.fsdecode(name)))
                for name in done.stdout.split(b"\0")
                if name
            }
    except OSError:
        pass
    unknown = [f for f in missing if os.path.realpath(f) not in staged]
    if unknown:
        shown = ", ".join(unknown[:5]) + (
            f" (and {len(unknown) - 5} more)" if len(unknown) > 5 else ""
        )
        raise FilidError(f"no such file: {shown}")


def repository_prefix(root: Path) -> str:
    """The project root's path inside its git repository (``"frontend/"``), or ``""``."""
    import subprocess

    try:
        done = subprocess.run(
            ["git", "rev-parse", "--show-prefix"],
            cwd=root,
            capture_output=True,
            text=True,
            check=False,
        )
    except OSError:
        return ""
    return done.stdout.strip() if done.returncode == 0 else ""


def _for_repository(result: ValidationResult) -> ValidationResult:
    """The result with paths relative to the git repository root (SARIF, JUnit, GitHub)."""
    from filid.report.paths import rebase_result

    return rebase_result(result, repository_prefix(result.root))


def _exit_code(result: ValidationResult, fail_on: str, exit_zero: bool) -> int:
    if exit_zero:
        return EXIT_OK
    threshold = FAIL_LEVELS[fail_on]
    if threshold < 0:
        return EXIT_OK
    failing = any(v.severity.rank <= threshold for v in result.violations)
    return EXIT_VIOLATIONS if failing else EXIT_OK


config_option = click.option(
    "--config",
    "config",
    type=click.Path(dir_okay=False),
    default=None,
    help="Config file (default: <root>/.filid/config.json if present).",
)
path_argument = click.argument("path", default=".", type=click.Path(file_okay=True))


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="filid")
def cli() -> None:
    """Keep a TypeScript/JavaScript code base in a clean fractal shape (FCA)."""


@cli.command()
@path_argument
@click.argument("files", nargs=-1, type=click.Path())
@config_option
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json", "sarif", "junit", "github"]),
    default="text",
    show_default=True,
)
@click.option(
    "--rules", "rules", default=None, help="Evaluate only these rule ids (comma-separated)."
)
@click.option("--fix", is_flag=True, help="Apply safe fixes, then re-validate.")
@click.option("--unsafe-fixes", is_flag=True, help="Also apply moderate fixes.")
@click.option("--diff", is_flag=True, help="Print the diff of the fixes; write nothing.")
@click.option(
    "--exit-non-zero-on-fix",
    is_flag=True,
    help="Exit 1 when a fix changed or created files, even if nothing remains (pre-commit).",
)
@click.option("--output", type=click.Path(dir_okay=False), help="Write the --format output here.")
@click.option("--sarif", "sarif_file", type=click.Path(dir_okay=False), help="Also write SARIF.")
@click.option(
    "--junit", "junit_file", type=click.Path(dir_okay=False), help="Also write JUnit XML."
)
@click.option(
    "--github-summary",
    "summary_file",
    type=click.Path(dir_okay=False),
    help='Append a Markdown job summary (e.g. "$GITHUB_STEP_SUMMARY").',
)
@click.option(
    "--fail-on",
    type=click.Choice(["error", "warning", "info", "never"]),
    default="error",
    show_default=True,
)
@click.option(
    "--baseline", type=click.Path(dir_okay=False), help="Report only violations not in FILE."
)
@click.option(
    "--write-baseline", type=click.Path(dir_okay=False), help="Record current violations."
)
@click.option(
    "--new-since",
    metavar="REF",
    help="Report only violations new since the merge base of REF and HEAD (git).",
)
@click.option(
    "--exemptions-from",
    metavar="REF",
    help="Take DETAIL.md boundary exemptions from commit REF, not from the work tree (the "
    "GitHub Action's config: base: a change cannot exempt its own imports).",
)
@click.option(
    "--staged",
    is_flag=True,
    help=(
        "Check what is staged in git (the index: no untracked file), also report the staged "
        "deletions and imports they break (pre-commit)."
    ),
)
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when violations remain.")
@click.option("-q", "--quiet", is_flag=True, help="Print only the summary.")
@click.option("-v", "--verbose", is_flag=True, help="Print every note.")
@click.option("--no-progress", is_flag=True, help="Never show a progress line.")
@click.option("--no-cache", is_flag=True, help="Neither read nor write the parse cache.")
@guarded
def check(
    path: str,
    files: tuple[str, ...],
    config: str | None,
    fmt: str,
    rules: str | None,
    fix: bool,
    unsafe_fixes: bool,
    diff: bool,
    exit_non_zero_on_fix: bool,
    output: str | None,
    sarif_file: str | None,
    junit_file: str | None,
    summary_file: str | None,
    fail_on: str,
    baseline: str | None,
    write_baseline: str | None,
    new_since: str | None,
    exemptions_from: str | None,
    staged: bool,
    exit_zero: bool,
    quiet: bool,
    verbose: bool,
    no_progress: bool,
    no_cache: bool,
) -> None:
    """Validate the structure of the project at PATH (structure-validate).

    FILES (as pre-commit passes them) limit what is reported to violations that touch those
    files or their folders; the whole project is still analysed.
    """
    from filid.scoping import select_rules

    rule_ids = select_rules(rules.split(",")) if rules else None
    _require_files(path, files)
    deleted: tuple[str, ...] = ()
    if staged:
        from filid.scan.git_index import staged_deletions
        from filid.scan.universe import resolve_root

        deleted = staged_deletions(resolve_root(path))
        files = (*files, *(os.path.join(path, name) for name in deleted))
        if not files and fmt == "text" and not (fix or unsafe_fixes or diff):
            # pre-commit runs the hook on every commit (always_run); nothing of ours changed
            click.echo("No staged changes to check.", err=True)
            sys.exit(EXIT_OK)
    scope_files: Sequence[str] | None = files if (files or staged) else None
    progress = fmt == "text" and not no_progress and output is None
    max_risk = Risk.MODERATE if unsafe_fixes else Risk.SAFE
    diff_text = ""
    changed: tuple[str, ...] = ()
    pinned = None
    if exemptions_from:
        if fix or unsafe_fixes or diff:
            _fail("--exemptions-from cannot be combined with --fix, --unsafe-fixes or --diff")
        pinned = _pinned_config(path, config, exemptions_from)
    if fix or unsafe_fixes or diff:
        from filid.fix.run import run_fix

        bar = _Progress(progress)
        try:
            run = run_fix(
                Path(path),
                config_path=Path(config) if config else None,
                max_risk=max_risk,
                dry_run=diff,
                rule_ids=rule_ids,
                use_cache=not no_cache,
                files=scope_files,
            )
        finally:
            bar.close()
        result = run.result
        diff_text = run.diff
        changed = run.changed_files
    elif staged and pinned is None:
        from filid.staged import check_staged

        bar = _Progress(progress)
        try:
            result = check_staged(
                path,
                config_path=Path(config) if config else None,
                rule_ids=rule_ids,
                files=scope_files,
                use_cache=not no_cache,
                progress=bar if bar.enabled else None,
                annotate=_mark_refused_fixes,
            )
        finally:
            bar.close()
    else:
        from filid.snapshot import check_project

        bar = _Progress(progress)
        try:
            result = check_project(
                path,
                config_path=Path(config) if config else None,
                rule_ids=rule_ids,
                files=scope_files,
                use_cache=not no_cache,
                progress=bar if bar.enabled else None,
                annotate=_mark_refused_fixes,
                config=pinned,
            )
        finally:
            bar.close()
    if baseline:
        from filid.baseline import apply_baseline
        from filid.store.files import read_regular_file

        try:
            text = read_regular_file(baseline, 64 * 1024 * 1024).decode("utf-8", "replace")
        except OSError as error:
            raise FilidError(f"{baseline}: cannot read baseline ({error.strerror})") from None
        result = apply_baseline(result, text, source=baseline)
    if new_since:
        from filid.config.load import load_config
        from filid.new_since import changed_lines, keep_new, result_at
        from filid.rules.catalogue import ALIASES, RULE_IDS
        from filid.scoping import restrict

        settings = load_config(
            result.root,
            Path(config) if config else None,
            known_rule_ids=RULE_IDS,
            rule_aliases=ALIASES,
        )
        if pinned is not None:
            settings = pinned
        before, commit = result_at(result.root, new_since, settings, use_cache=not no_cache)
        from filid.change_set import deleted_since

        result = _with_broken_imports(result, deleted_since(result.root, commit), config, no_cache)
        result = keep_new(
            result,
            restrict(before, rule_ids=rule_ids),
            new_since,
            commit,
            changed_lines(result.root, commit),
        )
    elif deleted:
        result = _with_broken_imports(result, deleted, config, no_cache)
    if write_baseline:
        from filid.baseline import write_baseline as render_baseline

        _write_text(write_baseline, render_baseline(result))
    _emit_side_outputs(result, sarif_file, junit_file, summary_file)
    if diff:
        _write_text(output, diff_text)
        if fmt != "text" or not diff_text:
            click.echo(f"{'No' if not diff_text else 'The'} fixes would change files.", err=True)
        sys.exit(EXIT_VIOLATIONS if diff_text and not exit_zero else EXIT_OK)
    _write_text(output, _render_check(result, fmt, quiet=quiet, verbose=verbose))
    code = _exit_code(result, fail_on, exit_zero)
    if exit_non_zero_on_fix and changed:
        code = max(code, EXIT_VIOLATIONS)
    if code == EXIT_VIOLATIONS and staged and not baseline and not new_since and fmt == "text":
        # A pre-commit run: findings that were there before this change fail the commit too
        # (a comment edit of a file with old findings). Say how to let only new ones fail.
        click.echo(BASELINE_HINT, err=True)
    sys.exit(code)


def _pinned_config(path: str, config: str | None, ref: str) -> Config:
    """The configuration with the DETAIL.md boundary exemptions of commit ``ref``."""
    from filid.config.load import load_config
    from filid.new_since import exemptions_at
    from filid.rules.catalogue import ALIASES, RULE_IDS
    from filid.scan.universe import resolve_root

    root = resolve_root(path)
    settings = load_config(
        root, Path(config) if config else None, known_rule_ids=RULE_IDS, rule_aliases=ALIASES
    )
    return dataclasses.replace(settings, pinned_exemptions=exemptions_at(root, ref))


BASELINE_HINT = (
    "filid: if these findings were there before your change, record them as known so that "
    "only new ones fail a commit:\n"
    "  filid check . --write-baseline .filid/baseline.json --exit-zero   # then commit it\n"
    "  and give the hook  args: [--baseline, .filid/baseline.json, ., --]"
)


def _mark_refused_fixes(project: Project, result: ValidationResult) -> ValidationResult:
    """``result`` with the safe and moderate fixes the fix planner would refuse marked (and
    why, as notes), so that "N fixable with --fix" and "N more with --unsafe-fixes" count
    only what ``--fix`` and ``--unsafe-fixes`` can apply.

    Planned once per freshly computed result (the snapshot keeps the marks). Fixes skipped
    only because another fix of the same pass conflicts are not refused: a later pass of the
    fix run applies them.
    """
    applicable = (Risk.SAFE, Risk.MODERATE)
    if not any(v.fix is not None and v.fix.risk in applicable for v in result.violations):
        return result
    from filid.fix.planner import plan_fixes

    plan = plan_fixes(project, result.violations, max_risk=Risk.MODERATE, operations=False)
    result = dataclasses.replace(result, fix_inputs=plan.reads, fix_needles=plan.needles)
    refused = [
        s
        for s in plan.skipped
        if s.violation.fix is not None
        and s.violation.fix.risk in applicable
        and not s.reason.startswith("another fix ")
    ]
    if not refused:
        return result
    notes = tuple(
        f"fix not possible: {s.violation.rule_id} at {s.violation.path}: {s.reason}"
        for s in refused
    )
    return dataclasses.replace(
        result,
        refused_fixes=frozenset(s.violation.fingerprint for s in refused),
        notes=result.notes + notes,
    )


def _with_broken_imports(
    result: ValidationResult, deleted: Sequence[str], config: str | None, no_cache: bool
) -> ValidationResult:
    """``result`` plus an error for each import broken by deleting one of ``deleted``."""
    if not deleted:
        return result
    from filid.change_set import broken_imports
    from filid.engine import load_project
    from filid.model.violations import Violation

    project = load_project(
        result.root, config_path=Path(config) if config else None, use_cache=not no_cache
    )
    broken = broken_imports(project, deleted)
    if not broken:
        return result
    violations = tuple(sorted((*result.violations, *broken), key=Violation.sort_key))
    return dataclasses.replace(result, violations=violations)


def _rule_metas() -> list[RuleMeta]:
    from filid.rules.registry import RULES

    return [rule.meta for rule in RULES]


def _render_check(result: ValidationResult, fmt: str, *, quiet: bool, verbose: bool) -> str:
    if fmt == "json":
        from filid.report.json import dumps, validation_report

        return dumps(validation_report(result))
    if fmt == "sarif":
        from filid.report.sarif import render_sarif

        return render_sarif(_for_repository(result), _rule_metas(), tool_version=__version__)
    if fmt == "junit":
        from filid.report.junit import render_junit

        return render_junit(_for_repository(result), _rule_metas())
    if fmt == "github":
        from filid.report.github import render_github

        return render_github(_for_repository(result))
    from filid.report.text import render_check

    color = _use_color()
    return render_check(result, color=color, quiet=quiet, verbose=verbose)


def _emit_side_outputs(
    result: ValidationResult, sarif: str | None, junit: str | None, summary: str | None
) -> None:
    if not (sarif or junit or summary):
        return
    from filid.rules.registry import RULES

    metas = [rule.meta for rule in RULES]
    result = _for_repository(result)
    if sarif:
        from filid.report.sarif import render_sarif

        _write_text(sarif, render_sarif(result, metas, tool_version=__version__))
    if junit:
        from filid.report.junit import render_junit

        _write_text(junit, render_junit(result, metas))
    if summary:
        from filid.report.summary import render_summary

        _write_text(summary, render_summary(result, metas), append=True)


@cli.command()
@path_argument
@config_option
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
@click.option(
    "--severity",
    type=click.Choice(["critical", "high", "medium", "low"]),
    default=None,
    help="Keep this drift severity and worse.",
)
@click.option("--plan", is_flag=True, help="Add the SyncPlan (actions in a safe order).")
@click.option("--no-cache", is_flag=True)
@click.option("--no-progress", is_flag=True, help="Never show a progress line.")
@guarded
def drift(
    path: str,
    config: str | None,
    fmt: str,
    severity: str | None,
    plan: bool,
    no_cache: bool,
    no_progress: bool,
) -> None:
    """Show how far the tree has drifted from the rules (drift-detect)."""
    from filid.drift import detect_drift
    from filid.engine import evaluate

    project = _load(
        path, config, use_cache=not no_cache, progress=fmt == "text" and not no_progress
    )
    result = evaluate(project)
    report = detect_drift(result, min_severity=severity, with_plan=plan)
    if fmt == "json":
        from filid.report.json import dumps

        click.echo(dumps(report.to_json()), nl=False)
    else:
        from filid.report.drift_text import render_drift

        click.echo(render_drift(report), nl=False)
    sys.exit(EXIT_VIOLATIONS if report.items else EXIT_OK)


@cli.command()
@path_argument
@config_option
@click.option("--format", "fmt", type=click.Choice(["text", "json", "mermaid"]), default="text")
@click.option(
    "--depth", type=click.IntRange(1, 100), default=None, help="Show nodes to this depth."
)
@click.option("--modules", is_flag=True, help="Include module information (exports).")
@click.option("--no-cache", is_flag=True)
@click.option("--no-progress", is_flag=True, help="Never show a progress line.")
@guarded
def scan(
    path: str,
    config: str | None,
    fmt: str,
    depth: int | None,
    modules: bool,
    no_cache: bool,
    no_progress: bool,
) -> None:
    """Show the classified fractal tree (fractal-scan)."""
    from filid.scoping import timestamp

    started = time.perf_counter()
    project = _load(
        path, config, use_cache=not no_cache, progress=fmt == "text" and not no_progress
    )
    duration = time.perf_counter() - started
    tree = project.tree
    if fmt == "json":
        from filid.report.json import dumps, scan_report

        data = scan_report(
            tree,
            project.facts,
            project.file_graph,
            timestamp=timestamp(),
            duration=duration,
            max_depth=depth,
            include_modules=modules,
        )
        click.echo(dumps(data), nl=False)
    elif fmt == "mermaid":
        from filid.report.mermaid import render_graph

        nodes = [p for p, n in tree.nodes.items() if depth is None or n.depth <= depth]
        shown = set(nodes)
        edges = [
            (n.parent, p, n.category.value)
            for p, n in tree.nodes.items()
            if n.parent is not None and p in shown
        ]
        click.echo(render_graph(sorted(nodes), sorted(edges)), nl=False)
    else:
        from filid.report.text import render_tree

        click.echo(render_tree(tree, max_depth=depth, color=_use_color()), nl=False)
        if modules:
            from filid.report.json import module_infos

            for info in module_infos(tree, project.facts):
                click.echo(
                    visible(
                        f"  {info['path']}: {info['category']}, {info['exportCount']} export(s)"
                        f"{'' if info['hasIndex'] or info['hasMain'] else ', no entry point'}"
                    )
                )
        unresolved = project.file_graph.unresolved
        if unresolved:
            click.echo(f"{len(unresolved)} unresolved import(s):")
            for item in unresolved[:20]:
                why = f" ({item.reason})" if item.reason else ""
                click.echo(visible(f"  {item.file}:{item.line}: '{item.specifier}'{why}"))
            if len(unresolved) > 20:
                click.echo(f"  … and {len(unresolved) - 20} more (see --format json)")


@cli.command()
@path_argument
@config_option
@click.option("--level", type=click.Choice(["file", "module"]), default="module", show_default=True)
@click.option("--format", "fmt", type=click.Choice(["json", "dot", "mermaid"]), default="json")
@click.option("--no-cache", is_flag=True)
@click.option("--no-progress", is_flag=True, help="Never show a progress line.")
@guarded
def graph(
    path: str, config: str | None, level: str, fmt: str, no_cache: bool, no_progress: bool
) -> None:
    """Print the resolved import graph at file or module level (machine formats only: no
    progress line is ever shown; ``--no-progress`` is accepted on every command)."""
    from filid.report.json import dumps, file_graph_report, module_graph_report

    project = _load(path, config, use_cache=not no_cache)
    if level == "file":
        data = file_graph_report(project.tree, project.file_graph)
    else:
        data = module_graph_report(project.module_graph)
    if fmt == "json":
        click.echo(dumps(data), nl=False)
        return
    nodes = [str(n) for n in data["nodes"]]
    edges = sorted({(str(e["from"]), str(e["to"]), str(e["kind"])) for e in data["edges"]})
    if fmt == "dot":
        from filid.report.dot import render_graph as render_dot

        click.echo(render_dot(nodes, edges), nl=False)
    else:
        from filid.report.mermaid import render_graph as render_mermaid

        click.echo(render_mermaid(nodes, edges), nl=False)


@cli.command()
@click.argument("module_a")
@click.argument("module_b")
@click.option("--root", "root", default=".", type=click.Path(), help="Project root.")
@config_option
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
@click.option("--no-progress", is_flag=True, help="Never show a progress line.")
@guarded
def lca(
    module_a: str, module_b: str, root: str, config: str | None, fmt: str, no_progress: bool
) -> None:
    """Find where code shared by two modules belongs (lca-resolve)."""
    from filid.graph import resolve_lca

    project = _load(root, config)
    result = resolve_lca(project.tree, module_a, module_b)
    if fmt == "json":
        from filid.report.json import dumps, lca_to_json

        click.echo(dumps(lca_to_json(result, str(project.root))), nl=False)
        return
    for line in (
        f"LCA: {result.lca} ({result.lca_category}, depth {result.lca_depth})",
        f"distance: {module_a} → {result.distance_a}, {module_b} → {result.distance_b}",
        f"place shared code in: {result.suggested_placement}",
        result.explanation,
    ):
        click.echo(visible(line))


@cli.command()
@click.argument("action", type=click.Choice(["list", "get", "check"]), default="list")
@click.argument("target", required=False)
@click.option("--root", "root", default=".", type=click.Path(), help="Project root.")
@config_option
@click.option("--category", default=None, help="Filter by rule category or node category.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
@click.option("--no-progress", is_flag=True, help="Never show a progress line.")
@guarded
def rules(
    action: str,
    target: str | None,
    root: str,
    config: str | None,
    category: str | None,
    fmt: str,
    no_progress: bool,
) -> None:
    """Explain the rules: list, get ID, or check TARGET (rule-query)."""
    from filid.report import json as json_report
    from filid.report import text as text_report
    from filid.rule_query import filter_rules, rule_states, scope_of

    if action == "list":
        states = rule_states(Path(root), Path(config) if config else None)
        selected = filter_rules(states, category)
        if fmt == "json":
            data = json_report.rule_list(selected, total=len(states))
            click.echo(json_report.dumps(data), nl=False)
        else:
            click.echo(text_report.render_rule_list(selected), nl=False)
        return
    if target is None:
        _fail(f"'filid rules {action}' needs {'a rule id' if action == 'get' else 'a TARGET path'}")
    if action == "get":
        from filid.rules.registry import RULES_BY_ID, canonical_rule_id

        canonical = canonical_rule_id(target)
        if canonical is None:
            _fail(f"unknown rule id '{target}' (valid ids: {', '.join(sorted(RULES_BY_ID))})")
        enabled = {m.id: on for m, on in rule_states(Path(root), Path(config) if config else None)}
        from filid.rules.base import option_docs

        meta = RULES_BY_ID[canonical].meta
        options = option_docs(RULES_BY_ID[canonical].options_type)
        if fmt == "json":
            detail = json_report.rule_detail(meta, enabled[meta.id], options)
            click.echo(json_report.dumps(detail), nl=False)
        else:
            click.echo(text_report.render_rule_detail(meta, enabled[meta.id], options), nl=False)
        return
    from filid.engine import evaluate

    project = _load(root, config)
    scope = scope_of(project.tree, project.root, target)
    result = evaluate(project, scope=scope)
    if fmt == "json":
        click.echo(
            json_report.dumps(json_report.evaluation_to_json(result, project.tree)), nl=False
        )
    else:
        click.echo(text_report.render_check(result, color=_use_color()), nl=False)
    sys.exit(EXIT_VIOLATIONS if result.violations else EXIT_OK)


@cli.command()
@path_argument
@click.option("--force", is_flag=True, help="Overwrite an existing config.")
@click.option(
    "--write-baseline",
    is_flag=True,
    help="Also record today's violations as known in .filid/baseline.json.",
)
@click.option("--no-progress", is_flag=True, help="Never show a progress line.")
@guarded
def init(path: str, force: bool, write_baseline: bool, no_progress: bool) -> None:
    """Look at the project at PATH and write a .filid/config.json for it.

    Generated folders go into structure.generatedPaths, the names of example, fixture,
    playground and template folders into structure.additionalExcludedDirectories (unless a
    folder of that name is a route of a file-routing framework); every rule stays at its
    default. The choices, the FCA documents found and the violations that remain are printed.
    With --write-baseline, the remaining violations are recorded as known (an existing config
    is then kept unless --force).
    """
    from filid.adopt import survey
    from filid.config.template import render_default_config
    from filid.graph import build_resolver
    from filid.scan.universe import list_universe, resolve_root
    from filid.store.files import write_file_atomically

    root = resolve_root(path)
    target = root / ".filid" / "config.json"
    keep = target.exists() and not force
    if keep and not write_baseline:
        _fail(f"{target}: already exists (use --force to overwrite)")
    if keep:
        click.echo(".filid/config.json exists: kept (use --force to rewrite it)")
    else:
        files = list_universe(root).files
        seen = survey(files, build_resolver(root, files).route_directories())
        text = render_default_config(
            excluded_names=seen.excluded_names, generated=seen.generated_globs
        )
        write_file_atomically(target, text.encode("utf-8"), confine=root)
        click.echo(f"wrote .filid/config.json ({seen.source_files} source files looked at)")
        for line in _survey_lines(seen):
            click.echo(visible(f"  {line}"))
    from filid.snapshot import check_project

    bar = _Progress(not no_progress)
    try:
        result = check_project(
            root, progress=bar if bar.enabled else None, annotate=_mark_refused_fixes
        )
    finally:
        bar.close()
    counts = ", ".join(f"{result.count(s)} {s.value}" for s in Severity)
    click.echo(f"filid check: {len(result.violations)} violations ({counts})")
    if write_baseline:
        from filid.baseline import write_baseline as render_baseline

        baseline = root / ".filid" / "baseline.json"
        write_file_atomically(baseline, render_baseline(result).encode("utf-8"), confine=root)
        click.echo(
            "recorded them as known in .filid/baseline.json: "
            "`filid check --baseline .filid/baseline.json` now reports only new ones"
        )
    elif result.violations:
        click.echo(
            "to adopt gradually, record them as known: filid init --write-baseline "
            "(then filid check --baseline .filid/baseline.json)"
        )


def _survey_lines(seen: Survey) -> list[str]:
    lines: list[str] = []
    if seen.documents:
        found = ", ".join(f"{count} {name}" for name, count in seen.documents.items())
        lines.append(f"FCA documents: {found} (a folder with an intent document is a module)")
    else:
        lines.append(
            "FCA documents: none (modules are recognised by their index.* entry points and "
            "package roots; add INTENT.md files to declare boundaries)"
        )
    if seen.generated:
        lines.append(
            "generated code, left out (structure.generatedPaths): " + ", ".join(seen.generated)
        )
    if seen.examples:
        lines.append(
            "examples, fixtures and templates, left out by folder name "
            f"(structure.additionalExcludedDirectories: {', '.join(seen.excluded_names)}): "
            + ", ".join(seen.examples)
        )
    if seen.kept:
        lines.append(
            "checked, although named like examples: " + ", ".join(seen.kept) + " (a folder of "
            "that name is a route of a file-routing framework: " + ", ".join(seen.routes) + ")"
        )
    lines.append("every rule at its default (`filid rules list`; switch one off under rules)")
    return lines


@cli.command()
@click.option(
    "--root",
    "roots",
    multiple=True,
    type=click.Path(),
    help="Directory the tools may read and fix (repeatable; default: the working directory).",
)
@guarded
def mcp(roots: tuple[str, ...]) -> None:
    """Run the MCP server on stdio (tools: fractal-scan, drift-detect, lca-resolve, …)."""
    from filid.mcp.server import run_stdio

    run_stdio([Path(r) for r in roots] or [Path.cwd()])


_HOOK_EVENTS = {
    "pre-tool-use": "PreToolUse",
    "user-prompt-submit": "UserPromptSubmit",
    "session-start": "SessionStart",
}


@cli.command()
@click.argument("event", type=click.Choice(sorted(_HOOK_EVENTS)))
def hook(event: str) -> None:
    """Answer a Claude Code hook: read its JSON on stdin, print the answer on stdout.

    EVENT is pre-tool-use (deny an edit that breaks a document contract, warn of new structure
    findings, give the owning modules' INTENT.md), user-prompt-submit or session-start (the
    FCA rules in short). Always exits 0; with nothing to say (or on bad input, named in one
    line on stderr) the answer is {}: Claude Code's own permissions decide.
    """
    import json

    from filid.hook import parse_request, pre_tool_use, session_start, user_prompt_submit

    answer: dict[str, Any] = {}
    try:
        request = parse_request(sys.stdin.buffer.read(), _HOOK_EVENTS[event])
        handler = {
            "pre-tool-use": pre_tool_use,
            "user-prompt-submit": user_prompt_submit,
            "session-start": session_start,
        }[event]
        answer = handler(request)
    except FilidError as error:
        from filid.model.escape import visible

        click.echo(f"filid: {visible(str(error))}", err=True)
    except Exception as error:  # a hook must never break the session: no opinion instead
        if os.environ.get("FILID_DEBUG"):
            raise
        click.echo(f"filid: hook: internal error: {type(error).__name__}: {error}", err=True)
    click.echo(json.dumps(answer, ensure_ascii=False))
    sys.exit(EXIT_OK)


def main() -> None:
    """Console-script entry point.

    A command runs once and exits, and filid's objects (facts, nodes, edges) hold no reference
    cycles, so the cyclic garbage collector only costs time here (it rescans every live object
    every few hundred allocations): it is off for the whole run. The long-running MCP server
    turns it back on.
    """
    if sys.argv[1:2] != ["mcp"]:
        gc.disable()
    cli(prog_name="filid")


__all__ = ["EXIT_INTERNAL", "EXIT_OK", "EXIT_USAGE", "EXIT_VIOLATIONS", "Severity", "cli", "main"]
