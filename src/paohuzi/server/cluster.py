"""Several workers behind one Redis and one database (``paohuzi serve --redis URL``).

Each live table is owned by exactly one worker at a time, through a lease in Redis: the
key ``phz:lease:{match}`` holds ``{worker}:{token}``, set if absent with an expiry and
renewed while the worker lives (a Lua compare-and-renew; released by compare-and-delete).
Taking a table over raises ``matches.lease_epoch`` in the database, and every write of a
table (a decision with its ledger rows and match end, a 托管 switch, a 解散 vote; all of
them pass ``Table._write``) commits only while the row still holds its writer's epoch,
checked in the write's own transaction: a worker that lost its lease (paused,
partitioned) cannot store anything, even before it notices (fencing; the unique
``(match, seq)`` guards decisions as well).

A socket may land on any worker. When its table lives elsewhere, its worker forwards the
socket's operations to the owner's inbox (the Redis list ``phz:inbox:{worker}``) and the
owner sends that seat's messages back on the socket worker's channel (pub/sub
``phz:to:{worker}``), through a :class:`~.tables.Connection` whose writer publishes. The
table cannot tell a forwarded seat from a local one.

Failover: every worker sweeps the set ``phz:live`` of live matches every quarter lease;
a match without a lease is claimed (set-if-absent decides who) and rebuilt from its log.
A socket whose table changed owner is closed with 1012 (service restart); its client
reconnects to any worker and resends what was not acknowledged (client ids make that
safe).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from .db import MatchRow, RoomRow
from .dispatch import PlayMsg, dispatch, guarded, play_adapter
from .errors import ApiError
from .logouts import CHANNEL as LOGOUT_CHANNEL
from .protocol import Act, Dissolve, Resync, Tuoguan
from .tables import Connection, Table

if TYPE_CHECKING:  # pragma: no cover
    from redis.asyncio import Redis

    from .hub import Hub
    from .metrics import Metrics

__all__ = ["CLOSE_MOVED", "Cluster", "LeaseLost", "RemoteTable"]

log = logging.getLogger("paohuzi.cluster")

CLOSE_MOVED = 1012  # "service restart": the client reconnects (to any worker)
MOVED = "\x00moved"  # on a socket's channel: its table changed owner

LIVE = "phz:live"

_PLAY = play_adapter()

# Renew (PEXPIRE) or delete the key only while it still holds our value.
_RENEW = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('pexpire', KEYS[1], ARGV[2])
end
return 0
"""
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('del', KEYS[1])
end
return 0
"""


def lease_key(match_id: int) -> str:
    """The Redis key of a match's lease."""
    return f"phz:lease:{match_id}"


def _inbox(worker: str) -> str:
    return f"phz:inbox:{worker}"


def _to(worker: str) -> str:
    return f"phz:to:{worker}"


def _alive(worker: str) -> str:
    return f"phz:alive:{worker}"


def _owner(value: str) -> str:
    """The worker named in a lease value ``{worker}:{token}``."""
    return value.rpartition(":")[0]


class LeaseLost(ApiError):
    """A commit refused: this worker no longer owns the table (another took it over)."""

    def __init__(self, match_id: int) -> None:
        super().__init__(
            "moved",
            f"match {match_id} moved to another server worker; reconnect (nothing was applied)",
            503,
        )


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

    def __init__(self, cluster: Cluster, match_id: int, owner: str) -> None:
        self.cluster = cluster
        self.match_id = match_id
        self.owner = owner
        self.sid = secrets.token_hex(8)
        self.attached = False

    async def _send(self, conn: Connection, op: str, **body: Any) -> None:
        await self.cluster.forward(self, conn, op, body)

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
        self.cluster.bound[self.sid] = _Bound(conn, self.match_id, self.owner)
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
        if self.cluster.bound.pop(self.sid, None) is not None:
            self.cluster.spawn(self._send(conn, "detach"))

    async def intent(self, conn: Connection, action: int | str, step: int, client_id: str) -> None:
        """Forward an intent (with the seat's step it quotes)."""
        await self._relay(conn, Act(type="act", action=action, step=step, client_id=client_id))

    async def set_tuoguan(self, conn: Connection, on: bool) -> None:
        """Forward 托管 on or off."""
        await self._relay(conn, Tuoguan(type="tuoguan", on=on))

    async def vote_dissolve(self, conn: Connection, agree: bool) -> None:
        """Forward a 解散 vote."""
        await self._relay(conn, Dissolve(type="dissolve", agree=agree))


