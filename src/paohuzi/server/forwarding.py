"""Sockets whose table another worker owns, over Redis: on the socket's side a
:class:`RemoteTable` forwards its operations to the owner's inbox; on the owner's side each
forwarded socket's operations are applied in order (its play messages through the one
dispatch, dispatch.py) and its messages published back on the socket worker's channel."""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sqlalchemy import select

from .db import MatchRow, RoomRow
from .dispatch import PlayMsg, dispatch, guarded, play_adapter
from .protocol import Act, Chat, Dissolve, Ready, Resync, Tuoguan
from .tables import Connection, Table

if TYPE_CHECKING:  # pragma: no cover
    from .cluster import Cluster

__all__ = [
    "LIVE",
    "MOVED",
    "Forwarding",
    "RemoteTable",
    "alive_key",
    "channel_of",
    "inbox_of",
    "kick",
    "lease_key",
]

log = logging.getLogger("paohuzi.cluster")

MOVED = "\x00moved"  # on a socket's channel: its table changed owner
LIVE = "phz:live"

_PLAY = play_adapter()


def lease_key(match_id: int) -> str:
    """The Redis key of a match's lease."""
    return f"phz:lease:{match_id}"


def inbox_of(worker: str) -> str:
    """The Redis list of operations forwarded to ``worker``'s tables."""
    return f"phz:inbox:{worker}"


def channel_of(worker: str) -> str:
    """The pub/sub channel of messages for ``worker``'s bound sockets."""
    return f"phz:to:{worker}"


def alive_key(worker: str) -> str:
    """The Redis key that says ``worker`` lives (renewed with its leases)."""
    return f"phz:alive:{worker}"


def _owner(value: str) -> str:
    """The worker named in a lease value ``{worker}:{token}``."""
    return value.rpartition(":")[0]


@dataclass
class _Bound:
    """A local socket whose table another worker owns (the socket's side)."""

    conn: Connection
    match_id: int
    owner: str  # the lease value it was bound under


@dataclass
class _Forwarded:
    """A socket on another worker, seated at one of our tables (the owner's side)."""

    conn: Connection
    table: Table
    worker: str
    ops: asyncio.Queue[dict[str, Any]] = field(default_factory=asyncio.Queue)
    tasks: list[asyncio.Task[None]] = field(default_factory=list)


class RemoteTable:
    """A socket's handle on a table another worker owns: forwards its operations."""

    def __init__(self, fwd: Forwarding, match_id: int, owner: str) -> None:
        self.fwd = fwd
        self.match_id = match_id
        self.owner = owner
        self.sid = secrets.token_hex(8)
        self.attached = False

    async def _send(self, conn: Connection, op: str, **body: Any) -> None:
        await self.fwd.forward(self, conn, op, body)

    async def _relay(self, conn: Connection, msg: PlayMsg) -> None:
        """Forward a play message; the owner dispatches it (dispatch.py) and its answers
        come back on the socket's channel."""
        await self._send(conn, "msg", msg=msg.model_dump(mode="json"))

    async def attach(self, conn: Connection, since: int | None) -> None:
        """Bind the socket to the owner (or ask for a snapshot again: a resync)."""
        conn.table = self
        if self.attached:
            await self._relay(conn, Resync(type="resync"))
            return
        self.attached = True
        self.fwd.bound[self.sid] = _Bound(conn, self.match_id, self.owner)
        await self._send(
            conn,
            "attach",
            seat=conn.seat,
            spectator=conn.spectator,
            views=conn.views,
            account=conn.account_id,
            since=since,
        )

    def detach(self, conn: Connection) -> None:
        """The socket closed: tell the owner (in the background)."""
        if self.fwd.bound.pop(self.sid, None) is not None:
            self.fwd.cluster.spawn(self._send(conn, "detach"))

    async def intent(self, conn: Connection, action: int | str, step: int, client_id: str) -> None:
        """Forward an intent (with the seat's step it quotes)."""
        await self._relay(conn, Act(type="act", action=action, step=step, client_id=client_id))

    async def set_tuoguan(self, conn: Connection, on: bool) -> None:
        """Forward 托管 on or off."""
        await self._relay(conn, Tuoguan(type="tuoguan", on=on))

    async def vote_dissolve(self, conn: Connection, agree: bool) -> None:
        """Forward a 解散 vote."""
        await self._relay(conn, Dissolve(type="dissolve", agree=agree))

    async def press_ready(self, conn: Connection) -> None:
        """Forward a 准备."""
        await self._relay(conn, Ready(type="ready"))

    async def chat(self, conn: Connection, phrase: int) -> None:
        """Forward a quick-chat phrase."""
        await self._relay(conn, Chat(type="chat", phrase=phrase))


