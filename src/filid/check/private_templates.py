"""Private template folders: a scaffold a script copies elsewhere and completes there (issue
23; docs/rules.md, "After blind judges H1 and H2" and "After blind judges K1 and K2").

arco-design-mobile's ``scripts/init/_comp-template_/`` is copied by ``init-component.js`` to
``packages/arcodesign/components/<name>/`` (its ``'../context-provider'`` resolves there);
react-native-firebase's ``scripts/_TEMPLATE_/`` is copied by ``create-firebase-module.js``
(``shelljs.cp('-R', 'scripts/_TEMPLATE_', packageDir)``) to ``packages/<name>/``, where its
build writes ``lib/version.js`` (``'./version'``) and its imports of other packages are
checked against what they publish then. Neither is loaded in place.

A folder is such a template by its name: it starts with ``_`` and, without its underscores
and in any letter case, is ``template`` or ends in ``-template``/``_template``
(``_comp-template_``, ``_TEMPLATE_``, ``__template__``); and no file outside it imports a file
in it (else it is real code of the repository with an odd name). novu's
``notification-template/`` (real code, no leading underscore) is no template.
"""

from __future__ import annotations

from collections.abc import Iterable

from filid.graph.compiler_paths import is_within
from filid.model.graph import ImportEdge

__all__ = ["PrivateTemplates", "template_folder"]


def template_folder(path: str) -> str | None:
    """The outermost folder holding ``path`` that is named as a private template (module
    docstring), if any."""
    segments = path.split("/")[:-1]
    for end, segment in enumerate(segments, start=1):
        name = segment.strip("_").lower()
        if segment.startswith("_") and (
            name == "template" or name.endswith(("-template", "_template"))
        ):
            return "/".join(segments[:end])
    return None


class PrivateTemplates:
    """Answers whether a file lies in a private template folder no file outside it imports
    (module docstring); each folder's answer is computed once over ``edges``."""

    def __init__(self, edges: Iterable[ImportEdge]) -> None:
        self._edges = edges
        self._outside_imports: dict[str, bool] = {}

    def holds(self, file: str) -> bool:
        """Whether ``file`` lies in a private template folder no outside file imports."""
        folder = template_folder(file)
        if folder is None:
            return False
        known = self._outside_imports.get(folder)
        if known is None:
            known = self._outside_imports[folder] = any(
                is_within(edge.target, folder) and not is_within(edge.source, folder)
                for edge in self._edges
            )
        return not known
