"""Limits below the application, where a request costs the attacker nothing: the size of
a request body, the time a connection may take to send its headers, and the number of
connections one address may hold open.

:class:`BodyLimit` is a pure ASGI middleware: a body larger than the limit is refused
with 413 ``too_large`` as soon as its declared ``Content-Length`` or the bytes streamed
so far pass the limit, without reading the rest. :class:`GuardedHttp` is uvicorn's
httptools protocol with a header deadline (uvicorn has none: a connection that never
finishes its headers stays open for good) and a cap of connections per address.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from .limits import env_positive

__all__ = ["BodyLimit", "GuardSettings", "GuardedHttp"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


@dataclass(frozen=True)
class GuardSettings:
    """The largest request body (bytes), the seconds a connection has to send a request's
    headers, and the connections one address may hold open at once."""

    max_body: int = 64 * 1024
    header_seconds: float = 10.0
    connections_per_address: int = 2000

    @classmethod
    def from_env(cls) -> GuardSettings:
        """From ``PAOHUZI_MAX_BODY``, ``PAOHUZI_HEADER_SECONDS`` and
        ``PAOHUZI_CONNECTIONS_PER_ADDRESS`` (unset: the defaults)."""
        d = cls()
        return cls(
            max_body=int(env_positive("PAOHUZI_MAX_BODY", d.max_body)),
            header_seconds=env_positive("PAOHUZI_HEADER_SECONDS", d.header_seconds),
            connections_per_address=int(
                env_positive("PAOHUZI_CONNECTIONS_PER_ADDRESS", d.connections_per_address)
            ),
        )


class BodyLimit:
    """Refuse an HTTP request whose body passes ``max_body`` bytes (413), early."""

    def __init__(self, app: ASGIApp, max_body: int) -> None:
        self.app = app
        self.max_body = max_body

    def __call__(self, scope: Scope, receive: Receive, send: Send) -> Awaitable[None]:
        # A socket is handed straight on, adding no coroutine frame that every message
        # it receives would pass through (sockets are bounded in ``frames``).
        if scope["type"] != "http":
            return self.app(scope, receive, send)
        return self._http(scope, receive, send)

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        declared = _content_length(scope)
        if declared is not None and declared > self.max_body:
            await self._refuse(send, f"declared {declared} bytes")
            return
        seen = 0
        started = refused = False

        async def limited_receive() -> Message:
            # Past the limit: refuse, and tell the app the client left (what it answers
            # then is dropped); the rest of the body is never read.
            nonlocal seen, refused
            msg = await receive()
            if msg["type"] == "http.request":
                seen += len(msg.get("body", b""))
                if seen > self.max_body:
                    if not started and not refused:
                        refused = True
                        await self._refuse(send, f"more than {self.max_body} bytes streamed")
                    return {"type": "http.disconnect"}
            return msg

        async def tracked_send(msg: Message) -> None:
            nonlocal started
            if refused:
                return
            started = started or msg["type"] == "http.response.start"
            await send(msg)

        await self.app(scope, limited_receive, tracked_send)

    async def _refuse(self, send: Send, what: str) -> None:
        reason = f"a request body has at most {self.max_body} bytes; {what}"
        body = json.dumps({"code": "too_large", "reason": reason}).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


class GuardedHttp(HttpToolsProtocol):
    """uvicorn's httptools protocol, plus a deadline for each request's headers (from the
    connection's start or the request's first byte) and a cap of open connections per
    address (the settings from the environment, read once per process)."""

    settings: GuardSettings | None = None
    open_by_address: dict[str, set[asyncio.BaseTransport]] = {}  # noqa: RUF012 - per process
    _header_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        limits = GuardedHttp.limits()
        address = self.client[0] if self.client else "?"
        mine = {t for t in self.open_by_address.get(address, ()) if not t.is_closing()}
        if len(mine) >= limits.connections_per_address:
            transport.close()
            return
        mine.add(transport)
        self.open_by_address[address] = mine
        self._start_header_timer()

    @classmethod
    def limits(cls) -> GuardSettings:
        """The settings, read from the environment on first use."""
        if cls.settings is None:
            cls.settings = GuardSettings.from_env()
        return cls.settings

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_header_timer()
        address = self.client[0] if self.client else "?"
        mine = self.open_by_address.get(address)
        if mine is not None:
            mine.discard(self.transport)
            if not mine:
                del self.open_by_address[address]
        super().connection_lost(exc)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self._header_timer is None:
            self._start_header_timer()

    def on_headers_complete(self) -> None:
        self._stop_header_timer()
        super().on_headers_complete()

    def _start_header_timer(self) -> None:
        self._header_timer = self.loop.call_later(
            GuardedHttp.limits().header_seconds, self._headers_late
        )

    def _stop_header_timer(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _headers_late(self) -> None:
        self._header_timer = None
        if not self.transport.is_closing():
            self.transport.close()
