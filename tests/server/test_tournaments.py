"""A duplicate tournament through the real server, played by bot clients (server/client.py,
tournamentclient.py): 6 players (a heuristic and two random bots at each table) and 6 deals
on 2 tables. Every deal is played once per rotation at both tables, with one seed (the same
cards) everywhere and the seats rotated as the arena rotates them; duplicate scores sum to
zero per deal; the heuristics' mean score (+5.1 points a round over random in the arena) is
above the randoms'. Played once (``rotations`` 1, the default from two tables on), every
player plays each deal once, at tables that mix from deal to deal. (The learned bot's +1.1
over the heuristic is too small a gap for 6 deals to show: test_tournament_ranking.py plays
360 deals in-process with the same rotation and scoring code.) Bots of the server fill seats
too."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import httpx

from paohuzi.bots import make_bot
from paohuzi.server.client import ServerClient
from paohuzi.server.duplicate import RULES, slot_at, slot_of
from paohuzi.server.tournamentclient import play_tournament

from .conftest import Server, Sock, auth, guest


def _club(srv: Server, n: int) -> tuple[int, str, list[str], list[int]]:
    """A club, its owner's token, and ``n`` members' tokens (the owner first) and ids."""
    owner = guest(srv, "owner")
    club = httpx.post(f"{srv.http}/clubs", json={"name": "复式"}, headers=auth(owner)).json()
    tokens = [owner]
    for i in range(n - 1):
        t = guest(srv, f"m{i}")
        r = httpx.post(f"{srv.http}/clubs/{club['id']}/join", json={"key": club["invite_key"]},
                       headers=auth(t))  # fmt: skip
        assert r.status_code == 200, r.text
        tokens.append(t)
    ids = [httpx.get(f"{srv.http}/accounts/me", headers=auth(t)).json()["id"] for t in tokens]
    return club["id"], owner, tokens, ids


async def _play(srv: Server, cid: int, tid: int, token: str, kind: str, i: int) -> None:
    client = ServerClient(srv.http, token)
    try:
        await play_tournament(client, cid, tid, make_bot(kind, 100 + i, RULES), timeout=900)
    finally:
        await client.aclose()


def _results(srv: Server, cid: int, tid: int, token: str) -> dict[str, Any]:
    r = httpx.get(f"{srv.http}/clubs/{cid}/tournaments/{tid}/results", headers=auth(token))
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


async def _tournament(
    srv: Server, kinds: list[str], body: dict[str, Any], timeout: float
) -> tuple[list[int], str, dict[str, Any], dict[str, Any]]:
    """A club of ``len(kinds)`` members who enter a tournament (``body`` and the players)
    and play it through with bots of ``kinds``: their ids, the owner's token, the
    create's answer and the results."""
    cid, owner, tokens, ids = _club(srv, len(kinds))
    r = httpx.post(f"{srv.http}/clubs/{cid}/tournaments", headers=auth(owner),
                   json={**body, "players": ids})  # fmt: skip
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    await asyncio.wait_for(
        asyncio.gather(*[_play(srv, cid, tid, t, k, i)
                         for i, (t, k) in enumerate(zip(tokens, kinds, strict=True))]),
        timeout,
    )  # fmt: skip
    return ids, owner, r.json(), _results(srv, cid, tid, owner)


async def test_six_players_six_deals_two_tables(server: Server) -> None:
    kinds = ["heuristic", "random", "random", "heuristic", "random", "random"]
    ids, owner, made, res = await _tournament(server, kinds, {"deals": 6, "rotations": 3}, 900)
    assert made["stages"] == 18 and made["rotations"] == 3
    assert res["status"] == "finished" and len(res["deals"]) == 6
    for d in res["deals"]:
        assert d["complete"]
        assert sorted((p["table"], p["rotation"]) for p in d["plays"]) == [
            (t, r) for t in range(2) for r in range(3)
        ]
        seeds = set()
        for p in d["plays"]:
            url = f"{server.http}/matches/{p['match_id']}/record"  # a club member's to see
            record = httpx.get(url, headers=auth(owner)).json()
            seeds.add(record["seed"])
            for s, seat in enumerate(p["seats"]):
                assert seat["account_id"] == ids[slot_at(p["table"], p["rotation"], s)]
            assert sum(seat["result"] for seat in p["seats"]) == 0
        assert len(seeds) == 1  # the same deal at every table and rotation
        assert abs(sum(d["scores"].values())) < 1e-3  # (each rounded to 4 places)
    score = {e["account_id"]: e["score"] for e in res["ranking"]}
    strong = [score[ids[i]] for i, k in enumerate(kinds) if k == "heuristic"]
    weak = [score[ids[i]] for i, k in enumerate(kinds) if k == "random"]
    # The arena: heuristic +3.42, random −1.71 a round at such a table. Six deals leave a
    # duplicate score's error near 1.6 a round: the kinds' means are what they separate
    # surely. (Not the best player: on a fresh tournament seed a random player ranked
    # first once in CI, +18.3 over the heuristics' +10.0 and −1.7.)
    assert sum(strong) / 2 - sum(weak) / 4 > 0, res["ranking"]
    assert abs(sum(e["score"] for e in res["ranking"])) < 1e-3


