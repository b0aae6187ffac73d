"""Server trust, finding 3: a private room's matches are as private as the room.

A finished match's record, ledger, rounds' 结算 and step-by-step replay answer whoever
may see its room (a public room: anyone; a private one: its host, its seated players and
holders of its invite key; a club's room: its members) and whoever played the match
(a ledger row). Anyone else gets exactly the answer of a match that does not exist: ids
are sequential, so a 403 (or a 409 for a live one) would tell which ids are private
matches. The check comes before the record caches, so a record the host fetched (and
the server kept) is still refused to an outsider.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import delete, select

from paohuzi.server.app import create_app
from paohuzi.server.db import Account, RoomSeat, sync_engine
from paohuzi.server.limits import PlaySettings
from paohuzi.server.ratelimit import RateSettings

Headers = dict[str, str]
PATHS = ("record", "ledger", "rounds/0", "replay/0")
MISSING = 2**31 - 1  # the largest id: no match has it
RATES = RateSettings(replay_burst=1000)  # these tests ask for many replays from one address


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    """The app on a fresh database; a seat with no socket is played by the server at once."""
    with TestClient(create_app(db_url, PlaySettings(grace=0), rates=RATES)) as c:
        yield c


def _guest(c: TestClient, name: str) -> Headers:
    r = c.post("/accounts/guest", json={"nickname": name})
    assert r.status_code == 201, r.text
    return {"Authorization": f"Bearer {r.json()['token']}"}


def _start(c: TestClient, host: Headers, code: str, key: str | None, player: Headers) -> int:
    """Seat ``player`` (with the key), fill the rest with bots, start: the match's id."""
    r = c.post(f"/rooms/{code}/join", json={"seat": 0, "key": key}, headers=player)
    assert r.status_code == 200, r.text
    assert c.post(f"/rooms/{code}/bots", json={"bot": "random"}, headers=host).status_code == 200
    r = c.post(f"/rooms/{code}/start", headers=host)
    assert r.status_code == 200, r.text
    return int(r.json()["match_id"])


def _finish(c: TestClient, code: str, host: Headers) -> None:
    deadline = time.monotonic() + 120
    while c.get(f"/rooms/{code}", headers=host).json()["status"] != "finished":
        assert time.monotonic() < deadline, "the match did not end"
        time.sleep(0.05)


def _private_match(c: TestClient) -> tuple[int, str, str, Headers, Headers]:
    """A finished private one-round match: its id, room code and invite key, the host's
    and the seated player's headers (the host has no seat)."""
    host, player = _guest(c, "host"), _guest(c, "player")
    r = c.post("/rooms", json={"rounds": 1, "public": False}, headers=host)
    assert r.status_code == 201, r.text
    code, key = r.json()["code"], r.json()["invite_key"]
    match_id = _start(c, host, code, key, player)
    _finish(c, code, host)
    return match_id, code, key, host, player


def _get(
    c: TestClient, match_id: int, path: str, who: Headers | None = None, key: str | None = None
) -> httpx.Response:
    params = {"key": key} if key is not None else {}
    return c.get(f"/matches/{match_id}/{path}", headers=who or {}, params=params)


def _seen(c: TestClient, match_id: int, who: Headers | None = None, key: str | None = None) -> None:
    """Every endpoint answers ``who`` with the match (the ledger with its rows)."""
    for path in PATHS:
        r = _get(c, match_id, path, who, key)
        assert r.status_code == 200, (path, r.text)
    assert len(_get(c, match_id, "ledger", who, key).json()) == 3  # a ledger room: 3 seats
    assert _get(c, match_id, "record", who, key).json()["rounds"]


def _unseen(
    c: TestClient, match_id: int, who: Headers | None = None, key: str | None = None
) -> None:
    """Every endpoint answers ``who`` exactly as it answers for a match that does not exist."""
    for path in PATHS:
        got = _get(c, match_id, path, who, key)
        missing = _get(c, MISSING, path, who, key)
        assert got.status_code == missing.status_code == 404, (path, got.text)
        assert got.json() == {"code": "no_match", "reason": f"no match {match_id}"}
        assert got.text.replace(str(match_id), str(MISSING)) == missing.text
        assert got.headers["content-type"] == missing.headers["content-type"]


def test_a_private_match_is_no_match_to_outsiders(client: TestClient) -> None:
    match_id, _, key, host, player = _private_match(client)
    _seen(client, match_id, host)  # first: the record and the rounds are cached now
    _seen(client, match_id, player)
    _seen(client, match_id, None, key)  # the invite link's holder, not signed in
    stranger = _guest(client, "stranger")
    _seen(client, match_id, stranger, key)
    _unseen(client, match_id)
    _unseen(client, match_id, stranger)
    wrong = key[:-1] + ("A" if key[-1] != "A" else "B")
    _unseen(client, match_id, None, wrong)
    _unseen(client, match_id, stranger, wrong)
    _unseen(client, match_id, stranger, "")


