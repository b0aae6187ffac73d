"""准备 between rounds: the next round waits for every seat (or the room's timeout), no
clock runs meanwhile, the wait is in the snapshot and survives a kill -9, and the deal
is durable once told."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import httpx

from .conftest import Server, Sock, auth, guest, join, my_turn, start


def ready_room(
    srv: Server, ready_seconds: float, time_limit: float | None = None, rounds: int = 2
) -> tuple[str, str]:
    """A room of ``rounds``: one guest in seat 0, heuristic bots in the others."""
    me = guest(srv, "p0")
    body = {"rounds": rounds, "ready_seconds": ready_seconds, "time_limit": time_limit}
    r = httpx.post(f"{srv.http}/rooms", json=body, headers=auth(me))
    assert r.status_code == 201, r.text
    assert r.json()["ready_seconds"] == ready_seconds
    code = str(r.json()["code"])
    assert join(srv, code, me, 0) == 0
    r = httpx.post(f"{srv.http}/rooms/{code}/bots", json={"bot": "heuristic"}, headers=auth(me))
    assert r.status_code == 200, r.text
    return code, me


async def play_until_ready(sock: Sock, limit: float = 60) -> dict[str, Any]:
    """Answer the seat's decisions (过 or the first) until the round ends: the readiness."""
    while True:
        m = await sock.until(lambda m: my_turn(m) or m["type"] == "readiness", timeout=limit)
        if m["type"] == "readiness":
            return m
        ids = [a["id"] for a in m["legal"]]
        aid = 20 if 20 in ids else ids[0]
        await sock.send(type="act", action=aid, step=m["step"], client_id=f"c{m['since']}")


async def test_the_next_round_waits_for_ready_with_no_clock_and_survives_a_reload(
    tmp_path: Path,
) -> None:
    srv = Server(tmp_path / "server.db", tmp_path / "server.log")
    srv.start()
    try:
        code, me = ready_room(srv, 60, time_limit=1.0)
        await asyncio.to_thread(start, srv, code, me)
        sock = await Sock.open(srv, code, me)
        wait = await play_until_ready(sock)
        # Bots are ready at once; the person is not; nobody is asked anything.
        assert wait["round"] == 1 and wait["ready"] == [False, True, True]
        assert 50 < wait["remaining"] <= 60
        await asyncio.sleep(1.5)  # longer than the per-decision limit: no clock runs
        await sock.close()
        # A reload during the 结算: the snapshot is the ended round with the wait in it.
        sock = await Sock.open(srv, code, me)
        snap = await sock.kind("snapshot")
        assert snap["round"] == 0 and snap["view"]["phase"] == "over"
        assert snap["legal"] == [] and snap["deadline"] is None
        assert snap["ready"]["round"] == 1 and snap["ready"]["ready"] == [False, True, True]
        r = httpx.get(f"{srv.http}/matches/{snap['match_id']}/rounds/0")
        assert r.status_code == 200  # the 结算 the client shows again
        # A kill -9 while waiting: still the same 结算 after the restart.
        srv.kill()
        await asyncio.to_thread(srv.start)
        sock = await Sock.open(srv, code, me)
        again = await sock.kind("snapshot")
        assert (again["round"], again["step"], again["view"]) == (0, snap["step"], snap["view"])
        assert again["ready"]["ready"] == [False, True, True]
        # 准备: everyone is told, then round 1 is dealt.
        await sock.send(type="ready")
        told = await sock.kind("readiness")
        assert told["ready"] == [True, True, True]
        dealt = await sock.until(lambda m: m["type"] == "prompt" and m["round"] == 1)
        assert dealt["step"] == snap["step"] + 1
        await sock.send(type="ready")
        refused = await sock.kind("error")
        assert refused["code"] == "not_waiting"
        # The deal is durable: a kill -9 now keeps round 1 dealt.
        await sock.close()
        srv.kill()
        await asyncio.to_thread(srv.start)
        sock = await Sock.open(srv, code, me)
        after = await sock.kind("snapshot")
        assert after["round"] == 1 and after["ready"] is None
        await sock.close()
    finally:
        srv.stop()


async def test_the_wait_times_out_and_the_server_readies_the_rest(tmp_path: Path) -> None:
    srv = Server(tmp_path / "server.db", tmp_path / "server.log")
    srv.start()
    try:
        code, me = ready_room(srv, 1.0)
        await asyncio.to_thread(start, srv, code, me)
        sock = await Sock.open(srv, code, me)
        wait = await play_until_ready(sock)
        t0 = time.monotonic()
        dealt = await sock.until(lambda m: m["type"] == "prompt" and m["round"] == 1)
        assert wait["ready"][0] is False and dealt["round"] == 1
        assert 0.5 < time.monotonic() - t0 < 5
        await sock.close()
    finally:
        srv.stop()


