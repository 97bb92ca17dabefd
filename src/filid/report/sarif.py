"""SARIF 2.1.0 output, built from sarif-om classes and valid against the official schema.

sarif-om ships classes but no serializer, and the usual ``jschema_to_python`` drops every field
equal to its default -- including an explicit result ``level`` of ``"warning"``, which would
then silently inherit the rule's default level. ``_to_json_value`` below keeps ``level`` and
``kind`` and maps each attrs field to its schema name (``metadata["schema_property_name"]``).

Locations are root-relative with ``uriBaseId`` ``%SRCROOT%``; ``originalUriBaseIds`` is left
out on purpose because the absolute root differs between machines and the output must be
byte-identical for the same project. SARIF ``fix`` objects need at least one artifact change
with byte replacements, which filid's file-level actions (move, rename, create index) do not
have, so the fix is described in ``result.properties["filid/fix"]`` instead.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any, cast
from urllib.parse import quote

import attr
import sarif_om as om

from filid.model.escape import visible_keeping_breaks
from filid.model.report import ValidationResult
from filid.model.violations import Location, Severity, Violation
from filid.report.limits import most_severe
from filid.report.regime import regime_sentence
from filid.rules.base import RuleExample, RuleMeta

SARIF_VERSION = "2.1.0"
SARIF_SCHEMA_URI = (
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)
SRCROOT = "%SRCROOT%"
FILID_INFORMATION_URI = "https://pypi.org/project/filid/"
FINGERPRINT_KEY = "filid/v1"

_LEVELS: Mapping[Severity, str] = {
    Severity.ERROR: "error",
    Severity.WARNING: "warning",
    Severity.INFO: "note",
}

# Fields whose explicit value carries meaning even when it equals the sarif-om default.
_KEEP_DEFAULT_FIELDS = frozenset({"level", "kind"})

_FENCE_LANGUAGES: Mapping[str, str] = {
    "ts": "ts",
    "tsx": "tsx",
    "mts": "ts",
    "cts": "ts",
    "js": "js",
    "jsx": "jsx",
    "mjs": "js",
    "cjs": "js",
    "json": "json",
    "md": "markdown",
}


MAX_SARIF_RESULTS = 25_000


def render_sarif(
    result: ValidationResult,
    rules: Sequence[RuleMeta],
    *,
    tool_version: str,
    information_uri: str = FILID_INFORMATION_URI,
    max_results: int = MAX_SARIF_RESULTS,
) -> str:
    """Render ``result`` as a SARIF 2.1.0 log (JSON text ending in a newline).

    At most ``max_results`` results (GitHub code scanning accepts 25,000 per run): past that,
    the most severe are kept in report order, and the run says how many were left out.

    ``rules`` become ``tool.driver.rules`` (sorted by id); a violation of a rule id not among
    them gets a minimal descriptor so that every ``ruleIndex`` points at a real entry.
    """
    reported: Sequence[Violation] = result.violations
    state: dict[int, str] = {}
    if result.new_since is not None:
        # Code scanning keeps the full picture: the new results and the unchanged ones, each
        # marked; fixed ones are only counted (an "absent" result would reopen an alert in
        # consumers that ignore baselineState).
        state = {id(v): "new" for v in result.violations}
        state.update((id(v), "unchanged") for v in result.new_since.unchanged_violations)
        reported = sorted(
            (*result.violations, *result.new_since.unchanged_violations), key=Violation.sort_key
        )
    shown = most_severe(reported, max_results)
    descriptors = _rule_descriptors(rules, shown)
    index_of = {descriptor.id: i for i, descriptor in enumerate(descriptors)}
    run_properties: dict[str, object] = {
        "filid/regime": result.regime.value,
        "filid/regimeNote": regime_sentence(result),
    }
    if result.declared_by:
        run_properties["filid/declaredBy"] = result.declared_by
    if result.baseline_suppressed:
        run_properties["filid/baselineSuppressed"] = result.baseline_suppressed
    if result.new_since is not None:
        run_properties["filid/newSince"] = {
            "ref": result.new_since.ref,
            "mergeBase": result.new_since.commit,
            "new": result.new_since.new,
            "fixed": result.new_since.fixed,
            "unchanged": result.new_since.unchanged,
        }
    notifications: list[Any] = [
        om.Notification(level="note", message=om.Message(text=regime_sentence(result)))
    ]
    if len(shown) < len(reported):
        total = len(reported)
        run_properties["filid/truncated"] = {"shown": len(shown), "total": total}
        notifications.append(
            om.Notification(
                level="warning",
                message=om.Message(
                    text=f"{total - len(shown)} of {total} results left out: code scanning "
                    f"accepts at most {max_results} per run (the most severe are kept)"
                ),
            )
        )
    run = om.Run(
        tool=om.Tool(
            driver=om.ToolComponent(
                name="filid",
                version=tool_version,
                semantic_version=tool_version,
                information_uri=information_uri,
                rules=descriptors,
            )
        ),
        column_kind="utf16CodeUnits",
        invocations=[
            om.Invocation(execution_successful=True, tool_execution_notifications=notifications)
        ],
        results=[_result(v, index_of[v.rule_id], state.get(id(v))) for v in shown],
        properties=run_properties,
    )
    log = om.SarifLog(runs=[run], version=SARIF_VERSION, schema_uri=SARIF_SCHEMA_URI)
    document = cast(dict[str, object], _to_json_value(log))
    # Conventional key order: "$schema" and "version" before the (long) runs.
    ordered = {
        "$schema": document.pop("$schema"),
        "version": document.pop("version"),
        **document,
    }
    return json.dumps(ordered, indent=2, ensure_ascii=False) + "\n"


def sarif_level(severity: Severity) -> str:
    """The SARIF ``level`` for a filid severity (``info`` is SARIF ``note``)."""
    return _LEVELS[severity]


def _rule_descriptors(rules: Sequence[RuleMeta], violations: Sequence[Violation]) -> list[Any]:
    known = {meta.id: meta for meta in rules}
    descriptors = [_descriptor(known[rule_id]) for rule_id in sorted(known)]
    unknown = sorted({v.rule_id for v in violations} - known.keys())
    descriptors.extend(
        om.ReportingDescriptor(
            id=rule_id,
            name=_rule_name(rule_id),
            short_description=om.MultiformatMessageString(text=rule_id),
            help=om.MultiformatMessageString(text=f"{rule_id} is not a registered filid rule."),
        )
        for rule_id in unknown
    )
    return descriptors


def _descriptor(meta: RuleMeta) -> Any:
    return om.ReportingDescriptor(
        id=meta.id,
        name=_rule_name(meta.id),
        short_description=om.MultiformatMessageString(text=meta.description),
        full_description=om.MultiformatMessageString(text=meta.rationale),
        help=om.MultiformatMessageString(text=_help_text(meta), markdown=_help_markdown(meta)),
        default_configuration=om.ReportingConfiguration(
            level=_LEVELS[meta.default_severity], enabled=meta.enabled_by_default
        ),
        properties={"category": str(meta.category), "tags": ["filid", str(meta.category)]},
    )


def _rule_name(rule_id: str) -> str:
    """SARIF's human-readable rule name: ``module-entry-point`` -> ``ModuleEntryPoint``."""
    return "".join(part[:1].upper() + part[1:] for part in rule_id.split("-"))


