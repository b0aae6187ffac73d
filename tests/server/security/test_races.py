"""Concurrent starts and joins of one room, served by several applications on one database
(each its own process-local lock, as cluster workers are): one match, one seat holder, the
others a clear 409, never a 500; on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import httpx
from sqlalchemy import func, select

from paohuzi.server.app import create_app
from paohuzi.server.db import MatchRow, RoomRow, RoomSeat

APPS = 3


@contextlib.asynccontextmanager
async def _apps(db_url: str) -> AsyncIterator[list[httpx.AsyncClient]]:
    """``APPS`` applications on ``db_url``, started, each behind an HTTP client."""
    async with contextlib.AsyncExitStack() as stack:
        clients = []
        for _ in range(APPS):
            app = create_app(db_url)
            await stack.enter_async_context(app.router.lifespan_context(app))
            transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
            clients.append(
                await stack.enter_async_context(
                    httpx.AsyncClient(transport=transport, base_url="http://t")
                )
            )
        yield clients


async def _guest(c: httpx.AsyncClient, name: str) -> dict[str, str]:
    r = await c.post("/accounts/guest", json={"nickname": name})
    assert r.status_code == 201, r.text
    return {"Authorization": f"Bearer {r.json()['token']}"}


async def _room(c: httpx.AsyncClient, host: dict[str, str]) -> str:
    r = await c.post("/rooms", json={"rounds": 1}, headers=host)
    assert r.status_code == 201, r.text
    return str(r.json()["code"])


async def _count(db_url: str, model: Any, code: str) -> int:
    from paohuzi.server.db import make_engine

    engine, sessions = make_engine(db_url)
    try:
        async with sessions() as db:
            room_id = await db.scalar(select(RoomRow.id).where(RoomRow.code == code))
            n = await db.scalar(
                select(func.count()).select_from(model).where(model.room_id == room_id)
            )
            return int(n or 0)
    finally:
        await engine.dispose()


def _outcome(rs: list[httpx.Response]) -> list[tuple[int, str]]:
    return sorted((r.status_code, r.json().get("code", "") if r.status_code != 200 else "")
                  for r in rs)  # fmt: skip


async def test_concurrent_starts_make_one_match(db_url: str) -> None:
    async with _apps(db_url) as clients:
        for trial in range(4):
            host = await _guest(clients[0], f"host{trial}")
            code = await _room(clients[0], host)
            others = [await _guest(clients[i], f"p{trial}{i}") for i in (1, 2)]
            for i, who in enumerate([host, *others]):
                r = await clients[i].post(f"/rooms/{code}/join", json={"seat": i}, headers=who)
                assert r.status_code == 200, r.text
            got = await asyncio.gather(
                *(clients[i % APPS].post(f"/rooms/{code}/start", headers=host) for i in range(6))
            )
            assert _outcome(got) == [(200, "")] + [(409, "room_started")] * 5, [r.text for r in got]
            assert await _count(db_url, MatchRow, code) == 1
            ids = {r.json()["match_id"] for r in got if r.status_code == 200}
            info = (await clients[1].get(f"/rooms/{code}")).json()
            assert info["status"] == "playing" and {info["match_id"]} == ids


async def test_concurrent_joins_of_one_seat(db_url: str) -> None:
    async with _apps(db_url) as clients:
        host = await _guest(clients[0], "host")
        code = await _room(clients[0], host)
        players = [await _guest(clients[i % APPS], f"j{i}") for i in range(6)]
        got = await asyncio.gather(
            *(
                clients[i % APPS].post(f"/rooms/{code}/join", json={"seat": 1}, headers=p)
                for i, p in enumerate(players)
            )
        )
        assert _outcome(got) == [(200, "")] + [(409, "seat_taken")] * 5, [r.text for r in got]
        # Any free seat: three of six get one, the rest hear the room is full.
        code = await _room(clients[0], host)
        got = await asyncio.gather(
            *(
                clients[i % APPS].post(f"/rooms/{code}/join", json={}, headers=p)
                for i, p in enumerate(players)
            )
        )
        assert _outcome(got) == [(200, "")] * 3 + [(409, "room_full")] * 3, [r.text for r in got]
        assert await _count(db_url, RoomSeat, code) == 3
        # One account twice at once: one seat.
        code = await _room(clients[0], host)
        got = await asyncio.gather(
            *(
                clients[i % APPS].post(f"/rooms/{code}/join", json={"seat": i}, headers=host)
                for i in range(3)
            )
        )
        assert _outcome(got) == [(200, "")] + [(409, "already_seated")] * 2, [r.text for r in got]


async def test_joins_bots_and_start_at_once(db_url: str) -> None:
    """Bots, a join and a start racing: a match starts only with three seats taken, and
    what lost the race is a 409."""
    async with _apps(db_url) as clients:
        for trial in range(3):
            host = await _guest(clients[0], f"h{trial}")
            code = await _room(clients[0], host)
            joiner = await _guest(clients[1], f"g{trial}")
            got = await asyncio.gather(
                clients[0].post(f"/rooms/{code}/bots", json={"bot": "random"}, headers=host),
                clients[1].post(f"/rooms/{code}/join", json={}, headers=joiner),
                clients[2].post(f"/rooms/{code}/start", headers=host),
                clients[1].post(f"/rooms/{code}/start", headers=host),
            )
            assert all(r.status_code in (200, 409) for r in got), [r.text for r in got]
            matches = await _count(db_url, MatchRow, code)
            seats = await _count(db_url, RoomSeat, code)
            assert seats == 3 and matches <= 1
            assert sum(r.status_code == 200 for r in got[2:]) == matches


async def test_one_person_started_in_two_rooms_at_once_plays_one_match(db_url: str) -> None:
    """Two rooms with the same person started at the same moment on different workers:
    one match for 悟性, the other start refused (``in_match``), its room open again. The
    people's advisory locks are held by the start's transaction, so neither start misses the
    other's match (two matches on one balance could take it below zero)."""
    async with _apps(db_url) as clients:
        for trial in range(3):
            me = await _guest(clients[0], f"me{trial}")
            codes = []
            for _ in range(2):
                code = await _room(clients[0], me)
                r = await clients[0].post(f"/rooms/{code}/join", json={"seat": 0}, headers=me)
                assert r.status_code == 200, r.text
                r = await clients[0].post(f"/rooms/{code}/bots", json={"bot": "random"}, headers=me)
                assert r.status_code == 200, r.text
                codes.append(code)
            got = await asyncio.gather(
                clients[1].post(f"/rooms/{codes[0]}/start", headers=me),
                clients[2].post(f"/rooms/{codes[1]}/start", headers=me),
            )
            assert _outcome(got) == [(200, ""), (409, "in_match")], [r.text for r in got]
            assert sum([await _count(db_url, MatchRow, c) for c in codes]) == 1


