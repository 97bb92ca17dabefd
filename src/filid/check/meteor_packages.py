"""``meteor/<name>`` specifiers, which Meteor's build tool resolves through its package system.

In a Meteor app (a folder holding ``.meteor/versions``), ``import VulcanEmail from
'meteor/vulcan:email'`` loads the ``mainModule`` that the package named ``vulcan:email``
declares in its ``package.js`` (``api.mainModule('lib/server/main.js', 'server')``), whether
the package lives in the app's ``packages/`` folder or comes from Atmosphere. A ``jsconfig.json``
``paths`` entry for it only serves the editor; VulcanJS/Vulcan's maps ``meteor/vulcan:email``
to ``lib/server.js`` and ``lib/client.js``, which never existed (judge J1 D3), while Meteor
builds the import without complaint.

Decision (issue 23, SPEC is silent): below a folder holding ``.meteor/versions``, a
``meteor/<name>`` specifier is not claimed unresolved when that file lists the package
``<name>`` (``vulcan:email@1.16.5``): ``meteor`` writes every package the app resolved there,
local or not. A package the app does not use (not listed) stays claimed, as does every
``meteor/`` specifier outside a Meteor app (only a ``paths`` alias can resolve it there).
``.meteor/versions`` is a plain list Meteor writes, read line by line.
"""

from __future__ import annotations

import os
from pathlib import Path

from filid.graph.compiler_paths import parent_dir

__all__ = ["MeteorPackages"]

_PREFIX = "meteor/"
_MAX_VERSIONS_BYTES = 1 << 20


class MeteorPackages:
    """The packages each Meteor app of the project lists (read once per app)."""

    def __init__(self, root: Path) -> None:
        self._root = root
        self._apps: dict[str, frozenset[str] | None] = {}

    def resolves(self, file: str, specifier: str) -> bool:
        """Whether ``specifier`` is ``meteor/<name>`` and the Meteor app holding ``file``
        lists the package ``<name>``."""
        if not specifier.startswith(_PREFIX):
            return False
        name = specifier[len(_PREFIX) :].split("/", 1)[0]
        directory = parent_dir(file)
        while True:
            packages = self._packages(directory)
            if packages is not None:
                return name in packages
            if directory == ".":
                return False
            directory = parent_dir(directory)

    def _packages(self, directory: str) -> frozenset[str] | None:
        """The package names ``directory/.meteor/versions`` lists; None without one."""
        if directory in self._apps:
            return self._apps[directory]
        path = self._root / directory / ".meteor" / "versions"
        found: frozenset[str] | None = None
        try:
            if os.path.isfile(path) and os.path.getsize(path) <= _MAX_VERSIONS_BYTES:
                text = path.read_text(encoding="utf-8", errors="replace")
                found = frozenset(
                    line.strip().partition("@")[0]
                    for line in text.splitlines()
                    if "@" in line and not line.lstrip().startswith("#")
                )
        except OSError:
            found = None
        self._apps[directory] = found
        return found
