"""The JSON-with-comments reader used for tsconfig/jsconfig/package.json."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from filid.check.engine import evaluate
from filid.check.project import load_project
from filid.graph.jsonc import parse_jsonc, strip_jsonc
from filid.model.errors import InputError
from tests.conftest import ProjectFactory


def test_comments_and_trailing_commas_outside_strings() -> None:
    text = """\ufeff{
      // line comment
      "paths": {"@/*": ["./src/*",], },  /* block
      comment */ "url": "http://x//y/*z*/",
      "quote": "a \\" // still a string",
      "list": [1, 2, /* c */ ],
    }"""
    assert parse_jsonc(text) == {
        "paths": {"@/*": ["./src/*"]},
        "url": "http://x//y/*z*/",
        "quote": 'a " // still a string',
        "list": [1, 2],
    }


def test_error_positions_survive_comment_removal() -> None:
    text = '{\n  /* one\n two */\n  "a": 1 2\n}'
    with pytest.raises(json.JSONDecodeError) as info:
        parse_jsonc(text)
    assert info.value.lineno == 4


def test_comma_between_values_is_kept() -> None:
    assert parse_jsonc("[1, // x\n 2]") == [1, 2]
    assert strip_jsonc('{"a": 1,}') == '{"a": 1 }'


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda children: st.lists(children) | st.dictionaries(st.text(), children),
    max_leaves=20,
)


@given(json_values)
def test_plain_json_round_trips(value: object) -> None:
    assert parse_jsonc(json.dumps(value)) == value
    assert parse_jsonc(json.dumps(value, indent=2, ensure_ascii=False)) == value


@pytest.mark.parametrize("text", ["", "\n  \n", "// nothing here\n", "\ufeff/* */"])
def test_an_empty_tsconfig_is_no_options_as_for_tsc(
    text: str, make_project: ProjectFactory
) -> None:
    # firebase-js-sdk commits a 0-byte `packages/firestore/scripts/tsconfig.json`; tsc reads
    # it as `{}`. It used to stop the whole check (exit 2).
    root = make_project(
        {
            "packages/firestore/scripts/tsconfig.json": text,
            "packages/firestore/scripts/build.ts": (
                "import { x } from './x';\nexport const y = x;\n"
            ),
            "packages/firestore/scripts/x.ts": "export const x = 1;\n",
        }
    )
    assert evaluate(load_project(root, use_cache=False)).violations == ()


def test_a_truncated_tsconfig_still_stops_the_check(make_project: ProjectFactory) -> None:
    root = make_project({"tsconfig.json": "{\n", "src/a.ts": "export const a = 1;\n"})
    with pytest.raises(InputError, match=r"^tsconfig\.json: invalid JSON"):
        load_project(root, use_cache=False)


def test_an_ejs_template_manifest_is_a_note_not_a_stop(make_project: ProjectFactory) -> None:
    # quasar's `app-vite/templates/capacitor/package.json` is EJS the CLI fills in
    files = {
        "package.json": '{"name": "q"}\n',
        "src/a.ts": "export const a = 1;\n",
        "app-vite/templates/capacitor/package.json": (
            '{\n  "name": "<%= pkg.name %>",\n<% if (pkg.author) { %>  "author": "x",<% } %>\n'
            '  "private": true\n}\n'
        ),
        "app-vite/templates/capacitor/tsconfig.json": "{ <%= options %> }\n",
    }
    result = evaluate(load_project(make_project(files), use_cache=False))
    notes = [n for n in result.notes if "left out (a scaffold template)" in n]
    assert len(notes) == 2, result.notes
    # outside a scaffold folder a placeholder alone is template data too (nestjs/schematics'
    # `files/ts/package.json`, judge J2); a manifest broken anywhere else still stops
    files["app-vite/package.json"] = '{\n  "name": "<%= pkg.name %>"\n  "private": true\n}\n'
    with pytest.raises(InputError, match=r"^app-vite/package\.json"):
        load_project(make_project(files), use_cache=False)
