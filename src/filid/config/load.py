"""Find, read and validate ``.filid/config.json`` into the typed, immutable ``Config``.

Which file: ``--config FILE`` wins (it must exist); else ``<root>/.filid/config.json`` if it
exists; else the defaults (``Config()``, ``path`` None) — and then pydantic is never imported.

Every problem in a file is reported at once, in one ``ConfigError`` whose one-line message
names the file (root-relative when inside the root) and each key path::

    .filid/config.json: rules.max-depth.sevrity: unknown key (did you mean 'severity'?);
    structure.maxDepth: expected an integer ≥ 1 (got 'x')

Accepted besides the keys in CONTRACT.md "Config": ``$schema`` (top level) and ``$comment``
(top level, ``structure``, each rule) as documentation; the upstream filid plugin's
``language`` and ``adapters`` (read and ignored: this filid has one adapter, ECMAScript),
``generatedPaths`` (generated files, left out of the universe) and ``entryPointOverrides``
(extra entry files) — top level or in ``structure`` — and
``additionalAllowedPeers[].adapterId`` (ignored). Rule entries are
objects only — upstream has no ``"rule-id": "off"`` shorthand and a file here should stay
readable by upstream in the same repository (see ``upstream.py``).

Rule ids: an id this filid implements is used; an alias (``organ-no-intentmd``) is read as
its target (``organ-no-claudemd``; giving both is an error); an id only the upstream plugin
defines becomes a note in ``Config.notes`` and is ignored; any other id is an error with a
did-you-mean.

Version 1.0 files (upstream's first format) are migrated in memory, never rewritten:

- ``scan.maxDepth`` → ``structure.maxDepth``
- ``additional-organ-names`` → ``structure.additionalOrganNames``
- ``additional-allowed`` (basenames or ``{basename, paths}``) → ``structure.additionalAllowedPeers``
- ``additional-entry-points`` → ``structure.entryPointOverrides``
- ``additional-route-patterns``, ``injected-rules`` → ignored (upstream dropped them in 2.0)
- ``rules`` are unchanged (upstream 2.0 dropped ``naming-convention`` and
  ``index-barrel-pattern``; this filid implements both, so their settings are kept: they run
  only where the file enables them).

Read as the upstream plugin 0.10.12 reads them, each with a one-line note instead of an error
(a key some upstream version defines never stops a run): a 1.0 key given with its 2.0 place
in a "1.0" file (the 1.0 key is used), a 1.0 key in a "2.0" file (ignored, the note names the
2.0 key), and ``rules.zero-peer-file.additional-allowed`` — the 1.0 ``additional-allowed`` list
written under the rule, a shape found in real repositories — which is honoured as
``structure.additionalAllowedPeers``. A key no version defines stays an error with a
did-you-mean. The result always has ``version`` "2.0" and, when keys moved, a note.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from filid.config.model import DEFAULT_MAX_DEPTH, AllowedPeer, Config, RuleConfig, StructureConfig
from filid.config.upstream import UPSTREAM_RULE_IDS, V1_KEY_TARGETS
from filid.model.errors import ConfigError
from filid.model.jsontext import loads as json_loads
from filid.model.violations import Severity
from filid.store.files import UnsafePathError, read_regular_file

if TYPE_CHECKING:
    from filid.config.schema import AllowedPeerModel, ConfigModel, KeyPath, Problem

__all__ = ["CONFIG_RELATIVE_PATH", "find_config_file", "load_config"]

CONFIG_RELATIVE_PATH = Path(".filid") / "config.json"


def find_config_file(root: Path, explicit: Path | None) -> Path | None:
    """The file ``load_config`` would read, or ``None`` for the defaults.

    Raises ``ConfigError`` when ``explicit`` is given but does not exist.
    """
    if explicit is not None:
        if not explicit.exists():
            raise ConfigError(f"{_display(explicit, root)}: config file not found")
        return explicit
    candidate = root / CONFIG_RELATIVE_PATH
    return candidate if candidate.exists() else None


def load_config(
    root: Path,
    explicit: Path | None,
    *,
    known_rule_ids: Collection[str],
    rule_aliases: Mapping[str, str],
) -> Config:
    """Load the config for ``root`` (see the module docstring for every rule)."""
    path = find_config_file(root, explicit)
    if path is None:
        return Config()
    shown = _display(path, root)
    data = _read_json(path, shown)
    if not isinstance(data, dict):
        raise ConfigError(f"{shown}: expected a JSON object at the top level")

    # Imported here, not at module level: a run without a config file never pays for pydantic.
    from filid.config.schema import validate_document

    model, problems = validate_document(data)
    targets, notes, id_problems = _resolve_rule_ids(data.get("rules"), known_rule_ids, rule_aliases)
    problems.extend(id_problems)
    if problems or model is None:
        raise ConfigError(f"{shown}: " + "; ".join(_render(problems)))
    notes.extend(_version_notes(data))
    return _to_config(model, path, targets, notes)


# ---- reading ----------------------------------------------------------------------------------


def _display(path: Path, root: Path) -> str:
    """Root-relative POSIX when ``path`` lies inside ``root``, else the path as given."""
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except (ValueError, OSError):
        return str(path)


MAX_CONFIG_BYTES = 4 * 1024 * 1024


def _read_json(path: Path, shown: str) -> Any:
    try:
        raw = read_regular_file(path, MAX_CONFIG_BYTES)
    except FileNotFoundError:
        raise ConfigError(f"{shown}: config file not found") from None
    except UnsafePathError as error:
        # a symbolic link (it could point outside the project) or a FIFO, device, huge file
        raise ConfigError(f"{shown}: cannot read: {str(error).rpartition(': ')[2]}") from None
    except OSError as error:
        raise ConfigError(f"{shown}: cannot read: {error.strerror or error}") from None
    try:
        # utf-8-sig: editors on Windows like to start the file with a byte-order mark.
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ConfigError(f"{shown}: not UTF-8 text (byte {error.start})") from None
    try:
        return json_loads(text)
    except json.JSONDecodeError as error:
        raise ConfigError(
            f"{shown}: invalid JSON at line {error.lineno} column {error.colno}: {error.msg}"
        ) from None
    except RecursionError:
        raise ConfigError(f"{shown}: invalid JSON: nested too deeply") from None


# ---- checks beyond the shape ------------------------------------------------------------------


def _version_notes(data: Mapping[str, Any]) -> list[str]:
    """Keys of the other version: read the way the upstream plugin reads them, with a note.

    Upstream migrates only a "1.0" file and drops a version 1.0 key from a "2.0" file with a
    warning; in a "1.0" file the version 1.0 key is what it reads.
    """
    version = data.get("version", "2.0")
    structure = data.get("structure")
    notes: list[str] = []
    for key, target in V1_KEY_TARGETS.items():
        if key not in data:
            continue
        if version == "2.0":
            where = f"write '{target}' instead" if target else "remove it"
            notes.append(f'{key}: version 1.0 key in a "2.0" file: ignored; {where}')
        elif version == "1.0" and target and _has_target(data, structure, target):
            notes.append(f"{key}: also given as '{target}': the version 1.0 key is used")
    if "injected-rules" in data:
        notes.append("injected-rules: the upstream plugin's rule-document list; ignored")
    return notes


def _has_target(data: Mapping[str, Any], structure: Any, target: str) -> bool:
    section, _, key = target.partition(".")
    if not key:
        return section in data or (isinstance(structure, dict) and section in structure)
    return isinstance(structure, dict) and key in structure


def _resolve_rule_ids(
    rules: Any, known: Collection[str], aliases: Mapping[str, str]
) -> tuple[dict[str, str], list[str], list[Problem]]:
    """Map each configured id to the implemented id it configures; notes and errors besides."""
    targets: dict[str, str] = {}
    notes: list[str] = []
    problems: list[Problem] = []
    if not isinstance(rules, dict):
        return targets, notes, problems  # the shape check reports a non-object
    claimed: dict[str, str] = {}
    for rule_id in rules:
        if rule_id in known:
            target = rule_id
        elif rule_id in aliases:
            target = aliases[rule_id]
        elif rule_id in UPSTREAM_RULE_IDS:
            notes.append(f"rules.{rule_id}: not implemented by this filid; ignored")
            continue
        else:
            problems.append((("rules", rule_id), _unknown_rule_message(rule_id, known, aliases)))
            continue
        if target in claimed:
            first, second = sorted((claimed[target], rule_id))
            problems.append(
                (("rules", second), f"configures the same rule as rules.{first}; keep one")
            )
            continue
        claimed[target] = rule_id
        targets[rule_id] = target
    return targets, notes, problems


def _unknown_rule_message(rule_id: str, known: Collection[str], aliases: Mapping[str, str]) -> str:
    import difflib

    close = difflib.get_close_matches(rule_id, [*known, *aliases], n=1, cutoff=0.6)
    if close:
        return f"unknown rule id (did you mean '{close[0]}'?)"
    return "unknown rule id (`filid rules list` shows the ids)"


def _render(problems: Sequence[Problem]) -> list[str]:
    """``path: message`` per problem, sorted by key path so the message is deterministic."""
    rendered = {
        (_format_key_path(loc), message): None for loc, message in problems
    }  # dict: dedupe, keep one per (path, message)
    return [f"{path}: {message}" if path else message for path, message in sorted(rendered)]


def _format_key_path(loc: KeyPath) -> str:
    """``("structure", "namingPatterns", 1)`` → ``structure.namingPatterns[1]``."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else part
    return out


