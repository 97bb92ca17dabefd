"""Compare filid's import resolution with the TypeScript compiler's, import by import.

    python benchmarks/resolution_oracle.py PROJECT [--node-tools tests/node] [--show 20]

For every import of every source file filid parses (dynamic imports with a literal and
`require` included), filid's resolver and ``ts.resolveModuleName`` (through
``tests/node/resolve-oracle.cjs``, with each file's governing tsconfig/jsconfig) each name a
project file or nothing. Workspace packages must be linked in ``node_modules`` for TypeScript
to follow them (``--link-workspaces`` creates those links in a copy you own; nothing is
installed). Packages are checked unbuilt: where TypeScript's lookup stopped at a build-output
target that does not exist (``dist/…``), the oracle applies filid's documented mapping to
source (SPEC §4) before comparing. Prints counts of imports resolved by both to the same
file, only by TypeScript, only by filid, to different files, and the agreement over their
union; ``--show`` lists examples of each disagreement.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from filid.check.project import load_project
from filid.graph.build_output import build_output_sources
from filid.graph.resolve import ResolutionKind
from filid.graph.workspaces import split_package_specifier

_SCRIPT_EXTENSIONS = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs", ".json")
ORACLE = Path(__file__).resolve().parents[1] / "tests" / "node" / "resolve-oracle.cjs"


@dataclass
class Comparison:
    """Imports by outcome; ``agreement`` is over the imports either side resolved."""

    both: list[tuple[str, str, str]] = field(default_factory=list)
    only_ts: list[tuple[str, str, str]] = field(default_factory=list)
    only_filid: list[tuple[str, str, str]] = field(default_factory=list)
    different: list[tuple[str, str, str, str]] = field(default_factory=list)
    # Imports of non-script files (CSS, Markdown, SVG…): TypeScript resolves only modules with
    # a script or declaration extension, filid links the asset; counted apart, not compared.
    assets: list[tuple[str, str, str]] = field(default_factory=list)

    @property
    def union(self) -> int:
        return len(self.both) + len(self.only_ts) + len(self.only_filid) + len(self.different)

    @property
    def agreement(self) -> float:
        return len(self.both) / self.union if self.union else 1.0


def link_workspaces(root: Path) -> int:
    """Lay out ``root/node_modules`` as the package managers do (for TypeScript to follow).

    Every named workspace package is linked at the root (npm, yarn and bun hoist them there;
    pnpm's ``hoist-workspace-packages`` is approximated the same way). Then each manifest's own
    dependencies, independently of filid's resolver, from the managers' documentation:
    ``workspace:`` (also ``workspace:other@*`` and a path) links that package into the
    declaring package's ``node_modules``; ``file:``/``link:``/``portal:`` link the folder;
    ``npm:`` installs the registry's package, stood for by an empty stub package (TypeScript
    resolves it outside the project). Returns how many links and stubs were made.
    """
    project = load_project(root, use_cache=False)
    packages = project.resolver.workspace_packages()
    made = 0
    for name, package in packages.items():
        made += _link(root / "node_modules" / name, root / package)
    for manifest in sorted(root.rglob("package.json")):
        if "node_modules" in manifest.relative_to(root).parts:
            continue
        try:
            data = json.loads(manifest.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if not isinstance(data, dict):
            continue
        for field_name in ("devDependencies", "peerDependencies", "dependencies"):
            deps = data.get(field_name)
            if not isinstance(deps, dict):
                continue
            for name, spec in deps.items():
                if not isinstance(spec, str):
                    continue
                made += _install(manifest.parent, name, spec.strip(), root, packages)
    return made


def _install(folder: Path, name: str, spec: str, root: Path, packages: dict[str, str]) -> int:
    """What installing ``"name": "spec"`` puts at ``folder/node_modules/name``."""
    where = folder / "node_modules" / name
    if spec.startswith("workspace:"):
        rest = spec[len("workspace:") :]
        if rest.startswith((".", "/")):
            return _link(where, (folder / rest).resolve())
        at = rest.find("@", 1)
        target = rest[:at] if at > 0 else name
        return _link(where, root / packages[target]) if target in packages else 0
    if spec.startswith(("file:", "link:", "portal:")):
        target = (folder / spec.partition(":")[2]).resolve()
        return _link(where, target) if target.is_dir() else 0
    if spec.startswith("npm:") and name in packages:
        where.mkdir(parents=True, exist_ok=True)
        stub = {"name": name, "exports": {".": "./index.d.ts", "./*": "./index.d.ts"}}
        (where / "package.json").write_text(json.dumps(stub))
        (where / "index.d.ts").write_text("export {};\n")
        return 1
    return 0


def _link(link: Path, target: Path) -> int:
    if link.exists() or link.is_symlink():
        return 0
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(os.path.relpath(target, link.parent))
    return 1


def compare(root: Path, node_tools: Path | None = None) -> Comparison:
    """Resolve every import of ``root`` with filid and with TypeScript and compare."""
    root = root.resolve()
    project = load_project(root, use_cache=False)
    resolver = project.resolver
    items = [
        {"file": file, "specifier": fact.specifier}
        for file, facts in sorted(project.facts.items())
        for fact in facts.imports
        if fact.specifier is not None
    ]
    unique = list({(i["file"], i["specifier"]): i for i in items}.values())
    env = dict(os.environ)
    if node_tools is not None:
        env["NODE_PATH"] = str(node_tools / "node_modules")
    done = subprocess.run(
        ["node", str(ORACLE), str(root)],
        input=json.dumps(unique),
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )
    result = Comparison()
    for answer in json.loads(done.stdout):
        file, specifier = answer["file"], answer["specifier"]
        ours = resolver.resolve(file, specifier)
        filid_target = ours.target if ours.kind is ResolutionKind.FILE else None
        ts_target = answer["resolved"]
        if ts_target is None and not answer["external"]:
            ts_target = _mapped_build_output(resolver, specifier, answer["failed"])
        if filid_target is None and ts_target is None:
            continue
        if filid_target == ts_target:
            result.both.append((file, specifier, filid_target or ""))
        elif filid_target is None:
            result.only_ts.append((file, specifier, ts_target or ""))
        elif ts_target is None and not filid_target.endswith(_SCRIPT_EXTENSIONS):
            result.assets.append((file, specifier, filid_target))
        elif ts_target is None:
            result.only_filid.append((file, specifier, filid_target))
        else:
            result.different.append((file, specifier, ts_target, filid_target))
    return result


def _mapped_build_output(resolver: Any, specifier: str, failed: list[str]) -> str | None:
    """filid's documented mapping of unbuilt output to source (SPEC §4: build folders, format
    folders, bundler file names) applied to TypeScript's misses, in its order, inside the workspace
    package a bare specifier reaches (linked under its name or, for a ``link:``/``file:``
    alias, under another)."""
    split = split_package_specifier(specifier)
    if split is None or specifier.startswith((".", "/", "#")) or ":" in split[0]:
        return None
    packages: dict[str, str] = resolver.workspace_packages()
    folders = sorted(set(packages.values()), key=len, reverse=True)
    for location in failed:
        if location.endswith("/package.json") or "node_modules/" in location:
            continue
        package_dir = packages.get(split[0]) or next(
            (d for d in folders if d == "." or location.startswith(d + "/")), None
        )
        prefix = "" if package_dir in (None, ".") else f"{package_dir}/"
        if package_dir is None or not location.startswith(prefix):
            continue
        names = [n for n, d in packages.items() if d == package_dir]
        for candidate in build_output_sources(package_dir, location, min(names, default=None)):
            found = resolver.resolve_candidate(candidate)
            if found is not None:
                return str(found)
    return None


def main() -> int:
    """Print the comparison for one project."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("project", type=Path)
    parser.add_argument("--node-tools", type=Path, default=ORACLE.parent)
    parser.add_argument("--link-workspaces", action="store_true")
    parser.add_argument("--show", type=int, default=10)
    args = parser.parse_args()
    if args.link_workspaces:
        print(f"linked {link_workspaces(args.project)} workspace packages into node_modules")
    result = compare(args.project, args.node_tools)
    print(f"project: {args.project}")
    print(
        "| resolved by both (same file) | only TypeScript | only filid | different files "
        "| agreement |"
    )
    print("|---:|---:|---:|---:|---:|")
    print(
        f"| {len(result.both)} | {len(result.only_ts)} | {len(result.only_filid)} "
        f"| {len(result.different)} | {100 * result.agreement:.2f}% |"
    )
    print(f"(asset imports filid links and TypeScript does not resolve: {len(result.assets)})")
    for title, rows in (
        ("only TypeScript", result.only_ts),
        ("only filid", result.only_filid),
        ("different", result.different),
    ):
        if rows:
            print(f"\n{title} (first {args.show} of {len(rows)}):")
            for row in rows[: args.show]:
                print("  " + " | ".join(row))
    return 0


if __name__ == "__main__":
    sys.exit(main())
