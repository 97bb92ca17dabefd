"""The answers of ``filid hook pre-tool-use|user-prompt-submit|session-start``.

Each answer is the JSON object Claude Code's hook protocol reads from a command hook's
stdout (exit code 0):

- **PreToolUse, the document gate.** A ``Write``, ``Edit`` or ``MultiEdit`` whose result
  would break a document contract is denied: ``{"hookSpecificOutput": {"hookEventName":
  "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": …}}`` with each
  rule's message. A document contract is a finding, located in the edited file, of a rule in
  the ``documentation`` category (``intent-document-contract``: an ``INTENT.md`` over 50
  lines or without its three boundary headings; any documentation rule added later, such as
  a ``DETAIL.md`` contract, applies the same way) or of ``organ-no-claudemd`` (an intent
  document in an organ). The file is judged **as it would be after the call** (``Write``
  content; ``Edit``/``MultiEdit`` replacements applied in memory). Only findings the edit
  introduces deny it: a document that already broke a contract before the edit can still be
  edited (the answer then says so in ``additionalContext``), as a baseline would.
- **PreToolUse, the structure guard.** Every other finding the edit would add (a
  boundary-crossing import, a cycle, an organ imported from outside…) is a warning in
  ``additionalContext``; the call goes ahead.
- **PreToolUse, context.** For ``Read``, ``Write``, ``Edit`` and ``MultiEdit`` of a file in
  the project, ``additionalContext`` carries the intent documents (``INTENT.md``, or a
  ``CLAUDE.md`` with the three headings) of the file's owning module and of every module
  above it, root first, each at most once per session.
- **UserPromptSubmit** and **SessionStart**: ``additionalContext`` with the project's FCA
  rules in short (and, at session start, what ``filid check`` reports, counted per rule).

filid never answers ``"allow"``: in Claude Code an ``allow`` skips the user's permission
prompt, and a linter must not approve edits on the user's behalf. With nothing to say (a file
outside the payload's ``cwd``, a project that declares no FCA structure, an edit filid
cannot apply, a broken configuration, malformed input) the answer is ``{}``: no opinion, the
call proceeds through Claude Code's own permissions. A project is judged only when it
declares FCA: it has a ``.filid/`` folder or at least one ``INTENT.md``/``DETAIL.md``.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from filid.hook.payload import HookRequest, content_after
from filid.model.errors import FilidError
from filid.model.violations import Severity, Violation

__all__ = ["pre_tool_use", "session_start", "user_prompt_submit"]

EDIT_TOOLS = frozenset({"Write", "Edit", "MultiEdit"})
CONTEXT_TOOLS = EDIT_TOOLS | {"Read"}
# The documentation rules, plus the structure rule that is about where a document may live.
DOCUMENT_RULE_IDS = frozenset({"organ-no-claudemd"})
# Claude Code keeps hook output to about 10,000 characters; stay below it.
MAX_CONTEXT_CHARS = 9000
MAX_LISTED = 8
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


class _Loaded:
    """The project at ``root`` when it declares FCA structure, loaded from the caches."""

    def __init__(self, root: Path) -> None:
        from filid.config.load import load_config
        from filid.engine import load_project
        from filid.rules.registry import ALIASES, RULES_BY_ID
        from filid.scan.universe import list_universe

        config = load_config(root, None, known_rule_ids=tuple(RULES_BY_ID), rule_aliases=ALIASES)
        universe = list_universe(
            root,
            config.structure.additional_excluded_directories,
            config.structure.generated_paths,
        )
        self.declared = (root / ".filid").is_dir() or any(
            f.rpartition("/")[2] in ("INTENT.md", "DETAIL.md") for f in universe.files
        )
        self.project = (
            load_project(root, config=config, universe=universe) if self.declared else None
        )


def _load(root: Path) -> _Loaded | None:
    try:
        return _Loaded(root)
    except FilidError:
        return None


def _is_document_rule(rule_id: str) -> bool:
    from filid.rules.base import RuleCategory
    from filid.rules.registry import RULES_BY_ID

    rule = RULES_BY_ID.get(rule_id)
    return rule is not None and (
        rule.meta.category is RuleCategory.DOCUMENTATION or rule_id in DOCUMENT_RULE_IDS
    )


def _line(v: Violation) -> str:
    where = v.location.file + (f":{v.location.line}" if v.location.line else "")
    return f"{where}: {v.rule_id}: {v.message}"


def _listed(violations: Sequence[Violation]) -> list[str]:
    lines = [_line(v) for v in violations[:MAX_LISTED]]
    if len(violations) > MAX_LISTED:
        lines.append(f"… and {len(violations) - MAX_LISTED} more (run `filid check`)")
    return lines


def pre_tool_use(request: HookRequest) -> dict[str, Any]:
    """The PreToolUse answer: deny a broken document contract, warn of new structure
    findings, and give the owning modules' intent documents as context."""
    if request.tool_name not in CONTEXT_TOOLS:
        return NOTHING
    root = _project_root(request)
    if root is None:
        return NOTHING
    rel = _relative(root, request.file_path)
    if rel is None:
        return NOTHING
    loaded = _load(root)
    if loaded is None or loaded.project is None:
        return NOTHING
    project = loaded.project
    contexts: list[str] = []
    if request.tool_name in EDIT_TOOLS:
        verdict = _judge_edit(project, root, rel, request)
        if verdict is not None:
            denied, warnings = verdict
            if denied:
                reason = (
                    f"filid: this {request.tool_name} would break the document contract of "
                    f"{rel}:\n" + "\n".join(_listed(denied))
                )
                return _output(
                    "PreToolUse", permissionDecision="deny", permissionDecisionReason=reason
                )
            if warnings:
                contexts.append(warnings)
    chain = _intent_chain(project, rel, request.session_id)
    if chain:
        contexts.append(chain)
    if not contexts:
        return NOTHING
    return _output("PreToolUse", additionalContext=_clip("\n\n".join(contexts)))


