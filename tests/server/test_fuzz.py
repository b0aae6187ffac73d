"""Random frames at a seated socket: each gets one answer, the server lives, the table stays."""

from __future__ import annotations

import contextlib
import json
import time
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.sync.client import connect

from .conftest import Server, seated_room, start

_scalars = (
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12)
)
_json = st.recursive(
    _scalars,
    lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=8), c, max_size=3),
    max_leaves=8,
)
_fields = st.dictionaries(
    st.sampled_from(["token", "since", "action", "step", "client_id", "extra"]),
    _json,
    max_size=4,
)
_typed = st.builds(
    lambda t, f: json.dumps({"type": t, **f}),
    st.sampled_from(["auth", "act", "resync", "ping", "teleport", ""]),
    _fields,
)
_frames = _typed | _json.map(json.dumps) | st.text(max_size=40)

TRIED = {"n": 0}


def _recv(ws: Any) -> dict[str, Any]:
    """The next answer, past the seats' status broadcasts (a socket opening or closing)."""
    while True:
        m: dict[str, Any] = json.loads(ws.recv(10))
        if m["type"] != "seats":
            return m


def test_random_frames(server: Server, record_property: Any) -> None:
    code, tokens = seated_room(server, 3)
    start(server, code, tokens[0])
    with contextlib.ExitStack() as open_sockets:
        probe = open_sockets.enter_context(connect(server.ws(code)))
        probe.send(json.dumps({"type": "auth", "token": tokens[0]}))
        first = _recv(probe)
        acting = first["view"]["to_act"]
        # The seats to act keep a socket open: a seat with none would be played by the
        # server after the grace period (30 s), which a slow run of 300 frames can outlast.
        for s in acting:
            if s != 0:
                keep = open_sockets.enter_context(connect(server.ws(code)))
                keep.send(json.dumps({"type": "auth", "token": tokens[s]}))
        idle = next(s for s in range(3) if s not in acting)
        ws = open_sockets.enter_context(connect(server.ws(code)))
        ws.send(json.dumps({"type": "auth", "token": tokens[idle]}))
        snap = _recv(ws)
        assert snap["type"] == "snapshot" and snap["step"] == 0

        @settings(
            max_examples=300,
            deadline=None,
            derandomize=True,
            suppress_health_check=[HealthCheck.function_scoped_fixture],
        )
        @given(_frames)
        def one(frame: str) -> None:
            TRIED["n"] += 1
            ws.send(frame)
            reply = _recv(ws)
            assert reply["type"] in ("error", "pong", "snapshot"), (frame, reply)
            if reply["type"] == "error":
                assert reply["code"] and reply["reason"]
            if reply["type"] == "snapshot":
                assert reply["step"] == 0  # a resync: nothing was applied

        one()
        # A fast run may have spent the socket's budget (100 messages a second): wait for
        # the bucket to refill rather than read its rate_limited error as the snapshot.
        for _ in range(20):
            ws.send(json.dumps({"type": "resync"}))
            again = _recv(ws)
            if again.get("code") != "rate_limited":
                break
            time.sleep(0.1)
        assert again["type"] == "snapshot", again
        assert again["step"] == 0 and again["view"] == snap["view"]
    print(f"websocket fuzz: {TRIED['n']} random frames tried")
    record_property("inputs_tried", f"{TRIED['n']} WebSocket frames (hypothesis)")
    assert TRIED["n"] >= 300
