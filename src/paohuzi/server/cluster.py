"""This worker's part among several behind one Redis and one database (``paohuzi serve
--redis URL``): its leases on live tables, fencing, failover, and room announcements.

Each live table is owned by exactly one worker at a time, through a lease in Redis: the
key ``phz:lease:{match}`` holds ``{worker}:{token}``, set if absent with an expiry and
renewed while the worker lives (a Lua compare-and-renew; released by compare-and-delete).
Taking a table over raises ``matches.lease_epoch`` in the database, and every write of a
table (a decision with its ledger rows and match end, a 托管 switch, a 解散 vote; all of
them pass ``persist.write``) commits only while the row still holds its writer's epoch,
checked in the write's own transaction: a worker that lost its lease (paused,
partitioned) cannot store anything, even before it notices (fencing; the unique
``(match, seq)`` guards decisions as well).

A socket may land on any worker (forwarding.py). When its table lives elsewhere, its
worker forwards the socket's operations to the owner's inbox (the Redis list
``phz:inbox:{worker}``) and the owner sends that seat's messages back on the socket
worker's channel (pub/sub ``phz:to:{worker}``), through a :class:`~.tables.Connection`
whose writer publishes. The table cannot tell a forwarded seat from a local one.

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
from typing import TYPE_CHECKING, Any

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from . import online
from .db import MatchRow, RoomRow
from .errors import ApiError
from .forwarding import (
    LIVE,
    Forwarding,
    RemoteTable,
    alive_key,
    channel_of,
    inbox_of,
    kick,
    lease_key,
)
from .logouts import CHANNEL as LOGOUT_CHANNEL
from .tables import Table

if TYPE_CHECKING:  # pragma: no cover
    from redis.asyncio import Redis

    from .hub import Hub
    from .metrics import Metrics

__all__ = ["CLOSE_MOVED", "Cluster", "LeaseLost", "RemoteTable"]

log = logging.getLogger("paohuzi.cluster")

CLOSE_MOVED = 1012  # "service restart": the client reconnects (to any worker)


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


class LeaseLost(ApiError):
    """A commit refused: this worker no longer owns the table (another took it over)."""

    def __init__(self, match_id: int) -> None:
        super().__init__(
            "moved",
            f"match {match_id} moved to another server worker; reconnect (nothing was applied)",
            503,
        )


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
        self.fwd = Forwarding(self)  # sockets bound to other workers' tables, and theirs here
        self.online = online.Published()  # who is online here, for every worker (online.py)
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
        await self.redis.set(alive_key(self.worker), "1", px=3 * self.lease_ms)
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
                await self.redis.delete(alive_key(self.worker))
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
                kick(c)

    async def take_over(self, match_id: int) -> None:
        """Claim a match nobody owns and rebuild its table here from its log."""
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
                    p.set(alive_key(self.worker), "1", px=3 * self.lease_ms)
                    self.online.queue(p, self.hub, self.worker, 3 * self.lease_ms)
                    for mid, (value, _) in held:
                        await self._renew(keys=[lease_key(mid)], args=[value, self.lease_ms],
                                          client=p)  # fmt: skip
                    answers = await p.execute()
                renewals = answers[len(answers) - len(held) :]  # (after the online map's)
                for (mid, (value, _)), renewed in zip(held, renewals, strict=True):
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
                    await self.take_over(mid)
        await self._waiting_rooms()
        await self.fwd.sweep()

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
        await pubsub.subscribe(channel_of(self.worker), "phz:rooms", LOGOUT_CHANNEL)
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
                self.fwd.deliver(data)
        finally:
            with contextlib.suppress(Exception):
                await pubsub.aclose()  # type: ignore[no-untyped-call,unused-ignore]  # typed from redis 8

    async def _inbox_reader(self) -> None:
        """Operations of sockets on other workers, for our tables."""
        from redis.asyncio import Redis

        r: Redis = Redis.from_url(self.redis_url, decode_responses=True)
        try:
            while not self._closing:
                got = await r.blpop([inbox_of(self.worker)], timeout=1)
                if got is None:
                    continue
                try:
                    self.fwd.on_op(json.loads(got[1]))
                except Exception:
                    log.exception("a forwarded operation failed: %s", got[1][:200])
        finally:
            await r.aclose()

    async def bind(self, room: RoomRow) -> Table | RemoteTable | None:
        """The handle a socket of a playing room gets here (forwarding.py)."""
        return await self.fwd.bind(room)
