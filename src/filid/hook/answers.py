"""The answers of ``filid hook pre-tool-use|user-prompt-submit|session-start``.

Each answer is the JSON object Claude Code's hook protocol reads from a command hook's
stdout (exit code 0):

- **PreToolUse, the document gate.** A ``Write``, ``Edit`` or ``MultiEdit`` whose result
  would break a document contract is denied: ``{"hookSpecificOutput": {"hookEventName":
  "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": …}}`` with each
  rule's message. A document contract is a finding, located in the edited file, of a rule in
  the ``documentation`` category (``intent-document-contract``: an ``INTENT.md`` over 50
  lines or without its three boundary headings; ``detail-document-contract``: a ``DETAIL.md``
  without its sections; any documentation rule added later applies the same way) or of
  ``organ-no-claudemd`` (an intent document in an organ). That a module lacks its other
  document (a new folder's ``INTENT.md`` written before its ``DETAIL.md``) is not the edited
  document's fault and never denies it; ``filid check`` reports it. The file is judged
  **as it would be after the call** (``Write`` content; ``Edit``/``MultiEdit`` replacements
  applied in memory). Only findings the edit introduces deny it: a document that already
  broke a contract before the edit can still be edited (the answer then says so in
  ``additionalContext``), as a baseline would.
  A document's edit is judged by the document rules on the folder that holds it
  (:mod:`filid.hook.document_gate`): fast whatever the project's size.
- **PreToolUse, the structure guard.** A source file's edit that adds an import (compared
  with the file now, both parsed) is judged on the whole project as it would be after it
  (:mod:`filid.hook.after_edit`, from the parse cache): every finding it adds (a
  boundary-crossing import, a cycle, an organ imported from outside…) is a warning in
  ``additionalContext``; the call goes ahead. An edit that adds no import cannot add such a
  finding and costs one parse.
- **PreToolUse, context.** For ``Read``, ``Write``, ``Edit`` and ``MultiEdit`` of a file in
  the project, ``additionalContext`` carries the intent documents above the file
  (:mod:`filid.hook.context`), root first, each at most once per session.
- **UserPromptSubmit** and **SessionStart**: ``additionalContext`` with the project's FCA
  rules in short (and, at session start, what ``filid check`` reports, counted per rule).

filid never answers ``"allow"``: in Claude Code an ``allow`` skips the user's permission
prompt, and a linter must not approve edits on the user's behalf. With nothing to say (a file
outside the payload's ``cwd``, a project that declares no FCA structure, an edit filid
cannot apply, a broken configuration, malformed input) the answer is ``{}``: no opinion, the
call proceeds through Claude Code's own permissions. A project is judged only when it
declares FCA: it has a ``.filid/`` folder, or an ``INTENT.md``/``DETAIL.md`` lies in the
edited file's folder or above it (or is the edited file).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from filid.hook.payload import HookRequest, content_after
from filid.model.errors import FilidError
from filid.model.violations import Severity, Violation

__all__ = ["pre_tool_use", "session_start", "user_prompt_submit"]

EDIT_TOOLS = frozenset({"Write", "Edit", "MultiEdit"})
CONTEXT_TOOLS = EDIT_TOOLS | {"Read"}
# Claude Code keeps hook output to about 10,000 characters; stay below it.
MAX_CONTEXT_CHARS = 9000
MAX_LISTED = 8
MAX_EDITED_BYTES = 1024 * 1024
NOTHING: dict[str, Any] = {}

_RULES_IN_SHORT = (
    "This project follows the Fractal Context Architecture (checked by filid): a folder with "
    "an INTENT.md (or DETAIL.md, or an index.* entry point) is a module; import another "
    "module only through its index.*; organ folders (utils/, hooks/, components/, lib/, "
    "types/…) serve only the module that owns them and hold no INTENT.md; an INTENT.md has at "
    "most 50 lines and the headings '## Always do', '## Ask first', '## Never do'; modules "
    "never import each other in a cycle. `filid check` lists what breaks these rules."
)


def _output(event: str, **fields: str) -> dict[str, Any]:
    return {"hookSpecificOutput": {"hookEventName": event, **fields}}


def _project_root(request: HookRequest) -> Path | None:
    """The payload's ``cwd`` when it is an existing absolute folder."""
    if not request.cwd or not os.path.isabs(request.cwd):
        return None
    root = Path(os.path.realpath(request.cwd))
    return root if root.is_dir() else None