def test_ready_seconds_is_bounded(server: Server) -> None:
    me = guest(server, "host")
    for bad in (0, 301, -1):
        r = httpx.post(f"{server.http}/rooms", json={"ready_seconds": bad}, headers=auth(me))
        assert r.status_code == 400, (bad, r.text)


async def test_a_spectator_cannot_ready_and_a_ready_mid_round_is_refused(server: Server) -> None:
    code, me = ready_room(server, 30)
    await asyncio.to_thread(start, server, code, me)
    sock = await Sock.open(server, code, me)
    await sock.kind("snapshot")
    await sock.send(type="ready")
    assert (await sock.kind("error"))["code"] == "not_waiting"
    watcher = await Sock.open(server, code, guest(server, "w"), spectate=True)
    await watcher.kind("snapshot")
    await watcher.send(type="ready")
    assert (await watcher.kind("error"))["code"] == "spectator"
    await sock.close()
    await watcher.close()


async def test_everyone_sees_the_acting_seats_clock_but_no_claim_window(server: Server) -> None:
    """``clocks``: the deadline of a seat whose turn is public reaches the spectators; a
    claim window's does not (who may claim is private, RULES.md §14)."""
    code, me = ready_room(server, 30, time_limit=30, rounds=8)
    await asyncio.to_thread(start, server, code, me)
    sock = await Sock.open(server, code, me)
    watcher = await Sock.open(server, code, guest(server, "w"), spectate=True, views=True)
    seen = {"discard": 0, "claim": 0}
    last: dict[str, Any] = {}
    last_key: tuple[Any, ...] | None = None
    for _ in range(300):
        m = await sock.until(lambda x: my_turn(x) or x["type"] == "readiness", timeout=90)
        if m["type"] == "readiness":  # a bot won the round: 准备 for the next
            await sock.send(type="ready")
            continue
        v = m["view"]
        key = (m["round"], v["phase"], v["stock_count"], v["offer"], v["turn"])

        def same(x: dict[str, Any], key: tuple[Any, ...] = key) -> bool:
            w = x.get("view")
            return (
                x["type"] in ("snapshot", "prompt")
                and w is not None
                and (x["round"], w["phase"], w["stock_count"], w["offer"], w["turn"]) == key
            )

        # The spectator's prompt for the same moment (its view matches the seat's). A
        # second decision of the seat at the same moment (a claim, then its 比) moves
        # nothing the spectator sees, so it gets no new prompt: the last one stands.
        if key != last_key:
            last, last_key = await watcher.until(same, timeout=60), key
        latest = dict(last)
        latest.setdefault("to_act", latest["view"]["to_act"])
        texts = [a["text"] for a in m["legal"]]
        assert m["clocks"][0] == m["deadline"] is not None
        if "过" in texts:  # a claim window: nobody else is shown a clock
            assert latest["to_act"] == [] and latest["clocks"] == [None, None, None]
            seen["claim"] += 1
        else:  # seat 0's turn to discard: public, and so is its clock
            assert latest["to_act"] == [0] and latest["clocks"] == [m["deadline"], None, None]
            seen["discard"] += 1
        aid = 20 if 20 in [a["id"] for a in m["legal"]] else m["legal"][0]["id"]
        await sock.send(type="act", action=aid, step=m["step"], client_id=f"c{m['since']}")
        if seen["discard"] and seen["claim"]:
            break
    assert seen["discard"] >= 1 and seen["claim"] >= 1
    await sock.close()
    await watcher.close()


async def test_quick_chat_reaches_everyone_and_is_rate_limited(server: Server) -> None:
    code, me = ready_room(server, 30)
    await asyncio.to_thread(start, server, code, me)
    sock = await Sock.open(server, code, me)
    watcher = await Sock.open(server, code, guest(server, "w"), spectate=True)
    await sock.kind("snapshot")
    await watcher.kind("snapshot")
    for phrase in (0, 15, 3):
        await sock.send(type="chat", phrase=phrase)
        for s in (sock, watcher):
            m = await s.kind("said")
            assert (m["seat"], m["phrase"]) == (0, phrase)
    await sock.send(type="chat", phrase=1)  # the fourth at once: over the budget
    assert (await sock.kind("error"))["code"] == "rate_limited"
    await sock.send(type="chat", phrase=16)  # not a phrase: never free text either
    assert (await sock.kind("error"))["code"] == "bad_message"
    await sock.send(type="chat", phrase="你好")
    assert (await sock.kind("error"))["code"] == "bad_message"
    await watcher.send(type="chat", phrase=0)
    assert (await watcher.kind("error"))["code"] == "spectator"
    await sock.close()
    await watcher.close()
