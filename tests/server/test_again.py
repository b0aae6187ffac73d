"""再来一局: the same seats start a new match once all the people of a finished one ask."""

from __future__ import annotations

import asyncio

import httpx

from .conftest import Player, Server, auth, guest, seated_room, start


def _again(srv: Server, code: str, token: str) -> httpx.Response:
    return httpx.post(f"{srv.http}/rooms/{code}/again", headers=auth(token))


async def test_the_same_seats_start_a_new_match_when_all_agree(server: Server) -> None:
    code, tokens = seated_room(server, 2, bot="random", rounds=1)
    assert _again(server, code, tokens[0]).json()["code"] == "not_finished"
    players = [Player(server, code, t, seed=i) for i, t in enumerate(tokens)]
    tasks = [asyncio.create_task(p.play()) for p in players]
    await asyncio.sleep(0.2)
    await asyncio.to_thread(start, server, code, tokens[0])
    await asyncio.wait_for(asyncio.gather(*tasks), 60)
    old = httpx.get(f"{server.http}/rooms/{code}").json()
    stranger = _again(server, code, guest(server, "x"))
    assert stranger.status_code == 409 and stranger.json()["code"] == "not_seated"
    # The second seat asks first: a new open room, it in its seat, the bot in its seat.
    first = _again(server, code, tokens[1])
    assert first.status_code == 200, first.text
    new = first.json()
    assert new["code"] != code and new["status"] == "open"
    assert new["rounds"] == old["rounds"] and new["rules"] == old["rules"]
    assert new["seats"][0] is None
    assert new["seats"][1]["account_id"] == old["seats"][1]["account_id"]
    assert new["seats"][2]["bot"] == "random"
    again = _again(server, code, tokens[1])  # asking twice changes nothing
    assert again.json()["code"] == new["code"] and again.json()["status"] == "open"
    # The last person agrees: the same seats, a new match.
    last = _again(server, code, tokens[0])
    assert last.status_code == 200, last.text
    started = last.json()
    assert started["code"] == new["code"] and started["status"] == "playing"
    assert started["match_id"] is not None and started["match_id"] != old["match_id"]
    for s in (0, 1):
        assert started["seats"][s]["account_id"] == old["seats"][s]["account_id"]
    late = _again(server, code, tokens[0])
    assert late.status_code == 409 and late.json()["code"] == "room_started"
