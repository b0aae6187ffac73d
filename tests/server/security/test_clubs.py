"""A club (亲友圈) is its members' alone: a non-member (or a pending request) sees none of
its endpoints, and cannot see, join or watch its tables, over HTTP or the play socket, even
with the room's invite key; an admin cannot change points (no endpoint writes them); an
admin cannot do the owner's part; bad ids and bodies are 400/404 with codes. On SQLite and
PostgreSQL (conftest.py)."""

from __future__ import annotations

import json
from typing import Any

import httpx
import websockets

from ..conftest import Server, auth, guest


def _post(srv: Server, path: str, token: str, body: Any = None) -> httpx.Response:
    return httpx.post(f"{srv.http}{path}", json=body, headers=auth(token))


def _get(srv: Server, path: str, token: str | None) -> httpx.Response:
    return httpx.get(f"{srv.http}{path}", headers=auth(token) if token else {})


def _club(srv: Server) -> tuple[dict[str, Any], str, str, str]:
    """A club with its owner, an admin and a member (joined by request and by link)."""
    owner, admin, member = guest(srv, "owner"), guest(srv, "admin"), guest(srv, "member")
    r = _post(srv, "/clubs", owner, {"name": "牌友"})
    assert r.status_code == 201, r.text
    club = r.json()
    asked = _post(srv, "/clubs/requests", admin, {"code": club["code"]})
    assert asked.status_code == 201 and asked.json()["role"] == "pending", asked.text
    admin_id = httpx.get(f"{srv.http}/accounts/me", headers=auth(admin)).json()["id"]
    assert _post(srv, f"/clubs/{club['id']}/members/{admin_id}/approve", owner).status_code == 200
    r = _post(srv, f"/clubs/{club['id']}/members/{admin_id}/role", owner, {"role": "admin"})
    assert r.status_code == 200, r.text
    r = _post(srv, f"/clubs/{club['id']}/join", member, {"key": club["invite_key"]})
    assert r.status_code == 200 and r.json()["role"] == "member", r.text
    return club, owner, admin, member


def _club_room(srv: Server, club: dict[str, Any], owner: str) -> dict[str, Any]:
    body = {"name": "一局", "rounds": 1, "bots": True}
    t = _post(srv, f"/clubs/{club['id']}/templates", owner, body)
    assert t.status_code == 201, t.text
    r = _post(srv, f"/clubs/{club['id']}/templates/{t.json()['id']}/open", owner)
    assert r.status_code == 201, r.text
    room: dict[str, Any] = r.json()
    assert room["public"] is False and room["invite_key"]
    return room


def test_a_non_member_sees_none_of_the_club(server: Server) -> None:
    club, owner, _, member = _club(server)
    cid = club["id"]
    stranger = guest(server, "stranger")
    pending = guest(server, "pending")
    assert _post(server, "/clubs/requests", pending, {"code": club["code"]}).status_code == 201
    paths = ["", "/members", "/templates", "/rooms", "/seasons", "/standings"]
    for who in (stranger, pending):
        for p in paths:
            r = _get(server, f"/clubs/{cid}{p}", who)
            assert r.status_code == 404 and r.json()["code"] == "no_club", (p, r.text)
        r = _post(server, f"/clubs/{cid}/templates", who, {"name": "x"})
        assert r.status_code == 404 and r.json()["code"] == "no_club"
        assert _post(server, f"/clubs/{cid}/seasons/close", who).status_code == 404
    for p in paths:  # nobody signed in: 401
        assert _get(server, f"/clubs/{cid}{p}", None).status_code == 401
    # A wrong invite key is no club, like a club that does not exist.
    r = _post(server, f"/clubs/{cid}/join", stranger, {"key": club["invite_key"] + "x"})
    assert r.status_code == 404 and r.json()["code"] == "no_club"
    assert _get(server, f"/clubs/{cid + 10_000}", owner).json()["code"] == "no_club"
    # The member sees the club, not its invite key; the pending request shows to admins only.
    seen = _get(server, f"/clubs/{cid}", member).json()
    assert seen["role"] == "member" and seen["invite_key"] is None
    roles = {m["role"] for m in _get(server, f"/clubs/{cid}/members", member).json()}
    assert roles == {"owner", "admin", "member"}
    roles = {m["role"] for m in _get(server, f"/clubs/{cid}/members", owner).json()}
    assert "pending" in roles


