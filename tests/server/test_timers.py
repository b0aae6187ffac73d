"""Timers, 托管 and the table's lifecycle against the real server (short timers)."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Iterator

import httpx
import pytest

import paohuzi
from paohuzi.bots import HeuristicBot
from paohuzi.core.actions import PASS_ID
from paohuzi.core.state import Phase

from .conftest import (
    Server,
    Sock,
    check_ledger,
    guest,
    my_turn,
    play_myself,
    replayed,
    seated_room,
    server_moves,
    start,
)
from .steps import audience_steps

GRACE = 0.4


def _live_tables(srv: Server) -> int:
    """How many tables the server holds in memory."""
    return int(httpx.get(f"{srv.http}/stats").json()["tables"])


@pytest.fixture(scope="module")
def fast(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    d = tmp_path_factory.mktemp("fast")
    srv = Server(d / "server.db", d / "server.log", env={"PAOHUZI_GRACE": str(GRACE)})
    srv.start()
    yield srv
    srv.stop()


def _record_status(srv: Server, match_id: int) -> int:
    return httpx.get(f"{srv.http}/matches/{match_id}/record").status_code


async def test_three_bots_play_in_their_own_task_and_the_table_is_released(fast: Server) -> None:
    # Enough rounds that the bots, which play fast, are still playing when the
    # request has come back and been checked.
    code, (host,) = seated_room(fast, 0, bot="heuristic", rounds=4)
    before = _live_tables(fast)  # /stats gives a count only (no match ids to anyone)
    t0 = time.monotonic()
    match_id = await asyncio.to_thread(start, fast, code, host)
    answered = time.monotonic() - t0
    # The request came back before the bots had played the match.
    assert _record_status(fast, match_id) == 409, answered
    # Its table is live while they play — unless they finished in the moment since the
    # line above (on a fast machine they can), and then the record is there.
    live = _live_tables(fast)
    assert live > before or _record_status(fast, match_id) == 200, (before, live)
    deadline = time.monotonic() + 60
    while _record_status(fast, match_id) != 200:
        assert time.monotonic() < deadline, "the bots did not finish the match"
        await asyncio.sleep(0.05)
    _, states = replayed(fast, match_id)
    assert len(states) == 4 and all(st.over for st in states)
    check_ledger(fast, code, match_id, states)
    while _live_tables(fast) > before:
        assert time.monotonic() < deadline, "the finished table stayed in memory"
        await asyncio.sleep(0.02)
    # Served from the database: a spectator still gets the final snapshot and match_over.
    watcher = await Sock.open(fast, code, host, spectate=True)
    try:
        snap = await watcher.kind("snapshot")
        over = await watcher.kind("match_over")
        assert snap["step"] == len(audience_steps(states, None)) - 1  # the spectators' last
        assert over["match_id"] == match_id and not over["dissolved"]
        assert sum(over["totals"]) == 0
    finally:
        await watcher.close()


async def test_learned_bots_can_be_seated_and_play(fast: Server) -> None:
    code, (host,) = seated_room(fast, 0, bot="learned", rounds=1)
    match_id = await asyncio.to_thread(start, fast, code, host)
    deadline = time.monotonic() + 60
    while _record_status(fast, match_id) != 200:
        assert time.monotonic() < deadline, "the learned bots did not finish the match"
        await asyncio.sleep(0.05)
    _, states = replayed(fast, match_id)
    assert len(states) == 1 and states[0].over
    check_ledger(fast, code, match_id, states)


async def test_timeouts_answer_for_a_silent_seat(fast: Server) -> None:
    limit = 0.1
    code, (me,) = seated_room(fast, 1, bot="random", time_limit=limit)
    info = httpx.get(f"{fast.http}/rooms/{code}").json()
    assert info["time_limit"] == limit
    sock = await Sock.open(fast, code, me)
    try:
        await sock.kind("waiting")
        match_id = await asyncio.to_thread(start, fast, code, me)
        await sock.kind("match_over", timeout=60)
    finally:
        await sock.close()
    asked = [m for m in sock.messages if m["type"] in ("snapshot", "prompt")]
    assert any(my_turn(m) for m in asked)
    for m in asked:
        if my_turn(m):  # the seat's clock: at most the limit
            assert m["deadline"] is not None and 0 <= m["remaining"] <= limit, m
        else:
            assert m["deadline"] is None and m["remaining"] is None, m
    assert not [m for m in sock.messages if m["type"] == "ack"]  # it never sent an intent
    record, states = replayed(fast, match_id)
    st = paohuzi.replay(paohuzi.round_record(states[0]), upto=0)
    answered = 0
    for a in record.rounds[0].actions:
        if a.seat == 0:  # the server's answer: 过 in a claim window, else the heuristic
            if st.phase is Phase.CLAIM and PASS_ID in st.legal_actions(0):
                assert a.id == PASS_ID
            else:
                assert a.id == HeuristicBot().act(paohuzi.view(st, 0)).id
            answered += 1
        st.apply(a.seat, a.id)
    assert answered >= 3
    check_ledger(fast, code, match_id, states)


def _status(m: dict[str, object], seat: int) -> dict[str, object]:
    seats = m["seats"]
    assert isinstance(seats, list)
    return dict(seats[seat])


async def test_tuoguan_on_and_off_and_everyone_sees_it(fast: Server) -> None:
    code, (me,) = seated_room(fast, 1, bot="heuristic", rounds=8)  # long: 托管 goes fast
    sock = await Sock.open(fast, code, me)
    watcher = await Sock.open(fast, code, guest(fast, "w"), spectate=True)
    try:
        await sock.kind("waiting")
        await watcher.kind("waiting")
        await asyncio.to_thread(start, fast, code, me)
        snap = await sock.kind("snapshot")
        assert _status(snap, 0) == {"seat": 0, "bot": None, "connected": True,
                                    "tuoguan": False, "reason": None}  # fmt: skip
        assert _status(snap, 1)["bot"] == "heuristic" and snap["time_limit"] is None
        sock._seen = 0
        turn = await sock.until(my_turn)
        await sock.send(type="tuoguan", on=True)
        on = await sock.until(lambda m: m["type"] == "seats" and m["seats"][0]["tuoguan"])
        assert _status(on, 0)["reason"] == "self"
        seen = await watcher.until(lambda m: m["type"] == "seats" and m["seats"][0]["tuoguan"])
        assert _status(seen, 0)["reason"] == "self"
        # The server decides for the seat: its step moves on past the seat's decision.
        await sock.until(lambda m: m["type"] == "prompt" and m["step"] > turn["step"])
        await sock.send(type="tuoguan", on=False)
        await sock.until(lambda m: m["type"] == "seats" and not m["seats"][0]["tuoguan"])
        await sock.send(type="resync")
        mine = await sock.kind("snapshot")
        taken = server_moves(fast, mine["match_id"], 0, 0)  # the server's moves for the seat
        # 托管 off: every decision of the seat is its person's again, however slow.
        sock._seen = sock.messages.index(mine)  # the snapshot may hold the pending decision
        assert await play_myself(sock, 1.2, delay=0.25) >= 1, sock.messages[-8:]
        assert server_moves(fast, mine["match_id"], 0, 0) == taken
        await sock.send(type="tuoguan", on=True)
        await sock.until(lambda m: m["type"] == "seats" and m["seats"][0]["tuoguan"])
        await sock.send(type="dissolve", agree=True)  # the bots agree: the match ends
        assert (await sock.kind("match_over", timeout=60))["dissolved"]
    finally:
        await sock.close()
        await watcher.close()
    with sqlite3.connect(fast.db_url.removeprefix("sqlite:///")) as db:
        stored = db.execute(
            "SELECT s.tuoguan FROM room_seats s JOIN rooms r ON r.id = s.room_id "
            "WHERE r.code = ? AND s.seat = 0",
            (code,),
        ).fetchone()
    assert stored == (1,)  # the choice is stored (it survives a restart)


async def test_a_disconnected_seat_is_played_after_the_grace_period(fast: Server) -> None:
    code, (me,) = seated_room(fast, 1, bot="heuristic", rounds=8)
    sock = await Sock.open(fast, code, me)
    watcher = await Sock.open(fast, code, guest(fast, "w2"), spectate=True)
    try:
        await sock.kind("waiting")
        match_id = await asyncio.to_thread(start, fast, code, me)
        await sock.until(my_turn)
        await sock.close()
        left = time.monotonic()
        gone = await watcher.until(
            lambda m: m["type"] == "seats" and not m["seats"][0]["connected"]
        )
        assert _status(gone, 0)["tuoguan"] is False
        auto = await watcher.until(lambda m: m["type"] == "seats" and m["seats"][0]["tuoguan"])
        assert time.monotonic() - left >= GRACE * 0.9
        assert _status(auto, 0)["reason"] == "disconnect"
        while not server_moves(fast, match_id, 0, 0):  # the server decides for the seat
            await asyncio.sleep(0.02)
        # The person comes back: the seat is theirs again, and everyone sees it.
        sock = await Sock.open(fast, code, me)
        snap = await sock.kind("snapshot")
        taken = server_moves(fast, match_id, 0, 0)
        assert _status(snap, 0) == {"seat": 0, "bot": None, "connected": True,
                                    "tuoguan": False, "reason": None}  # fmt: skip
        back = await watcher.until(lambda m: m["type"] == "seats" and m["seats"][0]["connected"])
        assert _status(back, 0)["tuoguan"] is False
        # Connected again: the seat's decisions wait for its person, even past the grace.
        sock._seen = sock.messages.index(snap)  # the snapshot may hold the pending decision
        assert await play_myself(sock, 1.5, delay=GRACE * 1.2) >= 1
        assert server_moves(fast, match_id, 0, 0) == taken
        await sock.send(type="dissolve", agree=True)  # the bots agree: the match ends
        assert (await sock.kind("match_over", timeout=60))["dissolved"]
    finally:
        await sock.close()
        await watcher.close()
