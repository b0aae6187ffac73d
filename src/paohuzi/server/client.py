"""A client of ``paohuzi serve`` that plays a seat with a bot, as a person's client would.

It signs in as a guest over HTTP, takes a seat, and plays over the WebSocket
(docs/protocol.md): each prompt with legal actions carries the seat's view, which is
turned back into a :class:`~paohuzi.core.views.SeatView` for the bot; a dropped socket
is reopened with ``since`` and the unacknowledged intent sent again (the server applies
a ``client_id`` once). ``paohuzi bot`` and ``benchmarks/server_load.py`` use it.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode, urlsplit

import httpx
import websockets

from ..bots import Bot
from .protocol import LegalAction, view_from_dict

__all__ = [
    "RECORD_TRIES",
    "ClientError",
    "SeatPlayer",
    "ServerClient",
    "check_server_url",
    "parse_room",
]

RECORD_TRIES = 8  # downloads of a match's record before giving up (about 24 s of waits)
RATE_LIMITED_PAUSE = 0.5  # seconds before sending again what the socket's rate dropped


class ClientError(Exception):
    """Something the client cannot go on from; the message is one line for ``error:``.

    ``bad_input`` is True when the user's input (the URL, the room code) is at fault.
    """

    def __init__(self, message: str, *, bad_input: bool = False, status: int | None = None) -> None:
        super().__init__(message)
        self.bad_input = bad_input
        self.status = status  # the HTTP status, if the server answered


def check_server_url(url: str) -> str:
    """``http(s)://HOST[:PORT]`` without a trailing slash, or a :class:`ClientError`."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ClientError(f"--server {url!r}: expected http://HOST:PORT", bad_input=True)
    try:
        parts.port  # noqa: B018 - raises on a bad port
    except ValueError:
        raise ClientError(f"--server {url!r}: bad port", bad_input=True) from None
    if parts.path.strip("/") or parts.query or parts.fragment:
        raise ClientError(f"--server {url!r}: expected no path: http://HOST:PORT", bad_input=True)
    return f"{parts.scheme}://{parts.netloc}"


def parse_room(value: str) -> tuple[str, str | None]:
    """A room to join as (code, invite key): a six-digit code, ``CODE/KEY``, or an invite
    link ``http://HOST/#/room/CODE[/KEY]`` (a private room's carries its key)."""
    text = value.strip()
    if "#" in text:
        text = text.split("#", 1)[1].strip("/")
        if text.startswith("room/"):
            text = text[len("room/") :]
    code, _, key = text.partition("/")
    ok_key = not key or (len(key) <= 64 and all(c.isalnum() or c in "-_" for c in key))
    if not (len(code) == 6 and code.isdigit()) or not ok_key:
        raise ClientError(
            f"--room {value[:100]!r}: a six-digit room code or an invite link", bad_input=True
        )
    return code, key or None


