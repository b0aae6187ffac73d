"""The play socket, ``/ws/{code}``: its life (admission, the authentication deadline, the
message rate, closing), each frame read (frames.py) and handled: ping, auth (services/signin.py),
and play messages through the one dispatch (dispatch.py)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from ..cluster import CLOSE_MOVED
from ..deps import Server, address
from ..dispatch import dispatch
from ..errors import ApiError
from ..frames import read_frame
from ..limits import CLOSE_UNAUTHENTICATED, TokenBucket
from ..logouts import CLOSE_LOGGED_OUT
from ..protocol import CLOSE_FLOOD, Auth, ClientMsg, Ping, error_dict, pong_dict
from ..services.signin import sign_in
from ..tables import Connection

__all__ = ["code_of", "play", "router"]

log = logging.getLogger("paohuzi.server")

router = APIRouter()


@dataclass
class _Socket:
    """One open play socket: where it came from and what it asked for."""

    ws: WebSocket
    srv: Server
    code: str
    conn: Connection
    address: str
    key: str | None
    closing: list[asyncio.Task[None]] = field(default_factory=list)

    def close_with(self, code: int, reason: str) -> Callable[[], None]:
        """What closes the socket with ``code`` once what is queued has gone."""

        def close() -> None:
            self.conn.close()
            self.closing.append(asyncio.create_task(_close_later(self.ws, code, reason)))

        return close


def code_of(path: str) -> str | None:
    """The room code of a play socket's path (``/ws/{code}``), or None for another path."""
    if path.startswith("/ws/"):
        code = path[4:]
        if code and "/" not in code:
            return code
    return None


@router.websocket("/ws/{code}")
async def play(ws: WebSocket, code: str) -> None:
    await ws.accept()
    srv: Server = ws.app.state.server
    hub = srv.hub
    where = address(ws)
    if not _admit(srv, where):
        await ws.close(CLOSE_UNAUTHENTICATED, "too many unauthenticated sockets")
        return
    conn = Connection(ws.send_text)
    writer = asyncio.create_task(conn.pump())
    sock = _Socket(ws, srv, code, conn, where, ws.query_params.get("key"))
    # The table moved to another worker: reconnect.
    conn.kick = sock.close_with(CLOSE_MOVED, "the table moved to another worker; reconnect")
    hub.sockets += 1
    hub.unauthenticated[where].add(conn)
    try:
        await _serve(sock)
    except WebSocketDisconnect:
        pass
    finally:
        _forget(srv, where, conn)
        conn.kick = None  # kick and conn refer to each other: a cycle only a full GC frees
        hub.signed_in.closed(conn)
        hub.sockets -= 1
        if conn.table is not None:
            conn.table.detach(conn)
        with contextlib.suppress(ValueError):
            hub.waiting.get(code, []).remove(conn)
        conn.close()
        # Waited on, not awaited: a send's failure raised through this frame would tie
        # the frame, the task and the exception in a cycle that only a full collection
        # frees (with the table and its rounds behind it): a long pause under load.
        await asyncio.wait([writer], timeout=1)
        writer.cancel()
        if writer.done() and not writer.cancelled():
            writer.exception()  # retrieved: a closed socket is no error here


def _admit(srv: Server, where: str) -> bool:
    """Whether ``where`` may open one more socket not yet authenticated."""
    waiting = srv.hub.unauthenticated.setdefault(where, set())
    waiting -= {c for c in waiting if c.account_id is not None}
    return len(waiting) < srv.settings.unauthenticated_per_address


def _forget(srv: Server, where: str, conn: Connection) -> None:
    waiting = srv.hub.unauthenticated.get(where)
    if waiting is not None:
        waiting.discard(conn)
        if not waiting:
            del srv.hub.unauthenticated[where]


async def _close_later(ws: WebSocket, code: int, reason: str) -> None:
    with contextlib.suppress(Exception):
        await asyncio.sleep(0.05)  # what is queued goes first
        await ws.close(code, reason)


async def _drain_and_close(sock: _Socket, code: int, reason: str) -> None:
    """Close the socket once what is queued has gone (at most a second)."""
    sock.conn.close()
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(sock.conn.drained.wait(), 1)
    await sock.ws.close(code, reason)


async def _receive(sock: _Socket, deadline: float) -> Any:
    """The next frame; until the socket authenticates, only until ``deadline`` (then
    it is closed, and None)."""
    if sock.conn.account_id is not None:
        return await sock.ws.receive()
    with contextlib.suppress(TimeoutError):
        left = deadline - asyncio.get_running_loop().time()
        return await asyncio.wait_for(sock.ws.receive(), max(left, 0))
    reason = f"authenticate within {sock.srv.settings.auth_seconds:g} s"
    await _drain_and_close(sock, CLOSE_UNAUTHENTICATED, reason)
    return None


async def _serve(sock: _Socket) -> None:
    """Read and handle the socket's frames, at most the settings' rate."""
    settings = sock.srv.settings
    bucket = TokenBucket(settings.ws_rate, settings.ws_burst)
    deadline = asyncio.get_running_loop().time() + settings.auth_seconds
    while True:
        frame = await _receive(sock, deadline)
        if frame is None or frame["type"] == "websocket.disconnect":
            return
        if not bucket.take():
            if bucket.flooding:
                log.warning("room %s: closing a flooding socket", sock.code)
                # What is queued (its rate_limited errors) goes first.
                await _drain_and_close(sock, CLOSE_FLOOD, "flood: too many messages")
                return
            reason = f"more than {settings.ws_rate:g} messages a second; this one was dropped"
            sock.conn.put_dict(error_dict("rate_limited", reason))
            continue
        try:
            msg = read_frame(frame)
        except ApiError as e:
            sock.conn.put_dict(error_dict(e.code, e.reason))
            continue
        await _handle(sock, msg)


async def _handle(sock: _Socket, m: ClientMsg) -> None:
    conn = sock.conn
    if isinstance(m, Ping):
        conn.put_dict(pong_dict())
    elif isinstance(m, Auth):
        logged_out = sock.close_with(CLOSE_LOGGED_OUT, "logged out: sign in again")
        who = (sock.address, sock.key)
        await sign_in(sock.srv.hub, sock.srv.rates, m, sock.code, conn, who, logged_out)
    elif conn.account_id is None:
        conn.put_dict(error_dict("unauthenticated", "send an auth message first"))
    elif conn.table is None:
        conn.put_dict(error_dict("not_started", "the match has not started"))
    else:
        await dispatch(m, conn, conn.table)