class Forwarding:
    """This worker's sockets bound to other workers' tables, and other workers' sockets
    forwarded to ours."""

    def __init__(self, cluster: Cluster) -> None:
        self.cluster = cluster
        self.bound: dict[str, _Bound] = {}  # sid -> a local socket at a remote table
        self.forwarded: dict[str, _Forwarded] = {}  # sid -> a remote socket at our table

    async def bind(self, room: RoomRow) -> Table | RemoteTable | None:
        """The handle a socket of a playing room gets here: the table if this worker runs
        it (taking it over if nobody does), else a forwarder to its owner."""
        async with self.cluster.hub.sessions() as db:
            mid = await db.scalar(
                select(MatchRow.id)
                .where(MatchRow.room_id == room.id, MatchRow.status == "playing")
                .order_by(MatchRow.id.desc())
            )
        if mid is None:
            return None
        for _ in range(2):
            if mid in self.cluster.owned:
                return self.cluster.hub.tables.get(room.code)
            value = await self.cluster.redis.get(lease_key(mid))
            if value is not None:
                return RemoteTable(self, mid, str(value))
            if not await self.cluster.redis.sismember(LIVE, str(mid)):
                return None  # its starter has not listed it yet: wait for the announcement
            await self.cluster.take_over(mid)
        return self.cluster.hub.tables.get(room.code)

    def deliver(self, data: str) -> None:
        """A message from a table's owner for one of our bound sockets (``{sid}\\n{text}``):
        queued on the socket, or (the table moved) the socket asked to reconnect."""
        sid, _, text = data.partition("\n")
        b = self.bound.get(sid)
        if b is None:
            return
        if text == MOVED:
            self.bound.pop(sid, None)
            kick(b.conn)
        else:
            b.conn.queue.put_nowait(text)

    async def sweep(self) -> None:
        """Send our sockets bound to a table that changed owner away; forget the forwarded
        sockets whose worker is gone."""
        redis = self.cluster.redis
        bound = list(self.bound.items())
        if bound:
            values = await redis.mget([lease_key(b.match_id) for _, b in bound])
            for (sid, b), v in zip(bound, values, strict=True):
                if v != b.owner:
                    self.bound.pop(sid, None)
                    kick(b.conn)
        workers = sorted({f.worker for f in self.forwarded.values()})
        if workers:
            alive = await redis.mget([alive_key(w) for w in workers])
            gone = {w for w, a in zip(workers, alive, strict=True) if a is None}
            for sid, f in list(self.forwarded.items()):
                if f.worker in gone:
                    await f.ops.put({"op": "detach", "sid": sid})

    async def forward(
        self, handle: RemoteTable, conn: Connection, op: str, body: dict[str, Any]
    ) -> None:
        """Push a socket's operation to its table's owner."""
        msg = json.dumps({"op": op, "sid": handle.sid, "match": handle.match_id,
                          "from": self.cluster.worker, **body})  # fmt: skip
        inbox = inbox_of(_owner(handle.owner))
        async with self.cluster.redis.pipeline(transaction=False) as p:
            p.rpush(inbox, msg)
            p.pexpire(inbox, 10 * self.cluster.lease_ms)  # a dead owner's inbox goes away
            await p.execute()

    def on_op(self, op: dict[str, Any]) -> None:
        """An operation forwarded to one of our tables: queued for its socket's server (a
        first ``attach`` makes the socket's stand-in here, or answers that it moved)."""
        sid = str(op["sid"])
        f = self.forwarded.get(sid)
        if f is None:
            if op["op"] != "attach":
                return
            worker = str(op["from"])
            mid = int(op["match"])
            code = self.cluster.hub.codes.get(mid)
            table = self.cluster.hub.tables.get(code) if code is not None else None
            if table is None or mid not in self.cluster.owned:
                self.cluster.spawn(
                    self.cluster.redis.publish(channel_of(worker), f"{sid}\n{MOVED}")
                )
                return
            f = self._stand_in(sid, op, table, worker)
        f.ops.put_nowait(op)

    def _stand_in(self, sid: str, op: dict[str, Any], table: Table, worker: str) -> _Forwarded:
        """A Connection here for socket ``sid`` on ``worker`` (its messages published on
        that worker's channel), with its writer and its server running."""
        chan = channel_of(worker)
        redis = self.cluster.redis

        async def send(text: str) -> None:
            await redis.publish(chan, f"{sid}\n{text}")

        conn = Connection(send)
        conn.account_id = op.get("account")
        conn.seat = op.get("seat")
        conn.spectator = bool(op.get("spectator"))
        conn.views = bool(op.get("views"))
        f = _Forwarded(conn, table, worker)

        def moved(f: _Forwarded = f) -> None:
            f.conn.queue.put_nowait(MOVED)
            f.conn.close()
            if len(f.tasks) > 1:
                f.tasks[1].cancel()
            f.conn.kick = None
            self.forwarded.pop(sid, None)

        conn.kick = moved
        self.forwarded[sid] = f
        f.tasks = [asyncio.create_task(conn.pump()), asyncio.create_task(self.serve(sid, f))]
        return f

    async def serve(self, sid: str, f: _Forwarded) -> None:
        """Apply a forwarded socket's operations in order, answering on its channel: its
        attach and detach, and its play messages through the one dispatch."""
        conn, table = f.conn, f.table
        while True:
            op = await f.ops.get()
            kind = op["op"]
            if kind == "detach":
                table.detach(conn)
                conn.close()
                conn.kick = None  # (a cycle through f otherwise: freed by refcount now)
                self.forwarded.pop(sid, None)
                return
            if kind == "attach":
                await guarded(conn, "forwarded attach", table.attach(conn, op.get("since")), None)
            elif kind == "msg":
                try:
                    msg = _PLAY.validate_python(op.get("msg"))
                except ValueError:
                    log.error("a forwarded message is not a play message: %.200r", op)
                    continue
                await dispatch(msg, conn, table)


def kick(conn: Connection) -> None:
    """Ask a socket's client to reconnect (its table changed owner)."""
    hook: Callable[[], Any] | None = conn.kick
    if hook is not None:
        hook()
    else:
        conn.close()
