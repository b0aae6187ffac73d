"""Close-by warnings (nearby.py): two seated players who both chose to share a rough location
and are within PAOHUZI_CLOSE_BY_KM of each other are named (by seat, never by position) to
everyone in the room before the start; one who withdrew, one who never shared, or two far
apart are not; the start is never blocked; the server keeps only 0.005-degree cells, and
deletes them on withdrawal, on leaving and at the start."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from paohuzi.server import nearby
from paohuzi.server.process import ServerProcess

from .conftest import Sock, auth, guest, join, room, start

HOME = (28.19414, 112.98227)  # 长沙
NEAR = (28.19851, 112.98551)  # about 0.6 km from HOME
FAR = (28.22818, 112.93880)  # about 5.7 km from HOME
# What a leak would look like: any coordinate's degrees, or its stored cell.
DEGREES = ("28.19", "28.22", "112.98", "112.93")
CELLS = {nearby.to_cell(v) for at in (HOME, NEAR, FAR) for v in at}


def leaks(data: Any) -> list[Any]:
    """The coordinates (degrees or cells) anywhere in a decoded JSON value."""
    if isinstance(data, dict):
        return [x for v in data.values() for x in leaks(v)]
    if isinstance(data, list):
        return [x for v in data for x in leaks(v)]
    if isinstance(data, int | float) and not isinstance(data, bool):
        return [data] if data in CELLS or any(str(data).startswith(d) for d in DEGREES) else []
    return [data] if isinstance(data, str) and any(d in data for d in DEGREES) else []


def _put(srv: ServerProcess, code: str, token: str, at: tuple[float, float]) -> dict[str, Any]:
    r = httpx.put(f"{srv.http}/rooms/{code}/location", json={"lat": at[0], "lon": at[1]},
                  headers=auth(token))  # fmt: skip
    assert r.status_code == 200, r.text
    assert not any(d in r.text for d in DEGREES) and not leaks(r.json()), r.text
    out: dict[str, Any] = r.json()
    return out


def _room(srv: ServerProcess, code: str, token: str | None = None) -> dict[str, Any]:
    r = httpx.get(f"{srv.http}/rooms/{code}", headers=auth(token) if token else {})
    assert r.status_code == 200, r.text
    assert not any(d in r.text for d in DEGREES) and not leaks(r.json()), r.text
    out: dict[str, Any] = r.json()
    return out


def _cells(srv: ServerProcess) -> list[tuple[int, int, int, int]]:
    with sqlite3.connect(srv.db_url.removeprefix("sqlite:///")) as c:
        return list(c.execute("SELECT room_id, account_id, lat_cell, lon_cell FROM seat_locations"))


def _three(srv: ServerProcess) -> tuple[str, list[str]]:
    tokens = [guest(srv, f"n{i}") for i in range(3)]
    code = room(srv, tokens[0])
    for i, t in enumerate(tokens):
        join(srv, code, t, i)
    return code, tokens


def test_cells_and_distances() -> None:
    assert nearby.to_cell(HOME[0]) == 5639 and nearby.to_cell(-90.0) == -18000
    assert nearby.distance_km((5639, 22596), (5639, 22596)) == 0.0
    one = nearby.distance_km((0, 0), (1, 0))  # a cell north-south: 0.005 degree
    assert one == pytest.approx(0.556, abs=0.001)
    near = [nearby.to_cell(v) for v in NEAR]
    far = [nearby.to_cell(v) for v in FAR]
    home = (nearby.to_cell(HOME[0]), nearby.to_cell(HOME[1]))
    assert nearby.distance_km(home, (near[0], near[1])) < 1.0 < 5.0
    assert nearby.distance_km(home, (far[0], far[1])) > 5.0


def test_the_distance_is_a_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    assert nearby.close_by_km() == 1.0
    monkeypatch.setenv("PAOHUZI_CLOSE_BY_KM", "7.5")
    assert nearby.close_by_km() == 7.5
    for bad in ("0", "-1", "nan", "inf", "near"):
        monkeypatch.setenv("PAOHUZI_CLOSE_BY_KM", bad)
        with pytest.raises(ValueError, match="PAOHUZI_CLOSE_BY_KM"):
            nearby.close_by_km()


async def test_two_near_seats_warn_everyone_and_never_block(server: ServerProcess) -> None:
    code, (a, b, c) = _three(server)
    sock = await Sock.open(server, code, c)
    await sock.kind("waiting")
    first = _put(server, code, a, HOME)
    assert first["close_by"] == [] and first["location_shared"] is True
    assert _room(server, code, c)["location_shared"] is False  # only one's own is told
    assert _put(server, code, b, NEAR)["close_by"] == [[0, 1]]
    assert (await sock.kind("close_by")) == {"type": "close_by", "room": code, "seats": [[0, 1]]}
    assert _room(server, code, c)["close_by"] == [[0, 1]]  # the third sees it
    assert _room(server, code)["close_by"] == [[0, 1]]  # and anyone who sees the room
    late = await Sock.open(server, code, a)
    await late.kind("waiting")
    assert (await late.kind("close_by"))["seats"] == [[0, 1]]
    rid = {r[0] for r in _cells(server) if r[2] == 5639}
    assert len(rid) == 1 and all(isinstance(v, int) for r in _cells(server) for v in r)
    start(server, code, a)  # a warning, never a block
    await sock.kind("snapshot")
    assert not [r for r in _cells(server) if r[0] in rid]  # deleted at the start
    assert _room(server, code)["close_by"] == []
    assert not leaks(sock.messages + late.messages)
    await sock.close()
    await late.close()


def test_no_warning_when_one_withdrew_or_never_shared(server: ServerProcess) -> None:
    code, (a, b, c) = _three(server)
    _put(server, code, a, HOME)
    assert _room(server, code, c)["close_by"] == []  # c never shared
    assert _put(server, code, b, NEAR)["close_by"] == [[0, 1]]
    r = httpx.delete(f"{server.http}/rooms/{code}/location", headers=auth(b))
    assert r.status_code == 200, r.text
    assert r.json()["close_by"] == [] and r.json()["location_shared"] is False
    assert _room(server, code, c)["close_by"] == []
    assert len([x for x in _cells(server) if x[2] == nearby.to_cell(NEAR[0])]) == 0
    _put(server, code, b, NEAR)
    assert httpx.post(f"{server.http}/rooms/{code}/leave", headers=auth(b)).status_code == 200
    assert _room(server, code, c)["close_by"] == []  # leaving deletes it too
    assert len([x for x in _cells(server) if x[2] == nearby.to_cell(NEAR[0])]) == 0


def test_far_apart_is_no_warning_and_all_three_near_is_one_group(server: ServerProcess) -> None:
    code, (a, b, c) = _three(server)
    _put(server, code, a, HOME)
    assert _put(server, code, b, FAR)["close_by"] == []
    assert _put(server, code, c, NEAR)["close_by"] == [[0, 2]]
    assert _put(server, code, b, HOME)["close_by"] == [[0, 1, 2]]  # a new share replaces


def test_a_wider_setting_warns_farther(tmp_path: Path) -> None:
    env = {"PAOHUZI_CLOSE_BY_KM": "10"}
    with ServerProcess(tmp_path / "s.db", tmp_path / "s.log", env) as srv:
        code, (a, b, _) = _three(srv)
        _put(srv, code, a, HOME)
        assert _put(srv, code, b, FAR)["close_by"] == [[0, 1]]


def test_an_expired_room_keeps_no_position(tmp_path: Path) -> None:
    env = {"PAOHUZI_ROOM_OPEN_SECONDS": "1.5", "PAOHUZI_ROOM_SWEEP_SECONDS": "0.2"}
    with ServerProcess(tmp_path / "s.db", tmp_path / "s.log", env) as srv:
        code, (a, _, _) = _three(srv)
        _put(srv, code, a, HOME)
        assert len(_cells(srv)) == 1
        deadline = time.monotonic() + 10
        while _room(srv, code)["status"] != "expired":
            assert time.monotonic() < deadline, "the room did not expire"
            time.sleep(0.1)
        assert _cells(srv) == []
