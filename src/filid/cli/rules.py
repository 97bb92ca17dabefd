"""``filid rules``: list the rules, explain one, or check one subtree (rule-query)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from filid.cli.exits import EXIT_OK, EXIT_VIOLATIONS, fail, guarded
from filid.cli.options import config_option
from filid.cli.terminal import use_color


@click.command()
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
    from filid.rules.query import filter_rules, rule_states

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
        fail(f"'filid rules {action}' needs {'a rule id' if action == 'get' else 'a TARGET path'}")
    if action == "get":
        from filid.rules.registry import RULES_BY_ID, canonical_rule_id

        canonical = canonical_rule_id(target)
        if canonical is None:
            fail(f"unknown rule id '{target}' (valid ids: {', '.join(sorted(RULES_BY_ID))})")
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
    from filid.check.workflow import CheckOptions, run_check

    asked = CheckOptions(
        path=root,
        config_path=Path(config) if config else None,
        target=target,
        reuse=False,
        mark_fixes=False,
    )
    run = run_check(asked)
    result, project = run.result, run.project
    assert project is not None  # a target check always loads the project
    if fmt == "json":
        click.echo(
            json_report.dumps(json_report.evaluation_to_json(result, project.tree)), nl=False
        )
    else:
        click.echo(text_report.render_check(result, color=use_color()), nl=False)
    sys.exit(EXIT_VIOLATIONS if result.violations else EXIT_OK)
