"""The real server as a subprocess on a free loopback port, and a WebSocket player."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from paohuzi.server.process import ServerProcess

from .pg import pg_database

try:  # the server's extra; without it these tests are not collected
    import aiosqlite  # noqa: F401
    import alembic  # noqa: F401
    import argon2  # noqa: F401
    import fastapi  # noqa: F401
    import httpx
    import sqlalchemy  # noqa: F401
    import websockets
except ImportError:  # pragma: no cover - depends on the install
    collect_ignore_glob = ["test_*.py"]

SRC = Path(__file__).resolve().parents[2] / "src"

Server = ServerProcess  # ``paohuzi serve`` in a subprocess; ``kill()`` is SIGKILL


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh database: an SQLite file, or a new database on the test PostgreSQL (pg.py)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'server.db'}"
    else:
        with pg_database() as url:
            yield url


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    d = tmp_path_factory.mktemp("srv")
    srv = Server(d / "server.db", d / "server.log")
    srv.start()
    yield srv
    srv.stop()


# -- HTTP helpers ------------------------------------------------------------------------


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def guest(srv: Server, nickname: str = "guest") -> str:
    r = httpx.post(f"{srv.http}/accounts/guest", json={"nickname": nickname})
    assert r.status_code == 201, r.text
    return str(r.json()["token"])


def room(
    srv: Server,
    host: str,
    *,
    rounds: int = 1,
    public: bool = True,
    time_limit: float | None = None,
) -> str:
    body = {"rounds": rounds, "public": public, "time_limit": time_limit}
    r = httpx.post(f"{srv.http}/rooms", json=body, headers=auth(host))
    assert r.status_code == 201, r.text
    return str(r.json()["code"])


def join(srv: Server, code: str, token: str, seat: int | None = None) -> int:
    r = httpx.post(f"{srv.http}/rooms/{code}/join", json={"seat": seat}, headers=auth(token))
    assert r.status_code == 200, r.text
    return int(r.json()["seat"])


def start(srv: Server, code: str, host: str) -> int:
    r = httpx.post(f"{srv.http}/rooms/{code}/start", headers=auth(host))
    assert r.status_code == 200, r.text
    return int(r.json()["match_id"])


def seated_room(
    srv: Server,
    humans: int = 3,
    bot: str = "random",
    rounds: int = 1,
    time_limit: float | None = None,
) -> tuple[str, list[str]]:
    """A room with ``humans`` guests in seats 0.. and bots in the rest (not started).

    With no humans the one token is the (unseated) host's.
    """
    tokens = [guest(srv, f"p{i}") for i in range(max(humans, 1))]
    code = room(srv, tokens[0], rounds=rounds, time_limit=time_limit)
    for i, t in enumerate(tokens[:humans]):
        assert join(srv, code, t, i) == i
    if humans < 3:
        r = httpx.post(f"{srv.http}/rooms/{code}/bots", json={"bot": bot}, headers=auth(tokens[0]))
        assert r.status_code == 200, r.text
    return code, tokens


# -- a WebSocket player ------------------------------------------------------------------


class Player:
    """A seat's client: random legal play, event numbering checked, reconnects on a drop."""

    def __init__(
        self,
        srv: Server,
        code: str,
        token: str,
        seed: int,
        spectate: bool = False,
        views: bool = False,
    ) -> None:
        self.srv, self.code, self.token = srv, code, token
        self.spectate = spectate
        self.views = views  # ask for the view in every prompt
        self.rng = random.Random(seed)
        self.seat: int | None = None
        self.events: list[tuple[int, dict[str, Any]]] = []
        self.messages: list[dict[str, Any]] = []
        self.acks: list[tuple[int, int]] = []  # (the seat's step, action id): steps.decided
        self.errors: list[dict[str, Any]] = []
        self.pending: dict[str, Any] | None = None
        self.acted_since: int | None = None
        self.over: dict[str, Any] | None = None
        self.reconnects = 0
        self.snapshots: list[dict[str, Any]] = []
        self.prompt: dict[str, Any] | None = None
        self.readied: int | None = None  # the round whose wait for 准备 was answered

    async def play(self, act: bool = True) -> None:
        while self.over is None:
            try:
                async with websockets.connect(self.srv.ws(self.code)) as ws:
                    since = len(self.events)
                    hello = {"type": "auth", "token": self.token, "since": since}
                    hello |= {"spectate": self.spectate, "views": self.views}
                    await ws.send(json.dumps(hello))
                    if self.pending is not None:  # an intent the server never acknowledged
                        await ws.send(json.dumps(self.pending))
                    async for text in ws:
                        m = json.loads(text)
                        self.messages.append(m)
                        await self._on(ws, m, act and not self.spectate)
                        if self.over is not None and self.pending is None:
                            return  # (an intent resent on reconnecting is answered after it)
            except (OSError, websockets.ConnectionClosed):
                self.reconnects += 1
                await asyncio.sleep(0.1)

    async def _act(self, ws: Any) -> None:
        m = self.prompt
        if m is None or not m["legal"] or m["since"] == self.acted_since or self.pending:
            return
        self.acted_since = m["since"]
        ids = [a["id"] for a in m["legal"]]
        aid = 21 if 21 in ids else self.rng.choice(ids)
        self.pending = {"type": "act", "action": aid, "step": m["step"],
                        "client_id": f"s{self.seat}-v{m['since']}"}  # fmt: skip
        await ws.send(json.dumps(self.pending))

    async def _on(self, ws: Any, m: dict[str, Any], act: bool) -> None:
        t = m["type"]
        if t == "event":
            assert m["seq"] == len(self.events) + 1, (m["seq"], len(self.events))
            self.events.append((m["round"], m["event"]))
        elif t in ("snapshot", "prompt"):
            if t == "snapshot":
                self.seat = m["seat"]
                assert m["seq"] == len(self.events), (m["seq"], len(self.events))
                self.snapshots.append(m)
                if act:
                    await self._ready(ws, m.get("ready"))
            self.prompt = m
            if act:
                await self._act(ws)
        elif t == "ack":
            assert self.pending is not None and m["client_id"] == self.pending["client_id"]
            if not m["duplicate"] or all(d != m["step"] for d, _ in self.acks):
                self.acks.append((m["step"], self.pending["action"]))
            self.pending = None
            if act:  # a snapshot may have come while the (retried) intent was in flight
                await self._act(ws)
        elif t == "error":
            self.errors.append(m)
            if self.pending is not None and m.get("client_id") == self.pending["client_id"]:
                self.pending = None
                if act:  # the prompt that made it stale may have come while it was in flight
                    await self._act(ws)
        elif t == "match_over":
            self.over = m
        elif t == "readiness" and act:
            await self._ready(ws, m)  # 准备 as soon as a 结算 opens

    async def _ready(self, ws: Any, wait: dict[str, Any] | None) -> None:
        """Send 准备 once per wait (a snapshot and a readiness message may both ask)."""
        if wait is None or self.seat is None or wait["ready"][self.seat]:
            return
        if self.readied != wait["round"]:
            self.readied = wait["round"]
            await ws.send(json.dumps({"type": "ready"}))