class ServerClient:
    """The HTTP calls a seat needs (async); errors become :class:`ClientError`."""

    def __init__(self, base: str, token: str | None = None, timeout: float = 30) -> None:
        self.base = check_server_url(base)
        self.token = token
        # Idle connections are dropped well before uvicorn's 5 s keep-alive ends, so a
        # request never races the server closing the connection it was sent on.
        self.http = httpx.AsyncClient(
            base_url=self.base, timeout=timeout, limits=httpx.Limits(keepalive_expiry=2.0)
        )

    async def aclose(self) -> None:
        """Close the HTTP connection pool."""
        await self.http.aclose()

    def ws_url(self, code: str, key: str | None = None) -> str:
        """The room's WebSocket address (with a private room's invite key)."""
        scheme = "wss" if self.base.startswith("https") else "ws"
        query = f"?{urlencode({'key': key})}" if key else ""
        return f"{scheme}://{self.base.split('://', 1)[1]}/ws/{code}{query}"

    async def call(self, method: str, path: str, body: Any = None) -> Any:
        """One request; the answer's JSON, or a ClientError quoting the server's reason."""
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        try:
            try:
                r = await self.http.request(method, path, json=body, headers=headers)
            except httpx.RemoteProtocolError:  # a kept-alive connection the server had closed
                r = await self.http.request(method, path, json=body, headers=headers)
        except httpx.HTTPError as e:
            why = str(e) or type(e).__name__
            raise ClientError(f"cannot reach the server at {self.base}: {why}") from None
        if r.status_code >= 400:
            try:
                reason = r.json().get("reason") or r.text
            except ValueError:
                reason = r.text[:200]
            raise ClientError(
                f"{method} {path}: {r.status_code} {reason}", bad_input=True, status=r.status_code
            )
        return r.json() if r.content else None

    async def guest(self, nickname: str) -> dict[str, Any]:
        """Sign in as a new guest; keeps the token."""
        out: dict[str, Any] = await self.call("POST", "/accounts/guest", {"nickname": nickname})
        self.token = out["token"]
        return out

    async def create_room(self, rounds: int = 1, public: bool = True) -> str:
        """A new room hosted by this account; its code."""
        room = await self.call("POST", "/rooms", {"rounds": rounds, "public": public})
        return str(room["code"])

    async def room(self, code: str, key: str | None = None) -> dict[str, Any]:
        """The room: seats, status, match id (a private one needs its invite key)."""
        query = f"?{urlencode({'key': key})}" if key else ""
        out: dict[str, Any] = await self.call("GET", f"/rooms/{code}{query}")
        return out

    async def join(self, code: str, seat: int | None = None, key: str | None = None) -> int:
        """Take a seat (the first free one by default; a private room needs its key)."""
        body = {"seat": seat, "key": key}
        return int((await self.call("POST", f"/rooms/{code}/join", body))["seat"])

    async def add_bots(self, code: str, bot: str) -> None:
        """Fill every free seat with one of the server's bots (host only)."""
        await self.call("POST", f"/rooms/{code}/bots", {"bot": bot})

    async def start(self, code: str) -> int:
        """Start the match (host only); its id."""
        return int((await self.call("POST", f"/rooms/{code}/start"))["match_id"])

    async def record(
        self,
        match_id: int,
        tries: int = RECORD_TRIES,
        first_wait: float = 0.25,
        key: str | None = None,
    ) -> dict[str, Any]:
        """A finished match's record (docs/record-format.md): a private room's to its host
        and players (this client's token) or with its invite ``key``. A server restarting
        (no answer, a 5xx, or the match not yet seen finished: 409) is asked again, up to
        ``tries`` times, waiting ``first_wait`` seconds and twice as long each time."""
        path = f"/matches/{match_id}/record" + (f"?{urlencode({'key': key})}" if key else "")
        wait = first_wait
        for attempt in range(tries):
            try:
                out: dict[str, Any] = await self.call("GET", path)
                return out
            except ClientError as e:
                again = e.status is None or e.status >= 500 or e.status == 409
                if not again or attempt == tries - 1:
                    raise
            await asyncio.sleep(wait)
            wait = min(wait * 2, 8.0)
        raise AssertionError("unreachable")  # pragma: no cover


