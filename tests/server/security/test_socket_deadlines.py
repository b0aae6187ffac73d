"""Connections that cost nothing cannot be held open: a WebSocket must authenticate within
its deadline, one address holds a bounded number of unauthenticated sockets, and an HTTP
connection that never finishes its headers is closed."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import websockets

from ..conftest import Server, guest, room

AUTH_SECONDS = 1.0
HEADER_SECONDS = 1.0
UNAUTHENTICATED = 5
CLOSE_UNAUTHENTICATED = 1008  # policy violation (limits.CLOSE_UNAUTHENTICATED)


@pytest.fixture(scope="module")
def strict(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    d: Path = tmp_path_factory.mktemp("deadlines")
    env = {
        "PAOHUZI_AUTH_SECONDS": str(AUTH_SECONDS),
        "PAOHUZI_UNAUTHENTICATED_SOCKETS": str(UNAUTHENTICATED),
        "PAOHUZI_HEADER_SECONDS": str(HEADER_SECONDS),
    }
    srv = Server(d / "server.db", d / "server.log", env=env)
    srv.start()
    yield srv
    srv.stop()


async def _closed_code(ws: websockets.ClientConnection, timeout: float) -> int | None:
    with pytest.raises(websockets.ConnectionClosed) as info:
        async with asyncio.timeout(timeout):
            while True:
                await ws.recv()
    return info.value.rcvd.code if info.value.rcvd else None


async def test_a_socket_that_does_not_authenticate_is_closed(strict: Server) -> None:
    code = room(strict, guest(strict, "h"))
    started = time.monotonic()
    async with websockets.connect(strict.ws(code)) as ws:
        await ws.send(json.dumps({"type": "ping"}))  # talking is not authenticating
        assert await _closed_code(ws, AUTH_SECONDS + 5) == CLOSE_UNAUTHENTICATED
    assert time.monotonic() - started < AUTH_SECONDS + 3


async def test_an_authenticated_socket_outlives_the_deadline(strict: Server) -> None:
    host = guest(strict, "h")
    code = room(strict, host)
    async with websockets.connect(strict.ws(code)) as ws:
        await ws.send(json.dumps({"type": "auth", "token": host, "spectate": True}))
        assert json.loads(await ws.recv())["type"] == "waiting"
        await asyncio.sleep(AUTH_SECONDS + 1)
        await ws.send(json.dumps({"type": "ping"}))
        assert json.loads(await ws.recv())["type"] == "pong"


async def test_unauthenticated_sockets_per_address_are_bounded(strict: Server) -> None:
    code = room(strict, guest(strict, "h"))
    held = [await websockets.connect(strict.ws(code)) for _ in range(UNAUTHENTICATED)]
    try:
        extra = await websockets.connect(strict.ws(code))
        assert await _closed_code(extra, 3) == CLOSE_UNAUTHENTICATED
    finally:
        for ws in held:
            await ws.close()


def _slow_headers(srv: Server, n: int) -> list[socket.socket]:
    socks = []
    for i in range(n):
        s = socket.create_connection(("127.0.0.1", srv.port))
        if i % 2:  # half send part of a request and stop; half send nothing at all
            s.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        socks.append(s)
    return socks


def test_200_slow_header_connections_are_closed_within_the_deadline(strict: Server) -> None:
    socks = _slow_headers(strict, 200)
    try:
        deadline = time.monotonic() + HEADER_SECONDS + 5
        open_ = set(socks)
        while open_ and time.monotonic() < deadline:
            for s in list(open_):
                s.settimeout(max(0.01, deadline - time.monotonic()) / len(open_))
                try:
                    if s.recv(4096) == b"":
                        open_.discard(s)
                except TimeoutError:
                    pass
                except ConnectionResetError:
                    open_.discard(s)
        assert not open_, f"{len(open_)} of 200 slow connections still open"
    finally:
        for s in socks:
            s.close()
    # a prompt request is still served
    with socket.create_connection(("127.0.0.1", strict.port)) as s:
        s.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        s.settimeout(5)
        assert s.recv(100).startswith(b"HTTP/1.1 200")


def test_connections_per_address_are_capped(tmp_path: Path) -> None:
    srv = Server(
        tmp_path / "s.db", tmp_path / "s.log", env={"PAOHUZI_CONNECTIONS_PER_ADDRESS": "10"}
    )
    srv.start()
    try:
        held = [socket.create_connection(("127.0.0.1", srv.port)) for _ in range(10)]
        time.sleep(0.3)
        with socket.create_connection(("127.0.0.1", srv.port)) as extra:
            extra.settimeout(3)
            with contextlib.suppress(ConnectionResetError):
                assert extra.recv(100) == b""  # closed at once, nothing read
        for s in held:
            s.close()
        time.sleep(0.3)
        with socket.create_connection(("127.0.0.1", srv.port)) as s:
            s.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            s.settimeout(5)
            assert s.recv(100).startswith(b"HTTP/1.1 200")
    finally:
        srv.stop()
