"""``paohuzi bot`` and its client: seats played over real WebSockets, like a person's."""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

import paohuzi
from paohuzi.cli.errors import run
from paohuzi.server.client import SeatPlayer, ServerClient
from paohuzi.server.process import free_port
from paohuzi.server.protocol import LegalAction, view_from_dict, view_to_dict

from .conftest import SRC, Server


def test_a_views_json_turns_back_into_the_same_view() -> None:
    """What a bot client rebuilds from a prompt is exactly the view the core made."""
    rng = random.Random(5)
    checked = 0
    for seed in range(12):
        st = paohuzi.new_game(seed=seed)
        while not st.over:
            for s in range(3):
                v = paohuzi.view(st, s)
                if v.legal:
                    legal = [LegalAction(id=a.id, text=a.text()) for a in v.legal]
                    assert view_from_dict(view_to_dict(v), legal) == v
                    checked += 1
            seat = st.to_act()[0]
            st.apply(seat, rng.choice(st.legal_actions(seat)))
        with pytest.raises(ValueError, match="finished round"):
            view_from_dict(view_to_dict(paohuzi.view(st, 0)), [])
    assert checked > 300


def _bot(server: str, *args: str) -> subprocess.Popen[str]:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")]),
    }
    return subprocess.Popen(
        [sys.executable, "-m", "paohuzi", "bot", "--server", server, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def test_three_bot_processes_play_a_match_and_its_record_replays(
    server: Server, tmp_path: Path
) -> None:
    """A person-less room: a host bot (--new) and two that join with the code it prints;
    they play the match to its end and the record they save replays."""
    procs: list[subprocess.Popen[str]] = []
    try:
        rec = tmp_path / "match.json"
        host = _bot(server.http, "--new", "--rounds", "2", "--record", str(rec), "--seed", "1")
        procs.append(host)
        assert host.stdout is not None
        first = host.stdout.readline()
        code = re.match(r"room (\d{6}): seat 0", first)
        assert code, first
        for i in (2, 3):
            procs.append(_bot(server.http, "--room", code[1], "--bot", "random", "--seed", str(i)))
        outs = [p.communicate(timeout=90) for p in procs]
        for p, (out, err) in zip(procs, outs, strict=True):
            assert p.returncode == 0 and err == "", (out, err)
        lines = [out.strip().splitlines()[-1] for out, _ in outs[1:]]
        lines.insert(0, outs[0][0].strip().splitlines()[-2])
        decided = [int(_find(r"(\d+) decisions", line)) for line in lines]
        assert sorted(int(_find(r"seat (\d)", line)) for line in lines) == [0, 1, 2]
        assert f"record saved: {rec}" in outs[0][0]

        from paohuzi.core.record import loads
        from paohuzi.tui.replay import load_rounds

        rounds = load_rounds(loads(rec.read_text(encoding="utf-8")))  # what paohuzi replay checks
        assert len(rounds) == 2
        record = paohuzi.MatchRecord.from_json(rec.read_text(encoding="utf-8"))
        states = paohuzi.replay_match(record)
        assert all(st.over for st in states)
        # No server-side bots: every decision of the match was one of theirs, acked once.
        assert sum(decided) == sum(len(r.actions) for r in record.rounds)
        totals = [int(_find(r"net ([+-]\d+)", line)) for line in lines]
        assert sum(totals) == 0
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()


def _find(pattern: str, text: str) -> str:
    m = re.search(pattern, text)
    assert m, (pattern, text)
    return m[1]


@contextlib.asynccontextmanager
async def _bot_room(
    server: Server, name: str, rounds: int, seed: int
) -> AsyncIterator[tuple[str, list[ServerClient], list[SeatPlayer]]]:
    """A room of three guests ``name0``–``name2``, each with a random bot's SeatPlayer
    (seeded ``seed``, ``seed + 1``, ``seed + 2``), not yet playing; the clients closed after."""
    from paohuzi.bots import make_bot

    clients = [ServerClient(server.http) for _ in range(3)]
    try:
        for i, c in enumerate(clients):
            await c.guest(f"{name}{i}")
        code = await clients[0].create_room(rounds=rounds)
        for c in clients:
            await c.join(code)
        players = [
            SeatPlayer(c.ws_url(code), str(c.token), make_bot("random", seed + i))
            for i, c in enumerate(clients)
        ]
        yield code, clients, players
    finally:
        for c in clients:
            await c.aclose()


async def test_a_dropped_socket_reconnects_and_resyncs(server: Server) -> None:
    """The client's socket is cut again and again mid-match; each time it reconnects with
    ``since``, resends what was not acknowledged, and the match still ends, every
    decision acknowledged once."""
    import asyncio

    async with _bot_room(server, "drop", rounds=1, seed=0) as (code, clients, players):
        cut = players[1]
        sockets: list[object] = []
        original = cut._session

        async def session(ws: object) -> None:
            sockets.append(ws)
            await original(ws)

        cut._session = session  # type: ignore[method-assign]

        async def cutter() -> None:
            for n in range(2, 40, 3):
                while cut.decisions < n and cut.over is None:
                    await asyncio.sleep(0.002)
                if cut.over is None:
                    await sockets[-1].close()  # type: ignore[attr-defined]

        tasks = [asyncio.create_task(p.play()) for p in players]
        cutting = asyncio.create_task(cutter())
        await asyncio.sleep(0.1)
        match_id = await clients[0].start(code)
        await asyncio.wait_for(asyncio.gather(*tasks), 60)
        cutting.cancel()
        assert cut.reconnects >= 1
        record = paohuzi.MatchRecord.from_dict(await clients[0].record(match_id))
        assert sum(p.decisions for p in players) == sum(len(r.actions) for r in record.rounds)
        assert all(len(p.latencies) == p.decisions for p in players)


@pytest.mark.parametrize(
    ("args", "status", "says"),
    [
        (["--server", "localhost:8000", "--room", "123456"], 2, "--server 'localhost:8000'"),
        (["--server", "http://h:99999", "--room", "123456"], 2, "bad port"),
        (["--server", "http://h:1", "--room", "12x"], 2, "--room '12x'"),
        (["--server", "http://h:1"], 2, "either --room CODE or --new"),
        (["--server", "http://h:1", "--room", "123456", "--bot", "nope"], 2, "--bot 'nope'"),
        (["--server", "http://127.0.0.1:{dead}", "--new"], 1, "cannot reach the server"),
        (["--server", "{live}", "--room", "000000"], 2, "no room '000000'"),
    ],
)
def test_bad_server_or_room_is_one_error_line(
    server: Server, args: list[str], status: int, says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    args = [a.format(dead=free_port(), live=server.http) for a in args]
    assert run(["bot", *args]) == status
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "error:" in err[0] and says in err[0], err


def test_readme_bot_command_plays_against_the_readme_serve_command(
    server: Server, tmp_path: Path
) -> None:
    """The README's two commands go together: the bot command, pointed at the port the
    serve command uses (here the test server's), plays a match and saves its record."""
    from tests.docblocks import BIN, marked

    serve, bot = marked("serve-command"), marked("bot-command")
    assert "--port 8000" in serve and "http://127.0.0.1:8000" in bot
    rec = tmp_path / "match.json"
    cmd = (
        bot.replace(".venv/bin/", f"{BIN}/")
        .replace("http://127.0.0.1:8000", server.http)
        .replace("/tmp/paohuzi-match.json", str(rec))
    )
    path = os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")])
    r = subprocess.run(
        ["bash", "-c", cmd],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": path},
    )
    assert r.returncode == 0, (r.stdout, r.stderr)
    assert re.search(r"match \d+ over: seat 0, net [+-]\d+ 悟性, [1-9]\d* decisions", r.stdout)
    record = paohuzi.MatchRecord.from_json(rec.read_text(encoding="utf-8"))
    assert all(st.over for st in paohuzi.replay_match(record))


class _Ws:
    """What a seat player sends, parsed (no socket)."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def send(self, text: str) -> None:
        self.sent.append(json.loads(text))


def _prompt(step: int, since: int, legal: list[dict[str, Any]], view: Any) -> dict[str, Any]:
    return {"type": "prompt", "round": 0, "step": step, "since": since,
            "to_act": [], "legal": legal, "view": view}  # fmt: skip


async def _feed(p: Any, ws: _Ws, *msgs: dict[str, Any]) -> None:
    """One frame of messages, as ``SeatPlayer._session`` takes it."""
    act = False
    for m in msgs:
        act = await p._on(ws, m) or act
    if act:
        await p._act(ws)


async def test_the_bot_client_tells_an_overtaken_claim_from_a_refused_open_decision() -> None:
    """A ``stale`` refusal after the prompt that closed the decision is ``overtaken``; one
    while the latest prompt still shows the decision open asks for the seat's state and,
    if it is still open, counts it in ``stale_open`` and answers again at the new step."""
    from paohuzi.bots import make_bot

    st = paohuzi.new_game(seed=3)
    s = st.to_act()[0]
    v = paohuzi.view(st, s)
    legal = [{"id": a.id, "text": a.text()} for a in v.legal]
    view = view_to_dict(v)

    p = SeatPlayer("ws://unused", "token", make_bot("random", 0))
    ws = _Ws()
    await _feed(p, ws, _prompt(4, 4, legal, view))
    (intent,) = ws.sent
    assert intent["step"] == 4
    err = {"type": "error", "code": "stale", "reason": "…", "client_id": intent["client_id"]}
    await _feed(p, ws, _prompt(5, 5, [], None), err)  # the window closed: told, then refused
    assert (p.overtaken, p.stale_open, len(ws.sent)) == (1, 0, 1)

    p = SeatPlayer("ws://unused", "token", make_bot("random", 0))
    ws = _Ws()
    await _feed(p, ws, _prompt(4, 4, legal, view))
    await _feed(p, ws, {**err, "client_id": ws.sent[0]["client_id"]})  # refused, not told
    assert ws.sent[-1] == {"type": "resync"} and p.stale_open == 0
    await _feed(p, ws, {**_prompt(6, 4, legal, view), "type": "snapshot", "seat": s,
                        "match_id": 1, "seq": 0})  # fmt: skip
    assert (p.overtaken, p.stale_open) == (0, 1)
    assert ws.sent[-1]["type"] == "act" and ws.sent[-1]["step"] == 6  # answered again


async def test_the_bot_client_sends_again_what_the_sockets_rate_dropped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``rate_limited`` drops a message unread and cannot say which: the intent in flight
    goes again (a repeat is harmless) and the seat's state is asked for, with 准备 pressed
    again if a round still waits for it. Before, a dropped intent left the client waiting
    for its ack forever (a paused and resumed bot hung in round 30 of a fast match)."""
    from paohuzi.bots import make_bot
    from paohuzi.server import client

    monkeypatch.setattr(client, "RATE_LIMITED_PAUSE", 0.0)
    st = paohuzi.new_game(seed=3)
    s = st.to_act()[0]
    v = paohuzi.view(st, s)
    legal = [{"id": a.id, "text": a.text()} for a in v.legal]
    p = SeatPlayer("ws://unused", "token", make_bot("random", 0))
    ws = _Ws()
    await _feed(p, ws, _prompt(4, 4, legal, view_to_dict(v)))
    (intent,) = ws.sent
    dropped = {"type": "error", "code": "rate_limited", "reason": "…", "client_id": None}
    await _feed(p, ws, dropped)
    assert ws.sent[1:] == [intent, {"type": "resync"}]  # the same intent, then the state
    await _feed(p, ws, {"type": "ack", "client_id": intent["client_id"], "step": 5,
                        "duplicate": True})  # fmt: skip
    assert p._pending is None and p.decisions == 1

    # A dropped 准备: the snapshot that answers the resync shows the wait, pressed again.
    wait = {"type": "readiness", "round": 1, "ready": [False, False, False]}
    p.seat, p.match_id = s, 1
    await _feed(p, ws, wait)
    assert ws.sent[-1] == {"type": "ready"}
    await _feed(p, ws, wait)  # once per wait
    assert ws.sent[-1] == {"type": "ready"} and ws.sent[-2] != {"type": "ready"}
    await _feed(p, ws, dropped)
    assert ws.sent[-1] == {"type": "resync"}
    snap = {**_prompt(6, 4, [], None), "type": "snapshot", "seat": s, "match_id": 1,
            "seq": 0, "ready": wait}  # fmt: skip
    await _feed(p, ws, snap)
    assert ws.sent[-1] == {"type": "ready"}


async def test_bot_clients_playing_a_match_see_no_stale_refusal_of_an_open_decision(
    server: Server,
) -> None:
    """Three bot clients that answer at once play a match: every ``stale`` refusal they
    get is a claim overtaken in flight, none refuses a decision still open."""
    import asyncio

    async with _bot_room(server, "race", rounds=4, seed=10) as (code, clients, players):
        tasks = [asyncio.create_task(p.play()) for p in players]
        await asyncio.sleep(0.1)
        await clients[0].start(code)
        await asyncio.wait_for(asyncio.gather(*tasks), 120)
        for p in players:
            codes = [e["code"] for e in p.errors]
            assert set(codes) <= {"stale"}, p.errors
            assert p.stale_open == 0 and p.overtaken == len(codes), (p.errors, p.stale_open)
        print("overtaken:", sum(p.overtaken for p in players))