def test_a_cached_private_record_is_not_served_to_an_outsider(client: TestClient) -> None:
    match_id, _, _, host, _ = _private_match(client)
    srv: Any = client.app.state.server  # type: ignore[attr-defined]
    assert match_id not in srv.replays.items
    assert _get(client, match_id, "record", host).status_code == 200
    assert _get(client, match_id, "replay/0", host).status_code == 200
    assert match_id in srv.replays.items and srv.derived.items  # kept
    builds = srv.replays.builds
    _unseen(client, match_id)
    _unseen(client, match_id, _guest(client, "stranger"))
    assert srv.replays.builds == builds


def test_a_player_no_longer_seated_still_sees_the_match_played(
    client: TestClient, db_url: str
) -> None:
    match_id, code, _, _, player = _private_match(client)
    engine = sync_engine(db_url)
    try:
        with engine.begin() as db:
            me = db.scalar(select(Account.id).where(Account.nickname == "player"))
            db.execute(delete(RoomSeat).where(RoomSeat.account_id == me))
    finally:
        engine.dispose()
    host_view = client.get(f"/rooms/{code}", headers=player)
    assert host_view.status_code == 404  # the room no longer knows the player
    _seen(client, match_id, player)  # the ledger does
    _unseen(client, match_id, _guest(client, "stranger"))


def test_a_public_match_is_anyones(client: TestClient) -> None:
    host, player = _guest(client, "host"), _guest(client, "player")
    code = client.post("/rooms", json={"rounds": 1}, headers=host).json()["code"]
    match_id = _start(client, host, code, None, player)
    _finish(client, code, host)
    _seen(client, match_id)
    _seen(client, match_id, _guest(client, "stranger"), "any-key")


def _club_room(c: TestClient) -> tuple[dict[str, Any], str, Headers, Headers]:
    """A club's room (from a template, bots allowed): the club, the room's code, the
    owner's and a member's headers."""
    owner, member = _guest(c, "owner"), _guest(c, "member")
    club = c.post("/clubs", json={"name": "牌友"}, headers=owner).json()
    r = c.post(f"/clubs/{club['id']}/join", json={"key": club["invite_key"]}, headers=member)
    assert r.status_code == 200, r.text
    body = {"name": "一局", "rounds": 1, "bots": True}
    t = c.post(f"/clubs/{club['id']}/templates", json=body, headers=owner)
    assert t.status_code == 201, t.text
    r = c.post(f"/clubs/{club['id']}/templates/{t.json()['id']}/open", headers=owner)
    assert r.status_code == 201, r.text
    return club, r.json()["code"], owner, member


def test_a_club_rooms_match_is_its_members_only(client: TestClient) -> None:
    club, code, owner, member = _club_room(client)
    player = _guest(client, "player2")  # not a member: may not join
    r = client.post(f"/rooms/{code}/join", json={}, headers=player)
    assert r.status_code == 404
    r = client.get(f"/rooms/{code}", headers=owner)
    key = r.json()["invite_key"]
    match_id = _start(client, owner, code, None, owner)
    _finish(client, code, owner)
    other = _guest(client, "member2")
    r = client.post(f"/clubs/{club['id']}/join", json={"key": club["invite_key"]}, headers=other)
    assert r.status_code == 200, r.text
    _seen(client, match_id, owner)
    _seen(client, match_id, member)  # a member who did not play
    _seen(client, match_id, other)  # one who joined the club later
    _unseen(client, match_id)
    _unseen(client, match_id, player)
    _unseen(client, match_id, player, key)  # a club room's key is no way in
    _unseen(client, match_id, None, key)
    # 复盘 agrees: a member gets past the check (nothing analysed yet), an outsider
    # gets the answer of no match.
    r = client.get(f"/matches/{match_id}/analysis?seat=0", headers=member)
    assert r.status_code == 404 and r.json()["code"] == "no_analysis", r.text
    r = client.get(f"/matches/{match_id}/analysis?seat=0", headers=player)
    assert r.json() == {"code": "no_match", "reason": f"no match {match_id}"}


def test_a_huge_key_is_refused_clearly(client: TestClient) -> None:
    for path in PATHS:
        r = _get(client, 1, path, None, "k" * 10_000)
        assert r.status_code == 400, (path, r.text)
        body = r.json()
        assert set(body) == {"code", "reason"} and body["code"] == "bad_request"
        assert body["reason"].startswith("query.key:") and len(body["reason"]) < 200


def test_a_live_private_match_is_not_finished_to_insiders_only(db_url: str) -> None:
    """Before the end: 409 to the host (as before), 404 no match to an outsider (a 409
    would tell that the id is a match being played)."""
    slow = PlaySettings(grace=3600)  # the player's seat, with no socket, waits
    with TestClient(create_app(db_url, slow, rates=RATES)) as c:
        host, player = _guest(c, "host"), _guest(c, "player")
        r = c.post("/rooms", json={"rounds": 1, "public": False}, headers=host)
        code, key = r.json()["code"], r.json()["invite_key"]
        match_id = _start(c, host, code, key, player)
        r = _get(c, match_id, "record", host)
        assert r.status_code == 409 and r.json()["code"] == "not_finished", r.text
        assert _get(c, match_id, "record", None, key).status_code == 409
        _unseen(c, match_id)
        _unseen(c, match_id, _guest(c, "stranger"))
