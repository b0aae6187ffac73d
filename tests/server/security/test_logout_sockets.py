"""Logout ends the sockets opened with that token (they went on working before): on the
worker that logged out, and with several workers on the others too (through Redis)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import websockets
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from paohuzi.server.app import create_app

from ..conftest import Server, auth, guest, room
from ..pg import pg_database
from ..redisdb import redis_database

LOGGED_OUT = 4001


def test_logout_closes_the_sockets_of_that_token(db_url: str) -> None:
    with TestClient(create_app(db_url)) as c:
        token = c.post("/accounts/guest", json={"nickname": "a"}).json()["token"]
        bearer = {"Authorization": f"Bearer {token}"}
        code = c.post("/rooms", json={"rounds": 1}, headers=bearer).json()["code"]
        assert c.post(f"/rooms/{code}/join", json={}, headers=bearer).status_code == 200
        second = c.post("/accounts/guest", json={"nickname": "b"}).json()["token"]
        assert c.post(f"/rooms/{code}/join", json={}, headers={
            "Authorization": f"Bearer {second}"}).status_code == 200  # fmt: skip
        with c.websocket_connect(f"/ws/{code}") as ws, c.websocket_connect(f"/ws/{code}") as kept:
            ws.send_json({"type": "auth", "token": token})
            assert ws.receive_json()["type"] == "waiting"
            # Both joined from the test client's one address: warned (docs/clubs.md).
            assert ws.receive_json()["type"] == "same_address"
            kept.send_json({"type": "auth", "token": second})
            assert kept.receive_json()["type"] == "waiting"
            assert kept.receive_json()["type"] == "same_address"
            assert c.post("/accounts/logout", headers=bearer).status_code == 204
            ws.send_json({"type": "ping"})  # answered while the session lived
            with pytest.raises(WebSocketDisconnect) as closed:
                assert ws.receive_json()["type"] != "pong", "the socket outlived its session"
            assert closed.value.code == LOGGED_OUT
            kept.send_json({"type": "ping"})
            assert kept.receive_json()["type"] == "pong"  # another session: untouched


@pytest.fixture
def two_workers(tmp_path: Path) -> Iterator[list[Server]]:
    with redis_database() as redis_url, pg_database() as db:
        args = ["--redis", redis_url, "--lease-ms", "2000"]
        servers = [Server(db, tmp_path / f"w{i}.log", {}, args) for i in range(2)]
        try:
            servers[0].start()
            servers[1].start()
            yield servers
        finally:
            for s in servers:
                s.stop()


async def test_logout_on_one_worker_closes_sockets_on_another(two_workers: list[Server]) -> None:
    a, b = two_workers
    token = guest(a, "roamer")
    code = room(a, token)
    assert httpx.post(f"{a.http}/rooms/{code}/join", json={}, headers=auth(token)).is_success
    async with websockets.connect(b.ws(code)) as ws:
        await ws.send(json.dumps({"type": "auth", "token": token}))
        assert json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] == "waiting"
        assert httpx.post(f"{a.http}/accounts/logout", headers=auth(token)).status_code == 204
        with pytest.raises(websockets.ConnectionClosed):
            while True:
                await asyncio.wait_for(ws.recv(), 10)
        assert ws.close_code == LOGGED_OUT