# ---- building the Config ----------------------------------------------------------------------


def _to_config(
    model: ConfigModel, path: Path, targets: Mapping[str, str], notes: list[str]
) -> Config:
    rules = {
        targets[rule_id]: RuleConfig(
            enabled=entry.enabled,
            severity=Severity(entry.severity) if entry.severity is not None else None,
            exempt=tuple(entry.exempt),
            options=dict(entry.options),
        )
        for rule_id, entry in model.rules.items()
        if rule_id in targets
    }
    structure = model.structure
    max_depth = structure.max_depth if structure else None
    organ_names = list(structure.additional_organ_names) if structure else []
    peers = list(structure.additional_allowed_peers) if structure else []
    rule_peers: list[AllowedPeerModel] = []
    for rule_id, entry in sorted(model.rules.items()):
        if entry.additional_allowed is None:
            continue
        if targets.get(rule_id) == "zero-peer-file":
            rule_peers.extend(entry.additional_allowed)
        else:
            notes.append(f"rules.{rule_id}.additional-allowed: read only under zero-peer-file")
    moved: list[str] = []
    entry_overrides: list[str] = []
    generated: list[str] = list(model.generated_paths or ())
    for overrides in (model.entry_point_overrides, structure and structure.entry_point_overrides):
        for files in (overrides or {}).values():
            entry_overrides.extend(files)
    if structure is not None and structure.generated_paths:
        generated.extend(structure.generated_paths)
    if model.version == "1.0":
        if model.scan is not None and model.scan.max_depth is not None:
            max_depth = model.scan.max_depth
            moved.append("scan.maxDepth → structure.maxDepth")
        if model.additional_organ_names is not None:
            organ_names = list(model.additional_organ_names)
            moved.append("additional-organ-names → structure.additionalOrganNames")
        if model.additional_allowed is not None:
            peers = list(model.additional_allowed)
            moved.append("additional-allowed → structure.additionalAllowedPeers")
        if model.additional_entry_points is not None:
            entry_overrides = list(model.additional_entry_points)
            moved.append("additional-entry-points → structure.entryPointOverrides")
        if model.additional_route_patterns is not None:
            moved.append("additional-route-patterns (ignored)")
    if rule_peers:
        peers.extend(rule_peers)
        moved.append("rules.zero-peer-file.additional-allowed → structure.additionalAllowedPeers")
    if moved:
        notes.append("version 1.0 keys read as version 2.0: " + ", ".join(moved))
    structure_config = StructureConfig(
        additional_organ_names=tuple(organ_names),
        additional_excluded_directories=(
            tuple(structure.additional_excluded_directories) if structure else ()
        ),
        additional_allowed_peers=tuple(_peer(p) for p in peers),
        naming_patterns=tuple(structure.naming_patterns) if structure else (),
        pure_function_paths=tuple(structure.pure_function_paths) if structure else (),
        infer_pure_functions=structure.infer_pure_functions if structure else False,
        generated_paths=tuple(dict.fromkeys(generated)),
        entry_point_overrides=tuple(dict.fromkeys(entry_overrides)),
        max_depth=max_depth if max_depth is not None else DEFAULT_MAX_DEPTH,
    )
    return Config(
        rules=dict(sorted(rules.items())),
        structure=structure_config,
        version="2.0",
        path=path,
        notes=tuple(sorted(notes)),
    )


def _peer(model: AllowedPeerModel) -> AllowedPeer:
    return AllowedPeer(basename=model.basename, paths=tuple(model.paths))