def _relative(root: Path, file_path: str | None) -> str | None:
    """``file_path`` relative to ``root`` (POSIX), or ``None`` when it lies outside."""
    if not file_path:
        return None
    absolute = file_path if os.path.isabs(file_path) else os.path.join(root, file_path)
    real = os.path.realpath(absolute)
    try:
        rel = Path(real).relative_to(root).as_posix()
    except ValueError:
        return None
    return None if rel in (".", "") or rel.startswith("../") else rel


def _declares_fca_for(root: Path, rel: str) -> bool:
    """A ``.filid/`` folder, or an ``INTENT.md``/``DETAIL.md`` at or above ``rel``."""
    if (root / ".filid").is_dir() or rel.rpartition("/")[2] in ("INTENT.md", "DETAIL.md"):
        return True
    parts = rel.split("/")[:-1]
    for depth in range(len(parts) + 1):
        folder = root.joinpath(*parts[:depth])
        if (folder / "INTENT.md").is_file() or (folder / "DETAIL.md").is_file():
            return True
    return False


def _config(root: Path) -> Any:
    from filid.config.load import load_config
    from filid.rules.registry import ALIASES, RULES_BY_ID

    return load_config(root, None, known_rule_ids=tuple(RULES_BY_ID), rule_aliases=ALIASES)


def _line(v: Violation) -> str:
    where = v.location.file + (f":{v.location.line}" if v.location.line else "")
    return f"{where}: {v.rule_id}: {v.message}"


def _listed(violations: Sequence[Violation]) -> list[str]:
    lines = [_line(v) for v in violations[:MAX_LISTED]]
    if len(violations) > MAX_LISTED:
        lines.append(f"… and {len(violations) - MAX_LISTED} more (run `filid check`)")
    return lines


def _clip(text: str) -> str:
    if len(text) <= MAX_CONTEXT_CHARS:
        return text
    return text[: MAX_CONTEXT_CHARS - 40].rstrip() + "\n… (cut: filid keeps hook output short)"


def pre_tool_use(request: HookRequest) -> dict[str, Any]:
    """The PreToolUse answer: deny a broken document contract, warn of new structure
    findings, and give the intent documents above the file as context."""
    from filid.hook.context import intent_chain

    if request.tool_name not in CONTEXT_TOOLS:
        return NOTHING
    root = _project_root(request)
    if root is None:
        return NOTHING
    rel = _relative(root, request.file_path)
    if rel is None or not _declares_fca_for(root, rel):
        return NOTHING
    contexts: list[str] = []
    if request.tool_name in EDIT_TOOLS:
        try:
            verdict = _judge_edit(root, rel, request)
        except FilidError:
            return NOTHING
        if verdict is not None:
            denied, note = verdict
            if denied:
                reason = (
                    f"filid: this {request.tool_name} would break the document contract of "
                    f"{rel}:\n" + "\n".join(_listed(denied))
                )
                return _output(
                    "PreToolUse", permissionDecision="deny", permissionDecisionReason=reason
                )
            if note:
                contexts.append(note)
    chain = intent_chain(root, rel, request.session_id)
    if chain:
        contexts.append(chain)
    if not contexts:
        return NOTHING
    return _output("PreToolUse", additionalContext=_clip("\n\n".join(contexts)))


def _current_text(path: Path) -> str | bool | None:
    """The file's text, ``None`` when it does not exist, ``False`` when it cannot be read."""
    from filid.store.files import UnsafePathError, read_regular_file

    if not os.path.lexists(path):
        return None
    try:
        return read_regular_file(path, MAX_EDITED_BYTES).decode("utf-8")
    except (UnsafePathError, OSError, UnicodeDecodeError):
        return False


