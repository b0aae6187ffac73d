"""Kill -9 mid-round: the restarted server rebuilds the match from its log and loses nothing."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from .conftest import Player, Server, check_ledger, replayed, seat_events, seated_room, start
from .steps import decided


async def test_sigkill_mid_round_then_the_match_goes_on(tmp_path: Path, db_url: str) -> None:
    srv = Server(db_url, tmp_path / "server.log")
    srv.start()
    try:
        code, tokens = seated_room(srv, 3, rounds=2)
        players = [Player(srv, code, t, seed=7 + i) for i, t in enumerate(tokens)]
        tasks = [asyncio.create_task(p.play()) for p in players]
        await asyncio.sleep(0.2)
        match_id = await asyncio.to_thread(start, srv, code, tokens[0])
        while sum(len(p.acks) for p in players) < 12:
            await asyncio.sleep(0.005)
            assert not any(t.done() for t in tasks), "the round ended before the kill"
        srv.kill()  # SIGKILL, while the players keep sending
        acked_before = {p.seat: list(p.acks) for p in players}
        await asyncio.sleep(0.3)
        await asyncio.to_thread(srv.start)  # same port, same database
        try:
            await asyncio.wait_for(asyncio.gather(*tasks), 90)
        except TimeoutError:
            raise AssertionError(_stuck(players, srv)) from None

        record, states = replayed(srv, match_id)
        flat = [(a.seat, a.id) for rnd in record.rounds for a in rnd.actions]
        assert all(st.over for st in states)
        # Acks quote the seat's steps: as the match's decisions they made.
        acked_before = {s: decided(states, s, a) for s, a in acked_before.items() if s is not None}
        acks = {p.seat: decided(states, p.seat, p.acks) for p in players if p.seat is not None}
        for p in players:
            assert p.reconnects >= 1
            assert p.seat is not None
            for decision, aid in acked_before[p.seat]:  # nothing acknowledged is lost
                assert flat[decision - 1] == (p.seat, aid)
            for decision, aid in acks[p.seat]:
                assert flat[decision - 1] == (p.seat, aid)
            # The events across the crash are exactly those of an uninterrupted replay.
            assert p.events == seat_events(states, p.seat)
        # Every decision was acknowledged once, though some intents were sent twice.
        assert sorted(d for a in acks.values() for d, _ in a) == list(range(1, len(flat) + 1))
        check_ledger(srv, code, match_id, states)
    finally:
        srv.stop()


def _stuck(players: list[Player], srv: Server) -> str:
    lines = [srv.log.read_text()[-3000:]]
    for p in players:
        lines.append(f"seat {p.seat} pending {p.pending} acted {p.acted_since} errors {p.errors}")
        lines += [f"    {m}"[:300] for m in p.messages[-5:]]
    return "\n".join(lines)


async def test_sigterm_closes_sockets_with_a_code_and_keeps_the_match(tmp_path: Path) -> None:
    import json

    import websockets

    srv = Server(tmp_path / "server.db", tmp_path / "server.log")
    srv.start()
    try:
        code, tokens = seated_room(srv, 1, bot="random")
        await asyncio.to_thread(start, srv, code, tokens[0])
        async with websockets.connect(srv.ws(code)) as ws:
            await ws.send(json.dumps({"type": "auth", "token": tokens[0]}))
            # The bots play in the table's task: wait for the person's decision, which
            # nothing else can take, and let any bot in the same claim window answer.
            while not ((m := json.loads(await ws.recv()))["type"] in ("snapshot", "prompt")
                       and m["legal"]):  # fmt: skip
                pass
            await asyncio.sleep(0.5)
            await ws.send(json.dumps({"type": "resync"}))
            while (before := json.loads(await ws.recv()))["type"] != "snapshot":
                pass
            assert srv.proc is not None
            srv.proc.terminate()
            with pytest.raises(websockets.ConnectionClosed):
                while True:
                    await ws.recv()
            assert ws.close_code == 1012  # service restart: come back later
        await asyncio.to_thread(srv.proc.wait, 10)
        assert "stopped: every acknowledged decision is stored" in srv.log.read_text()
        await asyncio.to_thread(srv.start)
        async with websockets.connect(srv.ws(code)) as ws:
            await ws.send(json.dumps({"type": "auth", "token": tokens[0]}))
            while (after := json.loads(await ws.recv()))["type"] != "snapshot":
                pass
        assert after["type"] == before["type"] == "snapshot"
        assert (after["step"], after["view"]) == (before["step"], before["view"])
    finally:
        srv.stop()
