"""解散: a vote of every seat ends a match early; a refusal or the deadline cancels it; the
vote, 托管 and the clocks survive a SIGKILL."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from .conftest import Server, Sock, auth, guest, seated_room, start

VOTE_SECONDS = 0.6


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    d = tmp_path_factory.mktemp("vote")
    env = {"PAOHUZI_DISSOLVE_SECONDS": str(VOTE_SECONDS)}
    s = Server(d / "server.db", d / "server.log", env=env)
    s.start()
    yield s
    s.stop()


def _vote(outcome: str | None) -> object:
    return lambda m: m["type"] == "dissolve_vote" and m["outcome"] == outcome


async def test_refused_expired_and_bad_votes(srv: Server) -> None:
    code, tokens = seated_room(srv, 3)
    await asyncio.to_thread(start, srv, code, tokens[0])
    a, b, c = [await Sock.open(srv, code, t) for t in tokens]
    watcher = await Sock.open(srv, code, guest(srv, "w"), spectate=True)
    try:
        snap = await a.kind("snapshot")
        assert snap["dissolve"] is None
        await a.send(type="dissolve", agree=False)
        assert (await a.kind("error"))["code"] == "no_vote"
        await watcher.send(type="dissolve", agree=True)
        assert (await watcher.kind("error"))["code"] == "spectator"
        await a.send(type="dissolve", agree=True)
        for s in (a, b, c, watcher):
            m = await s.until(_vote(None))
            assert m["proposer"] == 0 and m["votes"] == [True, None, None]
            assert 0 < m["remaining"] <= VOTE_SECONDS
        await a.send(type="dissolve", agree=True)
        assert (await a.kind("error"))["code"] == "already_voted"
        await c.send(type="resync")
        assert (await c.kind("snapshot"))["dissolve"]["votes"] == [True, None, None]
        await b.send(type="dissolve", agree=False)
        for s in (a, b, c, watcher):
            assert (await s.until(_vote("refused")))["votes"] == [True, False, None]
        # The proposer may not put the same question up again at once (it was spammed).
        await a.send(type="dissolve", agree=True)
        again = await a.kind("error")
        assert again["code"] == "too_many_requests" and "propose again in" in again["reason"]
        # Play goes on.
        await c.send(type="resync")
        now = await c.kind("snapshot")
        assert now["dissolve"] is None
        actor = now["view"]["to_act"][0]
        sock = [a, b, c][actor]
        await sock.send(type="resync")
        turn = await sock.kind("snapshot")
        await sock.send(type="act", action=turn["legal"][0]["id"], step=turn["step"],
                        client_id="go")  # fmt: skip
        assert (await sock.kind("ack"))["step"] == 1  # the first decision: one step on
        # Nobody answers: the vote expires.
        asked = time.monotonic()
        await b.send(type="dissolve", agree=True)
        assert (await c.until(_vote(None)))["votes"] == [None, True, None]
        assert (await c.until(_vote("expired"), timeout=10))["proposer"] == 1
        assert time.monotonic() - asked >= VOTE_SECONDS * 0.8
        await c.send(type="dissolve", agree=False)
        assert (await c.kind("error"))["code"] == "no_vote"
        await b.send(type="dissolve", agree=True)  # an expired proposal waits too
        assert (await b.kind("error"))["code"] == "too_many_requests"
    finally:
        for s in (a, b, c, watcher):
            await s.close()


async def test_dissolved_after_a_settled_round(srv: Server) -> None:
    # The server plays fast: by the time the seat takes its decisions back it may have
    # played more rounds than the first, so the match has enough not to end first.
    code, (me,) = seated_room(srv, 1, bot="heuristic", rounds=8)
    sock = await Sock.open(srv, code, me)
    try:
        await sock.kind("waiting")
        match_id = await asyncio.to_thread(start, srv, code, me)
        await sock.send(type="tuoguan", on=True)  # the server plays round 0 for the seat
        await sock.until(lambda m: m["type"] in ("prompt", "snapshot") and m["round"] == 1)
        await sock.send(type="tuoguan", on=False)
        await sock.send(type="dissolve", agree=True)  # the bots agree at once
        vote = await sock.until(_vote("dissolved"))
        assert vote["votes"] == [True, True, True]
        over = await sock.kind("match_over")
        assert over["dissolved"] and over["match_id"] == match_id
        await sock.send(type="act", action=20, step=0, client_id="late")
        assert (await sock.kind("error"))["code"] == "match_over"
        await sock.send(type="tuoguan", on=True)
        assert (await sock.kind("error"))["code"] == "match_over"
    finally:
        await sock.close()
    record = httpx.get(f"{srv.http}/matches/{match_id}/record").json()
    played = len(record["rounds"]) - 1  # rounds settled before the vote (the last is not)
    assert 1 <= played < 8 and record["rounds"][-1].get("result") is None
    assert all(r.get("result") is not None for r in record["rounds"][:-1])
    rows = httpx.get(f"{srv.http}/matches/{match_id}/ledger").json()
    assert {r["round"] for r in rows} == set(range(played)) and len(rows) == 3 * played
    assert sum(r["delta"] for r in rows) == 0
    info = httpx.get(f"{srv.http}/rooms/{code}").json()
    seat_of = {s["account_id"]: i for i, s in enumerate(info["seats"])}
    totals = [0, 0, 0]
    for r in rows:
        totals[seat_of[r["account_id"]]] += r["delta"]
    assert over["totals"] == totals and info["status"] == "finished"
    mine = httpx.get(f"{srv.http}/accounts/me/matches", headers=auth(me)).json()
    assert mine[0]["dissolved"] and mine[0]["status"] == "finished"
    assert mine[0]["net"] == totals[0]
    # A seat that comes back later is told the match was dissolved (from the database).
    again = await Sock.open(srv, code, me)
    try:
        assert (await again.kind("match_over"))["dissolved"]
    finally:
        await again.close()


async def test_vote_tuoguan_and_clocks_survive_sigkill(tmp_path: Path) -> None:
    s = Server(tmp_path / "server.db", tmp_path / "server.log")
    s.start()
    try:
        code, tokens = seated_room(s, 3, time_limit=5)
        await asyncio.to_thread(start, s, code, tokens[0])
        socks = [await Sock.open(s, code, t) for t in tokens]
        snaps = [await sock.kind("snapshot") for sock in socks]
        actor = snaps[0]["view"]["to_act"][0]
        first = snaps[actor]
        assert first["deadline"] is not None and first["time_limit"] == 5
        idle = next(i for i in range(3) if i != actor)
        other = 3 - actor - idle
        await socks[idle].send(type="tuoguan", on=True)
        await socks[idle].until(lambda m: m["type"] == "seats" and m["seats"][idle]["tuoguan"])
        await socks[actor].send(type="dissolve", agree=True)
        await socks[other].until(_vote(None))
        await socks[other].send(type="dissolve", agree=True)
        opened = await socks[other].until(_vote(None))
        assert opened["votes"][actor] and opened["votes"][other]
        await asyncio.sleep(0.2)
        s.kill()
        killed_at = time.time()
        for sock in socks:
            await sock.close()
        await asyncio.to_thread(s.start)
        back = await Sock.open(s, code, tokens[idle])
        again = await back.kind("snapshot")
        assert again["dissolve"] is not None
        assert again["dissolve"]["votes"] == opened["votes"]
        assert again["dissolve"]["deadline"] == opened["deadline"]
        assert again["seats"][idle]["tuoguan"] and again["seats"][idle]["reason"] == "self"
        clock = await Sock.open(s, code, tokens[actor])
        rebuilt = await clock.kind("snapshot")
        if rebuilt["legal"]:  # the actor's pending decision got a fresh clock, after the crash
            # (once in CI it equalled the first: the context says what the server did)
            context = (first, rebuilt, s.output_tail(4000))
            assert rebuilt["deadline"] >= killed_at + 5 > first["deadline"], context
            assert 0 < rebuilt["remaining"] <= 5, context
        await back.send(type="dissolve", agree=True)
        assert (await back.until(_vote("dissolved")))["votes"] == [True, True, True]
        assert (await clock.kind("match_over"))["dissolved"]
        await back.close()
        await clock.close()
        match_id = again["match_id"]
        assert httpx.get(f"{s.http}/matches/{match_id}/ledger").json() == []
    finally:
        s.stop()