def _judge_edit(root: Path, rel: str, request: HookRequest) -> tuple[list[Violation], str] | None:
    """(the document-contract findings the edit introduces, a note for the agent), or
    ``None`` when the edit cannot be judged (a file filid does not read, an edit that would
    fail)."""
    from filid.check.project import DOCUMENTS_READ
    from filid.scan.universe import is_source_file

    name = rel.rpartition("/")[2]
    if name not in DOCUMENTS_READ and not is_source_file(rel):
        return None
    current = _current_text(root / rel)
    if current is False:
        return None
    after = content_after(request, current if isinstance(current, str) else None)
    if after is None:
        return None
    config = _config(root)
    if name in DOCUMENTS_READ:
        from filid.hook.document_gate import judge_document

        judged = judge_document(root, config, rel, after)
        if judged is None:
            return None
        denied, still = judged
        note = ""
        if still and not denied:
            note = (
                f"filid: {rel} already breaks its document contract (not made worse by this "
                "edit, so not blocked):\n" + "\n".join(_listed(still))
            )
        return denied, note
    before = current if isinstance(current, str) else ""
    if not _adds_imports(rel, before, after):
        return None
    added = _structure_findings(root, config, rel, after)
    if not added:
        return None
    return [], (
        f"filid: this {request.tool_name} of {rel} would add {len(added)} structure "
        "finding(s):\n" + "\n".join(_listed(added))
    )


def _adds_imports(rel: str, before: str, after: str) -> bool:
    """Whether ``after`` imports something ``before`` does not (specifier, kind, names)."""
    from filid.parse.extract import parse_source

    def imports(text: str) -> set[tuple[object, ...]]:
        facts = parse_source(rel, text.encode("utf-8"), full=False)
        return {(i.specifier, i.kind, i.names, i.is_reexport) for i in facts.imports}

    return not imports(after) <= imports(before)


def _structure_findings(root: Path, config: Any, rel: str, after: str) -> list[Violation]:
    """The error and warning findings the project would have after ``rel`` holds ``after``
    and does not have now (by fingerprint)."""
    from filid.check.engine import evaluate
    from filid.check.project import load_project
    from filid.check.snapshot import reusable_resolutions
    from filid.hook.after_edit import project_after_edit
    from filid.scan.regime import list_project_universe

    # The universe `filid check` lists (same exclusions), so the stored resolutions match it.
    universe = list_project_universe(root, config)
    project = load_project(
        root,
        config=config,
        universe=universe,
        resolutions=reusable_resolutions(root, None, universe),
    )
    before = evaluate(project)
    result = evaluate(project_after_edit(project, rel, after))
    known = {v.fingerprint for v in before.violations}
    return [
        v
        for v in result.violations
        if v.fingerprint not in known and v.severity is not Severity.INFO
    ]


def user_prompt_submit(request: HookRequest) -> dict[str, Any]:
    """The UserPromptSubmit answer: the FCA rules in short, for a project that declares FCA."""
    root = _project_root(request)
    if root is None or not _declares_fca(root):
        return NOTHING
    return _output("UserPromptSubmit", additionalContext=_RULES_IN_SHORT)


def _declares_fca(root: Path) -> bool:
    """A cheap test (no listing): a ``.filid/`` folder or an ``INTENT.md`` at the root or one
    level below."""
    if (root / ".filid").is_dir() or (root / "INTENT.md").is_file():
        return True
    try:
        with os.scandir(root) as entries:
            return any(
                e.is_dir(follow_symlinks=False)
                and not e.name.startswith(".")
                and os.path.isfile(os.path.join(e.path, "INTENT.md"))
                for e in entries
            )
    except OSError:
        return False


def session_start(request: HookRequest) -> dict[str, Any]:
    """The SessionStart answer: the rules in short and what ``filid check`` reports now
    (from the result snapshot when nothing changed since the last check)."""
    from filid.check.workflow import CheckOptions, run_check
    from filid.report.rule_counts import count_by_rule

    root = _project_root(request)
    if root is None or not _declares_fca(root):
        return NOTHING
    try:
        # What `filid check` reports, without the refused-fix marks (they need a fix plan,
        # and the session start says only how many findings there are).
        result = run_check(CheckOptions(path=root, mark_fixes=False)).result
    except FilidError:
        return NOTHING
    counts = ", ".join(f"{result.count(s)} {s.value}" for s in Severity)
    per_rule = ", ".join(f"{rule} {n}" for rule, n in count_by_rule(result.violations))
    text = _RULES_IN_SHORT
    if result.violations:
        text += (
            f"\n\nfilid check now reports {len(result.violations)} finding(s) ({counts}); "
            f"per rule: {per_rule}."
        )
    else:
        text += "\n\nfilid check reports no findings now."
    return _output("SessionStart", additionalContext=_clip(text))
