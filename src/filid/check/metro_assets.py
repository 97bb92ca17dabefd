"""React Native's scaled images: Metro resolves ``icon.png`` to ``icon@2x.png``… (issue 23,
after blind judge H2).

reactotron's Expo example app writes ``require("../../assets/icons/caretRight.png")`` in
``app/components/Icon.tsx``, where the folder holds ``caretRight@2x.png`` and
``caretRight@3x.png`` and no ``caretRight.png``. Metro, React Native's bundler (Expo builds
on it), resolves an asset (an extension of its ``resolver.assetExts``) to the set of the file
and its scale variants: metro-resolver's ``resolveAsset`` hands ``(folder, name, extension)``
to the resolver, which keeps whichever of ``name.ext`` and ``name@<r>x.ext`` exist, ``<r>``
from ``resolver.assetResolutions`` (default ``1``, ``1.5``, ``2``, ``3``, ``4``); the
unscaled file is optional, and the app picks the variant for the screen's density at run time.
Metro picks a platform's variant the same way (fbsamples/f8app, judge N2: ``require(
"./img/webview/back.png")`` beside ``back.ios.png``, ``back.android.png`` and their ``@2x``/
``@3x``, scale first: ``back@2x.ios.png``), as it does for source files.

Decision: where the importing file belongs to a React Native project — its package's
``package.json`` names ``react-native`` or ``expo`` among its dependencies, or a Metro config
(``metro.config.*``) lies in a folder between the file and its package's root — an image
import that finds no file but finds a scale variant of it (Metro's default image extensions)
resolves. Anywhere else (a web app's webpack or Vite finds no ``@2x`` variant by itself) it
stays a claim, as does a React Native import with no variant at all. Only files of the
project count.
"""

from __future__ import annotations

from collections.abc import Iterable

from filid.check.manifest_dependencies import declared_dependencies
from filid.check.project import Project
from filid.graph.compiler_paths import join_path, parent_dir

__all__ = ["MetroAssets"]

# metro-config's default `assetExts` that are images (the ones drawn at a screen density)
_IMAGE_EXTENSIONS = frozenset({"bmp", "gif", "jpg", "jpeg", "png", "psd", "svg", "webp"})
# metro-config's default `assetResolutions`
_SCALES = ("1", "1.5", "2", "3", "4")
_METRO_CONFIGS = tuple(
    f"metro.config.{extension}" for extension in ("js", "cjs", "mjs", "ts", "json")
)
_REACT_NATIVE = ("react-native", "expo")
# the platforms whose variants Metro picks (`back.ios.png`, `back@2x.android.png`)
_PLATFORMS = ("ios", "android", "native", "web")


def _variants(stem: str, extension: str) -> Iterable[str]:
    """The files Metro may load for ``stem.extension``: a scale variant, a platform variant,
    or both (``name@<r>x.<platform>.ext``, scale first)."""
    scaled = [f"@{scale}x" for scale in _SCALES]
    yield from (f"{stem}{s}.{extension}" for s in scaled)
    yield from (f"{stem}{s}.{p}.{extension}" for s in ("", *scaled) for p in _PLATFORMS)


class MetroAssets:
    """Answers whether an unresolved image import finds a scale variant Metro loads in a React
    Native project (module docstring)."""

    def __init__(self, project: Project) -> None:
        self._project = project
        self._files = frozenset(project.tree.files)
        self._projects: dict[str, bool] = {}

    def resolves(self, file: str, bases: Iterable[str]) -> bool:
        """Whether one of ``bases`` (the candidate paths of the specifier) is an image whose
        scale or platform variant (``name@<r>x.ext``, ``name.ios.ext``) exists, and ``file``
        is in a React Native project."""
        found = False
        for base in bases:
            stem, dot, extension = base.rpartition(".")
            if not dot or "/" in extension or extension.lower() not in _IMAGE_EXTENSIONS:
                continue
            if any(variant in self._files for variant in _variants(stem, extension)):
                found = True
                break
        return found and self._react_native(parent_dir(file))

    def _react_native(self, directory: str) -> bool:
        """Whether ``directory``'s package is a React Native project (module docstring)."""
        known = self._projects.get(directory)
        if known is not None:
            return known
        if any(join_path(directory, name) in self._files for name in _METRO_CONFIGS):
            answer = True
        elif join_path(directory, "package.json") in self._files:
            answer = self._names_react_native(join_path(directory, "package.json"))
        elif directory == ".":
            answer = False
        else:
            answer = self._react_native(parent_dir(directory))
        self._projects[directory] = answer
        return answer

    def _names_react_native(self, manifest: str) -> bool:
        return any(
            name in _REACT_NATIVE for name, _ in declared_dependencies(self._project.root, manifest)
        )
