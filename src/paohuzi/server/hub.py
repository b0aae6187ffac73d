"""The live tables of this process, by room code, and the sockets waiting for a room to start."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from .commit import close_committer
from .db import MatchRow, RoomRow, RoomSeat, room_by_code
from .limits import PlaySettings
from .logouts import SignedInSockets
from .metrics import Metrics
from .protocol import error_dict
from .tables import Connection, SeatInfo, Table

if TYPE_CHECKING:  # pragma: no cover
    from .cluster import Cluster

__all__ = ["Hub", "seat_infos"]


class Hub:
    """The live tables, by room code, and the sockets waiting for a room to start.

    A table leaves ``tables`` when its match ends (its sockets keep it until they close);
    a finished match is served from the database afterwards.
    """

    def __init__(self, sessions: async_sessionmaker[AsyncSession], settings: PlaySettings) -> None:
        self.sessions = sessions
        self.settings = settings
        self.tables: dict[str, Table] = {}
        self.codes: dict[int, str] = {}  # match id -> room code, for the live tables
        self.waiting: dict[str, list[Connection]] = {}
        self.lock = asyncio.Lock()  # room changes (join, leave, bots, start)
        self.sockets = 0  # open WebSockets (a metric)
        self.unauthenticated: dict[str, set[Connection]] = {}  # sockets by address, until auth
        self.metrics = Metrics(lambda: len(self.tables), lambda: self.sockets)
        self.cluster: Cluster | None = None  # several workers (--redis): cluster.py
        self.signed_in = SignedInSockets()  # logout ends them (logouts.py)
        # the live matches with a bot seated: the network address that started each
        self.bot_match_address: dict[int, str] = {}

    def add(self, code: str, table: Table) -> None:
        """Make ``table`` the room's live table and start its driver."""
        self.tables[code] = table
        self.codes[table.match_id] = code
        table.hooks = self.metrics
        table.launch()

    async def adopt(self, code: str, table: Table) -> None:
        """A match started here: own it (several workers), then ``add`` it."""
        if self.cluster is not None:
            await self.cluster.adopt(table)
        self.add(code, table)
        if self.cluster is not None:
            await self.cluster.announce(code)

    def release(self, table: Table) -> None:
        """Forget a finished table (its driver calls this as it ends)."""
        code = self.codes.pop(table.match_id, None)
        if code is not None and self.tables.get(code) is table:
            del self.tables[code]
        self.bot_match_address.pop(table.match_id, None)
        if self.cluster is not None:
            self.cluster.ended(table)

    async def started_elsewhere(self, code: str) -> None:
        """Another worker started a room: its sockets waiting here attach to it."""
        if self.cluster is None or not self.waiting.get(code):
            return
        async with self.lock:  # not while this worker is starting a room
            conns = self.waiting.pop(code, [])
        async with self.sessions() as db:
            room = await db.scalar(room_by_code(code))
            seats = {
                s.account_id: s.seat
                for s in (
                    await db.scalars(select(RoomSeat).where(RoomSeat.room_id == room.id))
                ).all()
            } if room is not None else {}  # fmt: skip
        for conn in conns:
            if not conn.spectator:
                conn.seat = seats.get(conn.account_id or -1)
            if not conn.spectator and conn.seat is None:
                continue  # left the room before it started
            handle = await self.cluster.bind(room) if room is not None else None
            if handle is None:  # not announced yet: keep waiting
                self.waiting.setdefault(code, []).append(conn)
            else:
                await handle.attach(conn, conn.since)

    async def load(self, db: AsyncSession, row: MatchRow, room: RoomRow) -> Table:
        """Rebuild a match's table from the database."""
        return await Table.load(
            self.sessions,
            row,
            await seat_infos(db, room.id),
            time_limit=room.time_limit,
            ready_seconds=room.ready_seconds,
            settings=self.settings,
            on_end=self.release,
        )

    async def tell_expired(self) -> int:
        """Tell the sockets waiting here for a room that expired meanwhile (by any
        worker's sweep) that it did, and stop keeping them; how many were told."""
        codes = list(self.waiting)
        if not codes:
            return 0
        async with self.sessions() as db:
            rows = (await db.scalars(select(RoomRow).where(RoomRow.code.in_(codes)))).all()
        newest: dict[str, RoomRow] = {}
        for r in rows:  # a code taken again: the newest room is the one they wait for
            if r.code not in newest or r.id > newest[r.code].id:
                newest[r.code] = r
        told = 0
        async with self.lock:
            for code, r in newest.items():
                if r.status != "expired":
                    continue
                for conn in self.waiting.pop(code, []):
                    conn.put_dict(
                        error_dict("room_expired", f"room {code} expired before it started")
                    )
                    told += 1
        return told

    async def restore(self) -> None:
        """Rebuild every unfinished match from its log (after a restart or a crash)."""
        async with self.sessions() as db:
            rows = (await db.scalars(select(MatchRow).where(MatchRow.status == "playing"))).all()
            for row in rows:
                room = await db.get(RoomRow, row.room_id)
                assert room is not None
                self.add(room.code, await self.load(db, row, room))

    async def stop(self) -> None:
        """Stop every driver (shutdown)."""
        for table in list(self.tables.values()):
            await table.stop()

    async def shutdown(self) -> None:
        """Stop every driver, close every socket of a live table (a commit in progress
        finishes first), flush the group committer, and (several workers) leave the
        cluster, handing back the leases so others take over at once."""
        await self.stop()
        for table in self.tables.values():
            async with table.lock:
                for conns in table.conns:
                    for c in conns:
                        c.close()
        await close_committer(self.sessions)
        if self.cluster is not None:
            await self.cluster.stop()


async def seat_infos(db: AsyncSession, room_id: int) -> list[SeatInfo]:
    """The room's seats (account, bot, 托管) in seat order, as a table takes them."""
    seats = (
        await db.scalars(
            select(RoomSeat).where(RoomSeat.room_id == room_id).order_by(RoomSeat.seat)
        )
    ).all()
    return [SeatInfo(s.account_id, s.bot, bool(s.tuoguan)) for s in seats]
