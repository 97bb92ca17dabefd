"""The packages a flat install puts in the repository root's ``node_modules``, read from the
root lockfile (issue 23, blind judge N2, MyCryptoHQ/MyCrypto).

MyCrypto's ``src/services/EthService/network/providerHandler.ts`` imports
``@ethersproject/hash``, which no ``package.json`` declares: it arrives with the declared
``@ethersproject/providers`` (``yarn.lock`` lists it). Its tsconfig maps ``"@*": ["./*"]``,
which matches the name but finds no file, so tsc goes on to ``node_modules``, where Yarn 1
hoisted the package (so do npm, and Yarn 2+ with ``nodeLinker: node-modules``).

Decision (SPEC §0 is silent): the package names of the root lockfile count as installed in
the root ``node_modules`` when the lockfile is one a flat installer writes:

- ``package-lock.json`` / ``npm-shrinkwrap.json``: the keys ``node_modules/<name>`` of
  ``packages`` (lockfile v2 and v3; a nested ``…/node_modules/<name>`` is not at the root),
  or the names of ``dependencies`` (v1, whose top level is the root's);
- ``yarn.lock`` of Yarn 1 (``# yarn lockfile v1``): the names of its entry lines
  (``"@ethersproject/hash@^5.5.0", "@ethersproject/hash@^5.6.0":``); a Yarn 2+ lockfile
  (``__metadata:``) only when ``.yarnrc.yml`` sets ``nodeLinker: node-modules`` (Plug'n'Play,
  its default, installs no ``node_modules`` and lets no package reach an undeclared one).

A pnpm lockfile names nothing: pnpm links only declared dependencies into a project's
``node_modules``. A lockfile over 32 MiB, a link, or one that does not parse names nothing.
"""

from __future__ import annotations

import json

from filid.check.project import Project
from filid.graph.yamlfile import read_yaml_file
from filid.model.errors import InputError
from filid.store.files import read_regular_file

__all__ = ["lockfile_packages"]

_MAX_LOCKFILE_BYTES = 32 << 20
_YARN_V1 = "# yarn lockfile v1"


def lockfile_packages(project: Project) -> frozenset[str]:
    """The package names a flat install of the root lockfile puts in the root
    ``node_modules`` (module docstring); none without such a lockfile."""
    files = project.tree.files
    names: set[str] = set()
    for name in ("package-lock.json", "npm-shrinkwrap.json"):
        if name in files:
            names.update(_npm_packages(_read(project, name)))
    if "yarn.lock" in files:
        text = _read(project, "yarn.lock")
        if _YARN_V1 in text[:1024] or (
            "__metadata:" in text[:4096] and _yarn_node_modules(project)
        ):
            names.update(_yarn_packages(text))
    return frozenset(names)


def _read(project: Project, name: str) -> str:
    try:
        data = read_regular_file(project.root / name, _MAX_LOCKFILE_BYTES)
    except (OSError, InputError):
        return ""
    return data.decode("utf-8", "replace")


def _npm_packages(text: str) -> set[str]:
    """The root ``node_modules`` packages of an npm lockfile's text."""
    try:
        data = json.loads(text) if text else None
    except (ValueError, RecursionError):  # a hostile nesting depth too
        return set()
    if not isinstance(data, dict):
        return set()
    packages = data.get("packages")
    if isinstance(packages, dict):
        found: set[str] = set()
        for key in packages:
            if isinstance(key, str) and key.startswith("node_modules/"):
                rest = key[len("node_modules/") :]
                if rest and "/node_modules/" not in rest:
                    found.add(rest)
        return found
    dependencies = data.get("dependencies")
    if isinstance(dependencies, dict):
        return {k for k in dependencies if isinstance(k, str) and k}
    return set()


def _yarn_packages(text: str) -> set[str]:
    """The package names of a yarn lockfile's entry lines (unindented, ending in ``:``)."""
    found: set[str] = set()
    for line in text.splitlines():
        if not line or line[0] in " \t#" or not line.endswith(":"):
            continue
        for descriptor in line[:-1].split(","):
            descriptor = descriptor.strip().strip('"')
            at = descriptor.find("@", 1)  # a scope's own `@` comes first
            if at > 0:
                found.add(descriptor[:at])
    found.discard("__metadata")
    return found


def _yarn_node_modules(project: Project) -> bool:
    """Whether ``.yarnrc.yml`` (a dot file: not in the listing, read if present) makes Yarn 2+
    install a ``node_modules`` tree."""
    data, _ = read_yaml_file(project.root, ".yarnrc.yml")
    return isinstance(data, dict) and data.get("nodeLinker") == "node-modules"
