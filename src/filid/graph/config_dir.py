"""TypeScript 5.5's ``${configDir}`` template variable in tsconfig files.

A shared base may write ``"baseUrl": "${configDir}"`` or ``"include": ["${configDir}/src"]``
(colanode's `tsconfig.base.json`): the variable is the folder of the config a program is
built from (the one that extends), whichever config of the chain writes it. A value that
starts with it is kept as written while a chain is merged, and put at the folder of the
config in use by :func:`in_use`.
"""

from __future__ import annotations

import dataclasses
import posixpath
from typing import Protocol, TypeVar

from filid.graph.compiler_paths import PathAlias, join_path, parent_dir

__all__ = ["CONFIG_DIR", "in_use", "relative_to"]

CONFIG_DIR = "${configDir}"


class _Options(Protocol):
    @property
    def base_url(self) -> str | None: ...
    @property
    def paths(self) -> tuple[PathAlias, ...] | None: ...
    @property
    def paths_dir(self) -> str: ...
    @property
    def out_dir(self) -> str | None: ...
    @property
    def root_dir(self) -> str | None: ...
    @property
    def files(self) -> tuple[str, ...] | None: ...
    @property
    def includes(self) -> tuple[str, ...] | None: ...
    @property
    def excludes(self) -> tuple[str, ...] | None: ...


_T = TypeVar("_T", bound=_Options)


def relative_to(config_dir: str, value: str) -> str:
    """``value`` relative to ``config_dir``, or kept as written when it starts with
    ``${configDir}`` (resolved for the config in use by :func:`in_use`)."""
    return value if value.startswith(CONFIG_DIR) else join_path(config_dir, value)


def _at(config_dir: str, value: str) -> str:
    """``value`` with a leading ``${configDir}`` put at ``config_dir``."""
    if not value.startswith(CONFIG_DIR):
        return value
    rest = value[len(CONFIG_DIR) :].lstrip("/")
    return join_path(config_dir, rest) if rest else config_dir


def in_use(raw: _T, config: str) -> _T:
    """``raw`` for the program built from ``config``: each ``${configDir}`` put at its folder
    (``paths`` substitutions written with it become relative to where they are joined)."""
    config_dir = parent_dir(config)

    def many(values: tuple[str, ...] | None) -> tuple[str, ...] | None:
        return None if values is None else tuple(_at(config_dir, v) for v in values)

    base_url = None if raw.base_url is None else _at(config_dir, raw.base_url)
    paths = raw.paths
    if paths is not None and any(
        sub.startswith(CONFIG_DIR) for alias in paths for sub in alias.substitutions
    ):
        joined = base_url if base_url is not None else raw.paths_dir
        paths = tuple(
            dataclasses.replace(
                alias,
                substitutions=tuple(
                    posixpath.relpath(_at(config_dir, sub), joined)
                    if sub.startswith(CONFIG_DIR)
                    else sub
                    for sub in alias.substitutions
                ),
            )
            for alias in paths
        )
    return dataclasses.replace(  # type: ignore[type-var]
        raw,
        base_url=base_url,
        paths=paths,
        out_dir=None if raw.out_dir is None else _at(config_dir, raw.out_dir),
        root_dir=None if raw.root_dir is None else _at(config_dir, raw.root_dir),
        files=many(raw.files),
        includes=many(raw.includes),
        excludes=many(raw.excludes),
    )