def _clip(text: str) -> str:
    if len(text) <= MAX_CONTEXT_CHARS:
        return text
    return text[: MAX_CONTEXT_CHARS - 40].rstrip() + "\n… (cut: filid keeps hook output short)"


def _judge_edit(
    project: Any, root: Path, rel: str, request: HookRequest
) -> tuple[list[Violation], str] | None:
    """(the document-contract findings the edit introduces, a warning text for the other new
    findings), or ``None`` when the edit cannot be judged."""
    from filid.engine import evaluate
    from filid.hook.after_edit import is_judged_file, project_after_edit
    from filid.store.files import UnsafePathError, read_regular_file

    if not is_judged_file(rel):
        return None
    target = root / rel
    current: str | None = None
    if os.path.lexists(target):
        try:
            current = read_regular_file(target, 1024 * 1024).decode("utf-8")
        except (UnsafePathError, OSError, UnicodeDecodeError):
            return None
    after_text = content_after(request, current)
    if after_text is None:
        return None
    before = evaluate(project)
    after = evaluate(project_after_edit(project, rel, after_text))
    known = {v.fingerprint for v in before.violations}
    added = [
        v
        for v in after.violations
        if v.fingerprint not in known and v.severity is not Severity.INFO
    ]
    denied = [v for v in added if _is_document_rule(v.rule_id) and v.location.file == rel]
    others = [v for v in added if v not in denied]
    still = [
        v
        for v in after.violations
        if v.fingerprint in known and _is_document_rule(v.rule_id) and v.location.file == rel
    ]
    parts: list[str] = []
    if others:
        parts.append(
            f"filid: this {request.tool_name} of {rel} would add "
            f"{len(others)} structure finding(s):\n" + "\n".join(_listed(others))
        )
    if still and not denied:
        parts.append(
            f"filid: {rel} already breaks its document contract (not made worse by this "
            "edit, so not blocked):\n" + "\n".join(_listed(still))
        )
    return denied, "\n\n".join(parts)


