"""A deeply nested JSON message on the WebSocket is refused as ``bad_json``; the socket
stays open and nothing is logged as an error (it raised RecursionError before)."""

from __future__ import annotations

import logging

import pytest
from fastapi.testclient import TestClient

from paohuzi.server.app import create_app


@pytest.mark.parametrize(
    "text",
    [
        "[" * 1500 + "]" * 1500,
        '{"type": "ping", "x": ' + "[" * 1500 + "]" * 1500 + "}",
        '{"":' * 800 + "1" + "}" * 800,
        "[" * 3000,  # unterminated
    ],
)
def test_deep_nesting_is_bad_json(db_url: str, caplog: pytest.LogCaptureFixture, text: str) -> None:
    caplog.set_level(logging.INFO)
    with (
        TestClient(create_app(db_url)) as c,
        c.websocket_connect("/ws/123456") as ws,
    ):
        ws.send_text(text)
        m = ws.receive_json()
        assert m["type"] == "error" and m["code"] == "bad_json", m
        assert len(m["reason"]) < 200
        ws.send_json({"type": "ping"})
        assert ws.receive_json()["type"] == "pong"  # still open
    bad = [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert not bad, [r.getMessage() for r in bad]


def test_depth_skips_strings_and_lets_flat_messages_through() -> None:
    from paohuzi.server import wirejson

    assert wirejson.depth('{"a": "[[[[[[[[[[[[[[", "b": [1, {"c": 2}]}') == 3
    assert wirejson.loads('{"s": "' + "[" * 100 + '"}') == {"s": "[" * 100}
    assert wirejson.loads("[" * 8 + "]" * 8) == [[[[[[[[]]]]]]]]
    with pytest.raises(ValueError, match="9 levels"):
        wirejson.loads("[" * 9 + "]" * 9)


def test_a_deeply_nested_http_body_is_named_as_such(db_url: str) -> None:
    """Over HTTP, JSON nested deeper than the parser recurses is refused saying so (it was
    called "not UTF-8 JSON", which it is)."""
    with TestClient(create_app(db_url)) as c:
        body = b"[" * 5000 + b"]" * 5000
        r = c.post("/accounts/guest", content=body, headers={"content-type": "application/json"})
        assert r.status_code == 400 and r.json()["code"] == "bad_json", r.text
        assert "nests too deeply" in r.json()["reason"] and "UTF-8" not in r.json()["reason"]