@dataclass
class SeatPlayer:
    """Plays one seat of a room with ``bot`` until the match is over.

    ``latencies`` holds, per acknowledged intent, the seconds from sending it to its ack;
    ``on_ack`` (if given) is called with each such figure, ``on_round`` with the index of
    each round as it starts (as this seat first hears of it).

    A ``stale`` refusal is counted in ``overtaken`` when the seat's prompts show the
    decision it answered closed (another seat's higher claim settled the window while the
    intent was in flight: a race no client can avoid), else in ``stale_open``: refused
    while that decision was still open, a server fault, answered again rather than left
    to hang.
    """

    ws_url: str
    token: str
    bot: Bot
    on_ack: Callable[[float], None] | None = None
    on_round: Callable[[int], None] | None = None  # called with each new round's index
    give_up_after: float = 30.0  # seconds without a working connection
    batch: bool = True  # ask the server for several messages per frame (docs/protocol.md)
    seat: int | None = None
    match_id: int | None = None
    seq: int = 0  # the seat's events so far
    over: dict[str, Any] | None = None
    latencies: list[float] = field(default_factory=list)
    decisions: int = 0  # intents acknowledged (duplicates once)
    errors: list[dict[str, Any]] = field(default_factory=list)
    reconnects: int = 0
    overtaken: int = 0  # stale refusals of a decision that had closed (see above)
    stale_open: int = 0  # stale refusals while the decision was still open
    _prompt: dict[str, Any] | None = None
    _acted_since: int | None = None
    _stale_since: int | None = None  # a stale refusal's decision, open in the last prompt
    _pending: dict[str, Any] | None = None
    _sent_at: float = 0.0
    _n: int = 0
    _heard: float = 0.0  # when the last message came
    _round: int = -1
    _readied: tuple[int | None, int] | None = None  # the wait for 准备 answered

    async def play(self) -> dict[str, Any]:
        """Play to the end; the ``match_over`` message."""
        last_heard = time.monotonic()
        while True:
            why = "the server closed the socket"
            try:
                async with websockets.connect(self.ws_url, open_timeout=10, compression=None) as ws:
                    await self._session(ws)
            except (OSError, TimeoutError, websockets.ConnectionClosed, websockets.InvalidURI,
                    websockets.InvalidHandshake) as e:  # fmt: skip
                why = str(e) or type(e).__name__
            if self.over is not None:
                return self.over
            if self._heard > last_heard:
                last_heard = self._heard
            if time.monotonic() - last_heard > self.give_up_after:
                raise ClientError(f"lost the server at {self.ws_url}: {why}")
            self.reconnects += 1
            await asyncio.sleep(0.2)

    async def _session(self, ws: Any) -> None:
        hello: dict[str, Any] = {"type": "auth", "token": self.token}
        if self.batch:
            hello["batch"] = True
        if self.seq:
            hello["since"] = self.seq
        await ws.send(json.dumps(hello))
        if self._pending is not None:  # an intent the server may never have received
            await self._send_pending(ws)
        async for text in ws:
            self._heard = time.monotonic()
            data = json.loads(text)
            act = False  # a frame of several messages: act once, on the latest prompt
            for m in data if isinstance(data, list) else (data,):
                act = await self._on(ws, m) or act
                if self.over is not None and self._pending is None:
                    return  # (an intent resent on reconnecting is answered after match_over)
            if act:
                await self._act(ws)

    async def _on(self, ws: Any, m: dict[str, Any]) -> bool:
        """Take in one message; whether the seat may have a decision to take now."""
        t = m["type"]
        if t == "event":
            if m["seq"] != self.seq + 1:  # a gap: ask for the seat's state again
                await ws.send('{"type": "resync"}')
                return False
            self.seq = m["seq"]
        elif t == "snapshot":
            self.seat, self.match_id, self.seq = m["seat"], m["match_id"], m["seq"]
            self._prompted(m)
            await self._ready(ws, m.get("ready"))
            return True
        elif t == "prompt":
            self._prompted(m)
            return True
        elif t == "ack":
            self._acked(m)
            return True
        elif t == "error":
            await self._error(ws, m)
        elif t == "match_over":
            self.over = m
        elif t == "readiness":
            await self._ready(ws, m)
        return False

    async def _ready(self, ws: Any, wait: dict[str, Any] | None) -> None:
        """准备 at once when a round waits for this seat (a bot needs no 结算 to read)."""
        if wait is None or self.seat is None or wait["ready"][self.seat]:
            return
        if self._readied != (self.match_id, wait["round"]):  # once per wait
            self._readied = (self.match_id, wait["round"])
            await ws.send('{"type": "ready"}')

    def _prompted(self, m: dict[str, Any]) -> None:
        self._prompt = m
        if self._stale_since is not None:  # the first prompt after a puzzling stale refusal
            if m["since"] == self._stale_since and m["legal"]:
                self.stale_open += 1
                self._acted_since = None  # answer it again, at this step
            else:
                self.overtaken += 1
            self._stale_since = None
        if m["round"] > self._round:
            self._round = m["round"]
            if self.on_round is not None:
                self.on_round(m["round"])

    def _acked(self, m: dict[str, Any]) -> None:
        if self._pending is None or m["client_id"] != self._pending["client_id"]:
            return
        dt = time.perf_counter() - self._sent_at
        self.latencies.append(dt)
        self.decisions += 1
        if self.on_ack is not None:
            self.on_ack(dt)
        self._pending = None

    async def _error(self, ws: Any, m: dict[str, Any]) -> None:
        code = m.get("code")
        if code == "match_over":
            self._pending = None
            if self.over is None:
                self.over = {"type": "match_over", "match_id": self.match_id}
            return
        if code in ("not_seated", "no_room", "unauthenticated", "private"):
            raise ClientError(f"the server refused the seat: {m.get('reason')}", bad_input=True)
        self.errors.append(m)
        if code == "rate_limited" and m.get("client_id") is None:
            await self._dropped(ws)
            return
        if self._pending is None or m.get("client_id") != self._pending["client_id"]:
            return
        if code == "internal":  # not applied: the same intent again
            await asyncio.sleep(0.05)
            await self._send_pending(ws)
            return
        self._pending = None
        if code == "stale":
            last = self._prompt
            if last is not None and last["since"] == self._acted_since and last["legal"]:
                # The prompt closing the decision comes before the refusal; none came: ask
                # for the seat's state (``_prompted`` tells which it was).
                self._stale_since = self._acted_since
                await ws.send('{"type": "resync"}')
                return
            self.overtaken += 1
        if code in ("illegal", "bad_action"):  # never expected; play on rather than hang
            self._acted_since = None
            await self._act(ws, fallback=True)
        else:
            await self._act(ws)

    async def _dropped(self, ws: Any) -> None:
        """A message dropped unread over the socket's rate (docs/protocol.md): the server
        cannot say which, so after a pause the intent in flight goes again (its client id
        makes a repeat harmless) and the seat's state is asked for, with 准备 pressed again
        if a round still waits for it. Left alone, a dropped intent or 准备 would wait
        forever for an answer."""
        await asyncio.sleep(RATE_LIMITED_PAUSE)  # the bucket refills meanwhile
        if self._pending is not None:
            await self._send_pending(ws)
        self._readied = None
        await ws.send('{"type": "resync"}')

    async def _act(self, ws: Any, fallback: bool = False) -> None:
        m = self._prompt
        if m is None or not m["legal"] or self._pending is not None:
            return
        if m["since"] == self._acted_since or m.get("view") is None:
            return
        if fallback:
            aid = int(m["legal"][0]["id"])
        else:
            legal = [LegalAction(id=a["id"], text=a["text"]) for a in m["legal"]]
            aid = self.bot.act(view_from_dict(m["view"], legal)).id
        self._acted_since = m["since"]
        self._n += 1
        self._pending = {"type": "act", "action": aid, "step": m["step"],
                         "client_id": f"{self.seat}-{m['since']}-{self._n}"}  # fmt: skip
        await self._send_pending(ws)

    async def _send_pending(self, ws: Any) -> None:
        """Send the intent in flight (again, after a reconnect or a refusal that did not
        apply it: its client id makes a repeat harmless); its ack's latency counts from here."""
        assert self._pending is not None
        self._sent_at = time.perf_counter()
        await ws.send(json.dumps(self._pending))