def _intent_chain(project: Any, rel: str, session_id: str) -> str:
    """The intent documents of ``rel``'s owning module and its ancestors (root first) that
    this session has not been given yet, as one text."""
    tree = project.tree
    try:
        owner = tree.owner_of(rel) if rel in tree.nodes else tree.owner_of(_parent(rel))
    except KeyError:
        return ""
    chain: list[str] = []
    node = owner
    while node is not None:
        if node.intent_doc is not None:
            chain.append(node.file_path(node.intent_doc))
        node = tree.nodes.get(node.parent) if node.parent is not None else None
    chain.reverse()
    if not chain:
        return ""
    delivered = _Delivered(project.root, session_id)
    blocks: list[str] = []
    for doc in chain:
        text = _read_text(project.root / doc)
        if text is None or doc == rel:
            continue
        digest = hashlib.sha256(f"{doc}\0{text}".encode()).hexdigest()[:24]
        if delivered.has(digest):
            continue
        delivered.add(digest)
        blocks.append(f"--- {doc} ---\n{text.rstrip()}")
    delivered.save()
    if not blocks:
        return ""
    return (
        f"filid: the boundaries of the modules that own {rel} (outermost first):\n\n"
        + "\n\n".join(blocks)
    )


def _parent(rel: str) -> str:
    return rel.rpartition("/")[0] or "."


def _read_text(path: Path) -> str | None:
    from filid.store.files import UnsafePathError, read_regular_file

    try:
        return read_regular_file(path, 64 * 1024).decode("utf-8")
    except (UnsafePathError, OSError, UnicodeDecodeError):
        return None


class _Delivered:
    """The intent documents (by path and content digest) already given to one session, kept
    in the per-user cache folder (a session without an id, or no cache folder, repeats)."""

    def __init__(self, root: Path, session_id: str) -> None:
        from filid.store.location import project_cache_dir

        self.path: Path | None = None
        self.seen: set[str] = set()
        self.changed = False
        if not session_id:
            return
        directory = project_cache_dir(root)
        if directory is None:
            return
        name = hashlib.sha256(session_id.encode("utf-8")).hexdigest()[:32]
        self.path = directory / f"hook-session-{name}.txt"
        text = _read_text(self.path)
        if text is not None:
            self.seen = set(text.split())

    def has(self, digest: str) -> bool:
        return digest in self.seen

    def add(self, digest: str) -> None:
        self.seen.add(digest)
        self.changed = True

    def save(self) -> None:
        if self.path is None or not self.changed:
            return
        from filid.store.files import write_file_atomically

        data = "".join(f"{d}\n" for d in sorted(self.seen)).encode("ascii")
        with contextlib.suppress(FilidError, OSError):
            write_file_atomically(self.path, data, confine=self.path.parent)


def _per_rule(violations: Iterable[Violation]) -> str:
    from filid.report.rule_counts import count_by_rule

    counts = count_by_rule(violations)
    return ", ".join(f"{rule} {count}" for rule, count in counts)


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
    """The SessionStart answer: the rules in short and what ``filid check`` reports now."""
    root = _project_root(request)
    if root is None:
        return NOTHING
    loaded = _load(root)
    if loaded is None or loaded.project is None:
        return NOTHING
    from filid.engine import evaluate

    result = evaluate(loaded.project)
    counts = ", ".join(f"{result.count(s)} {s.value}" for s in Severity)
    text = _RULES_IN_SHORT
    if result.violations:
        text += (
            f"\n\nfilid check now reports {len(result.violations)} finding(s) ({counts}); "
            f"per rule: {_per_rule(result.violations)}."
        )
    else:
        text += "\n\nfilid check reports no findings now."
    return _output("SessionStart", additionalContext=_clip(text))
