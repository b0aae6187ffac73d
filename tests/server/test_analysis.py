"""复盘 on the server: POST/GET /matches/{id}/analysis?seat=S — who may, bounds, storage."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from paohuzi.server.app import create_app
from paohuzi.server.limits import PlaySettings
from paohuzi.server.ratelimit import RateSettings
from paohuzi.server.services.analysis import AnalysisPool, AnalysisSettings

Headers = dict[str, str]


def _guest(c: TestClient, name: str) -> Headers:
    tok = c.post("/accounts/guest", json={"nickname": name}).json()["token"]
    return {"Authorization": f"Bearer {tok}"}


def _finished_match(c: TestClient, host: Headers, public: bool, seat: int | None = None) -> int:
    """A one-round match of random bots, played to its end; with ``seat`` the host holds it
    (never connected: 托管 plays it at once, the grace being 0)."""
    code = c.post("/rooms", json={"rounds": 1, "public": public}, headers=host).json()["code"]
    if seat is not None:
        r = c.post(f"/rooms/{code}/join", json={"seat": seat}, headers=host)
        assert r.status_code == 200, r.text
    assert c.post(f"/rooms/{code}/bots", json={"bot": "random"}, headers=host).status_code == 200
    match_id: int = c.post(f"/rooms/{code}/start", headers=host).json()["match_id"]
    deadline = time.monotonic() + 60
    while c.get(f"/rooms/{code}", headers=host).json()["status"] != "finished":
        assert time.monotonic() < deadline, "the bots' match did not finish"
        time.sleep(0.05)
    return match_id


def _wait_done(c: TestClient, url: str, h: Headers) -> dict[str, Any]:
    deadline = time.monotonic() + 120
    while True:
        got: dict[str, Any] = c.get(url, headers=h).json()
        if got["status"] != "running":
            return got
        assert time.monotonic() < deadline, "the analysis did not finish"
        time.sleep(0.2)


def _client(tmp_path: Path, grace: float) -> Any:
    app = create_app(
        f"sqlite:///{tmp_path / 'an.db'}",
        PlaySettings(grace=grace),
        rates=RateSettings(analysis_burst=2, analysis_rate=1e-6),
    )
    app.state.analysis = AnalysisPool(AnalysisSettings(workers=1, queue=1, samples=2))
    with TestClient(app) as c:
        yield c
    app.state.analysis.close()


@pytest.fixture
def client(tmp_path: Path) -> Any:
    yield from _client(tmp_path, 30.0)


@pytest.fixture
def played(tmp_path: Path) -> Any:
    """A client whose absent players are played by 托管 at once (no grace)."""
    yield from _client(tmp_path, 0.0)


@pytest.mark.slow
def test_analysis_is_run_stored_and_read(played: TestClient) -> None:
    client = played
    host = _guest(client, "host")
    mid = _finished_match(client, host, public=False, seat=1)
    url = f"/matches/{mid}/analysis?seat=1"
    assert client.get(url, headers=host).json()["code"] == "no_analysis"
    r = client.post(url, headers=host)
    assert r.status_code == 202 and r.json()["status"] == "running"
    got = _wait_done(client, url, host)
    assert got["status"] == "done", got
    result = got["result"]
    assert result["seats"] == [1] and result["format"] == "paohuzi-analysis/1"
    assert all(d["seat"] == 1 for rr in result["rounds"] for d in rr["decisions"])
    mine = client.get("/analyses/mine", headers=host).json()
    assert [(a["match_id"], a["seat"]) for a in mine["analyses"]] == [(mid, 1)]
    assert mine["overall"]["decisions"] == result["summary"]["decisions"]
    assert mine["overall"]["agreement"] == pytest.approx(result["summary"]["agreement"])
    # a bot's seat analysed by the host is not the host's play: not in "mine"
    bot_seat = f"/matches/{mid}/analysis?seat=2"
    assert client.post(bot_seat, headers=host).status_code == 202
    assert _wait_done(client, bot_seat, host)["status"] == "done"
    mine = client.get("/analyses/mine", headers=host).json()
    assert [(a["match_id"], a["seat"]) for a in mine["analyses"]] == [(mid, 1)]
    assert client.get("/analyses/mine?limit=0", headers=host).status_code == 400
    assert client.get("/analyses/mine").status_code == 401
    # stored: asking again answers it at once, without a new job or a rate charge
    again = client.post(url, headers=host)
    assert again.status_code == 200 and again.json()["result"] == result


@pytest.mark.slow
def test_who_may_ask_and_bounds(client: TestClient) -> None:
    host, stranger = _guest(client, "host"), _guest(client, "stranger")
    private = _finished_match(client, host, public=False)
    public = _finished_match(client, host, public=True)
    # A private match is no match to a stranger (a 403 would tell which ids are private).
    r = client.post(f"/matches/{private}/analysis?seat=0", headers=stranger)
    assert r.status_code == 404 and r.json() == {
        "code": "no_match",
        "reason": f"no match {private}",
    }
    r = client.get(f"/matches/{private}/analysis?seat=0", headers=stranger)
    assert r.status_code == 404 and r.json()["code"] == "no_match"
    assert client.post(f"/matches/{public}/analysis?seat=0").status_code == 401
    for bad in ("3", "-1", "x", "9" * 30):
        r = client.post(f"/matches/{public}/analysis?seat={bad}", headers=stranger)
        assert r.status_code == 400 and set(r.json()) == {"code", "reason"}
    r = client.post(f"/matches/{public}/analysis", headers=stranger)
    assert r.status_code == 400
    r = client.post("/matches/999999/analysis?seat=0", headers=stranger)
    assert r.status_code == 404 and r.json()["code"] == "no_match"
    # a stranger may analyse a public match; two jobs fill the pool (1 worker + 1 waiting)
    assert client.post(f"/matches/{public}/analysis?seat=0", headers=stranger).status_code == 202
    assert client.post(f"/matches/{public}/analysis?seat=1", headers=stranger).status_code == 202
    r = client.post(f"/matches/{public}/analysis?seat=2", headers=host)
    assert r.status_code == 503 and r.json()["code"] == "busy"
    for seat in (0, 1):
        assert (
            _wait_done(client, f"/matches/{public}/analysis?seat={seat}", stranger)["status"]
            == "done"
        )
    # the stranger spent its two analyses: a third is refused, another account's is not
    r = client.post(f"/matches/{public}/analysis?seat=2", headers=stranger)
    assert r.status_code == 429 and r.json()["code"] == "rate_limited"
    assert client.post(f"/matches/{public}/analysis?seat=2", headers=host).status_code == 202


def test_unfinished_match_is_refused(client: TestClient) -> None:
    host = _guest(client, "host")
    code = client.post("/rooms", json={"rounds": 1}, headers=host).json()["code"]
    assert client.post(f"/rooms/{code}/join", json={"seat": 0}, headers=host).status_code == 200
    assert (
        client.post(f"/rooms/{code}/bots", json={"bot": "random"}, headers=host).status_code == 200
    )
    mid = client.post(f"/rooms/{code}/start", headers=host).json()["match_id"]
    r = client.post(f"/matches/{mid}/analysis?seat=0", headers=host)
    assert r.status_code == 409 and r.json()["code"] == "not_finished"


def test_hint_in_a_practice_game(client: TestClient) -> None:
    """提示: the seated player's current decision valued; others are refused."""
    host, stranger = _guest(client, "host"), _guest(client, "stranger")
    code = client.post("/rooms", json={"rounds": 1}, headers=host).json()["code"]
    assert client.post(f"/rooms/{code}/join", json={"seat": 0}, headers=host).status_code == 200
    assert (
        client.post(f"/rooms/{code}/bots", json={"bot": "random"}, headers=host).status_code == 200
    )
    assert client.post(f"/rooms/{code}/hint", headers=host).json()["code"] == "no_table"
    client.post(f"/rooms/{code}/start", headers=host)
    # a practice game started: the hint worker is on its way before the first 提示
    assert "hint" in client.app.state.analysis.executors  # type: ignore[attr-defined]
    deadline = time.monotonic() + 30
    while True:  # the bots play until seat 0 has a choice to make
        r = client.post(f"/rooms/{code}/hint", headers=host)
        if r.status_code != 409:
            break
        assert r.json()["code"] == "no_decision"
        assert time.monotonic() < deadline, "seat 0 never had a decision"
        time.sleep(0.05)
    assert r.status_code == 200, r.text
    opts = r.json()["options"]
    assert len(opts) >= 2 and r.json()["worlds"] > 0
    assert len(opts) <= min(6, r.json()["legal"])
    assert [o["value"] for o in opts] == sorted((o["value"] for o in opts), reverse=True)
    r = client.post(f"/rooms/{code}/hint", headers=stranger)
    assert r.status_code == 403 and r.json()["code"] == "not_seated"
    assert client.post("/rooms/abc/hint", headers=host).status_code == 400
    assert client.post(f"/rooms/{code}/hint").status_code == 401
