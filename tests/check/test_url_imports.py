"""``check.url_imports``: a file is parsed once for all its unresolved ``import()`` calls
(judge N1: telekom/scale's generated 522 KB file, 447 imports, was parsed once per import)."""

from __future__ import annotations

from typing import Any

import pytest

import filid.check.url_imports as url_imports
from tests.claims import claims
from tests.conftest import ProjectFactory


def test_a_file_with_many_unresolved_dynamic_imports_is_parsed_once(
    make_project: ProjectFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = [f"export const load{i} = () => import('./gone{i}.js');" for i in range(40)]
    lines.append("export const kept = () => import(/* webpackIgnore: true */ './ace.js');")
    root = make_project(
        {"package.json": '{"name": "app"}\n', "src/components.ts": "\n".join(lines) + "\n"}
    )
    parsed: list[bytes] = []
    real = url_imports.toolkit_for

    class _Counting:
        def __init__(self, parser: Any) -> None:
            self._parser = parser

        def parse(self, source: bytes) -> Any:
            parsed.append(source)
            return self._parser.parse(source)

    class _Toolkit:
        def __init__(self, path: str) -> None:
            self.parser = _Counting(real(path).parser)

    monkeypatch.setattr(url_imports, "toolkit_for", _Toolkit)
    # every import of a missing file is claimed but the one the bundler is told to ignore
    assert claims(root) == sorted(f"unresolved-import src/components.ts:{n}" for n in range(1, 41))
    assert len(parsed) == 1
