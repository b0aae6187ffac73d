"""A finished match's record is rebuilt once, off the event loop, and then served from a
bounded cache: 40 anonymous requests at once neither stall the server nor rebuild 40 times."""

from __future__ import annotations

import asyncio
import time

import httpx
import pytest

from ..conftest import Server, auth, guest, room


def _finished_bot_match(srv: Server, rounds: int) -> int:
    host = guest(srv, "host")
    code = room(srv, host, rounds=rounds)
    r = httpx.post(f"{srv.http}/rooms/{code}/bots", json={"bot": "random"}, headers=auth(host))
    assert r.status_code == 200, r.text
    r = httpx.post(f"{srv.http}/rooms/{code}/start", headers=auth(host))
    assert r.status_code == 200, r.text
    deadline = time.monotonic() + 120
    while httpx.get(f"{srv.http}/rooms/{code}", headers=auth(host)).json()["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.2)
    return int(r.json()["match_id"])


async def test_40_concurrent_replays_are_answered_quickly_and_rebuilt_once(
    server: Server,
) -> None:
    match_id = await asyncio.to_thread(_finished_bot_match, server, 8)
    rebuilt_before = server.output_tail(10**7).count(f"match {match_id} record rebuilt")
    async with httpx.AsyncClient(base_url=server.http, timeout=30) as c:
        started = time.monotonic()
        answers = await asyncio.gather(
            *[c.get(f"/matches/{match_id}/record") for _ in range(40)],
            c.get("/health"),
        )
        took = time.monotonic() - started
    records, health = answers[:-1], answers[-1]
    assert health.status_code == 200
    assert all(r.status_code == 200 for r in records)
    assert len({r.content for r in records}) == 1
    record = records[0].json()
    assert len(record["rounds"]) >= 1
    assert took < 10, f"40 replays took {took:.1f} s"
    log = server.output_tail(10**7)
    assert log.count(f"match {match_id} record rebuilt") - rebuilt_before == 1


async def test_the_cache_shares_one_build_and_is_bounded() -> None:
    from paohuzi.server.replays import ReplayCache

    cache = ReplayCache(max_items=3, max_bytes=25)
    calls = 0

    async def build() -> bytes:
        nonlocal calls
        calls += 1
        await asyncio.sleep(0.05)
        return b"x" * 10

    got = await asyncio.gather(*[cache.get(1, build) for _ in range(20)])
    assert calls == 1 and set(got) == {b"x" * 10}
    await cache.get(2, build)
    await cache.get(3, build)  # 30 bytes: over 25, the oldest (1) goes
    assert list(cache.items) == [2, 3] and cache.size == 20
    await cache.get(2, build)
    assert calls == 3


async def test_a_failed_build_is_not_kept() -> None:
    from paohuzi.server.replays import ReplayCache

    cache = ReplayCache()

    async def broken() -> bytes:
        raise RuntimeError("database gone")

    with pytest.raises(RuntimeError):
        await cache.get(5, broken)
    assert 5 not in cache.items and not cache.building


async def test_concurrent_round_replays_share_one_rebuild(server: Server) -> None:
    """The replay viewer's step-by-step rounds come from the same cached record (they
    replayed the whole match for every request): one rebuild, equal answers, names kept."""
    match_id = await asyncio.to_thread(_finished_bot_match, server, 4)
    rebuilt_before = server.output_tail(10**7).count(f"match {match_id} record rebuilt")
    async with httpx.AsyncClient(base_url=server.http, timeout=30) as c:
        answers = await asyncio.gather(
            # 12: the module's server already served 40 records to this address (its
            # replay budget is 60, then 2 a second)
            *[c.get(f"/matches/{match_id}/replay/0", params={"seat": 1}) for _ in range(12)],
            c.get(f"/matches/{match_id}/replay/0"),
        )
    seat1, public = answers[:-1], answers[-1]
    assert all(r.status_code == 200 for r in answers), [r.text[:80] for r in answers]
    assert len({r.content for r in seat1}) == 1
    body = seat1[0].json()
    assert body["round"] == 0 and body["seat"] == 1 and len(body["steps"]) > 1
    assert body["names"] == ["random bot"] * 3  # every seat a bot, named as seated
    assert public.json()["seat"] is None and public.json()["steps"] != body["steps"]
    log = server.output_tail(10**7)
    assert log.count(f"match {match_id} record rebuilt") - rebuilt_before == 1
    async with httpx.AsyncClient(base_url=server.http, timeout=30) as c:
        r = await c.get(f"/matches/{match_id}/replay/{99}")
        assert r.status_code == 404 and r.json()["code"] == "no_round"