async def test_each_player_plays_each_deal_once_at_mixed_tables(server: Server) -> None:
    """The same three players met a deal in all three rotations at their table, so from
    the second on they had seen its hands (all are shown at a round's end). Played once,
    each of the 6 players plays each of 3 deals once: 2 tables a deal, one seed, the seats
    as ``slot_of`` puts them (a player's seat changes from deal to deal and the tables
    mix), and each seat's result is compared with the other table's."""
    kinds = ["heuristic", "random", "random", "heuristic", "random", "random"]
    ids, owner, made, res = await _tournament(server, kinds, {"deals": 3}, 600)
    assert made["stages"] == 3 and made["rotations"] == 1
    assert res["status"] == "finished" and res["rotations"] == 1 and len(res["deals"]) == 3
    tables_met = set()
    seats_held: dict[int, set[int]] = {i: set() for i in ids}
    for d in res["deals"]:
        assert d["complete"]
        assert sorted((p["table"], p["rotation"]) for p in d["plays"]) == [(0, 0), (1, 0)]
        players = [seat["account_id"] for p in d["plays"] for seat in p["seats"]]
        assert sorted(players) == sorted(ids)  # everyone once, nobody twice
        seeds = set()
        for p in d["plays"]:
            record = httpx.get(f"{server.http}/matches/{p['match_id']}/record",
                               headers=auth(owner)).json()  # fmt: skip
            seeds.add(record["seed"])
            for s, seat in enumerate(p["seats"]):
                assert seat["account_id"] == ids[slot_of(2, 1, p["table"], d["deal"], 0, s)]
                seats_held[seat["account_id"]].add(s)
            tables_met.add(frozenset(seat["account_id"] for seat in p["seats"]))
            assert sum(seat["result"] for seat in p["seats"]) == 0
        assert len(seeds) == 1
        avg = d["seat_average"]
        for p in d["plays"]:
            for s, seat in enumerate(p["seats"]):
                assert seat["vs_average"] == seat["result"] - avg[s]
        assert abs(sum(d["scores"].values())) < 1e-3
    assert all(len(held) == 3 for held in seats_held.values())  # every seat, over 3 deals
    assert len(tables_met) > 2  # the tables mixed: not the same two groups each deal
    assert abs(sum(e["score"] for e in res["ranking"])) < 1e-3


async def test_bots_fill_seats_and_strangers_see_nothing(server: Server) -> None:
    cid, owner, _, ids = _club(server, 1)
    body = {"deals": 1, "players": [ids[0], "heuristic", "random"]}
    r = httpx.post(f"{server.http}/clubs/{cid}/tournaments", json=body, headers=auth(owner))
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    stranger = guest(server, "stranger")
    r = httpx.get(f"{server.http}/clubs/{cid}/tournaments/{tid}/results", headers=auth(stranger))
    assert r.status_code == 404 and r.json()["code"] == "no_club"
    await asyncio.wait_for(_play(server, cid, tid, owner, "heuristic", 0), 300)
    res = _results(server, cid, tid, owner)
    assert len(res["deals"][0]["plays"]) == 3
    record = httpx.get(f"{server.http}/matches/{res['deals'][0]['plays'][0]['match_id']}/record",
                       headers=auth(owner))  # fmt: skip
    assert record.status_code == 200, record.text  # the tournament is over: shown
    assert abs(sum(res["deals"][0]["scores"].values())) < 1e-3
    bad = [
        {"deals": 1, "players": [ids[0], "heuristic"]},
        {"deals": 1, "players": [ids[0], ids[0], "random"]},
        {"deals": 1, "players": [ids[0], "nobot", "random"]},
        {"deals": 0, "players": [ids[0], "heuristic", "random"]},
        {"deals": 1, "players": [ids[0], 999999, "random"]},
        {"deals": 1, "players": [ids[0], "heuristic", "random"], "rotations": 1},
        {"deals": 1, "players": [ids[0], "heuristic", "random"], "rotations": 2},
    ]
    for b in bad:
        r = httpx.post(f"{server.http}/clubs/{cid}/tournaments", json=b, headers=auth(owner))
        assert r.status_code in (400, 404), (b, r.text)
        assert set(r.json()) == {"code", "reason"}


