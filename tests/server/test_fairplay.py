"""Same-address warnings: when two seated players joined from one address, the room's view
says which seats (never the address), the room's waiting sockets get a ``same_address``
message, and one who signs in later gets it after ``waiting``; the match still starts (a
warning, never a block). Addresses come from X-Forwarded-For through a trusted proxy."""

from __future__ import annotations

from pathlib import Path

import httpx

from paohuzi.server.process import ServerProcess

from .conftest import Sock, auth


def _guest(srv: ServerProcess, name: str, where: str) -> tuple[str, dict[str, str]]:
    headers = {"X-Forwarded-For": where}
    r = httpx.post(f"{srv.http}/accounts/guest", json={"nickname": name}, headers=headers)
    assert r.status_code == 201, r.text
    token = r.json()["token"]
    return token, {**auth(token), **headers}


def _join(srv: ServerProcess, code: str, who: dict[str, str], seat: int) -> dict[str, object]:
    r = httpx.post(f"{srv.http}/rooms/{code}/join", json={"seat": seat}, headers=who)
    assert r.status_code == 200, r.text
    room: dict[str, object] = r.json()["room"]
    return room


async def test_two_seats_from_one_address_are_warned_not_blocked(tmp_path: Path) -> None:
    env = {"PAOHUZI_TRUSTED_PROXIES": "127.0.0.1"}
    with ServerProcess(tmp_path / "s.db", tmp_path / "s.log", env) as srv:
        host, a1 = _guest(srv, "a1", "203.0.113.7")
        other, b = _guest(srv, "b", "198.51.100.2")
        _, a2 = _guest(srv, "a2", "203.0.113.7")
        r = httpx.post(f"{srv.http}/rooms", json={"rounds": 1}, headers=a1)
        code = r.json()["code"]
        assert r.json()["same_address"] == []
        assert _join(srv, code, a1, 0)["same_address"] == []
        assert _join(srv, code, b, 1)["same_address"] == []
        sock = await Sock.open(srv, code, host)
        await sock.kind("waiting")
        room = _join(srv, code, a2, 2)
        assert room["same_address"] == [[0, 2]]
        warned = await sock.kind("same_address")
        assert warned == {"type": "same_address", "room": code, "seats": [[0, 2]]}
        late = await Sock.open(srv, code, other)
        await late.kind("waiting")
        assert (await late.kind("same_address"))["seats"] == [[0, 2]]  # after waiting
        seen = httpx.get(f"{srv.http}/rooms/{code}")
        assert seen.json()["same_address"] == [[0, 2]] and "203.0.113" not in seen.text
        r = httpx.post(f"{srv.http}/rooms/{code}/start", headers=a1)
        assert r.status_code == 200, r.text  # a warning, never a block
        await sock.kind("snapshot")
        await sock.close()
        await late.close()