async def _first(url: str, token: str, spectate: bool) -> dict[str, Any]:
    async with websockets.connect(url) as ws:
        await ws.send(json.dumps({"type": "auth", "token": token, "spectate": spectate}))
        m: dict[str, Any] = json.loads(await ws.recv())
        return m


async def test_a_non_member_cannot_see_join_or_watch_a_club_table(server: Server) -> None:
    club, owner, _, member = _club(server)
    room = _club_room(server, club, owner)
    code, key = room["code"], room["invite_key"]
    stranger = guest(server, "stranger")
    for q in ("", f"?key={key}"):  # the room's invite key is no way in
        r = _get(server, f"/rooms/{code}{q}", stranger)
        assert r.status_code == 404 and r.json()["code"] == "no_room", r.text
        r = _post(server, f"/rooms/{code}/join", stranger, {"key": key})
        assert r.status_code == 404 and r.json()["code"] == "no_room"
        for spectate in (True, False):
            m = await _first(f"{server.ws(code)}{q}", stranger, spectate)
            assert m["type"] == "error" and m["code"] == "no_room", m
    assert code not in {r["code"] for r in httpx.get(f"{server.http}/rooms").json()}
    # A member joins and watches; the club's lobby lists the room to members only.
    r = _post(server, f"/rooms/{code}/join", member, {})
    assert r.status_code == 200, r.text
    assert (await _first(server.ws(code), member, True))["type"] == "waiting"
    lobby = _get(server, f"/clubs/{club['id']}/rooms", member).json()
    assert [x["code"] for x in lobby] == [code]
    # A member removed from the club loses the table too.
    mid = httpx.get(f"{server.http}/accounts/me", headers=auth(member)).json()["id"]
    assert httpx.delete(f"{server.http}/clubs/{club['id']}/members/{mid}",
                        headers=auth(owner)).status_code == 200  # fmt: skip
    assert _get(server, f"/rooms/{code}", member).status_code == 404
    m = await _first(server.ws(code), member, True)
    assert m["type"] == "error" and m["code"] == "no_room"


def test_an_admin_cannot_change_points_or_do_the_owners_part(server: Server) -> None:
    club, owner, admin, member = _club(server)
    cid = club["id"]
    before = _get(server, f"/clubs/{cid}/standings", owner).json()
    for method in ("POST", "PUT", "PATCH", "DELETE"):
        r = httpx.request(method, f"{server.http}/clubs/{cid}/standings",
                          json={"account_id": 1, "points": 1000}, headers=auth(admin))  # fmt: skip
        assert r.status_code == 405, (method, r.status_code)
    for path in ("/points", "/results", "/standings/adjust"):
        assert _post(server, f"/clubs/{cid}{path}", admin, {"points": 5}).status_code in (404, 405)
    assert _get(server, f"/clubs/{cid}/standings", owner).json() == before
    r = _post(server, f"/clubs/{cid}/seasons/close", admin)
    assert r.status_code == 403 and r.json()["code"] == "not_owner"
    me = httpx.get(f"{server.http}/accounts/me", headers=auth(member)).json()["id"]
    r = _post(server, f"/clubs/{cid}/members/{me}/role", admin, {"role": "admin"})
    assert r.status_code == 403 and r.json()["code"] == "not_owner"
    r = _post(server, f"/clubs/{cid}/templates", member, {"name": "x"})
    assert r.status_code == 403 and r.json()["code"] == "not_admin"
    owner_id = club["owner_id"]
    r = httpx.delete(f"{server.http}/clubs/{cid}/members/{owner_id}", headers=auth(admin))
    assert r.status_code == 403 and r.json()["code"] == "not_allowed"
    r = httpx.delete(f"{server.http}/clubs/{cid}/members/{owner_id}", headers=auth(owner))
    assert r.status_code == 409 and r.json()["code"] == "owner_stays"


