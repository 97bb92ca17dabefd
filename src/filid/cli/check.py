"""``filid check``: validate the structure (structure-validate), fix, and render the
result in the format asked for, with the side outputs CI wants (SARIF, JUnit, job summary)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from filid import __version__
from filid.cli.exits import EXIT_OK, EXIT_VIOLATIONS, exit_code, guarded
from filid.cli.options import config_option, path_argument
from filid.cli.terminal import Progress, use_color, write_pieces, write_text
from filid.model.report import ValidationResult
from filid.model.violations import Risk

if TYPE_CHECKING:
    from filid.rules.base import RuleMeta


@click.command()
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
    from filid.check.workflow import BaselineFile, CheckOptions, NothingStaged, run_check

    fixing = fix or unsafe_fixes or diff
    progress = fmt == "text" and not no_progress and output is None
    bar = Progress(progress)
    try:
        run = run_check(
            CheckOptions(
                path=path,
                config_path=Path(config) if config else None,
                rules=rules.split(",") if rules else None,
                files=files,
                staged=staged,
                skip_when_nothing_staged=fmt == "text" and not fixing,
                fix=(Risk.MODERATE if unsafe_fixes else Risk.SAFE) if fixing else None,
                dry_run=diff,
                baseline=BaselineFile(baseline) if baseline else None,
                new_since=new_since,
                exemptions_from=exemptions_from,
                use_cache=not no_cache,
                progress=bar if bar.enabled else None,
            )
        )
    except NothingStaged:
        # pre-commit runs the hook on every commit (always_run); nothing of ours changed
        click.echo("No staged changes to check.", err=True)
        sys.exit(EXIT_OK)
    finally:
        bar.close()
    result = run.result
    if write_baseline:
        from filid.check.baseline import write_baseline as render_baseline

        write_text(write_baseline, render_baseline(result))
    _emit_side_outputs(result, sarif_file, junit_file, summary_file)
    if diff:
        write_text(output, run.diff)
        if fmt != "text" or not run.diff:
            click.echo(f"{'No' if not run.diff else 'The'} fixes would change files.", err=True)
        sys.exit(EXIT_VIOLATIONS if run.diff and not exit_zero else EXIT_OK)
    if fmt == "json":
        from filid.report.json import validation_report, write_json

        write_pieces(output, lambda write: write_json(validation_report(result), write))
    else:
        write_text(output, _render_check(result, fmt, quiet=quiet, verbose=verbose))
    code = exit_code(result, fail_on, exit_zero)
    if exit_non_zero_on_fix and run.changed_files:
        code = max(code, EXIT_VIOLATIONS)
    if code == EXIT_VIOLATIONS and staged and not baseline and not new_since and fmt == "text":
        # A pre-commit run: findings that were there before this change fail the commit too
        # (a comment edit of a file with old findings). Say how to let only new ones fail.
        click.echo(BASELINE_HINT, err=True)
    sys.exit(code)


BASELINE_HINT = (
    "filid: if these findings were there before your change, record them as known so that "
    "only new ones fail a commit:\n"
    "  filid check . --write-baseline .filid/baseline.json --exit-zero   # then commit it\n"
    "  and give the hook  args: [--baseline, .filid/baseline.json, ., --]"
)


def _rule_metas() -> list[RuleMeta]:
    from filid.rules.registry import RULES

    return [rule.meta for rule in RULES]


def _render_check(result: ValidationResult, fmt: str, *, quiet: bool, verbose: bool) -> str:
    """The report in ``fmt`` other than JSON (written piece by piece, see ``check``)."""
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

    color = use_color()
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

        write_text(sarif, render_sarif(result, metas, tool_version=__version__))
    if junit:
        from filid.report.junit import render_junit

        write_text(junit, render_junit(result, metas))
    if summary:
        from filid.report.summary import render_summary

        write_text(summary, render_summary(result, metas), append=True)


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
