"""Baselines: record today's violations, then report only new ones (``--baseline FILE``).

A baseline is JSON ``{"version": 1, "violations": [{"fingerprint", "ruleId", "path",
"message"}, …]}``, sorted. Matching uses the fingerprint alone (the engine computes it from the
rule id, the path and the non-positional parts of a finding), so a violation whose line moved
is still recognised; ``ruleId``/``path``/``message`` are there for people reviewing the file.
Fingerprints form a multiset: a fingerprint recorded twice suppresses two violations.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from filid.model.errors import FilidError, InputError
from filid.model.jsontext import loads as json_loads
from filid.model.report import ValidationResult
from filid.model.violations import Violation

BASELINE_VERSION = 1
_TEXT_FIELDS = ("ruleId", "path", "message")
#: The largest baseline file read (a larger one is refused, never truncated).
BASELINE_MAX_BYTES = 64 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class BaselineFile:
    """Where a baseline comes from and how messages name it.

    ``confine_to`` (the MCP server's project root) refuses a baseline outside that folder and
    names the file ``baseline: <shown>: …`` in errors; without it (the CLI) the path is read
    as given and errors say ``<path>: cannot read baseline (…)``.
    """

    path: str
    shown: str | None = None
    confine_to: Path | None = None


@dataclass(frozen=True, slots=True)
class BaselineCounts:
    """What a baseline did to one result: ``new`` violations left, ``suppressed`` ones it
    recorded, ``fixed`` entries of evaluated rules that no longer occur."""

    path: str
    new: int
    suppressed: int
    fixed: int

    def to_json(self) -> dict[str, object]:
        """The ``baseline`` object of the MCP answer."""
        return {
            "path": self.path,
            "new": self.new,
            "suppressed": self.suppressed,
            "fixed": self.fixed,
        }


def write_baseline(result: ValidationResult) -> str:
    """The baseline recording every violation of ``result`` (JSON text ending in a newline)."""
    entries = sorted(
        (
            {
                "fingerprint": violation_fingerprint(v),
                "ruleId": v.rule_id,
                "path": v.path,
                "message": v.message,
            }
            for v in result.violations
        ),
        key=lambda e: (e["path"], e["ruleId"], e["fingerprint"], e["message"]),
    )
    document = {"version": BASELINE_VERSION, "violations": entries}
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def apply_baseline(
    result: ValidationResult, baseline_text: str, *, source: str
) -> ValidationResult:
    """``result`` without the violations recorded in ``baseline_text``.

    ``baseline_suppressed`` grows by the number dropped from ``violations``; ``remaining``
    (after a fix run) is filtered the same way. Raises ``InputError`` naming ``source`` and the
    offending key when the baseline is not valid.
    """
    recorded = read_baseline(baseline_text, source=source)
    kept, suppressed = _drop_recorded(result.violations, recorded)
    remaining = result.remaining
    if remaining is not None:
        remaining, _ = _drop_recorded(remaining, recorded)
    return dataclasses.replace(
        result,
        violations=kept,
        remaining=remaining,
        baseline_suppressed=result.baseline_suppressed + suppressed,
    )


def read_baseline(baseline_text: str, *, source: str) -> Counter[str]:
    """The recorded fingerprints of a baseline, with how often each was recorded."""
    try:
        document = json_loads(baseline_text)
    except json.JSONDecodeError as error:
        raise InputError(
            f"{source}: not valid JSON (line {error.lineno}, column {error.colno}: {error.msg})"
        ) from None
    except RecursionError:
        raise InputError(f"{source}: not valid JSON (nested too deeply)") from None
    if not isinstance(document, dict):
        raise InputError(f"{source}: a baseline must be a JSON object")
    version = document.get("version")
    if version != BASELINE_VERSION or isinstance(version, bool):
        raise InputError(
            f"{source}: version: expected {BASELINE_VERSION}, got {json.dumps(version)}"
        )
    entries = document.get("violations")
    if not isinstance(entries, list):
        raise InputError(f"{source}: violations: expected a list")
    recorded: Counter[str] = Counter()
    for i, entry in enumerate(entries):
        if not isinstance(entry, dict):
            raise InputError(f"{source}: violations[{i}]: expected an object")
        fingerprint = entry.get("fingerprint")
        if not isinstance(fingerprint, str) or not fingerprint:
            raise InputError(f"{source}: violations[{i}].fingerprint: expected a non-empty string")
        for key in _TEXT_FIELDS:
            if key in entry and not isinstance(entry[key], str):
                raise InputError(f"{source}: violations[{i}].{key}: expected a string")
        recorded[fingerprint] += 1
    return recorded


def violation_fingerprint(violation: Violation) -> str:
    """The violation's engine fingerprint, or (if the engine left it empty) one derived from
    the rule id, path and message, so that a baseline never records an empty fingerprint."""
    if violation.fingerprint:
        return violation.fingerprint
    material = "\0".join((violation.rule_id, violation.path, violation.message))
    return "sha256:" + hashlib.sha256(material.encode("utf-8")).hexdigest()


def _drop_recorded(
    violations: Iterable[Violation], recorded: Counter[str]
) -> tuple[tuple[Violation, ...], int]:
    budget = Counter(recorded)
    kept: list[Violation] = []
    suppressed = 0
    for violation in violations:
        fingerprint = violation_fingerprint(violation)
        if budget[fingerprint] > 0:
            budget[fingerprint] -= 1
            suppressed += 1
        else:
            kept.append(violation)
    return tuple(kept), suppressed


def _read_baseline_file(source: BaselineFile) -> tuple[str, str]:
    """(the baseline's text, its root-relative path or the path as given)."""
    from filid.store.files import read_regular_file

    if source.confine_to is None:
        try:
            data = read_regular_file(source.path, BASELINE_MAX_BYTES)
        except OSError as error:
            raise FilidError(f"{source.path}: cannot read baseline ({error.strerror})") from None
        return data.decode("utf-8", "replace"), source.path
    root = source.confine_to
    shown = source.shown if source.shown is not None else source.path
    candidate = Path(source.path)
    if not candidate.is_absolute():
        candidate = root / candidate
    try:
        real = Path(os.path.realpath(candidate))
        if not real.is_relative_to(root):
            raise InputError(f"baseline: {shown}: outside the project root {root}")
        if not real.is_file():
            raise InputError(f"baseline: {shown}: no such file")
    except (OSError, ValueError) as error:
        reason = error.strerror if isinstance(error, OSError) else str(error)
        raise InputError(f"baseline: {shown}: cannot open ({reason})") from None
    try:
        text = read_regular_file(real, BASELINE_MAX_BYTES).decode("utf-8", "replace")
    except OSError as error:
        raise InputError(f"baseline: {shown}: cannot read ({error.strerror or error})") from None
    return text, real.relative_to(root).as_posix()


def apply_baseline_file(
    result: ValidationResult, source: BaselineFile
) -> tuple[ValidationResult, BaselineCounts]:
    """``result`` with only the violations the baseline at ``source`` does not record, and
    what it did (the MCP answer's ``baseline`` counts)."""
    text, where = _read_baseline_file(source)
    shown = source.shown if source.shown is not None else source.path
    label = source.path if source.confine_to is None else f"baseline {shown}"
    filtered = apply_baseline(result, text, source=label)
    suppressed = filtered.baseline_suppressed - result.baseline_suppressed
    applied = set(result.rules_applied)
    entries = json.loads(text)["violations"]
    # Entries of rules not evaluated in this call are neither suppressed nor fixed.
    relevant = sum(1 for e in entries if e.get("ruleId") in applied or "ruleId" not in e)
    counts = BaselineCounts(
        path=where,
        new=len(filtered.violations),
        suppressed=suppressed,
        fixed=max(0, relevant - suppressed),
    )
    return filtered, counts