def _fix_line(meta: RuleMeta) -> str | None:
    if meta.fix_action is None:
        return None
    risk = f" ({meta.fix_risk})" if meta.fix_risk is not None else ""
    return f"Fix: {meta.fix_action}{risk}."


def _help_text(meta: RuleMeta) -> str:
    parts = [meta.description, meta.rationale]
    fix = _fix_line(meta)
    if fix:
        parts.append(fix)
    return "\n\n".join(parts)


def _help_markdown(meta: RuleMeta) -> str:
    parts = [f"**{meta.id}** ({meta.category}, default {meta.default_severity})"]
    parts += [meta.description, meta.rationale]
    fix = _fix_line(meta)
    if fix:
        parts.append(fix)
    for heading, examples in (("Invalid", meta.invalid), ("Valid", meta.valid)):
        parts.extend(_example_markdown(heading, example) for example in examples)
    return "\n\n".join(parts)


def _example_markdown(heading: str, example: RuleExample) -> str:
    lines = [f"#### {heading}: {example.description}"]
    for path in sorted(example.files):
        content = example.files[path]
        # A fence longer than any backtick run in the content cannot be closed by it.
        longest = max((len(run) for run in re.findall(r"`+", content)), default=0)
        fence = "`" * max(3, longest + 1)
        language = _FENCE_LANGUAGES.get(path.rsplit(".", 1)[-1] if "." in path else "", "")
        body = content if content.endswith("\n") or not content else content + "\n"
        lines.append(f"`{path}`\n\n{fence}{language}\n{body}{fence}")
    return "\n\n".join(lines)