async def test_concurrent_analysis_requests_stay_within_the_pool(db_url: str) -> None:
    """The pool's places and an account's analyses are taken before the request's first
    ``await``: 9 requests at once for a pool of 1 worker + 1 waiting place start 2 jobs
    (15 of 18 got started before), the rest a clear 503 ``busy``."""
    from paohuzi.server.services.analysis import AnalysisPool, AnalysisSettings

    async with contextlib.AsyncExitStack() as stack:
        app = create_app(db_url)
        await stack.enter_async_context(app.router.lifespan_context(app))
        app.state.analysis = AnalysisPool(AnalysisSettings(workers=1, queue=1, samples=2))
        transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
        c = await stack.enter_async_context(
            httpx.AsyncClient(transport=transport, base_url="http://t")
        )
        matches = []
        for i in range(3):  # (a host may run two matches of bots only at once)
            host = await _guest(c, f"host{i}")
            code = await _room(c, host)
            assert (
                await c.post(f"/rooms/{code}/bots", json={"bot": "random"}, headers=host)
            ).status_code == 200
            r = await c.post(f"/rooms/{code}/start", headers=host)
            assert r.status_code == 200, r.text
            matches.append((code, r.json()["match_id"]))
        for code, _ in matches:
            for _ in range(1200):
                if (await c.get(f"/rooms/{code}")).json()["status"] == "finished":
                    break
                await asyncio.sleep(0.05)
        askers = [await _guest(c, f"a{i}") for i in range(3)]
        got = await asyncio.gather(
            *(
                c.post(f"/matches/{m}/analysis?seat={seat}", headers=askers[seat])
                for _, m in matches
                for seat in range(3)
            )
        )
        codes = sorted((r.status_code, r.json().get("code", r.json().get("status"))) for r in got)
        assert codes == [(202, "running")] * 2 + [(503, "busy")] * 7, [r.text for r in got]
        app.state.analysis.close()


async def test_concurrent_templates_and_tournaments_keep_the_clubs_caps(db_url: str) -> None:
    """A club's caps held one request at a time but not at once: 30 concurrent template
    creates all went in (the cap is 20), and 3 concurrent tournaments all started (one
    at a time)."""
    from paohuzi.server.clubdb import ClubTemplate, Tournament
    from paohuzi.server.db import make_engine
    from paohuzi.server.services.clubrooms import MAX_TEMPLATES

    async with _apps(db_url) as clients:
        owner = await _guest(clients[0], "owner")
        club = (await clients[0].post("/clubs", json={"name": "并发"}, headers=owner)).json()
        cid = club["id"]
        body = {"name": "t", "rounds": 1}
        got = await asyncio.gather(
            *(clients[i % APPS].post(f"/clubs/{cid}/templates", json=body, headers=owner)
              for i in range(MAX_TEMPLATES + 10))
        )  # fmt: skip
        codes = sorted(r.status_code for r in got)
        assert codes == [201] * MAX_TEMPLATES + [409] * 10, [
            r.text for r in got if r.status_code >= 500
        ]
        me = (await clients[0].get("/accounts/me", headers=owner)).json()["id"]
        t_body = {"deals": 1, "players": [me, "random", "random"]}
        got = await asyncio.gather(
            *(clients[i % APPS].post(f"/clubs/{cid}/tournaments", json=t_body, headers=owner)
              for i in range(3))
        )  # fmt: skip
        assert sorted(r.status_code for r in got) == [201, 409, 409], [r.text for r in got]
        assert all(r.json()["code"] == "busy" for r in got if r.status_code == 409)
    engine, sessions = make_engine(db_url)
    try:
        async with sessions() as db:
            n = await db.scalar(select(func.count()).where(ClubTemplate.club_id == cid))
            assert n == MAX_TEMPLATES
            n = await db.scalar(select(func.count()).where(Tournament.club_id == cid))
            assert n == 1
    finally:
        await engine.dispose()
