"""Per-socket limits (floods, oversized frames) and the authorization gaps, on the real server."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest
import websockets

from paohuzi.server.limits import PlaySettings, TokenBucket
from paohuzi.server.protocol import CLOSE_FLOOD, CLOSE_TOO_BIG, MAX_FRAME

from .conftest import Server, Sock, auth, guest, join, room, seated_room, start


async def _table_step(srv: Server, code: str, token: str) -> tuple[int, dict[str, object]]:
    sock = await Sock.open(srv, code, token)
    try:
        snap = await sock.kind("snapshot")
        return snap["step"], snap["view"]  # the first decision is public: it moves the step
    finally:
        await sock.close()


async def test_a_flood_is_refused_then_closed_and_the_table_stays(server: Server) -> None:
    code, tokens = seated_room(server, 3)
    await asyncio.to_thread(start, server, code, tokens[0])
    before = await _table_step(server, code, tokens[1])
    sock = await Sock.open(server, code, tokens[0])
    await sock.kind("snapshot")
    intent = json.dumps({"type": "act", "action": 20, "step": 0, "client_id": "f"})
    sent = 0
    with pytest.raises(websockets.ConnectionClosed):
        for i in range(5000):  # far past the 200-message bucket, without reading answers
            await sock.ws.send(intent if i % 2 else '{"type": "ping"}')
            sent += 1
            if i % 100 == 0:
                await asyncio.sleep(0)
        await sock.ws.recv()  # the close arrives, if it had not yet
    with pytest.raises(AssertionError):
        await sock.until(lambda m: False, timeout=5)
    assert sock.ws.close_code == CLOSE_FLOOD
    codes = [m.get("code") for m in sock.messages if m["type"] == "error"]
    assert "rate_limited" in codes
    assert set(codes) <= {"rate_limited", "not_your_turn", "illegal", "stale"}, set(codes)
    print(f"flood: closed with {sock.ws.close_code} after {sent} messages sent")
    after = await _table_step(server, code, tokens[1])
    assert after == before  # no intent of the flood was applied (过 is not legal at the start)
    assert httpx.get(f"{server.http}/health").status_code == 200


async def test_an_oversized_frame_closes_with_1009(server: Server) -> None:
    code, tokens = seated_room(server, 3)
    await asyncio.to_thread(start, server, code, tokens[0])
    before = await _table_step(server, code, tokens[1])
    ws = await websockets.connect(server.ws(code), max_size=None)
    await ws.send(json.dumps({"type": "auth", "token": tokens[0]}))
    await ws.recv()
    await ws.send(json.dumps({"type": "ping", "pad": "x" * MAX_FRAME}))
    with pytest.raises(websockets.ConnectionClosed):
        while True:
            await asyncio.wait_for(ws.recv(), 10)
    assert ws.close_code == CLOSE_TOO_BIG
    assert await _table_step(server, code, tokens[1]) == before
    assert httpx.get(f"{server.http}/health").status_code == 200


def test_token_bucket() -> None:
    b = TokenBucket(rate=0, burst=3)
    assert [b.take() for _ in range(5)] == [True, True, True, False, False]
    assert not b.flooding
    assert not b.take() and b.flooding  # a whole bucket over: close
    fast = TokenBucket(rate=1e9, burst=2)
    assert all(fast.take() for _ in range(100))  # refilled as fast as it is spent
    with pytest.raises(ValueError, match="ws_rate"):
        PlaySettings(ws_rate=0)


def test_settings_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PAOHUZI_GRACE", "2.5")
    monkeypatch.setenv("PAOHUZI_WS_BURST", "50")
    s = PlaySettings.from_env()
    assert (s.grace, s.ws_burst, s.dissolve_seconds) == (2.5, 50.0, 60.0)
    monkeypatch.setenv("PAOHUZI_GRACE", "soon")
    with pytest.raises(ValueError, match="'soon'"):
        PlaySettings.from_env()
    monkeypatch.setenv("PAOHUZI_GRACE", "-1")
    with pytest.raises(ValueError, match="'-1'"):
        PlaySettings.from_env()


async def test_authorization_gaps(server: Server) -> None:
    code, tokens = seated_room(server, 3)
    # One account cannot take two seats, not even by naming a free one.
    extra = room(server, tokens[0])
    assert join(server, extra, tokens[1], 0) == 0
    twice = httpx.post(f"{server.http}/rooms/{extra}/join", json={"seat": 2},
                       headers=auth(tokens[1]))  # fmt: skip
    assert twice.status_code == 409 and twice.json()["code"] == "already_seated"
    await asyncio.to_thread(start, server, code, tokens[0])
    before = await _table_step(server, code, tokens[1])
    # Nothing but auth, ping works on an unauthenticated socket.
    anon = Sock(await websockets.connect(server.ws(code)))
    try:
        for msg in ({"type": "tuoguan", "on": True}, {"type": "dissolve", "agree": True},
                    {"type": "resync"}):  # fmt: skip
            await anon.send(**msg)
            assert (await anon.kind("error"))["code"] == "unauthenticated", msg
    finally:
        await anon.close()
    # A logged-out token no longer opens a seat.
    r = httpx.post(f"{server.http}/accounts/login", json={"username": "x", "password": "y"})
    assert r.status_code == 401
    gone = guest(server, "bye")
    assert httpx.post(f"{server.http}/accounts/logout", headers=auth(gone)).status_code == 204
    late = await Sock.open(server, code, gone)
    try:
        assert (await late.kind("error"))["code"] == "unauthenticated"
    finally:
        await late.close()
    # A spectator can neither hand over a seat nor vote.
    watcher = await Sock.open(server, code, guest(server, "eye"), spectate=True)
    try:
        await watcher.kind("snapshot")
        await watcher.send(type="tuoguan", on=True)
        assert (await watcher.kind("error"))["code"] == "spectator"
        await watcher.send(type="dissolve", agree=True)
        assert (await watcher.kind("error"))["code"] == "spectator"
    finally:
        await watcher.close()
    # A second socket of a seated account is the same seat: it cannot answer for another.
    actor = before[1]["to_act"][0]  # type: ignore[index]
    other = (actor + 1) % 3
    s2 = await Sock.open(server, code, tokens[other])
    try:
        snap = await s2.kind("snapshot")
        assert snap["seat"] == other and snap["legal"] == []
        await s2.send(type="act", action="打:一", step=0, client_id="not-mine")
        assert (await s2.kind("error"))["code"] == "not_your_turn"
    finally:
        await s2.close()
    assert await _table_step(server, code, tokens[1]) == before
