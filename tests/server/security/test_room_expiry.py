"""Rooms that will never be played expire, and an over room lets its code go, so the
million six-digit codes cannot run out."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import sqlalchemy as sa
import websockets
from sqlalchemy.exc import IntegrityError

from paohuzi.server.db import sync_engine, upgrade

from ..conftest import Server, auth, guest, join, room

OPEN_SECONDS = 3.0
EMPTY_SECONDS = 1.0


@pytest.fixture(scope="module")
def sweeping(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    d: Path = tmp_path_factory.mktemp("expiry")
    env = {
        "PAOHUZI_ROOM_OPEN_SECONDS": str(OPEN_SECONDS),
        "PAOHUZI_ROOM_EMPTY_SECONDS": str(EMPTY_SECONDS),
        "PAOHUZI_ROOM_SWEEP_SECONDS": "0.2",
    }
    srv = Server(d / "server.db", d / "server.log", env=env)
    srv.start()
    yield srv
    srv.stop()


def _status(srv: Server, code: str, token: str) -> str:
    r = httpx.get(f"{srv.http}/rooms/{code}", headers=auth(token))
    assert r.status_code == 200, r.text
    return str(r.json()["status"])


def _wait_status(srv: Server, code: str, token: str, want: str, within: float) -> float:
    started = time.monotonic()
    while _status(srv, code, token) != want:
        assert time.monotonic() - started < within, f"room {code} still not {want}"
        time.sleep(0.1)
    return time.monotonic() - started


def test_open_rooms_expire_empty_ones_sooner(sweeping: Server) -> None:
    host = guest(sweeping, "h")
    empty = room(sweeping, host)
    seated = room(sweeping, host)
    join(sweeping, seated, host)
    _wait_status(sweeping, empty, host, "expired", EMPTY_SECONDS + 3)
    assert _status(sweeping, seated, host) == "open"  # someone sits: it waits longer
    _wait_status(sweeping, seated, host, "expired", OPEN_SECONDS + 3)
    late = httpx.post(
        f"{sweeping.http}/rooms/{seated}/join", json={}, headers=auth(guest(sweeping))
    )
    assert late.status_code == 409 and late.json()["code"] == "room_started"
    lobby = [r["code"] for r in httpx.get(f"{sweeping.http}/rooms").json()]
    assert empty not in lobby and seated not in lobby


def _room_row(conn: sa.Connection, code: str, status: str, host: int = 1) -> None:
    conn.execute(
        sa.text(
            "INSERT INTO rooms (code, host_id, public, rounds, rules, status, created_at) "
            "VALUES (:code, :host, true, 1, '{}', :status, CURRENT_TIMESTAMP)"
        ),
        {"code": code, "host": host, "status": status},
    )


def test_a_code_is_unique_among_live_rooms_only(db_url: str) -> None:
    upgrade(db_url)
    engine = sync_engine(db_url)
    try:
        with engine.begin() as conn:
            conn.execute(
                sa.text(
                    "INSERT INTO accounts (id, nickname, kind, balance, created_at) "
                    "VALUES (1, 'h', 'guest', 0, CURRENT_TIMESTAMP)"
                )
            )
            for status in ("finished", "expired", "finished", "open"):
                _room_row(conn, "123456", status)
        for status in ("open", "playing"):
            with pytest.raises(IntegrityError), engine.begin() as conn:
                _room_row(conn, "123456", status)
    finally:
        engine.dispose()


def test_an_expired_room_code_is_taken_again_and_the_live_room_is_found(
    sweeping: Server,
) -> None:
    host = guest(sweeping, "h")
    old = room(sweeping, host)
    _wait_status(sweeping, old, host, "expired", EMPTY_SECONDS + 3)
    other = guest(sweeping, "o")
    other_id = httpx.get(f"{sweeping.http}/accounts/me", headers=auth(other)).json()["id"]
    engine = sync_engine(sweeping.db_url)
    try:
        with engine.begin() as conn:  # what create_room may now do: the code is free
            _room_row(conn, old, "open", other_id)
    finally:
        engine.dispose()
    now_ = httpx.get(f"{sweeping.http}/rooms/{old}").json()
    assert now_["status"] == "open" and now_["host_id"] == other_id


async def test_a_socket_for_an_expired_room_is_told_so(sweeping: Server) -> None:
    host = guest(sweeping, "h")
    code = room(sweeping, host)
    join(sweeping, code, host)
    await asyncio.to_thread(_wait_status, sweeping, code, host, "expired", OPEN_SECONDS + 3)
    async with websockets.connect(sweeping.ws(code)) as ws:
        await ws.send(json.dumps({"type": "auth", "token": host}))
        m = json.loads(await ws.recv())
    assert m["type"] == "error" and m["code"] == "room_expired"


async def test_a_socket_waiting_for_a_room_that_expires_is_told_so(sweeping: Server) -> None:
    # Signed in before the expiry, it waited for a start that would never come.
    host = guest(sweeping, "h")
    code = room(sweeping, host)
    join(sweeping, code, host)
    async with websockets.connect(sweeping.ws(code)) as ws:
        await ws.send(json.dumps({"type": "auth", "token": host}))
        first = json.loads(await asyncio.wait_for(ws.recv(), 10))
        assert first["type"] == "waiting"
        m = json.loads(await asyncio.wait_for(ws.recv(), OPEN_SECONDS + 5))
    assert m["type"] == "error" and m["code"] == "room_expired" and code in m["reason"]