def replayed(srv: Server, match_id: int, token: str | None = None) -> tuple[Any, list[Any]]:
    """The match's record from the server (as ``token``'s account: a club's or a private
    room's match is its people's only) and the states an uninterrupted replay makes."""
    import paohuzi

    r = httpx.get(f"{srv.http}/matches/{match_id}/record", headers=auth(token) if token else {})
    assert r.status_code == 200, r.text
    record = paohuzi.MatchRecord.from_dict(r.json())
    return record, paohuzi.replay_match(record)


def seat_events(states: list[Any], seat: int) -> list[tuple[int, dict[str, Any]]]:
    import paohuzi

    return [(i, e.to_dict()) for i, st in enumerate(states) for e in paohuzi.censored_log(st, seat)]


def check_ledger(srv: Server, code: str, match_id: int, states: list[Any]) -> None:
    """One ledger row per seat per round, summing to zero, equal to the replayed deltas."""
    info = httpx.get(f"{srv.http}/rooms/{code}").json()
    seat_of = {s["account_id"]: i for i, s in enumerate(info["seats"])}
    rows = httpx.get(f"{srv.http}/matches/{match_id}/ledger").json()
    assert len(rows) == 3 * len(states)
    for i, st in enumerate(states):
        deltas = [0, 0, 0]
        for r in rows:
            if r["round"] == i:
                deltas[seat_of[r["account_id"]]] += r["delta"]
        assert sum(deltas) == 0
        assert all(r["balance_after"] >= 0 for r in rows)
        assert tuple(deltas) == st.result.deltas


