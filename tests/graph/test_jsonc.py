"""The JSON-with-comments reader used for tsconfig/jsconfig/package.json."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from filid.graph.jsonc import parse_jsonc, strip_jsonc


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
