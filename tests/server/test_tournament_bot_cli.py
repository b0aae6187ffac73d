"""``paohuzi bot --tournament CLUB/T --token TOKEN``: two members' bots, started as the
command line starts them, play every table a one-deal tournament seats them at (a server
bot in the third slot), until it is over; the results have every play. Bad input is a
clear error, and a stranger's token is refused by the server (the club answers 404)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import httpx

from .conftest import Server, auth, guest

SRC = str(Path(__file__).resolve().parents[2] / "src")


def _bot(srv: Server, *args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": SRC}
    return subprocess.Popen(
        [sys.executable, "-m", "paohuzi", "bot", "--server", srv.http, *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )  # fmt: skip


def test_bots_play_every_table_of_their_tournament(server: Server) -> None:
    owner, member = guest(server, "owner"), guest(server, "member")
    club = httpx.post(f"{server.http}/clubs", json={"name": "比赛"}, headers=auth(owner)).json()
    cid = club["id"]
    r = httpx.post(f"{server.http}/clubs/{cid}/join", json={"key": club["invite_key"]},
                   headers=auth(member))  # fmt: skip
    assert r.status_code == 200, r.text
    ids = [httpx.get(f"{server.http}/accounts/me", headers=auth(t)).json()["id"]
           for t in (owner, member)]  # fmt: skip
    r = httpx.post(f"{server.http}/clubs/{cid}/tournaments", headers=auth(owner),
                   json={"deals": 1, "players": [ids[0], ids[1], "heuristic"]})  # fmt: skip
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    where = f"{cid}/{tid}"
    procs = [_bot(server, "--tournament", where, "--token", t, "--bot", b, "--wait", "240")
             for t, b in ((owner, "heuristic"), (member, "random"))]  # fmt: skip
    outs = [p.communicate(timeout=300) for p in procs]
    for p, (out, err) in zip(procs, outs, strict=True):
        assert p.returncode == 0, err
        assert f"tournament {tid} over: 3 tables played" in out, out
    res = httpx.get(f"{server.http}/clubs/{cid}/tournaments/{tid}/results", headers=auth(owner))
    body = res.json()
    assert body["status"] == "finished" and body["deals"][0]["complete"], body
    assert len(body["deals"][0]["plays"]) == 3

    stranger = guest(server, "stranger")
    p = _bot(server, "--tournament", where, "--token", stranger, "--wait", "5")
    out, err = p.communicate(timeout=60)
    assert p.returncode == 2 and "404" in err and "Traceback" not in err, err


def test_bad_tournament_options_are_clear_errors(server: Server) -> None:
    token = guest(server, "x")
    cases = [
        (["--tournament", "3-7", "--token", token], "CLUB/TOURNAMENT"),
        (["--tournament", "3/x" * 50, "--token", token], "CLUB/TOURNAMENT"),
        (["--tournament", "3/7"], "--token"),
        (["--tournament", "3/7", "--token", token, "--new"], "without --room"),
    ]
    for args, said in cases:
        p = _bot(server, *args)
        _out, err = p.communicate(timeout=60)
        assert p.returncode != 0 and said in err and "Traceback" not in err, (args, err)
        assert len(err) < 1000
