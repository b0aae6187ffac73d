"""Whole matches over real WebSockets: numbering, censoring, the log and the ledger."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import websockets

from .conftest import (
    Player,
    Server,
    check_ledger,
    guest,
    replayed,
    seat_events,
    seated_room,
    start,
)
from .steps import audience_steps, decided


async def _play(srv: Server, code: str, players: list[Player], host: str) -> int:
    tasks = [asyncio.create_task(p.play()) for p in players]
    await asyncio.sleep(0.2)  # every player is waiting in the room
    match_id = await asyncio.to_thread(start, srv, code, host)
    await asyncio.wait_for(asyncio.gather(*tasks), 60)
    return match_id


def _check_no_leak(players: list[Player], states: list[Any]) -> None:
    """Every event, snapshot and prompt a seat got is exactly what the core lets it see (§14)."""
    for p in players:
        assert (p.seat is None) == p.spectate
        assert p.events == seat_events(states, p.seat)
        steps = audience_steps(states, p.seat)
        told = -1
        for m in p.messages:
            if m["type"] not in ("snapshot", "prompt"):
                continue
            # Numbered with the audience's own steps, one on per prompt: none for a
            # change it cannot see (another seat's private 过).
            assert m["type"] == "snapshot" or m["step"] == told + 1, (told, m)
            told = m["step"]
            at = steps[m["step"]]
            assert m["round"] == at.round
            if m["type"] == "snapshot":
                assert m["view"] == at.view
            else:  # in a claim window a seat learns only whether it may claim itself
                assert m["to_act"] == at.to_act
                # A prompt carries the seat's view when it has a decision, or always if the
                # socket asked for ``views``; never anything else.
                if m["legal"] or p.views:
                    assert m["view"] == at.view
                else:
                    assert m["view"] is None
            assert [a["id"] for a in m["legal"]] == at.legal
        assert told == len(steps) - 1  # told every step, to the last
        for m in p.messages:  # no message carries another seat's hand while play goes on
            if m["type"] == "event" and m["event"]["kind"] == "deal":
                hands = m["event"]["hands"]
                assert all(h is None for s, h in enumerate(hands) if s != p.seat)


async def test_three_players_play_a_match(server: Server) -> None:
    code, tokens = seated_room(server, 3)
    players = [Player(server, code, t, seed=i) for i, t in enumerate(tokens)]
    match_id = await _play(server, code, players, tokens[0])
    record, states = replayed(server, match_id)
    assert all(st.over for st in states) and len(states) == 1
    flat = [(a.seat, a.id) for r in record.rounds for a in r.actions]
    for p in players:
        # An intent in flight when another seat's answer settled its decision is refused
        # (stale, not_your_turn), or match_over if that answer was the match's last 胡.
        assert (p.over is not None and p.errors == []) or all(
            e["code"] in ("stale", "not_your_turn", "match_over") for e in p.errors
        )
        assert p.seat is not None
        for decision, aid in decided(states, p.seat, p.acks):  # acks quote the seat's steps
            assert flat[decision - 1] == (p.seat, aid)
    assert sum(len(p.acks) for p in players) == len(flat)  # no bots: every decision acked
    _check_no_leak(players, states)
    check_ledger(server, code, match_id, states)


async def test_two_players_and_a_bot(server: Server) -> None:
    code, tokens = seated_room(server, 2, bot="heuristic")
    # Seat 0 and the spectator draw the table from prompts (``views``), seat 1 does not.
    players = [Player(server, code, t, seed=10 + i, views=i == 0) for i, t in enumerate(tokens)]
    watcher = Player(server, code, guest(server, "watcher"), seed=0, spectate=True, views=True)
    match_id = await _play(server, code, [*players, watcher], tokens[0])
    record, states = replayed(server, match_id)
    _check_no_leak([*players, watcher], states)  # the spectator: the public view only
    assert watcher.events and watcher.acks == []
    prompts = [[m for m in p.messages if m["type"] == "prompt"] for p in (*players, watcher)]
    assert all(m["view"] is not None for m in prompts[0] + prompts[2])
    assert any(m["view"] is None for m in prompts[1])  # no decision, no view asked for
    check_ledger(server, code, match_id, states)
    bot_moves = [a for r in record.rounds for a in r.actions if a.seat == 2]
    assert bot_moves  # the bot seat played through the same commit path
    # The account's history lists the match with its net 悟性.
    mine = httpx.get(
        f"{server.http}/accounts/me/matches", headers={"Authorization": f"Bearer {tokens[1]}"}
    ).json()
    assert mine[0]["match_id"] == match_id and mine[0]["status"] == "finished"
    assert mine[0]["seat"] == 1 and mine[0]["net"] == sum(st.result.deltas[1] for st in states)
    # A finished match refuses intents, and says so.
    async with websockets.connect(server.ws(code)) as ws:
        await ws.send(json.dumps({"type": "auth", "token": tokens[0]}))
        assert (await _recv_until(ws, "match_over"))["match_id"] == match_id
        await ws.send(json.dumps({"type": "act", "action": 20, "step": 0, "client_id": "z"}))
        assert (await _recv_until(ws, "error"))["code"] == "match_over"


async def test_no_leak_over_random_games(server: Server) -> None:
    for game in range(3):
        code, tokens = seated_room(server, 3)
        players = [Player(server, code, t, seed=100 * game + i) for i, t in enumerate(tokens)]
        match_id = await _play(server, code, players, tokens[0])
        _, states = replayed(server, match_id)
        _check_no_leak(players, states)


async def _recv_until(ws: Any, kind: str) -> dict[str, Any]:
    while True:
        m = json.loads(await asyncio.wait_for(ws.recv(), 10))
        if m["type"] == kind:
            return dict(m)


async def _started(server: Server) -> tuple[str, list[str], list[Any], list[dict[str, Any]]]:
    """A started three-guest room, a socket per seat and each seat's snapshot."""
    code, tokens = seated_room(server, 3)
    await asyncio.to_thread(start, server, code, tokens[0])
    sockets, snaps = [], []
    for t in tokens:
        ws = await websockets.connect(server.ws(code))
        await ws.send(json.dumps({"type": "auth", "token": t}))
        sockets.append(ws)
        snaps.append(await _recv_until(ws, "snapshot"))
    return code, tokens, sockets, snaps


