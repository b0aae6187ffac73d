"""A router works alone: mounted on a bare FastAPI with only a deps.Server in its state (no
create_app, no lifespan, no middleware), it serves its part of the API."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from fastapi import FastAPI
from fastapi.testclient import TestClient

from paohuzi.server.db import make_engine, upgrade
from paohuzi.server.deps import Server
from paohuzi.server.hub import Hub
from paohuzi.server.limits import PlaySettings
from paohuzi.server.ratelimit import Rates, RateSettings
from paohuzi.server.replays import ReplayCache
from paohuzi.server.routers import accounts, lobby, rooms


def _bare(tmp_path: Path) -> FastAPI:
    url = f"sqlite:///{tmp_path / 'bare.db'}"
    upgrade(url)
    _, sessions = make_engine(url)
    settings = PlaySettings()
    app = FastAPI()
    app.state.server = Server(
        Hub(sessions, settings), sessions, settings, Rates(RateSettings()), ReplayCache()
    )
    for part in (accounts, rooms, lobby):
        app.include_router(part.router)
    return app


def test_accounts_rooms_and_the_lobby_routers_alone(tmp_path: Path) -> None:
    with TestClient(_bare(tmp_path)) as c:
        made = c.post("/accounts/guest", json={"nickname": "阿明"})
        assert made.status_code == 201, made.text
        h = {"Authorization": f"Bearer {made.json()['token']}"}
        assert c.get("/accounts/me", headers=h).json()["nickname"] == "阿明"
        room = c.post("/rooms", json={"rounds": 1}, headers=h)
        assert room.status_code == 201, room.text
        code = room.json()["code"]
        assert c.post(f"/rooms/{code}/join", json={"seat": 1}, headers=h).json()["seat"] == 1
        assert [r["code"] for r in c.get("/rooms").json()] == [code]
