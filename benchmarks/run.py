"""filid's benchmark harness: filid against the parse floor and the usual import-graph tools.

Usage::

    python benchmarks/run.py --sizes 1000,10000,50000 [--layouts monorepo,barrels,deep-empty]
                             [--repo PATH ...] [--runs 5]

For each size and layout a synthetic tree is generated (``generate.py``, cached by layout,
size and seed under ``benchmarks/out/``); each ``--repo`` is measured as it is. Every tool
run is a fresh subprocess, timed by wall clock, its peak memory taken from ``wait4`` (the
largest process) and from sampling the resident set of the whole process tree in ``/proc``
(helpers and worker pools), whichever is larger. The Markdown tables go to stdout, the raw
numbers to ``benchmarks/out/results-<size>.json`` (``results-<layout>-<size>.json`` for the
other layouts, ``results-repo-<name>.json`` for a repository).

Only the standard library is used; the peers come from npm with pinned versions.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import json
import math
import os
import platform
import re
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO_VENV = HERE.parent / ".venv"  # the virtual environment of the README's first command
sys.path.insert(0, str(HERE))

from parse_floor import source_files  # noqa: E402  (sibling script, not a package)

OUT = HERE / "out"
LAYOUTS = ("monorepo", "barrels", "deep-empty")  # generate.py --layout
NODE_DIR = OUT / "node"
PEER_PINS = {
    "dpdm": "4.3.0",
    # 18.x needs node 22; 17.4.x is the newest line that runs on node 20.
    "dependency-cruiser": "17.4.3",
    "madge": "8.0.0",
    # dpdm and dependency-cruiser use the TypeScript compiler API; 7.x (native) has none.
    "typescript": "5.9.3",
}
TOOLS = (
    "filid-cold",
    "filid-warm",
    "filid-one-file",
    "filid-one-file-imports",
    "filid-staged-one-file",
    "filid-staged-one-file-imports",
    "parse-floor",
    "dpdm",
    "depcruise",
    "madge",
)
TOOL_LABELS = {
    "filid-cold": "filid check, cold (--no-cache)",
    "filid-warm": "filid check, warm (cache primed)",
    "filid-one-file": "filid check, one file (pre-commit, warm)",
    "filid-one-file-imports": "filid check, one file, imports edited (pre-commit, warm)",
    "filid-staged-one-file": "filid check --staged, one file (pre-commit hook, warm)",
    "filid-staged-one-file-imports": "filid check --staged, one file, imports edited (hook, warm)",
    "parse-floor": "parse floor (tree-sitter, 1 process)",
    "dpdm": "dpdm (cycles, -T)",
    "depcruise": "dependency-cruiser (no-circular)",
    "madge": "madge --circular",
}
SOURCE_GLOBS = ("**/*.ts", "**/*.tsx", "**/*.mts", "**/*.cts")
EXCLUDE_RE = r"(^|/)(node_modules|dist|build|coverage|out)/|(^|/)[.]|[.]d[.][cm]?ts$"
ONE_FILE_TOOLS = (
    "filid-one-file",
    "filid-one-file-imports",
    "filid-staged-one-file",
    "filid-staged-one-file-imports",
)
# A name a file exports (for the import the imports-edited row adds).
EXPORTED_NAME_RE = re.compile(
    r"^export\s+(?:declare\s+)?(?:async\s+)?(?:function\*?|const|let|var|class)\s+([A-Za-z_$][\w$]*)",
    re.MULTILINE,
)


# --------------------------------------------------------------------------- measuring
@dataclass(frozen=True, slots=True)
class Sample:
    """One finished (or killed) subprocess run."""

    seconds: float
    peak_mb: float
    exit_code: int
    timed_out: bool
    stdout: str
    stderr: str


def _children_map() -> dict[int, list[int]]:
    """ppid → pids for every process visible in /proc."""
    kids: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as fh:
                stat = fh.read()
        except OSError:
            continue
        fields = stat[stat.rfind(b")") + 2 :].split()
        kids.setdefault(int(fields[1]), []).append(int(entry.name))
    return kids


def _tree_rss_bytes(root_pid: int, page: int) -> int:
    """Resident bytes of ``root_pid`` and all its descendants right now."""
    kids = _children_map()
    total = 0
    todo = [root_pid]
    while todo:
        pid = todo.pop()
        try:
            with open(f"/proc/{pid}/statm", "rb") as fh:
                total += int(fh.read().split()[1]) * page
        except (OSError, IndexError, ValueError):
            pass
        todo.extend(kids.get(pid, ()))
    return total


def measure(
    cmd: Sequence[str], cwd: Path, timeout: float, env: dict[str, str] | None = None
) -> Sample:
    """Run ``cmd`` once in a new session; wall time, peak memory, exit code and output."""
    page = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
    can_sample = Path("/proc/self/statm").exists()
    inherited_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        try:
            proc = subprocess.Popen(
                list(cmd),
                cwd=cwd,
                stdout=out,
                stderr=err,
                stdin=subprocess.DEVNULL,
                env={**os.environ, **(env or {})},
                start_new_session=True,  # its own process group, so a timeout kills it whole
            )
        except OSError as error:
            return Sample(0.0, 0.0, 127, False, "", str(error))
        result: dict[str, object] = {}

        def reap() -> None:
            _, status, usage = os.wait4(proc.pid, 0)
            result["end"] = time.perf_counter()
            result["status"] = status
            result["maxrss_kb"] = usage.ru_maxrss

        waiter = threading.Thread(target=reap, daemon=True)
        waiter.start()
        tree_peak = 0
        timed_out = False
        deadline = start + timeout
        while waiter.is_alive():
            if can_sample:
                tree_peak = max(tree_peak, _tree_rss_bytes(proc.pid, page))
            waiter.join(0.05)
            if waiter.is_alive() and time.perf_counter() > deadline:
                timed_out = True
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)  # the group this run started
                waiter.join()
        status = int(str(result["status"]))
        proc.returncode = os.waitstatus_to_exitcode(status)
        seconds = float(str(result["end"])) - start
        # Linux keeps the maximum resident set across fork and exec, so a child's wait4 figure
        # is never below this harness's own peak: only a larger one is the child's own.
        maxrss_kb = int(str(result["maxrss_kb"]))
        if maxrss_kb <= inherited_kb:
            maxrss_kb = 0
        peak_mb = max(maxrss_kb * 1024, tree_peak) / (1024 * 1024)
        out.seek(0)
        err.seek(0)
        return Sample(
            seconds=seconds,
            peak_mb=peak_mb,
            exit_code=proc.returncode,
            timed_out=timed_out,
            stdout=out.read().decode("utf-8", "replace"),
            stderr=err.read().decode("utf-8", "replace"),
        )


# --------------------------------------------------------------------------- tools
@dataclass(frozen=True, slots=True)
class Target:
    """A tree to measure: a generated size or a given repository."""

    key: str  # "1000", "<layout>-1000" or "repo-<name>"
    root: Path
    source_files: int
    one_file: str  # root-relative file for the pre-commit style run
    tsconfig: Path | None
    layout: str | None = None  # generated trees only: the generator's --layout


@dataclass(frozen=True, slots=True)
class ToolPlan:
    """How to run one tool on one target, and how to tell a good run from a failed one."""

    name: str
    cmd: list[str]
    env: dict[str, str]
    ok: Callable[[Sample], bool]
    note: Callable[[Sample], str]
    prime: bool = False  # one unmeasured run first (warm cache)
    # Edited before every measured run, restored afterwards: a pre-commit run always follows a
    # change, so the one-file rows must not be answered from an unchanged tree's result
    # snapshot. ``edit(original, run_number)`` gives the file's bytes for that run.
    edit_file: str | None = None
    edit: Callable[[bytes, int], bytes] | None = None
    # ``git add`` the edited file before each run (and the restored one afterwards): the
    # staged rows check the index, as the pre-commit hook does.
    stage: bool = False


@dataclass
class ToolResult:
    """What a tool did on one target over all its measured runs."""

    tool: str
    label: str
    status: str  # ok, timeout, error, not available, skipped
    seconds: list[float] = field(default_factory=list)
    peak_mb: list[float] = field(default_factory=list)
    exit_codes: list[int] = field(default_factory=list)
    median_s: float | None = None
    min_s: float | None = None
    peak_mb_max: float | None = None
    note: str = ""


def _first(pattern: str, text: str) -> str:
    match = re.search(pattern, text, re.MULTILINE)
    return match.group(1) if match else "?"


def _filid_note(sample: Sample) -> str:
    try:
        report = json.loads(sample.stdout)
    except ValueError:
        return ""
    found: list[object] = []

    def walk(node: object) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("violations"), list):
                found.extend(node["violations"])
                return
            for value in node.values():
                walk(value)

    walk(report)
    cycles = sum(
        1
        for v in found
        if isinstance(v, dict) and v.get("ruleId", v.get("rule")) == "circular-dependency"
    )
    return f"{len(found)} violations, {cycles} cycles"


def _tail(sample: Sample) -> str:
    text = (sample.stderr.strip() or sample.stdout.strip()).splitlines()
    return text[-1][:160] if text else f"exit {sample.exit_code}"


def filid_command(filid: str | None) -> list[str] | None:
    """The filid executable to run, or None when the CLI is not installed/usable yet."""
    if filid is None:
        return None
    try:
        probe = subprocess.run(
            [filid, "check", "--help"], capture_output=True, text=True, timeout=60
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return [filid] if probe.returncode == 0 else None


def plans(
    target: Target, filid: list[str] | None, python: str, cfg_dir: Path
) -> dict[str, ToolPlan | None]:
    """The command for every tool on ``target``; None where the tool is not available."""
    bin_dir = NODE_DIR / "node_modules" / ".bin"
    root = str(target.root)
    out: dict[str, ToolPlan | None] = {}
    filid_ok = lambda s: s.exit_code in (0, 1)  # noqa: E731
    if filid is None:
        for name in TOOLS:
            if name.startswith("filid-"):
                out[name] = None
    else:
        full = [*filid, "check", ".", "--format", "json", "--fail-on", "never"]
        out["filid-cold"] = ToolPlan("filid-cold", [*full, "--no-cache"], {}, filid_ok, _filid_note)
        out["filid-warm"] = ToolPlan("filid-warm", full, {}, filid_ok, _filid_note, prime=True)
        one = [*filid, "check", ".", target.one_file, "--fail-on", "never"]
        out["filid-one-file"] = ToolPlan(
            "filid-one-file",
            one,
            {},
            filid_ok,
            lambda s: target.one_file + " (edited before each run)",
            prime=True,
            edit_file=target.one_file,
            edit=comment_edit,
        )
        lines = import_edits(target.root, target.one_file)
        specs = [line.rsplit(" from ", 1)[-1].rstrip(";") for line in lines]
        out["filid-one-file-imports"] = ToolPlan(
            "filid-one-file-imports",
            one,
            {},
            filid_ok,
            lambda s: f"{target.one_file} (imports from {' / '.join(specs)} in turn)",
            prime=True,
            edit_file=target.one_file,
            edit=lambda original, number: original + lines[number % 2].encode() + b"\n",
        )
        # What the pre-commit hook runs (.pre-commit-hooks.yaml): the file is staged first.
        hook = [*filid, "check", "--no-progress", "--staged", "--fail-on", "never", ".", "--"]
        out["filid-staged-one-file"] = ToolPlan(
            "filid-staged-one-file",
            [*hook, target.one_file],
            {},
            filid_ok,
            lambda s: target.one_file + " (edited and staged before each run)",
            prime=True,
            edit_file=target.one_file,
            edit=comment_edit,
            stage=True,
        )
        out["filid-staged-one-file-imports"] = ToolPlan(
            "filid-staged-one-file-imports",
            [*hook, target.one_file],
            {},
            filid_ok,
            lambda s: f"{target.one_file} (imports from {' / '.join(specs)} in turn, staged)",
            prime=True,
            edit_file=target.one_file,
            edit=lambda original, number: original + lines[number % 2].encode() + b"\n",
            stage=True,
        )
    out["parse-floor"] = ToolPlan(
        "parse-floor",
        [python, str(HERE / "parse_floor.py"), root],
        {},
        lambda s: s.exit_code == 0 and '"files"' in s.stdout,
        lambda s: _first(r'"files": (\d+)', s.stdout) + " files parsed",
    )
    dpdm = bin_dir / "dpdm"
    if dpdm.exists():
        cmd = [str(dpdm), "--no-warning", "--no-tree", "--circular", "-T"]
        cmd += ["--exit-code", "circular:0", "--exclude", "node_modules|[.]d[.][cm]?ts$"]
        if target.tsconfig is not None:
            cmd += ["--tsconfig", str(target.tsconfig)]
        out["dpdm"] = ToolPlan(
            "dpdm",
            [*cmd, *SOURCE_GLOBS],
            {},
            lambda s: s.exit_code == 0 and "Circular" in s.stdout + s.stderr,
            lambda s: str(len(re.findall(r"^\s+\d+\) ", s.stdout, re.MULTILINE))) + " cycles",
        )
    else:
        out["dpdm"] = None
    depcruise = bin_dir / "depcruise"
    if depcruise.exists():
        cfg = cfg_dir / f"depcruise-{target.key}.cjs"
        cfg.write_text(depcruise_config(target.tsconfig), encoding="utf-8")
        out["depcruise"] = ToolPlan(
            "depcruise",
            [str(depcruise), "--config", str(cfg), "--output-type", "err", "."],
            {},
            lambda s: "dependency violations" in s.stdout or "no dependency violations" in s.stdout,
            lambda s: (
                _first(r"x (\d+) dependency violations", s.stdout)
                + " cycle findings, "
                + _first(r"(\d+) modules", s.stdout)
                + " modules"
            ),
        )
    else:
        out["depcruise"] = None
    madge = bin_dir / "madge"
    if madge.exists():
        cmd = [str(madge), "--circular", "--extensions", "ts,tsx,mts,cts"]
        cmd += ["--no-spinner", "--no-color", "--exclude", "node_modules|[.]d[.][cm]?ts$"]
        if target.tsconfig is not None:
            cmd += ["--ts-config", str(target.tsconfig)]
        out["madge"] = ToolPlan(
            "madge",
            [*cmd, "."],
            # madge reads rc-style settings from the environment: skip `import type` edges,
            # as filid's cycle rule, dpdm -T and the dependency-cruiser rule do.
            {
                "madge_detectiveOptions__ts__skipTypeImports": "true",
                "madge_detectiveOptions__tsx__skipTypeImports": "true",
            },
            lambda s: s.exit_code in (0, 1) and "Processed" in s.stdout + s.stderr,
            lambda s: _first(r"Found (\d+) circular", s.stdout + s.stderr) + " cycles",
        )
    else:
        out["madge"] = None
    return out


def git_add(root: Path, file: str | None) -> None:
    """Stage ``file`` (the staged rows' edit, or its restored original)."""
    if file is not None:
        subprocess.run(["git", "add", "--", file], cwd=root, check=True)


def comment_edit(original: bytes, number: int) -> bytes:
    """The one-file row's edit: a new comment line, so only the file's text changes."""
    return original + f"\n// filid benchmark edit {number}\n".encode()


def import_edits(root: Path, file: str) -> tuple[str, str]:
    """Two import lines the imports-edited row appends to ``file`` in turn (even, odd runs).

    Each imports an exported name of another non-test source file — the nearest ones in sorted
    order, same folder first, barrels (``index.*``) last — under an alias no file uses, so the
    file's imports (its parsed facts and its graph edges) differ from the previous run's every
    time. A file exporting no name this finds is imported as a namespace.
    """
    files = source_files(root)
    folder = os.path.dirname(file)
    position = {f: i for i, f in enumerate(files)}
    at = position.get(file, 0)
    others = [f for f in files if f != file and ".test." not in f and ".spec." not in f] or [
        f for f in files if f != file
    ]
    if not others:
        raise SystemExit(f"{root}: {file} has no other source file to import")
    # An index.* last: importing one's own barrel would add a loop through it, not an edge.
    others.sort(
        key=lambda f: (
            os.path.dirname(f) != folder,
            os.path.basename(f).startswith("index."),
            abs(position[f] - at),
            f,
        )
    )
    lines = []
    for number, other in enumerate((others + others)[:2]):
        spec = os.path.relpath(os.path.join(root, other), os.path.join(root, folder))
        spec = re.sub(r"[.][cm]?tsx?$", "", spec.replace(os.sep, "/"))
        spec = spec if spec.startswith(".") else "./" + spec
        alias = f"filidBenchEdit{number}"
        text = (root / other).read_text(encoding="utf-8", errors="replace")
        match = EXPORTED_NAME_RE.search(text)
        if match:
            lines.append(f"import {{ {match.group(1)} as {alias} }} from '{spec}';")
        else:
            lines.append(f"import * as {alias} from '{spec}';")
    return lines[0], lines[1]


def depcruise_config(tsconfig: Path | None) -> str:
    """A minimal dependency-cruiser config: one no-circular rule, type-only edges ignored."""
    options: dict[str, object] = {
        "doNotFollow": {"path": "node_modules"},
        "exclude": {"path": EXCLUDE_RE},
        "tsPreCompilationDeps": True,
        "enhancedResolveOptions": {
            "extensions": [".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"],
            "exportsFields": ["exports"],
            "conditionNames": ["import", "require", "node", "default", "types"],
            "mainFields": ["module", "main", "types", "typings"],
        },
    }
    if tsconfig is not None:
        options["tsConfig"] = {"fileName": str(tsconfig)}
    config = {
        "forbidden": [
            {
                "name": "no-circular",
                "severity": "error",
                "from": {},
                "to": {"circular": True, "viaOnly": {"dependencyTypesNot": ["type-only"]}},
            }
        ],
        "options": options,
    }
    return "module.exports = " + json.dumps(config, indent=2) + ";\n"


def run_tool(
    plan: ToolPlan | None, name: str, target: Target, runs: int, timeout: float
) -> ToolResult:
    """Measure one tool ``runs`` times (after a priming run when it wants a warm cache)."""
    res = ToolResult(tool=name, label=TOOL_LABELS[name], status="ok")
    if plan is None:
        res.status = "not available"
        return res
    if plan.prime:
        sample = measure(plan.cmd, target.root, timeout, plan.env)
        if sample.timed_out or not plan.ok(sample):
            res.status = "timeout" if sample.timed_out else "error"
            res.note = "priming run: " + _tail(sample)
            return res
    edited = target.root / plan.edit_file if plan.edit_file else None
    original = edited.read_bytes() if edited is not None else b""
    try:
        last = _measured_runs(plan, res, target, runs, timeout, edited, original)
    finally:
        if edited is not None:
            edited.write_bytes(original)
            if plan.stage:
                git_add(target.root, plan.edit_file)
    _summarise(res, plan, last)
    return res


def _record(res: ToolResult, plan: ToolPlan, sample: Sample, timeout: float) -> bool:
    """Add one measured run's figures to ``res``; False (and ``res`` marked) when the run
    timed out or failed."""
    if sample.timed_out:
        res.status = "timeout"
        res.note = f"over {timeout:.0f} s"
        return False
    if not plan.ok(sample):
        res.status = "error"
        res.note = _tail(sample)
        return False
    res.seconds.append(round(sample.seconds, 4))
    res.peak_mb.append(round(sample.peak_mb, 1))
    res.exit_codes.append(sample.exit_code)
    return True


def _summarise(res: ToolResult, plan: ToolPlan, last: Sample | None) -> None:
    """Median, minimum, peak and note of a tool whose every run succeeded."""
    if res.seconds and res.status == "ok":
        res.median_s = round(statistics.median(res.seconds), 4)
        res.min_s = min(res.seconds)
        res.peak_mb_max = max(res.peak_mb)
        assert last is not None
        res.note = plan.note(last)


# Measured in alternation (a, b, a, b, …) when both are asked for: their ratio is a target,
# and this machine's speed drifts by about 10% within an hour (benchmarks/README.md, eighth
# session), so two blocks measured minutes apart would put that drift into the ratio.
PAIRED = ("filid-cold", "parse-floor")


def run_alternating(
    named: Sequence[tuple[str, ToolPlan | None]], target: Target, runs: int, timeout: float
) -> dict[str, ToolResult]:
    """Measure several tools ``runs`` times each, one run of each in turn, so that a change
    in the machine's speed during the measurement reaches every tool alike. Only tools with
    neither a priming run nor an edit (the cold row, the parse floor, the peers) can be
    measured so; a tool that fails or times out drops out of the rotation."""
    results = {
        name: ToolResult(tool=name, label=TOOL_LABELS[name], status="ok") for name, _ in named
    }
    last: dict[str, Sample] = {}
    for name, plan in named:
        if plan is None:
            results[name].status = "not available"
        elif plan.prime or plan.edit is not None:
            raise ValueError(f"{name} needs a priming run or an edit: it cannot alternate")
    for _ in range(runs):
        for name, plan in named:
            res = results[name]
            if plan is None or res.status != "ok":
                continue
            sample = measure(plan.cmd, target.root, timeout, plan.env)
            if _record(res, plan, sample, timeout):
                last[name] = sample
    for name, plan in named:
        if plan is not None:
            _summarise(results[name], plan, last.get(name))
    return results


def _measured_runs(
    plan: ToolPlan,
    res: ToolResult,
    target: Target,
    runs: int,
    timeout: float,
    edited: Path | None,
    original: bytes,
) -> Sample | None:
    """The measured runs of ``plan``; the last good sample (or None)."""
    last: Sample | None = None
    for number in range(runs):
        if edited is not None and plan.edit is not None:
            edited.write_bytes(plan.edit(original, number))
            if plan.stage:
                git_add(target.root, plan.edit_file)
        sample = measure(plan.cmd, target.root, timeout, plan.env)
        if not _record(res, plan, sample, timeout):
            break
        last = sample
    return last


# --------------------------------------------------------------------------- targets
def ensure_peers() -> None:
    """npm-install the pinned peers into benchmarks/out/node unless they are there already."""
    manifest = NODE_DIR / "package.json"
    have: dict[str, str] = {}
    if manifest.exists():
        have = json.loads(manifest.read_text(encoding="utf-8")).get("dependencies", {})
    if all(have.get(k) == v for k, v in PEER_PINS.items()) and (NODE_DIR / "node_modules").exists():
        return
    npm = shutil.which("npm")
    if npm is None:
        print("npm not found: the peers will be reported as not available", file=sys.stderr)
        return
    NODE_DIR.mkdir(parents=True, exist_ok=True)
    specs = [f"{k}@{v}" for k, v in PEER_PINS.items()]
    cmd = [npm, "install", "--no-audit", "--no-fund", "--save-exact", "--prefix", str(NODE_DIR)]
    print("installing peers: " + " ".join(specs), file=sys.stderr)
    subprocess.run([*cmd, *specs], check=False, stdout=subprocess.DEVNULL)


def peer_versions() -> dict[str, str]:
    """Installed versions of the peers (from their package.json)."""
    out = {}
    for name in PEER_PINS:
        pj = NODE_DIR / "node_modules" / name / "package.json"
        if pj.exists():
            out[name] = str(json.loads(pj.read_text(encoding="utf-8")).get("version", "?"))
    return out


def generated_target(size: int, seed: int, layout: str = "monorepo") -> Target:
    """The generated tree for ``size``/``seed``/``layout``, generated (and git-committed) if
    missing; the monorepo keeps its key (``1000``) and folder (``gen-1000-s1``)."""
    named = "" if layout == "monorepo" else f"{layout}-"
    root = OUT / f"gen-{named}{size}-s{seed}"
    marker = root / ".bench-manifest.json"
    ok = marker.exists() and (root / ".git").exists()
    if ok:
        manifest = json.loads(marker.read_text(encoding="utf-8"))
        ok = (
            manifest.get("requested") == size
            and manifest.get("seed") == seed
            and manifest.get("layout", "monorepo") == layout
        )
    if not ok:
        print(f"generating {layout}, {size} files (seed {seed}) into {root}", file=sys.stderr)
        subprocess.run(
            [
                *(sys.executable, str(HERE / "generate.py"), "--files", str(size)),
                *("--out", str(root), "--seed", str(seed), "--git", "--layout", layout),
            ],
            check=True,
            stdout=subprocess.DEVNULL,
        )
    return make_target(f"{named}{size}", root, layout)


def make_target(key: str, root: Path, layout: str | None = None) -> Target:
    """A Target for ``root``: its source files and a fixed, non-test file for one-file runs."""
    files = source_files(root)
    if not files:
        raise SystemExit(f"{root}: no source files")
    candidates = [f for f in files if ".test." not in f and ".spec." not in f] or files
    one = candidates[len(candidates) // 2]
    tsconfig = root / "tsconfig.json"
    return Target(key, root, len(files), one, tsconfig if tsconfig.exists() else None, layout)


# --------------------------------------------------------------------------- report
@dataclass(frozen=True, slots=True)
class Ratio:
    """One target check: a measured ratio against its limit."""

    name: str
    value: float | None
    target: str
    limit: float
    unit: str = ""

    @property
    def verdict(self) -> str:
        if self.value is None:
            return "n/a"
        return "ok" if self.value <= self.limit else "MISSED"


def ratios(results: dict[str, ToolResult], key: str) -> list[Ratio]:
    """The ratios the performance targets use, from one target's results."""

    def med(tool: str) -> float | None:
        return results[tool].median_s if tool in results else None

    def div(a: float | None, b: float | None) -> float | None:
        return round(a / b, 3) if a is not None and b else None

    cold, warm = med("filid-cold"), med("filid-warm")
    peaks = [results[t].peak_mb_max for t in ("filid-cold", "filid-warm") if t in results]
    filid_peak = max((p for p in peaks if p is not None), default=None)
    dpdm_peak = results["dpdm"].peak_mb_max if "dpdm" in results else None
    one_label = "one-file warm, seconds" + (" (target at 10k)" if key != "10000" else "")
    return [
        Ratio("cold / dpdm", div(cold, med("dpdm")), "≤ 0.25", 0.25),
        Ratio("cold / parse floor", div(cold, med("parse-floor")), "≤ 1.3", 1.3),
        Ratio("warm / cold", div(warm, cold), "≤ 0.1", 0.1),
        Ratio(one_label, med("filid-one-file"), "≤ 0.5 s", 0.5, " s"),
        Ratio("peak memory filid / dpdm", div(filid_peak, dpdm_peak), "≤ 0.5", 0.5),
    ]


def fmt(value: float | None, digits: int = 2) -> str:
    return "—" if value is None else f"{value:.{digits}f}"


def markdown(target: Target, results: dict[str, ToolResult], runs: int) -> str:
    """The Markdown tables for one target."""
    lines = [
        f"### {target.key} ({target.source_files} source files, {runs} runs, medians)",
        "",
        "| tool | median s | min s | peak MB | status | note |",
        "|---|---:|---:|---:|---|---|",
    ]
    for name in TOOLS:
        if name not in results:
            continue
        r = results[name]
        lines.append(
            f"| {r.label} | {fmt(r.median_s)} | {fmt(r.min_s)} | {fmt(r.peak_mb_max, 0)} "
            f"| {r.status} | {r.note} |"
        )
    lines += ["", "| ratio | value | target | verdict |", "|---|---:|---|---|"]
    for ratio in ratios(results, target.key):
        lines.append(f"| {ratio.name} | {fmt(ratio.value, 3)} | {ratio.target} | {ratio.verdict} |")
    return "\n".join(lines) + "\n"


# Targets of the pre-commit style rows across sizes (issues 17 and 30): their time may grow at
# most this much from 1k to 50k files (None: no growth target), and stay under this many
# seconds at 50k. Short names for the ratio table.
ONE_FILE_GROWTH_LIMIT = 1.5
ONE_FILE_LARGE_LIMIT = 0.3
ONE_FILE_LARGE_SIZE = 50000
ONE_FILE_TARGETS: dict[str, tuple[str, float | None, float]] = {
    "filid-one-file": ("one-file", ONE_FILE_GROWTH_LIMIT, ONE_FILE_LARGE_LIMIT),
    "filid-one-file-imports": ("one-file, imports edited", ONE_FILE_GROWTH_LIMIT, 0.3),
    "filid-staged-one-file": ("staged one-file", ONE_FILE_GROWTH_LIMIT, ONE_FILE_LARGE_LIMIT),
    "filid-staged-one-file-imports": ("staged one-file, imports edited", None, 0.5),
}


def scaling(all_results: list[tuple[Target, dict[str, ToolResult]]]) -> str:
    """Time growth from the smallest to the largest generated size, per layout and tool."""
    layouts: dict[str, list[tuple[Target, dict[str, ToolResult]]]] = {}
    for target, results in all_results:
        if target.layout is not None:
            layouts.setdefault(target.layout, []).append((target, results))
    return "\n".join(table for gen in layouts.values() if (table := scaling_table(gen)))


def scaling_table(gen: list[tuple[Target, dict[str, ToolResult]]]) -> str:
    """The scaling table of one layout's generated sizes (empty with fewer than two)."""
    if len(gen) < 2:
        return ""
    gen = sorted(gen, key=lambda tr: tr[0].source_files)
    (small, rs), (large, rl) = gen[0], gen[-1]
    file_growth = large.source_files / small.source_files
    lines = [
        f"### Scaling {small.key} → {large.key} (files x{file_growth:.1f})",
        "",
        "| tool | time growth | growth / file growth | exponent | verdict (linear: ≤ 1.1) |",
        "|---|---:|---:|---:|---|",
    ]
    for name in TOOLS:
        a = rs.get(name)
        b = rl.get(name)
        if a is None or b is None or not a.median_s or b.median_s is None:
            lines.append(f"| {TOOL_LABELS[name]} | — | — | — | n/a |")
            continue
        growth = b.median_s / a.median_s
        exponent = math.log(growth) / math.log(file_growth) if file_growth > 1 else float("nan")
        verdict = "ok" if exponent <= 1.1 else "superlinear"
        if name in ONE_FILE_TOOLS:
            verdict = "(not a full check)"
        lines.append(
            f"| {TOOL_LABELS[name]} | x{growth:.1f} | {growth / file_growth:.2f} "
            f"| {exponent:.2f} | {verdict} |"
        )
    lines += ["", "| ratio | value | target | verdict |", "|---|---:|---|---|"]
    for ratio in one_file_ratios(small, rs, large, rl):
        lines.append(f"| {ratio.name} | {fmt(ratio.value, 3)} | {ratio.target} | {ratio.verdict} |")
    return "\n".join(lines) + "\n"


def one_file_ratios(
    small: Target, rs: dict[str, ToolResult], large: Target, rl: dict[str, ToolResult]
) -> list[Ratio]:
    """The pre-commit rows' growth from the smallest to the largest size, and their time at
    the largest (the targets name 1k → 50k; other sizes say so)."""
    size_of = {t.key: int(t.key.rsplit("-", 1)[-1]) for t in (small, large)}
    full_span = (size_of[small.key], size_of[large.key]) == (1000, ONE_FILE_LARGE_SIZE)
    out = []
    for name in ONE_FILE_TOOLS:
        if name not in rs and name not in rl:
            continue
        a = rs[name].median_s if name in rs else None
        b = rl[name].median_s if name in rl else None
        short, growth_limit, large_limit = ONE_FILE_TARGETS[name]
        note = "" if full_span else " (target 1k → 50k)"
        if growth_limit is not None:
            out.append(
                Ratio(
                    f"{short}: time growth {small.key} → {large.key}{note}",
                    round(b / a, 3) if a and b is not None else None,
                    f"≤ {growth_limit}x",
                    growth_limit,
                )
            )
        at = "" if size_of[large.key] == ONE_FILE_LARGE_SIZE else " (target at 50k)"
        out.append(
            Ratio(
                f"{short} at {large.key}, seconds{at}",
                b,
                f"≤ {large_limit} s",
                large_limit,
                " s",
            )
        )
    return out


def parse_python(filid_exe: str | None) -> str:
    """An interpreter that has tree_sitter for parse_floor.py: this one, filid's, or the venv's."""
    if importlib.util.find_spec("tree_sitter") and importlib.util.find_spec(
        "tree_sitter_typescript"
    ):
        return sys.executable
    for candidate in (
        Path(filid_exe).parent / "python" if filid_exe else None,
        REPO_VENV / "bin" / "python",
    ):
        if candidate is not None and candidate.exists():
            return str(candidate)
    return sys.executable


# --------------------------------------------------------------------------- main
def main(argv: list[str] | None = None) -> int:
    """Command-line entry: measure every size and repository, print tables, write JSON."""
    ap = argparse.ArgumentParser(description="filid benchmarks against its peers")
    ap.add_argument(
        "--sizes",
        help="generated sizes, comma separated (default 1000,10000,50000 unless --repo is given)",
    )
    ap.add_argument(
        "--layouts",
        default="monorepo",
        help="generated layouts, comma separated: monorepo (default), barrels, deep-empty",
    )
    ap.add_argument("--repo", type=Path, action="append", default=[], help="measure this tree")
    ap.add_argument("--runs", type=int, default=5, help="measured runs per tool (median)")
    ap.add_argument("--peer-runs", type=int, help="runs for dpdm/depcruise/madge (default --runs)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--tools", default=",".join(TOOLS), help="subset of: " + ",".join(TOOLS))
    ap.add_argument("--timeout", type=float, default=1200.0, help="seconds per tool run")
    ap.add_argument("--filid", default=None, help="filid executable (default: venv or PATH)")
    args = ap.parse_args(argv)

    tools = [t.strip() for t in args.tools.split(",") if t.strip()]
    unknown = sorted(set(tools) - set(TOOLS))
    if unknown:
        ap.error(f"unknown tools {unknown}; valid: {', '.join(TOOLS)}")
    layouts = [x.strip() for x in args.layouts.split(",") if x.strip()]
    bad = sorted(set(layouts) - set(LAYOUTS))
    if bad:
        ap.error(f"unknown layouts {bad}; valid: {', '.join(LAYOUTS)}")
    sizes_arg = args.sizes if args.sizes is not None else ("" if args.repo else "1000,10000,50000")
    sizes = [int(s) for s in sizes_arg.split(",") if s.strip()]
    OUT.mkdir(parents=True, exist_ok=True)
    if {"dpdm", "depcruise", "madge"} & set(tools):
        ensure_peers()

    # This interpreter's environment, then the README's .venv, then PATH.
    venv_filid = Path(sys.prefix) / "bin" / "filid"
    repo_filid = REPO_VENV / "bin" / "filid"
    filid_exe = args.filid or next(
        (str(p) for p in (venv_filid, repo_filid) if p.exists()), shutil.which("filid")
    )
    filid = filid_command(filid_exe)
    python = parse_python(filid_exe)

    targets = [generated_target(n, args.seed, layout) for layout in layouts for n in sizes]
    for repo in args.repo:
        root = repo.resolve()
        targets.append(make_target("repo-" + root.name, root))

    meta = {
        "machine": {
            "cpus": os.cpu_count(),
            "platform": platform.platform(),
            "python": platform.python_version(),
        },
        "node": subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip()
        if shutil.which("node")
        else None,
        "peers": peer_versions(),
        "filid": filid_exe if filid else None,
    }
    print(f"filid: {filid_exe if filid else 'not available'}; peers: {meta['peers']}\n")
    collected: list[tuple[Target, dict[str, ToolResult]]] = []
    with tempfile.TemporaryDirectory(prefix="filid-bench-") as tmp:
        for target in targets:
            tool_plans = plans(target, filid, python, Path(tmp))
            results: dict[str, ToolResult] = {}
            paired = [name for name in PAIRED if name in tools]
            for name in tools:
                if name in results:
                    continue  # measured with its pair
                if len(paired) > 1 and name in paired:
                    print(
                        f"[{target.key}] {' / '.join(paired)} x{args.runs}, alternating",
                        file=sys.stderr,
                        flush=True,
                    )
                    measured = run_alternating(
                        [(n, tool_plans[n]) for n in paired], target, args.runs, args.timeout
                    )
                    results.update(measured)
                    continue
                runs = (
                    args.peer_runs
                    if args.peer_runs and name in ("dpdm", "depcruise", "madge")
                    else args.runs
                )
                print(f"[{target.key}] {name} x{runs}", file=sys.stderr, flush=True)
                results[name] = run_tool(tool_plans[name], name, target, runs, args.timeout)
            results = {name: results[name] for name in tools}  # the table keeps TOOLS' order
            collected.append((target, results))
            print(markdown(target, results, args.runs))
            doc = {
                "target": target.key,
                "root": str(target.root),
                "sourceFiles": target.source_files,
                "oneFile": target.one_file,
                "runs": args.runs,
                "seed": args.seed if target.layout is not None else None,
                "layout": target.layout,
                "tools": {k: asdict(v) for k, v in results.items()},
                "ratios": [
                    {"name": r.name, "value": r.value, "target": r.target, "verdict": r.verdict}
                    for r in ratios(results, target.key)
                ],
                **meta,
            }
            path = OUT / f"results-{target.key}.json"
            path.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    table = scaling(collected)
    if table:
        print(table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