class Cluster:
    """This worker's part in the cluster: its leases, its inbox and its forwarded sockets."""

    def __init__(self, redis_url: str, hub: Hub, metrics: Metrics, *, lease_ms: int = 2000) -> None:
        from redis.asyncio import Redis

        self.redis_url = redis_url
        self.redis: Redis = Redis.from_url(redis_url, decode_responses=True)
        self.hub = hub
        self.metrics = metrics
        self.lease_ms = lease_ms
        self.worker = f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"
        self.owned: dict[int, tuple[str, int]] = {}  # match -> (lease value, epoch)
        self.bound: dict[str, _Bound] = {}  # sid -> a local socket at a remote table
        self.forwarded: dict[str, _Forwarded] = {}  # sid -> a remote socket at our table
        self._renew = self.redis.register_script(_RENEW)
        self._release = self.redis.register_script(_RELEASE)
        self._tasks: list[asyncio.Task[None]] = []
        self._closing = False  # set by ``stop``: every loop ends at its next turn
        self._spawned: set[asyncio.Task[Any]] = set()
        metrics.fence = self.fence

    # -- life --------------------------------------------------------------------------

    async def start(self) -> None:
        """Announce the live matches of the database, then claim the orphaned ones."""
        await self.redis.ping()
        async with self.hub.sessions() as db:
            ids = (await db.scalars(select(MatchRow.id).where(MatchRow.status == "playing"))).all()
        if ids:
            await self.redis.sadd(LIVE, *[str(i) for i in ids])
        await self.redis.set(_alive(self.worker), "1", px=3 * self.lease_ms)
        await self.sweep()
        for job in (self._renewer, self._sweeper, self._inbox_reader, self._listener):
            self._tasks.append(asyncio.create_task(job(), name=f"cluster-{job.__name__}"))
        log.info("worker %s joined the cluster at %s", self.worker, self._safe_url())

    async def stop(self) -> None:
        """Leave: stop the loops, hand back every lease so others take over at once.

        Bounded in time: a loop whose cancellation was swallowed (a cancel racing the read
        timeout of a Redis call turns into that timeout) ends at its next turn through
        ``_closing``, and no Redis call here waits more than a few seconds, so a worker
        asked to stop always does.
        """
        self._closing = True
        for t in self._tasks:
            t.cancel()
        if self._tasks:
            _, stuck = await asyncio.wait(self._tasks, timeout=3 + self.lease_ms / 1000)
            if stuck:  # pragma: no cover - only if Redis hangs
                log.warning(
                    "cluster loops still running at stop: %s", sorted(t.get_name() for t in stuck)
                )

        async def leave() -> None:
            for mid, (value, _) in list(self.owned.items()):
                with contextlib.suppress(Exception):
                    await self._release(keys=[lease_key(mid)], args=[value])
            self.owned.clear()
            with contextlib.suppress(Exception):
                await self.redis.delete(_alive(self.worker))
            await self.redis.aclose()

        with contextlib.suppress(Exception):
            await asyncio.wait_for(leave(), 5)

    async def ping(self) -> bool:
        """Whether Redis answers (``/ready``)."""
        try:
            return bool(await asyncio.wait_for(self.redis.ping(), 1))
        except Exception:
            return False

    def _safe_url(self) -> str:
        from urllib.parse import urlsplit

        u = urlsplit(self.redis_url)
        return f"{u.scheme}://{u.hostname}:{u.port}"

    def spawn(self, coro: Any) -> None:
        """Run a coroutine in the background, keeping a reference until it ends."""
        t = asyncio.get_running_loop().create_task(coro)
        self._spawned.add(t)
        t.add_done_callback(self._spawned.discard)

    # -- leases and fencing ----------------------------------------------------------------

    async def claim(self, match_id: int) -> int | None:
        """Take the match's lease if nobody holds it, then raise its epoch; the epoch."""
        value = f"{self.worker}:{secrets.token_hex(8)}"
        if not await self.redis.set(lease_key(match_id), value, nx=True, px=self.lease_ms):
            return None
        try:
            async with self.hub.sessions() as db, db.begin():
                epoch = await db.scalar(
                    update(MatchRow)
                    .where(MatchRow.id == match_id)
                    .values(lease_epoch=MatchRow.lease_epoch + 1)
                    .returning(MatchRow.lease_epoch)
                )
        except BaseException:
            with contextlib.suppress(Exception):
                await self._release(keys=[lease_key(match_id)], args=[value])
            raise
        if epoch is None:  # no such match
            await self._release(keys=[lease_key(match_id)], args=[value])
            return None
        self.owned[match_id] = (value, int(epoch))
        return int(epoch)

    async def fence(self, table: Table, db: AsyncSession) -> None:
        """In a table write's transaction: refuse it unless the match still has our epoch."""
        held = self.owned.get(table.match_id)
        epoch = held[1] if held is not None else -1
        res = await db.execute(
            update(MatchRow)
            .where(MatchRow.id == table.match_id, MatchRow.lease_epoch == epoch)
            .values(lease_epoch=epoch)
        )
        if getattr(res, "rowcount", 0) != 1:
            self.metrics.refused.inc()
            log.warning(
                "match %s: write refused: epoch %s is no longer the match's (fenced)",
                table.match_id,
                epoch,
            )
            self.spawn(self.step_down(table.match_id, "fenced"))
            raise LeaseLost(table.match_id)

    async def adopt(self, table: Table) -> None:
        """A match this worker just started: own it, then list it as live (only a live
        match is ever taken over, so nobody races its starter)."""
        epoch = await self.claim(table.match_id)
        if epoch is None:  # pragma: no cover - a new match id has no lease
            raise RuntimeError(f"match {table.match_id} already has an owner")
        await self.redis.sadd(LIVE, str(table.match_id))

    async def announce(self, code: str) -> None:
        """Tell the other workers a room started (their waiting sockets attach)."""
        await self.redis.publish("phz:rooms", code)

    def ended(self, table: Table) -> None:
        """The match is over: drop it from the live set and hand back its lease."""
        held = self.owned.pop(table.match_id, None)

        async def _end() -> None:
            await self.redis.srem(LIVE, str(table.match_id))
            if held is not None:
                await self._release(keys=[lease_key(table.match_id)], args=[held[0]])

        self.spawn(_end())

    async def step_down(self, match_id: int, why: str) -> None:
        """Stop running a table whose lease is gone; its sockets reconnect elsewhere."""
        self.owned.pop(match_id, None)
        hub = self.hub
        code = hub.codes.pop(match_id, None)
        table = hub.tables.pop(code, None) if code is not None else None
        if table is None:
            return
        self.metrics.lease_losses.inc()
        log.warning("match %s: stepped down (%s)", match_id, why)
        await table.stop()
        for conns in table.conns:
            for c in list(conns):
                _kick(c)

    async def _take_over(self, match_id: int) -> None:
        t0 = time.monotonic()
        epoch = await self.claim(match_id)
        if epoch is None:
            return
        hub = self.hub
        try:
            async with hub.sessions() as db:
                row = await db.get(MatchRow, match_id)
                room = await db.get(RoomRow, row.room_id) if row is not None else None
                if row is None or room is None or row.status != "playing":
                    await self.redis.srem(LIVE, str(match_id))
                    value, _ = self.owned.pop(match_id)
                    await self._release(keys=[lease_key(match_id)], args=[value])
                    return
                table = await hub.load(db, row, room)
            hub.add(room.code, table)
        except BaseException:
            held = self.owned.pop(match_id, None)
            if held is not None:
                with contextlib.suppress(Exception):
                    await self._release(keys=[lease_key(match_id)], args=[held[0]])
            raise
        self.metrics.lease_moves.inc()
        log.warning(
            "match %s: taken over (epoch %d, %d decisions replayed) in %.3f s",
            match_id, epoch, table.decision_seq, time.monotonic() - t0,
        )  # fmt: skip

    # -- the loops ---------------------------------------------------------------------

    async def _renewer(self) -> None:
        while not self._closing:
            await asyncio.sleep(self.lease_ms / 3000)
            try:
                held = list(self.owned.items())
                async with self.redis.pipeline(transaction=False) as p:  # one round trip
                    p.set(_alive(self.worker), "1", px=3 * self.lease_ms)
                    for mid, (value, _) in held:
                        await self._renew(keys=[lease_key(mid)], args=[value, self.lease_ms],
                                          client=p)  # fmt: skip
                    answers = await p.execute()
                for (mid, (value, _)), renewed in zip(held, answers[1:], strict=True):
                    if not renewed and self.owned.get(mid, ("",))[0] == value:
                        await self.step_down(mid, "lease lost")
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("renewing leases failed")

    async def _sweeper(self) -> None:
        while not self._closing:
            await asyncio.sleep(self.lease_ms / 4000)
            try:
                await self.sweep()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("sweeping failed")

    async def sweep(self) -> None:
        """Claim live matches without an owner; send sockets bound to a moved table away;
        forget forwarded sockets whose worker is gone."""
        ids = sorted(int(i) for i in await self.redis.smembers(LIVE))
        others = [i for i in ids if i not in self.owned]
        if others:
            values = await self.redis.mget([lease_key(i) for i in others])
            for mid, v in zip(others, values, strict=True):
                if v is None:
                    await self._take_over(mid)
        await self._waiting_rooms()
        bound = list(self.bound.items())
        if bound:
            values = await self.redis.mget([lease_key(b.match_id) for _, b in bound])
            for (sid, b), v in zip(bound, values, strict=True):
                if v != b.owner:
                    self.bound.pop(sid, None)
                    _kick(b.conn)
        workers = sorted({f.worker for f in self.forwarded.values()})
        if workers:
            alive = await self.redis.mget([_alive(w) for w in workers])
            gone = {w for w, a in zip(workers, alive, strict=True) if a is None}
            for sid, f in list(self.forwarded.items()):
                if f.worker in gone:
                    await f.ops.put({"op": "detach", "sid": sid})

    async def _waiting_rooms(self) -> None:
        """Sockets waiting here for a room another worker started (in case its
        announcement came before they arrived)."""
        hub = self.hub
        if not hub.waiting:
            return
        async with hub.sessions() as db:
            codes = (
                await db.scalars(
                    select(RoomRow.code).where(
                        RoomRow.code.in_(list(hub.waiting)), RoomRow.status == "playing"
                    )
                )
            ).all()
        for code in codes:
            await hub.started_elsewhere(code)

    async def _listener(self) -> None:
        """Messages for our sockets bound to remote tables, and rooms that started."""
        pubsub = self.redis.pubsub()
        await pubsub.subscribe(_to(self.worker), "phz:rooms", LOGOUT_CHANNEL)
        try:
            while not self._closing:
                msg = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
                if msg is None:
                    continue
                data = msg["data"]
                if msg["channel"] == "phz:rooms":
                    await self.hub.started_elsewhere(data)
                    continue
                if msg["channel"] == LOGOUT_CHANNEL:  # a session ended: its sockets here too
                    self.hub.signed_in.end(data)
                    continue
                sid, _, text = data.partition("\n")
                b = self.bound.get(sid)
                if b is None:
                    continue
                if text == MOVED:
                    self.bound.pop(sid, None)
                    _kick(b.conn)
                else:
                    b.conn.queue.put_nowait(text)
        finally:
            with contextlib.suppress(Exception):
                await pubsub.aclose()  # type: ignore[no-untyped-call,unused-ignore]  # typed from redis 8

    async def _inbox_reader(self) -> None:
        """Operations of sockets on other workers, for our tables."""
        from redis.asyncio import Redis

        r: Redis = Redis.from_url(self.redis_url, decode_responses=True)
        try:
            while not self._closing:
                got = await r.blpop([_inbox(self.worker)], timeout=1)
                if got is None:
                    continue
                try:
                    self._on_op(json.loads(got[1]))
                except Exception:
                    log.exception("a forwarded operation failed: %s", got[1][:200])
        finally:
            await r.aclose()

    # -- forwarding --------------------------------------------------------------------

    async def bind(self, room: RoomRow) -> Table | RemoteTable | None:
        """The handle a socket of a playing room gets here: the table if this worker runs
        it (taking it over if nobody does), else a forwarder to its owner."""
        async with self.hub.sessions() as db:
            mid = await db.scalar(
                select(MatchRow.id)
                .where(MatchRow.room_id == room.id, MatchRow.status == "playing")
                .order_by(MatchRow.id.desc())
            )
        if mid is None:
            return None
        for _ in range(2):
            if mid in self.owned:
                return self.hub.tables.get(room.code)
            value = await self.redis.get(lease_key(mid))
            if value is not None:
                return RemoteTable(self, mid, str(value))
            if not await self.redis.sismember(LIVE, str(mid)):
                return None  # its starter has not listed it yet: wait for the announcement
            await self._take_over(mid)
        return self.hub.tables.get(room.code)

    async def forward(
        self, handle: RemoteTable, conn: Connection, op: str, body: dict[str, Any]
    ) -> None:
        """Push a socket's operation to its table's owner."""
        msg = json.dumps({"op": op, "sid": handle.sid, "match": handle.match_id,
                          "from": self.worker, **body})  # fmt: skip
        inbox = _inbox(_owner(handle.owner))
        async with self.redis.pipeline(transaction=False) as p:
            p.rpush(inbox, msg)
            p.pexpire(inbox, 10 * self.lease_ms)  # a dead owner's inbox goes away
            await p.execute()

    def _on_op(self, op: dict[str, Any]) -> None:
        sid = str(op["sid"])
        f = self.forwarded.get(sid)
        if f is None:
            if op["op"] != "attach":
                return
            worker = str(op["from"])
            mid = int(op["match"])
            code = self.hub.codes.get(mid)
            table = self.hub.tables.get(code) if code is not None else None
            if table is None or mid not in self.owned:
                self.spawn(self.redis.publish(_to(worker), f"{sid}\n{MOVED}"))
                return
            chan = _to(worker)

            async def send(text: str) -> None:
                await self.redis.publish(chan, f"{sid}\n{text}")

            conn = Connection(send)
            conn.account_id = op.get("account")
            conn.seat = op.get("seat")
            conn.spectator = bool(op.get("spectator"))
            conn.views = bool(op.get("views"))
            f = _Forwarded(conn, table, worker)

            def kick(f: _Forwarded = f) -> None:
                f.conn.queue.put_nowait(MOVED)
                f.conn.close()
                if len(f.tasks) > 1:
                    f.tasks[1].cancel()
                f.conn.kick = None
                self.forwarded.pop(sid, None)

            conn.kick = kick
            self.forwarded[sid] = f
            f.tasks = [asyncio.create_task(conn.pump()), asyncio.create_task(self._serve(sid, f))]
        f.ops.put_nowait(op)

    async def _serve(self, sid: str, f: _Forwarded) -> None:
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


def _kick(conn: Connection) -> None:
    """Ask a socket's client to reconnect (its table changed owner)."""
    kick: Callable[[], Any] | None = conn.kick
    if kick is not None:
        kick()
    else:
        conn.close()
