"""A shared location (nearby.py) is its seat's alone: only a seated player of an open room may
share or withdraw one (an account without a seat, a spectator and the host who is not seated
get 403; a club room's non-member and a private room's stranger 404, like no room at all;
a started room 409); there is no way to read one back, and no answer or message, to anyone,
ever carries a coordinate: only seat numbers. Bad bodies (out of range, not finite, not a
number, extra fields, too large) are 400 ``bad_location``/``bad_request`` or 413, and the
changes are rate-limited per account. On SQLite and PostgreSQL (conftest.py)."""

from __future__ import annotations

from typing import Any

import httpx

from ..conftest import Server, Sock, auth, guest, join, room
from ..test_nearby import DEGREES, HOME, NEAR, leaks
from .test_clubs import _club, _club_room


def _put(srv: Server, code: str, token: str, body: Any) -> httpx.Response:
    return httpx.put(f"{srv.http}/rooms/{code}/location", json=body, headers=auth(token))


def _clean(r: httpx.Response) -> httpx.Response:
    assert not any(d in r.text for d in DEGREES) and not leaks(r.json()), r.text
    return r


def _here(at: tuple[float, float]) -> dict[str, float]:
    return {"lat": at[0], "lon": at[1]}


async def test_only_a_seated_player_shares_and_nobody_reads_one(server: Server) -> None:
    host, a, b = guest(server, "host"), guest(server, "a"), guest(server, "b")
    watcher = guest(server, "watcher")
    code = room(server, host)  # the host takes no seat
    join(server, code, a, 0)
    join(server, code, b, 1)
    spectator = await Sock.open(server, code, watcher, spectate=True)
    await spectator.kind("waiting")
    for who in (host, watcher):
        r = _clean(_put(server, code, who, _here(HOME)))
        assert r.status_code == 403 and r.json()["code"] == "not_seated", r.text
        r = httpx.delete(f"{server.http}/rooms/{code}/location", headers=auth(who))
        assert r.status_code == 403 and r.json()["code"] == "not_seated", r.text
    assert _put(server, code, "no-such-token", _here(HOME)).status_code == 401
    assert httpx.put(f"{server.http}/rooms/{code}/location", json=_here(HOME)).status_code == 401
    assert _clean(_put(server, code, a, _here(HOME))).status_code == 200
    assert _clean(_put(server, code, b, _here(NEAR))).json()["close_by"] == [[0, 1]]
    assert (await spectator.kind("close_by"))["seats"] == [[0, 1]]  # seats, never where
    for who in (host, watcher, a, b):
        got = httpx.get(f"{server.http}/rooms/{code}/location", headers=auth(who))
        assert got.status_code == 405, got.text  # no way to read a position back
        seen = _clean(httpx.get(f"{server.http}/rooms/{code}", headers=auth(who)))
        assert seen.json()["close_by"] == [[0, 1]]
        assert seen.json()["location_shared"] is (who in (a, b))
    assert _clean(httpx.get(f"{server.http}/rooms")).status_code == 200
    assert not leaks(spectator.messages)
    await spectator.close()


def test_strangers_get_no_room_and_a_started_room_is_closed(server: Server) -> None:
    club, owner, _, member = _club(server)
    club_room = _club_room(server, club, owner)["code"]
    join(server, club_room, owner, 0)
    stranger = guest(server, "stranger")
    r = _put(server, club_room, stranger, _here(HOME))
    assert r.status_code == 404 and r.json()["code"] == "no_room", r.text
    r = httpx.delete(f"{server.http}/rooms/{club_room}/location", headers=auth(stranger))
    assert r.status_code == 404 and r.json()["code"] == "no_room", r.text
    r = _put(server, club_room, member, _here(HOME))  # a member, but not seated
    assert r.status_code == 403 and r.json()["code"] == "not_seated", r.text
    host = guest(server, "host")
    private = room(server, host, public=False)
    join(server, private, host, 0)
    r = _put(server, private, stranger, _here(HOME))
    assert r.status_code == 404 and r.json()["code"] == "no_room", r.text
    r = httpx.post(f"{server.http}/rooms/{private}/bots", json={"bot": "random"},
                   headers=auth(host))  # fmt: skip
    assert r.status_code == 200, r.text
    assert httpx.post(f"{server.http}/rooms/{private}/start", headers=auth(host)).status_code == 200
    r = _put(server, private, host, _here(HOME))
    assert r.status_code == 409 and r.json()["code"] == "room_started", r.text


def test_bad_bodies_are_clear_refusals(server: Server) -> None:
    a = guest(server, "a")
    code = room(server, a)
    join(server, code, a, 0)
    bad = [
        {"lat": 90.5, "lon": 0}, {"lat": -91, "lon": 0}, {"lat": 0, "lon": 180.01},
        {"lat": 0, "lon": -200}, {"lat": "28.1", "lon": 0}, {"lat": True, "lon": 0},
        {"lat": None, "lon": 0}, {"lat": [1], "lon": 0}, {"lat": 0},
    ]  # fmt: skip
    for body in bad:
        r = _put(server, code, a, body)
        assert r.status_code == 400 and r.json()["code"] == "bad_location", (body, r.text)
        assert len(r.json()["reason"]) < 200
    for raw in (
        '{"lat": NaN, "lon": 0}',
        '{"lat": Infinity, "lon": 0}',
        '{"lat": 1e999, "lon": 0}',
    ):
        r = httpx.put(f"{server.http}/rooms/{code}/location", content=raw,
                      headers={**auth(a), "Content-Type": "application/json"})  # fmt: skip
        assert r.status_code == 400 and r.json()["code"] in ("bad_location", "bad_json"), r.text
    r = _put(server, code, a, {"lat": 1, "lon": 2, "accuracy": 3})
    assert r.status_code == 400 and r.json()["code"] == "bad_request", r.text
    r = _put(server, code, a, {"lat": 1, "lon": 2, "pad": "x" * 2_000_000})
    assert r.status_code == 413 and r.json()["code"] == "too_large", r.text
    r = httpx.get(f"{server.http}/rooms/{code}", headers=auth(a))
    assert r.json()["location_shared"] is False  # nothing refused was kept


def test_changes_are_rate_limited_per_account(server: Server) -> None:
    a = guest(server, "a")
    code = room(server, a)
    join(server, code, a, 0)
    codes = []  # the burst (30) runs out however slow the machine (refill: 0.5 a second)
    while len(codes) < 200 and 429 not in codes:
        r = _put(server, code, a, _here(HOME))
        codes.append(r.status_code)
    assert codes[0] == 200 and codes[-1] == 429 and len(codes) >= 31, codes
    # The refusal itself (asking once more could find a token refilled on a slow machine).
    assert r.json()["code"] == "rate_limited" and int(r.headers["Retry-After"]) >= 1