def test_bad_ids_and_bodies_get_codes(server: Server) -> None:
    club, owner, _, _ = _club(server)
    cid = club["id"]
    for bad in ("0", "-1", "abc", str(2**40)):
        r = _get(server, f"/clubs/{bad}", owner)
        assert r.status_code == 400 and r.json()["code"] == "bad_request", (bad, r.text)
    cases = [
        ("/clubs", {"name": ""}, "bad_request"),
        ("/clubs", {"name": "x" * 33}, "bad_request"),
        ("/clubs", {"name": "\u0007bell"}, "bad_name"),
        ("/clubs", {"name": "x", "owner_id": 1}, "bad_request"),
        ("/clubs/requests", {"code": "../../"}, "bad_request"),
        (f"/clubs/{cid}/templates", {"name": "t", "rules": {"min_huxi": 99}}, "bad_rules"),
        (f"/clubs/{cid}/templates", {"name": "t", "rules": {"nope": 1}}, "bad_rules"),
        (f"/clubs/{cid}/templates", {"name": "t", "rounds": 0}, "bad_request"),
        (f"/clubs/{cid}/members/1/role", {"role": "owner"}, "bad_request"),
    ]
    for path, body, code in cases:
        r = _post(server, path, owner, body)
        assert r.status_code == 400 and r.json()["code"] == code, (path, body, r.text)
        assert set(r.json()) == {"code", "reason"}
    r = _post(server, "/clubs/requests", owner, {"code": "ZZZZZZ"})
    assert r.status_code in (404, 409)
    r = _post(server, f"/clubs/{cid}/templates/999999/open", owner)
    assert r.status_code == 404 and r.json()["code"] == "no_template"
    r = _post(server, f"/clubs/{cid}/members/999999/approve", owner)
    assert r.status_code == 404 and r.json()["code"] == "no_member"
    r = _get(server, f"/clubs/{cid}/standings?season=7", owner)
    assert r.status_code == 404 and r.json()["code"] == "no_season"


def test_a_template_without_bots_seats_none(server: Server) -> None:
    club, owner, _, _ = _club(server)
    t = _post(server, f"/clubs/{club['id']}/templates", owner, {"name": "人", "bots": False})
    assert t.status_code == 201, t.text
    r = _post(server, f"/clubs/{club['id']}/templates/{t.json()['id']}/open", owner)
    code = r.json()["code"]
    r = _post(server, f"/rooms/{code}/bots", owner, {"bot": "random"})
    assert r.status_code == 403 and r.json()["code"] == "no_bots", r.text
    assert all(s is None for s in _get(server, f"/rooms/{code}", owner).json()["seats"])


