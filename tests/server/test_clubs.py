"""Clubs in play: a member opens a room from a template, a 2-round match is played, and the
club's standings hold exactly its rounds (zero-sum, wins and 大赢家 from the record),
the member's rating moved from the prior, closing the season keeps its table readable and
starts the next from nothing; the member list says who sits at which table."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from .conftest import Player, Server, auth, guest, replayed


def _post(srv: Server, path: str, token: str, body: Any = None) -> dict[str, Any]:
    r = httpx.post(f"{srv.http}{path}", json=body, headers=auth(token))
    assert r.status_code in (200, 201), r.text
    out: dict[str, Any] = r.json()
    return out


def _get(srv: Server, path: str, token: str) -> Any:
    r = httpx.get(f"{srv.http}{path}", headers=auth(token))
    assert r.status_code == 200, r.text
    return r.json()


async def test_a_club_match_moves_the_standings_and_the_rating(server: Server) -> None:
    owner = guest(server, "圈主")
    club = _post(server, "/clubs", owner, {"name": "周末局"})
    cid = club["id"]
    assert _get(server, "/clubs", owner)[0]["role"] == "owner"
    t = _post(server, f"/clubs/{cid}/templates", owner, {"name": "两局", "rounds": 2})
    assert _get(server, f"/clubs/{cid}/templates", owner) == [t]
    room = _post(server, f"/clubs/{cid}/templates/{t['id']}/open", owner)
    code = room["code"]
    assert room["rounds"] == 2
    _post(server, f"/rooms/{code}/join", owner, {"seat": 0})
    _post(server, f"/rooms/{code}/bots", owner, {"bot": "heuristic"})
    me = _get(server, "/accounts/me", owner)["id"]
    prior = _get(server, f"/accounts/{me}/rating", owner)
    assert prior["matches"] == 0 and prior["fixed"] is False
    match_id = _post(server, f"/rooms/{code}/start", owner)["match_id"]
    player = Player(server, code, owner, seed=5)
    task = asyncio.create_task(player.play())
    for _ in range(100):  # seated and connected: the member list says where
        await asyncio.sleep(0.05)
        online = {m["account_id"]: m for m in _get(server, f"/clubs/{cid}/members", owner)}
        if online[me]["online"]:
            break
    assert online[me]["table"] == code
    await asyncio.wait_for(task, 120)

    _, states = replayed(server, match_id, owner)
    assert len(states) == 2
    seats = _get(server, f"/rooms/{code}", owner)["seats"]
    season = _get(server, f"/clubs/{cid}/standings", owner)
    assert season["number"] == 1 and season["closed_at"] is None
    rows = {e["account_id"]: e for e in season["standings"]}
    assert set(rows) == {s["account_id"] for s in seats}
    assert sum(e["points"] for e in rows.values()) == 0
    totals = [0, 0, 0]
    for i, s in enumerate(seats):
        e = rows[s["account_id"]]
        assert e["rounds"] == 2 and e["bot"] == (i != 0)
        assert e["points"] == sum(st.result.deltas[i] for st in states)
        assert e["wins"] == sum(st.result.winner == i for st in states)
        totals[i] = e["points"]
    best = max(totals)
    for i, s in enumerate(seats):
        assert rows[s["account_id"]]["dayingjia"] == int(best > 0 and totals[i] == best)
    after = _get(server, f"/accounts/{me}/rating", owner)
    assert after["matches"] == 1 and after["sigma"] < prior["sigma"]
    assert (after["mu"] > prior["mu"]) == (totals[0] > min(totals[1:]))
    bot = seats[1]["account_id"]
    assert _get(server, f"/accounts/{bot}/rating", owner) == {
        "account_id": bot,
        **_get(server, "/ratings/bots", owner)["heuristic"],
    }

    closed = _post(server, f"/clubs/{cid}/seasons/close", owner)
    assert closed == {"closed": 1, "open": 2}
    assert _get(server, f"/clubs/{cid}/standings", owner)["standings"] == []
    old = _get(server, f"/clubs/{cid}/standings?season=1", owner)
    assert old["standings"] == season["standings"] and old["closed_at"] is not None
    assert [s["number"] for s in _get(server, f"/clubs/{cid}/seasons", owner)] == [1, 2]
    assert _get(server, f"/clubs/{cid}/rooms", owner) == []  # finished: off the lobby
