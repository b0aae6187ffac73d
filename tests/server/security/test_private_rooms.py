"""A private room is joined and watched only with its invite link: its code alone (six
digits, enumerable) shows nothing and seats no one; the key is shown to insiders only."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import httpx
import pytest
import websockets

from ..conftest import SRC, Server, auth, guest, room


def _private(srv: Server) -> tuple[str, str, str]:
    host = guest(srv, "host")
    r = httpx.post(f"{srv.http}/rooms", json={"public": False, "rounds": 1}, headers=auth(host))
    assert r.status_code == 201, r.text
    key = r.json()["invite_key"]
    assert isinstance(key, str) and len(key) >= 16
    return host, r.json()["code"], key


def test_a_private_room_is_not_joined_by_its_code_alone(server: Server) -> None:
    _, code, key = _private(server)
    stranger = guest(server, "stranger")
    r = httpx.post(f"{server.http}/rooms/{code}/join", json={}, headers=auth(stranger))
    assert r.status_code == 404 and r.json()["code"] == "no_room"
    bad = {"key": key[:-1] + ("A" if key[-1] != "A" else "B")}
    r = httpx.post(f"{server.http}/rooms/{code}/join", json=bad, headers=auth(stranger))
    assert r.status_code == 404
    r = httpx.post(f"{server.http}/rooms/{code}/join", json={"key": key}, headers=auth(stranger))
    assert r.status_code == 200, r.text
    assert r.json()["room"]["invite_key"] == key  # seated now: may pass the link on


def test_a_private_room_shows_nothing_to_a_stranger_without_its_key(server: Server) -> None:
    host, code, key = _private(server)
    stranger = guest(server, "stranger")
    r = httpx.get(f"{server.http}/rooms/{code}", headers=auth(stranger))
    assert r.status_code == 404 and "invite" in r.json()["reason"]
    r = httpx.get(f"{server.http}/rooms/{code}")
    assert r.status_code == 404
    seen = httpx.get(f"{server.http}/rooms/{code}", params={"key": key}, headers=auth(stranger))
    assert seen.status_code == 200 and seen.json()["invite_key"] is None
    mine = httpx.get(f"{server.http}/rooms/{code}", headers=auth(host))
    assert mine.json()["invite_key"] == key
    public = room(server, host)
    assert httpx.get(f"{server.http}/rooms/{public}").json()["invite_key"] is None


async def _first(url: str, token: str, spectate: bool) -> dict[str, object]:
    async with websockets.connect(url) as ws:
        await ws.send(json.dumps({"type": "auth", "token": token, "spectate": spectate}))
        m: dict[str, object] = json.loads(await ws.recv())
        return m


async def test_a_private_room_is_watched_only_with_its_key(server: Server) -> None:
    host, code, key = _private(server)
    stranger = guest(server, "stranger")
    refused = await _first(server.ws(code), stranger, True)
    assert refused["type"] == "error" and refused["code"] == "no_room"
    allowed = await _first(f"{server.ws(code)}?key={key}", stranger, True)
    assert allowed["type"] == "waiting"
    assert (await _first(server.ws(code), host, True))["type"] == "waiting"


def test_the_bot_client_reads_codes_and_invite_links() -> None:
    from paohuzi.server.client import ClientError, parse_room

    assert parse_room("123456") == ("123456", None)
    assert parse_room("123456/abc-_9") == ("123456", "abc-_9")
    assert parse_room("http://h:8000/#/room/123456/Key_1") == ("123456", "Key_1")
    assert parse_room("https://h/#/room/123456") == ("123456", None)
    for bad in ("12x", "1234567", "123456/bad key", "http://h/#/room/12"):
        with pytest.raises(ClientError, match="invite link"):
            parse_room(bad)


def test_paohuzi_bot_joins_a_private_room_by_its_invite_link(server: Server) -> None:
    host, code, key = _private(server)
    for seat in (0, 2):
        r = httpx.post(
            f"{server.http}/rooms/{code}/bots", json={"seat": seat, "bot": "random"},
            headers=auth(host),
        )  # fmt: skip
        assert r.status_code == 200, r.text
    link = f"{server.http}/#/room/{code}/{key}"
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")]),
    }
    cmd = [sys.executable, "-m", "paohuzi", "bot", "--server", server.http, "--room", link,
           "--bot", "random", "--seed", "3"]  # fmt: skip
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().startswith(f"room {code}: seat 1")
        r = httpx.post(f"{server.http}/rooms/{code}/start", headers=auth(host))
        assert r.status_code == 200, r.text
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0 and err == "", (out, err)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


async def test_a_key_with_non_ascii_characters_is_refused_like_a_wrong_one(server: Server) -> None:
    """``secrets.compare_digest`` raises on a str with a non-ASCII character: each place
    that checks an invite key answered ``?key=é`` with a 500 (or a dropped socket)."""
    _, code, _ = _private(server)
    stranger = guest(server, "stranger")
    for key in ("é", "键" * 30, "\u3000"):
        r = httpx.get(f"{server.http}/rooms/{code}", params={"key": key}, headers=auth(stranger))
        assert r.status_code == 404 and r.json()["code"] == "no_room", r.text
        r = httpx.post(
            f"{server.http}/rooms/{code}/join", json={"key": key}, headers=auth(stranger)
        )
        assert r.status_code == 404 and r.json()["code"] == "no_room", r.text
    refused = await _first(f"{server.ws(code)}?key=%C3%A9", stranger, True)
    assert refused["type"] == "error" and refused["code"] == "no_room"
    owner = guest(server, "owner")
    club = httpx.post(f"{server.http}/clubs", json={"name": "围炉"}, headers=auth(owner))
    assert club.status_code == 201, club.text
    r = httpx.post(
        f"{server.http}/clubs/{club.json()['id']}/join", json={"key": "é"}, headers=auth(stranger)
    )
    assert r.status_code == 404 and r.json()["code"] == "no_club", r.text