def test_a_club_rooms_play_again_stays_the_clubs(db_url: str) -> None:
    """再来一局 of a club's room made a private room that was no longer the club's: out of
    its lobby and standings, open to bots its template refused and to any key holder."""
    import time

    from fastapi.testclient import TestClient

    from paohuzi.server.app import create_app
    from paohuzi.server.limits import PlaySettings

    with TestClient(create_app(db_url, PlaySettings(grace=0))) as c:

        def bearer(name: str) -> dict[str, str]:
            token = c.post("/accounts/guest", json={"nickname": name}).json()["token"]
            return {"Authorization": f"Bearer {token}"}

        h = bearer("o")
        club = c.post("/clubs", json={"name": "再来"}, headers=h).json()
        tid = c.post(f"/clubs/{club['id']}/templates", json={"name": "一局", "rounds": 1},
                     headers=h).json()["id"]  # fmt: skip
        code = c.post(f"/clubs/{club['id']}/templates/{tid}/open", headers=h).json()["code"]
        assert c.post(f"/rooms/{code}/join", json={"seat": 0}, headers=h).status_code == 200
        assert c.post(f"/rooms/{code}/bots", json={"bot": "random"}, headers=h).status_code == 200
        assert c.post(f"/rooms/{code}/start", headers=h).status_code == 200
        deadline = time.monotonic() + 60
        while c.get(f"/rooms/{code}", headers=h).json()["status"] != "finished":
            assert time.monotonic() < deadline, "the match did not end"
            time.sleep(0.05)
        new = c.post(f"/rooms/{code}/again", headers=h)
        assert new.status_code == 200, new.text
        # the club's own (its lobby lists it while open or playing: here it may be over)
        from sqlalchemy import select

        from paohuzi.server.clubdb import ClubRoom
        from paohuzi.server.db import RoomRow, sync_engine

        engine = sync_engine(db_url)
        with engine.connect() as db:
            owner = db.scalar(
                select(ClubRoom.club_id)
                .join(RoomRow, RoomRow.id == ClubRoom.room_id)
                .where(RoomRow.code == new.json()["code"])
            )
        engine.dispose()
        assert owner == club["id"]
        stranger = bearer("s")
        key = new.json()["invite_key"]
        r = c.post(f"/rooms/{new.json()['code']}/join", json={"key": key}, headers=stranger)
        assert r.status_code == 404 and r.json()["code"] == "no_room", r.text  # members only


async def test_the_standings_hide_a_running_tournaments_rounds(tmp_path: Any) -> None:
    """A tournament's deal is played at several tables; while one still plays it, the
    others' results stay hidden from its results (``result`` null) and from the club's
    standings too (they showed the finished table's winner and points at once)."""
    import asyncio

    srv = Server(tmp_path / "s.db", tmp_path / "s.log", env={"PAOHUZI_GRACE": "0.5"})
    srv.start()
    try:
        owner, member = guest(srv, "owner"), guest(srv, "member")
        club = _post(srv, "/clubs", owner, {"name": "复式"}).json()
        cid = club["id"]
        assert (
            _post(srv, f"/clubs/{cid}/join", member, {"key": club["invite_key"]}).status_code == 200
        )
        ids = [_get(srv, "/accounts/me", t).json()["id"] for t in (owner, member)]
        body = {"deals": 1, "players": [ids[0], "random", "random", ids[1], "random", "random"]}
        r = _post(srv, f"/clubs/{cid}/tournaments", owner, body)
        assert r.status_code == 201, r.text
        tid = r.json()["id"]
        where = {t: _get(srv, f"/clubs/{cid}/tournaments/{tid}", t).json()["room"]
                 for t in (owner, member)}  # fmt: skip
        async with websockets.connect(srv.ws(where[member])) as ws:  # the member plays on
            await ws.send(json.dumps({"type": "auth", "token": member}))
            for _ in range(600):  # the owner's table: played by the server after 0.5 s
                if _get(srv, f"/rooms/{where[owner]}", owner).json()["status"] == "finished":
                    break
                await asyncio.sleep(0.05)
            else:
                raise AssertionError("the owner's table did not finish")
            table = _get(srv, f"/clubs/{cid}/standings", member).json()["standings"]
            assert table == [], table
            res = _get(srv, f"/clubs/{cid}/tournaments/{tid}/results", member).json()
            assert all(s["result"] is None for p in res["deals"][0]["plays"] for s in p["seats"])
        for _ in range(600):  # the member gone: the server plays that table too
            t = _get(srv, f"/clubs/{cid}/tournaments/{tid}", owner).json()
            if t["status"] == "finished":
                break
            await asyncio.sleep(0.05)
        else:
            raise AssertionError("the tournament did not finish")
        table = _get(srv, f"/clubs/{cid}/standings", member).json()["standings"]
        assert {e["account_id"] for e in table} >= set(ids) and len(table) == 6, table
    finally:
        srv.stop()
