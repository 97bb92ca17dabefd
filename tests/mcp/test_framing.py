"""The screening of raw JSON-RPC lines (the stdio tests send them to a real server)."""

from __future__ import annotations

import pytest

from filid.mcp.framing import screen


@pytest.mark.parametrize(
    ("line", "verdict"),
    [
        ('{"jsonrpc":"2.0","id":1,"method":"tools/list"}', "pass"),
        ('{"jsonrpc":"2.0","method":"notifications/initialized"}', "pass"),
        ('{"jsonrpc":"2.0","id":1,"result":{}}', "pass"),
        ('{"jsonrpc":"2.0","method":"notifications/x","params":[1]}', "ignore"),
        ("   ", "ignore"),
    ],
)
def test_well_formed_lines_pass_and_notifications_are_never_answered(
    line: str, verdict: str
) -> None:
    assert screen(line) == verdict


def test_an_id_of_the_wrong_type_is_not_echoed() -> None:
    for raw in (
        '{"jsonrpc":"2.0","id":true,"method":"x"}',
        '{"jsonrpc":"2.0","id":null,"method":"x"}',
    ):
        reply = screen(raw)
        assert isinstance(reply, dict)
        assert reply["id"] is None and reply["error"]["code"] == -32600