async def test_authorization(server: Server) -> None:
    code, _tokens, sockets, snaps = await _started(server)
    try:
        actor = snaps[0]["view"]["to_act"][0]
        other = (actor + 1) % 3
        legal = snaps[actor]["legal"][0]["id"]
        # Another seat's socket sends the actor's move: refused, nothing applied.
        await sockets[other].send(json.dumps(
            {"type": "act", "action": legal, "step": 0, "client_id": "x"}))  # fmt: skip
        err = await _recv_until(sockets[other], "error")
        assert err["code"] == "not_your_turn" and err["client_id"] == "x"
        # An unauthenticated socket cannot act; an outsider's token has no seat.
        async with websockets.connect(server.ws(code)) as anon:
            await anon.send(json.dumps(
                {"type": "act", "action": legal, "step": 0, "client_id": "y"}))  # fmt: skip
            assert (await _recv_until(anon, "error"))["code"] == "unauthenticated"
            await anon.send(json.dumps({"type": "auth", "token": "not-a-token"}))
            assert (await _recv_until(anon, "error"))["code"] == "unauthenticated"
        async with websockets.connect(server.ws(code)) as outsider:
            token = httpx.post(f"{server.http}/accounts/guest", json={"nickname": "o"}).json()
            await outsider.send(json.dumps({"type": "auth", "token": token["token"]}))
            assert (await _recv_until(outsider, "error"))["code"] == "not_seated"
        async with websockets.connect(server.ws(code)) as watcher:
            await watcher.send(json.dumps({"type": "auth", "token": token["token"],
                                           "spectate": True}))  # fmt: skip
            snap = await _recv_until(watcher, "snapshot")
            assert snap["seat"] is None and snap["legal"] == []
            assert all(h is None for h in snap["view"]["hands"])
            await watcher.send(json.dumps(
                {"type": "act", "action": legal, "step": 0, "client_id": "w"}))  # fmt: skip
            assert (await _recv_until(watcher, "error"))["code"] == "spectator"
        await sockets[other].send(json.dumps({"type": "resync"}))
        assert (await _recv_until(sockets[other], "snapshot"))["step"] == 0
    finally:
        for ws in sockets:
            await ws.close()