def _result(violation: Violation, rule_index: int, baseline_state: str | None = None) -> Any:
    text = violation.message
    if violation.suggestion:
        text = f"{text}\nSuggestion: {violation.suggestion}"
    properties: dict[str, object] = {"path": violation.path, "node": violation.node}
    if violation.members:
        properties["members"] = list(violation.members)
    if violation.fix is not None:
        properties["filid/fix"] = {
            "action": str(violation.fix.action),
            "risk": str(violation.fix.risk),
            "description": violation.fix.description,
            "targetPath": violation.fix.target_path,
        }
    return om.Result(
        message=om.Message(text=visible_keeping_breaks(text)),
        rule_id=violation.rule_id,
        rule_index=rule_index,
        level=_LEVELS[violation.severity],
        kind="fail",
        baseline_state=baseline_state,
        locations=[om.Location(physical_location=_physical_location(violation.location))],
        related_locations=[
            om.Location(
                id=i,
                message=om.Message(text=f"hop {i}"),
                physical_location=_physical_location(hop),
            )
            for i, hop in enumerate(violation.related, start=1)
        ]
        or None,
        partial_fingerprints=(
            {FINGERPRINT_KEY: violation.fingerprint} if violation.fingerprint else None
        ),
        properties=properties,
    )


def _physical_location(location: Location) -> Any:
    start_column = location.utf16_column or location.column
    end_column: int | None = None
    # end_column counts characters; it is only a valid UTF-16 column when the start column is
    # (no astral characters precede it), so without that we give the line range alone.
    if location.end_column is not None and (
        location.utf16_column is None or location.utf16_column == location.column
    ):
        end_column = location.end_column
    return om.PhysicalLocation(
        artifact_location=om.ArtifactLocation(uri=artifact_uri(location.file), uri_base_id=SRCROOT),
        region=om.Region(
            start_line=max(location.line, 1),
            start_column=max(start_column, 1),
            end_line=location.end_line,
            end_column=end_column,
        ),
    )


def artifact_uri(path: str) -> str:
    """A root-relative POSIX path as a relative URI reference (``%`` ``#`` ``:`` … encoded)."""
    return quote(path, safe="/")


def _to_json_value(value: object) -> object:
    """Serialize sarif-om objects (attrs classes), mappings and sequences to JSON values."""
    cls = type(value)
    if attr.has(cls):
        out: dict[str, object] = {}
        for field in attr.fields(cast(Any, cls)):
            item = getattr(value, field.name)
            if item is None:
                continue
            if field.name not in _KEEP_DEFAULT_FIELDS and _is_default(field, item):
                continue
            out[field.metadata["schema_property_name"]] = _to_json_value(item)
        return out
    if isinstance(value, Mapping):
        return {str(key): _to_json_value(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_to_json_value(item) for item in value]
    return value


def _is_default(field: Any, value: object) -> bool:
    default = field.default
    if default is attr.NOTHING:
        return False
    if isinstance(default, attr.Factory):  # type: ignore[arg-type]
        default = default.factory()
    return bool(value == default)