class Sock:
    """A raw WebSocket client that keeps every message and can wait for one."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.messages: list[dict[str, Any]] = []
        self._seen = 0
        self._new = asyncio.Event()
        self._reader = asyncio.create_task(self._read())

    @classmethod
    async def open(
        cls, srv: Server, code: str, token: str, *, spectate: bool = False, views: bool = False
    ) -> Sock:
        ws = await websockets.connect(srv.ws(code))
        hello = {"type": "auth", "token": token, "spectate": spectate}
        if views:
            hello["views"] = True
        await ws.send(json.dumps(hello))
        return cls(ws)

    async def _read(self) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            async for text in self.ws:
                self.messages.append(json.loads(text))
                self._new.set()
        self._new.set()

    async def send(self, **msg: Any) -> None:
        await self.ws.send(json.dumps(msg))

    async def until(self, pred: Any, timeout: float = 20) -> dict[str, Any]:
        """The next message (after the last one returned) for which ``pred`` holds."""
        deadline = time.monotonic() + timeout
        while True:
            while self._seen < len(self.messages):
                m = self.messages[self._seen]
                self._seen += 1
                if pred(m):
                    return m
            if self._reader.done():
                raise AssertionError(
                    f"closed ({self.ws.close_code}) waiting; last {self.messages[-3:]}"
                )
            self._new.clear()
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"timed out waiting; last {self.messages[-3:]}")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._new.wait(), left)

    async def kind(self, kind: str, timeout: float = 20) -> dict[str, Any]:
        return await self.until(lambda m: m["type"] == kind, timeout)

    async def close(self) -> None:
        await self.ws.close()
        with contextlib.suppress(Exception):
            await self._reader


def my_turn(m: dict[str, Any]) -> bool:
    """A snapshot or prompt that asks the seat to decide."""
    return m["type"] in ("snapshot", "prompt") and bool(m["legal"])


async def play_myself(sock: Sock, seconds: float, delay: float, limit: float = 30) -> int:
    """For ``seconds`` (and until one is acknowledged, within ``limit``), answer each of the
    seat's decisions (过 when it may) after ``delay``; how many were acknowledged. Stops at
    the match's end."""
    acked, t0 = 0, time.monotonic()
    while True:
        now = time.monotonic() - t0
        end = seconds if acked else limit
        if now >= end:
            break
        try:
            m = await sock.until(lambda m: my_turn(m) or m["type"] in ("ack", "match_over"),
                                 timeout=max(0.05, end - now))  # fmt: skip
        except AssertionError:
            if sock._reader.done():  # closed
                break
            continue
        if m["type"] == "match_over":
            break
        if m["type"] == "ack":
            acked += not m["duplicate"]
            continue
        await asyncio.sleep(delay)
        ids = [a["id"] for a in m["legal"]]
        aid = 20 if 20 in ids else ids[0]
        await sock.send(type="act", action=aid, step=m["step"], client_id=f"c{m['since']}")
    return acked


def server_moves(srv: Server, match_id: int, seat: int, after: int) -> list[int]:
    """The decisions the server took for ``seat`` (no client id) after decision ``after``."""
    with sqlite3.connect(srv.db_url.removeprefix("sqlite:///")) as db:
        rows = db.execute(
            "SELECT seq FROM decisions WHERE match_id = ? AND seat = ? AND seq > ? "
            "AND client_id IS NULL",
            (match_id, seat, after),
        ).fetchall()
    return [r[0] for r in rows]