async def test_bad_input_keeps_the_table(server: Server) -> None:
    _code, _tokens, sockets, snaps = await _started(server)
    idle = next(s for s in range(3) if s not in snaps[0]["view"]["to_act"])
    ws = sockets[idle]  # a seat with nothing to decide: every intent is refused
    bad: list[tuple[str | bytes, str]] = [
        ("{not json", "bad_json"),
        (b"\xff\xfe", "bad_json"),
        ("[1, 2]", "unknown_type"),
        ('{"type": "teleport"}', "unknown_type"),
        ('{"type": "act", "action": 3, "step": "0", "client_id": "a"}', "bad_message"),
        ('{"type": "act", "action": [1], "step": 0, "client_id": "a"}', "bad_message"),
        ('{"type": "act", "action": 3, "step": 0}', "bad_message"),
        ('{"type": "act", "action": 3, "step": -1, "client_id": "a", "x": 1}', "bad_message"),
        (json.dumps({"type": "ping", "pad": "x" * 5000}), "too_large"),
        ('{"type": "act", "action": "打:龍", "step": 0, "client_id": "b"}', "not_your_turn"),
    ]
    try:
        for text, code_ in bad:
            await ws.send(text)
            err = await _recv_until(ws, "error")
            assert err["code"] == code_, (text, err)
            assert err["reason"]
        actor = snaps[0]["view"]["to_act"][0]
        await sockets[actor].send(json.dumps(
            {"type": "act", "action": "打:龍", "step": 0, "client_id": "c"}))  # fmt: skip
        err = await _recv_until(sockets[actor], "error")
        assert err["code"] in ("bad_action", "illegal") and "龍" in err["reason"]
        await ws.send('{"type": "ping"}')
        assert (await _recv_until(ws, "pong"))["type"] == "pong"
        await ws.send('{"type": "resync"}')
        again = await _recv_until(ws, "snapshot")
        assert again["step"] == 0 and again["view"] == snaps[idle]["view"]
        assert httpx.get(f"{server.http}/health").status_code == 200
    finally:
        for s in sockets:
            await s.close()


async def test_retry_is_applied_once_and_stale_is_refused(server: Server) -> None:
    _code, _tokens, sockets, snaps = await _started(server)
    try:
        actor = snaps[0]["view"]["to_act"][0]
        ws = sockets[actor]
        aid = snaps[actor]["legal"][0]["id"]
        intent = {"type": "act", "action": aid, "step": 0, "client_id": "once"}
        await ws.send(json.dumps(intent))
        await ws.send(json.dumps(intent))
        first = await _recv_until(ws, "ack")
        second = await _recv_until(ws, "ack")
        assert first["step"] == second["step"] == 1  # the seat's step its decision made
        assert not first["duplicate"] and second["duplicate"]
        await ws.send(json.dumps({"type": "resync"}))
        snap = await _recv_until(ws, "snapshot")
        assert snap["step"] == 1
        # An intent made at step 0 is stale now, whatever it says.
        await ws.send(json.dumps({**intent, "client_id": "late"}))
        err = await _recv_until(ws, "error")
        assert err["code"] in ("stale", "not_your_turn")
    finally:
        for s in sockets:
            await s.close()
