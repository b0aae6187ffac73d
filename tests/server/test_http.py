"""Accounts, sessions, the ledger and rooms over the real HTTP API."""

from __future__ import annotations

import httpx

from .conftest import Server, auth, guest, join, room


def _register(srv: Server, name: str, password: str = "correct horse") -> httpx.Response:
    return httpx.post(
        f"{srv.http}/accounts/register", json={"username": name, "password": password}
    )


def test_register_login_logout(server: Server) -> None:
    r = _register(server, "alice")
    assert r.status_code == 201, r.text
    token = r.json()["token"]
    me = httpx.get(f"{server.http}/accounts/me", headers=auth(token)).json()
    assert me["username"] == "alice" and me["kind"] == "user" and me["balance"] == 100
    assert _register(server, "alice").json()["code"] == "username_taken"
    assert _register(server, "bob", "short").json()["code"] == "bad_password"
    assert _register(server, "no spaces").json()["code"] == "bad_username"
    bad = httpx.post(
        f"{server.http}/accounts/login", json={"username": "alice", "password": "wrong horse"}
    )
    assert bad.status_code == 401 and bad.json()["code"] == "bad_login"
    nobody = httpx.post(
        f"{server.http}/accounts/login", json={"username": "nobody", "password": "whatever1"}
    )
    assert nobody.status_code == 401 and nobody.json() == bad.json()  # no user enumeration
    ok = httpx.post(
        f"{server.http}/accounts/login", json={"username": "alice", "password": "correct horse"}
    )
    assert ok.status_code == 200
    second = ok.json()["token"]
    assert second != token
    assert httpx.post(f"{server.http}/accounts/logout", headers=auth(second)).status_code == 204
    assert httpx.get(f"{server.http}/accounts/me", headers=auth(second)).status_code == 401
    assert httpx.get(f"{server.http}/accounts/me", headers=auth(token)).status_code == 200
    assert httpx.get(f"{server.http}/accounts/me").status_code == 401
    ledger = httpx.get(f"{server.http}/accounts/me/ledger", headers=auth(token)).json()
    assert [(e["delta"], e["reason"], e["balance_after"]) for e in ledger] == [(100, "grant", 100)]


def test_tokens_are_stored_hashed(server: Server) -> None:
    import sqlite3

    token = guest(server, "hashed")
    path = server.db_url.removeprefix("sqlite:///")
    with sqlite3.connect(path) as db:
        stored = [row[0] for row in db.execute("SELECT token_hash FROM sessions")]
        hashes = [row[0] for row in db.execute("SELECT password_hash FROM accounts")]
    assert token not in stored and len(stored[0]) == 64
    assert all(h is None or h.startswith("$argon2id$") for h in hashes)


def test_guest_and_bad_nickname(server: Server) -> None:
    r = httpx.post(f"{server.http}/accounts/guest", json={"nickname": "  "})
    assert r.status_code == 400 and r.json()["code"] == "bad_nickname"
    r = httpx.post(f"{server.http}/accounts/guest", json={"nickname": 5})
    assert r.status_code == 400 and r.json()["code"] == "bad_nickname"


def test_rooms(server: Server) -> None:
    host, other, third = guest(server, "h"), guest(server, "o"), guest(server, "t")
    code = room(server, host)
    assert len(code) == 6 and code.isdigit()
    private = room(server, host, public=False)
    lobby = [r["code"] for r in httpx.get(f"{server.http}/rooms").json()]
    assert code in lobby and private not in lobby
    assert join(server, code, host, 1) == 1
    again = httpx.post(f"{server.http}/rooms/{code}/join", json={}, headers=auth(host))
    assert again.status_code == 409 and again.json()["code"] == "already_seated"
    taken = httpx.post(f"{server.http}/rooms/{code}/join", json={"seat": 1}, headers=auth(other))
    assert taken.json()["code"] == "seat_taken"
    assert join(server, code, other) == 0
    early = httpx.post(f"{server.http}/rooms/{code}/start", headers=auth(host))
    assert early.status_code == 409 and early.json()["code"] == "not_full"
    left = httpx.post(f"{server.http}/rooms/{code}/leave", headers=auth(other))
    assert left.status_code == 200 and left.json()["seats"][0] is None
    not_host = httpx.post(f"{server.http}/rooms/{code}/bots", json={}, headers=auth(other))
    assert not_host.status_code == 403
    bad_bot = httpx.post(f"{server.http}/rooms/{code}/bots", json={"bot": "x"}, headers=auth(host))
    assert bad_bot.json()["code"] == "bad_bot"
    assert "'guided'" in str(bad_bot.json())  # every bot of paohuzi.bots can take a seat
    filled = httpx.post(
        f"{server.http}/rooms/{code}/bots", json={"bot": "heuristic"}, headers=auth(host)
    )
    assert filled.status_code == 200
    assert [s["bot"] for s in filled.json()["seats"]] == ["heuristic", None, "heuristic"]
    full = httpx.post(f"{server.http}/rooms/{code}/join", json={}, headers=auth(third))
    assert full.json()["code"] == "room_full"
    assert httpx.post(f"{server.http}/rooms/{code}/start", headers=auth(other)).status_code == 403
    started = httpx.post(f"{server.http}/rooms/{code}/start", headers=auth(host))
    assert started.status_code == 200, started.text
    assert code not in [r["code"] for r in httpx.get(f"{server.http}/rooms").json()]
    late = httpx.post(f"{server.http}/rooms/{code}/leave", headers=auth(host))
    assert late.status_code == 409 and late.json()["code"] == "room_started"
    unfinished = httpx.get(f"{server.http}/matches/{started.json()['match_id']}/record")
    assert unfinished.status_code == 409  # the record (all hands) is public only at the end


def test_room_options(server: Server) -> None:
    host = guest(server, "opts")
    r = httpx.post(
        f"{server.http}/rooms",
        json={"rounds": 2, "public": True, "rules": {"min_huxi": 15, "tianhu": True}},
        headers=auth(host),
    )
    assert r.status_code == 201
    assert r.json()["rules"]["min_huxi"] == 15 and r.json()["rounds"] == 2
    for rules, code in [
        ({"starting_balance": 5}, "bad_rules"),
        ({"nonsense": 1}, "bad_rules"),
        ({"min_huxi": -1}, "bad_rules"),
        ({"tianhu": 3}, "bad_rules"),
    ]:
        bad = httpx.post(f"{server.http}/rooms", json={"rules": rules}, headers=auth(host))
        assert bad.status_code == 400 and bad.json()["code"] == code, (rules, bad.text)
    assert httpx.get(f"{server.http}/rooms/000000x").status_code == 404


def test_login_is_rate_limited(server: Server) -> None:
    assert _register(server, "carol").status_code == 201

    def attempt(password: str) -> httpx.Response:
        return httpx.post(
            f"{server.http}/accounts/login", json={"username": "carol", "password": password}
        )

    assert [attempt(f"wrong {i}").status_code for i in range(5)] == [401] * 5
    limited = attempt("correct horse")  # even the right password waits now
    assert limited.status_code == 429 and limited.json()["code"] == "rate_limited"
