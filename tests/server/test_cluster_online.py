"""Online status across workers (online.py): a club member whose socket is on one worker
shows online, at its table, in the member list any other worker serves; it shows offline
there soon after the socket closes, and soon after its worker dies (a dead worker's map
goes with its liveness key). Two ``paohuzi serve --redis`` workers on one PostgreSQL and
one Redis; skipped without ``$PAOHUZI_TEST_PG_URL`` and ``$PAOHUZI_TEST_REDIS_URL``."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from .conftest import Server, Sock, auth, guest
from .pg import pg_database
from .redisdb import redis_database

LEASE_MS = 1000


@pytest.fixture
def workers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Server]]:
    tmp_path = tmp_path_factory.mktemp("online")
    with redis_database() as redis_url, pg_database() as db:
        args = ["--redis", redis_url, "--lease-ms", str(LEASE_MS)]
        servers = [Server(db, tmp_path / f"w{i}.log", None, args) for i in range(2)]
        try:
            servers[0].start()
            servers[1].start()
            yield servers
        finally:
            for s in servers:
                s.stop()


def _call(srv: Server, method: str, path: str, token: str, body: Any = None) -> Any:
    r = httpx.request(method, f"{srv.http}{path}", json=body, headers=auth(token))
    assert r.status_code in (200, 201), r.text
    return r.json()


async def _member(srv: Server, cid: int, owner: str, who: int, online: bool) -> dict[str, Any]:
    """The member's row in the list ``srv`` serves, once its ``online`` is as asked."""
    deadline = time.monotonic() + 15
    while True:
        rows = {m["account_id"]: m for m in _call(srv, "GET", f"/clubs/{cid}/members", owner)}
        if rows[who]["online"] is online or time.monotonic() > deadline:
            return dict(rows[who])
        await asyncio.sleep(0.1)


async def test_a_member_on_another_worker_shows_online_there(workers: list[Server]) -> None:
    w0, w1 = workers
    owner, member = guest(w0, "圈主"), guest(w0, "小明")
    club = _call(w0, "POST", "/clubs", owner, {"name": "两台"})
    cid = club["id"]
    _call(w0, "POST", f"/clubs/{cid}/join", member, {"key": club["invite_key"]})
    who = _call(w0, "GET", "/accounts/me", member)["id"]
    t = _call(w0, "POST", f"/clubs/{cid}/templates", owner, {"name": "一局", "rounds": 1})
    code = _call(w0, "POST", f"/clubs/{cid}/templates/{t['id']}/open", owner)["code"]
    _call(w0, "POST", f"/rooms/{code}/join", member, {"seat": 0})
    assert (await _member(w0, cid, owner, who, False))["online"] is False

    sock = await Sock.open(w1, code, member)  # on the other worker
    await sock.kind("waiting")
    here = await _member(w1, cid, owner, who, True)
    there = await _member(w0, cid, owner, who, True)
    assert here["online"] and there["online"], (here, there)
    assert there["table"] == code == here["table"]
    await sock.close()
    gone = await _member(w0, cid, owner, who, False)
    assert gone["online"] is False and gone["table"] is None

    sock = await Sock.open(w1, code, member)
    await sock.kind("waiting")
    assert (await _member(w0, cid, owner, who, True))["table"] == code
    w1.kill()  # its map goes when its liveness key expires (3 leases)
    t0 = time.monotonic()
    assert (await _member(w0, cid, owner, who, False))["online"] is False
    assert time.monotonic() - t0 < 3 * LEASE_MS / 1000 + 3
    await sock.close()