async def test_a_running_tournament_is_not_watched_helped_or_doubled(server: Server) -> None:
    """While a tournament runs its tables are not watched (the same deal is played at the
    other tables: a member watched another table play their own deal), its players get no
    提示, a club runs one tournament at a time, and no table may be bots only (two
    tournaments of 24 bots put 16 matches in play with nobody watching)."""
    cid, owner, tokens, ids = _club(server, 2)
    member = tokens[1]
    bots_only = {"deals": 1, "players": [ids[0], "random", "random", "random", "random", "random"]}
    r = httpx.post(f"{server.http}/clubs/{cid}/tournaments", json=bots_only, headers=auth(owner))
    assert r.status_code == 400 and r.json()["code"] == "bad_players", r.text
    assert "table 2 has no member" in r.json()["reason"]
    body = {"deals": 1, "players": [ids[0], "random", "random"]}
    r = httpx.post(f"{server.http}/clubs/{cid}/tournaments", json=body, headers=auth(owner))
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    again = httpx.post(f"{server.http}/clubs/{cid}/tournaments", json=body, headers=auth(owner))
    assert again.status_code == 409 and again.json()["code"] == "busy", again.text
    res = _results(server, cid, tid, owner)  # (the first stage opens on a look)
    code = res["deals"][0]["plays"][0]["room"]
    sock = await Sock.open(server, code, member, spectate=True)
    try:
        refused = await sock.kind("error")
        assert refused["code"] == "not_allowed" and "tournament" in refused["reason"], refused
    finally:
        await sock.close()
    r = httpx.post(f"{server.http}/rooms/{code}/hint", headers=auth(owner))
    assert r.status_code == 403 and r.json()["code"] == "not_practice", r.text


async def test_a_finished_game_of_a_running_tournament_shows_no_cards(server: Server) -> None:
    """Every rotation of a deal is the same cards: while the tournament runs, a finished
    game's record, 结算 and replay (which showed every hand and the stock of the game to
    come) are refused, and its results stay blank until every table of its stage is done
    (table 1 holds the same cards: table 0's score tells what they are worth). Here table
    1's member never connects, so the stage (and the tournament) waits for the server to
    play that seat while table 0's game is over."""
    cid, owner, _, ids = _club(server, 2)
    body = {"deals": 1, "players": [ids[0], "random", "random", ids[1], "random", "random"]}
    r = httpx.post(f"{server.http}/clubs/{cid}/tournaments", json=body, headers=auth(owner))
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    play = asyncio.create_task(_play(server, cid, tid, owner, "random", 0))
    try:
        for _ in range(600):
            res = await asyncio.to_thread(_results, server, cid, tid, owner)
            mine = [p for p in res["deals"][0]["plays"] if p["table"] == 0]
            url = f"{server.http}/rooms/{mine[0]['room']}" if mine else None
            room = url and (await asyncio.to_thread(httpx.get, url, headers=auth(owner))).json()
            if room and room["status"] == "finished":
                break
            await asyncio.sleep(0.05)
        else:
            raise AssertionError(f"table 0's game did not end: {res}")
        res = await asyncio.to_thread(_results, server, cid, tid, owner)
        assert res["status"] == "playing", res
        others = [p for p in res["deals"][0]["plays"] if p["table"] == 1]
        assert others and others[0]["match_id"] is not None, res  # table 1 is still playing
        mine = [p for p in res["deals"][0]["plays"] if p["table"] == 0]
        assert [x["result"] for x in mine[0]["seats"]] == [None] * 3, res
        for path in ("record", "rounds/0", "replay/0"):
            url = f"{server.http}/matches/{mine[0]['match_id']}/{path}"
            got = await asyncio.to_thread(httpx.get, url, headers=auth(owner))
            assert got.status_code == 409 and got.json()["code"] == "not_finished", got.text
            assert "tournament" in got.json()["reason"]
    finally:
        play.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await play
