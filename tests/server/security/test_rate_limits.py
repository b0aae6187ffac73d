"""Per-address and per-account rate limits on what costs an attacker nothing: sign-ups,
room creation, look-ups of room codes (misses cost more than hits) and replays."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
import websockets

from ..conftest import Server, auth, guest, room

Launch = Callable[[dict[str, str]], Server]


@pytest.fixture
def launch(tmp_path: Path) -> Iterator[Launch]:
    """Start a server with these environment settings (stopped after the test)."""
    started: list[Server] = []

    def go(env: dict[str, str]) -> Server:
        srv = Server(tmp_path / f"s{len(started)}.db", tmp_path / f"s{len(started)}.log", env=env)
        started.append(srv)
        srv.start()
        return srv

    yield go
    for srv in started:
        srv.stop()


def _refused(r: httpx.Response) -> bool:
    if r.status_code != 429:
        return False
    assert r.json()["code"] == "rate_limited", r.text
    assert int(r.headers["Retry-After"]) >= 1
    return True


def test_guest_sign_ups_from_one_address_are_limited(launch: Launch) -> None:
    srv = launch({"PAOHUZI_RATE_SIGNUP_BURST": "5", "PAOHUZI_RATE_SIGNUP_RATE": "0.1"})
    answers = [httpx.post(f"{srv.http}/accounts/guest", json={"nickname": "g"}) for _ in range(8)]
    assert [r.status_code for r in answers[:5]] == [201] * 5
    assert all(_refused(r) for r in answers[5:])
    body = {"username": "newname", "password": "a good long password"}
    assert _refused(httpx.post(f"{srv.http}/accounts/register", json=body))


def test_one_guest_cannot_make_2000_rooms(launch: Launch) -> None:
    srv = launch({})  # the defaults
    host = guest(srv, "spammer")
    made = 0
    with httpx.Client(base_url=srv.http, headers=auth(host)) as c:
        for _ in range(2000):
            r = c.post("/rooms", json={"rounds": 1})
            if r.status_code != 201:
                break
            made += 1
    from paohuzi.server.ratelimit import RateSettings

    assert made <= RateSettings().open_rooms
    assert r.status_code in (409, 429) and r.json()["code"] in ("too_many_rooms", "rate_limited")


def test_room_creation_per_account_is_rate_limited(launch: Launch) -> None:
    srv = launch({"PAOHUZI_RATE_ROOMS_BURST": "3", "PAOHUZI_RATE_ROOMS_RATE": "0.05"})
    host = guest(srv, "h")
    codes = [httpx.post(f"{srv.http}/rooms", json={}, headers=auth(host)) for _ in range(4)]
    assert [r.status_code for r in codes[:3]] == [201] * 3
    assert _refused(codes[3])
    assert (
        httpx.post(f"{srv.http}/rooms", json={}, headers=auth(guest(srv, "o"))).status_code == 201
    )


def _enumerate(srv: Server, n: int, token: str) -> list[httpx.Response]:
    rng = random.Random(7)
    out = []
    with httpx.Client(base_url=srv.http, headers=auth(token)) as c:
        for i in range(n):
            code = f"{rng.randrange(10**6):06d}"
            out.append(c.get(f"/rooms/{code}") if i % 2 else c.post(f"/rooms/{code}/join", json={}))
    return out


def test_enumerating_codes_is_refused_quickly(launch: Launch) -> None:
    srv = launch({})  # the defaults
    token = guest(srv, "scanner")
    started = time.monotonic()
    answers = _enumerate(srv, 200, token)
    took = time.monotonic() - started
    first = next((i for i, r in enumerate(answers) if r.status_code == 429), None)
    assert first is not None, "200 look-ups of random codes, none refused"
    from paohuzi.server.ratelimit import RateSettings

    d = RateSettings()
    assert first <= d.miss_burst, first
    answered = [r for r in answers if not _refused(r)]
    assert all(r.json()["code"] == "no_room" for r in answered)
    assert len(answered) <= d.miss_burst + d.miss_rate * took + 1, (len(answered), took)


async def test_socket_room_codes_count_as_look_ups(launch: Launch) -> None:
    srv = launch({"PAOHUZI_RATE_MISS_BURST": "3", "PAOHUZI_RATE_MISS_RATE": "0.01"})
    token = guest(srv, "scanner")
    codes = []
    for code in ("100000", "100001", "100002", "100003", "100004"):
        async with websockets.connect(srv.ws(code)) as ws:
            await ws.send(json.dumps({"type": "auth", "token": token}))
            codes.append(json.loads(await ws.recv())["code"])
    assert codes[:3] == ["no_room"] * 3 and codes[3:] == ["rate_limited"] * 2


def test_hits_cost_less_than_misses(launch: Launch) -> None:
    srv = launch({"PAOHUZI_RATE_MISS_BURST": "5", "PAOHUZI_RATE_MISS_RATE": "0.01"})
    code = room(srv, guest(srv, "h"))
    for _ in range(50):  # a waiting room polls its own code: all hits
        assert httpx.get(f"{srv.http}/rooms/{code}").status_code == 200
    for _ in range(5):
        assert httpx.get(f"{srv.http}/rooms/999999").status_code == 404
    assert _refused(httpx.get(f"{srv.http}/rooms/{code}"))


def test_replays_per_address_are_limited(launch: Launch) -> None:
    srv = launch({"PAOHUZI_RATE_REPLAY_BURST": "3", "PAOHUZI_RATE_REPLAY_RATE": "0.01"})
    # A match's record and its ledger draw on the same allowance (ids are sequential).
    paths = ("record", "ledger", "record", "ledger")
    answers = [httpx.get(f"{srv.http}/matches/1/{p}") for p in paths]
    assert [r.status_code for r in answers[:3]] == [404] * 3
    assert _refused(answers[3])


def test_the_limiter_forgets_the_oldest_keys() -> None:
    from paohuzi.server.ratelimit import RateLimited, RateLimiter

    lim = RateLimiter("things", burst=2, rate=0.001, max_keys=100)
    for i in range(10_000):
        lim.take(f"10.0.{i // 256}.{i % 256}")
    assert len(lim.buckets) == 100
    lim.take("a")
    lim.take("a")
    with pytest.raises(RateLimited) as info:
        lim.take("a")
    assert info.value.status == 429 and info.value.retry_after >= 1


def test_rate_settings_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    from paohuzi.server.ratelimit import RateSettings

    monkeypatch.setenv("PAOHUZI_RATE_SIGNUP_BURST", "7")
    assert RateSettings.from_env().signup_burst == 7
    monkeypatch.setenv("PAOHUZI_RATE_SIGNUP_BURST", "lots")
    with pytest.raises(ValueError, match="'lots'"):
        RateSettings.from_env()
    for bad in ("0", "-3", "nan", "inf"):  # each refused naming the variable, quoting it
        monkeypatch.setenv("PAOHUZI_RATE_SIGNUP_BURST", bad)
        with pytest.raises(
            ValueError, match=f"PAOHUZI_RATE_SIGNUP_BURST must be a positive number, got '{bad}'"
        ):
            RateSettings.from_env()


def test_hints_and_round_replays_are_limited_too(launch: Launch) -> None:
    srv = launch(
        {
            "PAOHUZI_RATE_MISS_BURST": "3",
            "PAOHUZI_RATE_MISS_RATE": "0.01",
            "PAOHUZI_RATE_REPLAY_BURST": "2",
            "PAOHUZI_RATE_REPLAY_RATE": "0.01",
        }
    )
    token = guest(srv, "scanner")
    code = room(srv, guest(srv, "h"))  # a room the scanner has no seat in: a miss too
    hints = [
        httpx.get(f"{srv.http}/rooms/{c}/hint", headers=auth(token))
        for c in ("100000", code, "100002", "100003")
    ]
    assert [r.status_code for r in hints[:3]] == [404, 403, 404]
    assert _refused(hints[3])
    rounds = [httpx.get(f"{srv.http}/matches/1/rounds/0") for _ in range(2)]
    rounds.append(httpx.get(f"{srv.http}/matches/1/replay/0"))
    assert [r.status_code for r in rounds[:2]] == [404, 404]
    assert _refused(rounds[2])
