"""Group commit: the decisions of many tables written in one transaction, one sync to disk.

A table hands its rows (inserted with one multi-row statement per table, not through
the ORM) and any further write (a function of the transaction's connection, or a
coroutine function of a session) to the database's :class:`GroupCommitter` and waits
until they are committed. One writer task takes every
write queued while the previous transaction was being committed and commits them
together, so a hundred tables cost one fsync instead of a hundred, and SQLite's single
writer lock is never fought over. Nothing is acknowledged before its transaction has
committed. When a shared transaction fails, each of its writes is tried again alone, so
one bad write fails only its own table.

Writes with no coroutine part run on a dedicated writer thread with a blocking engine on
the same database (SQLite file or PostgreSQL): the whole transaction is one hand-off
from the event loop, where aiosqlite hands each statement to its thread and back and
psycopg's async connection waits a turn of the busy event loop after each round trip.
On PostgreSQL a transaction of blind writes (inserts, and further writes that read
nothing back: ``blind``) sends them with its COMMIT in one round trip (psycopg's pipeline
mode). The others (fencing, several workers) use the async session.

A route's own change (a room made, joined, left or started) is :func:`transaction`: on an
SQLite file it runs on the same writer thread between two group commits, so it holds
SQLite's write lock for its statements alone.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import sys
import weakref
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from sqlalchemy import (
    BigInteger,
    Boolean,
    Connection,
    DateTime,
    Engine,
    Insert,
    Integer,
    SmallInteger,
    String,
    Table,
    Text,
    insert,
)
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker
from sqlalchemy.orm import Session

from .db import writer_engine

__all__ = [
    "GroupCommitter",
    "Row",
    "SyncWrite",
    "Write",
    "close_committer",
    "committer_for",
    "transaction",
]

log = logging.getLogger("paohuzi.server")

Write = Callable[[AsyncSession], Awaitable[None]]
SyncWrite = Callable[[Connection], None]
Row = tuple[Table, dict[str, Any]]
# (write, then, rows, then is blind, settled when committed)
_Item = tuple[Write | None, SyncWrite | None, Sequence[Row], bool, "asyncio.Future[None]"]
T = TypeVar("T")


def _blind(item: _Item) -> bool:
    """Reads nothing back: rows to insert alone, or a ``then`` committed as blind."""
    return item[1] is None or item[3]


class GroupCommitter:
    """Batches writes into shared transactions; ``commit`` returns once one is durable.

    Writes of one kind commit in the order they were queued; of a batch, the blind writes
    and plain inserts commit first, then those that read, then the coroutine writes (no
    two writes of the server's that a batch holds depend on each other's order: each
    table waits for its write before its next)."""

    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        max_batch: int = 500,
        engine: Engine | None = None,
    ) -> None:
        self.sessions = sessions
        self.max_batch = max_batch
        self.engine = engine  # blocking, for the writer thread (None: async only)
        self._thread: ThreadPoolExecutor | None = None
        self.batches = 0  # transactions committed
        self.writes = 0  # writes in them
        self._queue: list[_Item] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._wake: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None

    async def commit(
        self,
        write: Write | None = None,
        rows: Sequence[Row] = (),
        then: SyncWrite | None = None,
        blind: bool = False,
    ) -> None:
        """Insert ``rows``, then run ``write`` and ``then`` in a transaction (maybe shared
        with other tables'); return once it is committed. ``blind``: ``then`` reads no
        result (no SELECT, no RETURNING), so on PostgreSQL it may be pipelined.

        Raises what the write or the commit raised when it failed alone.
        """
        loop = asyncio.get_running_loop()
        if loop is not self._loop or self._task is None or self._task.done():
            self._start_writer(loop)
        assert self._wake is not None
        done: asyncio.Future[None] = loop.create_future()
        self._queue.append((write, then, rows, blind, done))
        self._wake.set()
        await done

    def _start_writer(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._wake = asyncio.Event()
        self._task = loop.create_task(self._writer(), name="paohuzi-group-commit")

    async def _writer(self) -> None:
        assert self._wake is not None
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._queue:
                # (no local: a batch is not kept till the next)
                await self._write(self._next_batch())

    def _next_batch(self) -> list[_Item]:
        batch = self._queue[: self.max_batch]
        del self._queue[: self.max_batch]
        return batch

    async def _write(self, batch: list[_Item]) -> None:
        if self.engine is None:
            await self._write_one(batch, threaded=False)
            return
        # On the writer thread: the blind writes (pipelined on PostgreSQL) in one
        # transaction, then the few that read (a match's last round rating people) in
        # another, so that their round trips never hold the others' decisions back. A table
        # waits for its write before its next, so no table has a write in both.
        threaded = [item for item in batch if item[0] is None]
        blind = [item for item in threaded if _blind(item)]
        reading = [item for item in threaded if not _blind(item)]
        other = [item for item in batch if item[0] is not None]
        for part in (blind, reading):
            if part:
                await self._write_one(part, threaded=True)
        if other:
            await self._write_one(other, threaded=False)

    async def _write_one(self, batch: list[_Item], threaded: bool) -> None:
        """One transaction for ``batch``; on failure, each of its writes alone."""
        by_table: dict[Table, list[dict[str, Any]]] = {}
        for _, _, rows, _, _ in batch:
            for table, row in rows:
                by_table.setdefault(table, []).append(row)
        try:
            if threaded:
                loop = asyncio.get_running_loop()
                await loop.run_in_executor(self._executor(), self._transaction, by_table, batch)
            else:
                async with self.sessions() as db, db.begin():
                    for table, values in by_table.items():
                        await db.execute(_insert(table), values)
                    for write, then, *_ in batch:
                        if write is not None:
                            await write(db)
                        if then is not None:
                            await db.run_sync(_on_connection(then))
        except Exception as e:
            if len(batch) > 1:  # find the one that failed: each alone
                for item in batch:
                    await self._write_one([item], threaded)
                return
            if not batch[0][4].done():
                batch[0][4].set_exception(e)
            return
        self.batches += 1
        self.writes += len(batch)
        for *_, done in batch:
            if not done.done():
                done.set_result(None)

    def _transaction(self, by_table: dict[Table, list[dict[str, Any]]], batch: list[_Item]) -> None:
        """The writer thread's transaction: committed (durable) when this returns."""
        assert self.engine is not None
        plain = all(map(_blind, batch))
        with self.engine.connect() as conn, _pipelined(conn, plain), conn.begin():
            for table, values in by_table.items():
                _insert_rows(conn, table, values)
            for _, then, *_ in batch:
                if then is not None:
                    then(conn)

    async def run(self, fn: Callable[[Session], T]) -> T:
        """``fn(session)`` in a transaction of its own on the writer thread, between two
        group commits (it raises: rolled back, and raised here). Holds SQLite's write lock
        for the statements alone, never across turns of the event loop."""
        return await asyncio.get_running_loop().run_in_executor(self._executor(), self._run, fn)

    def _executor(self) -> ThreadPoolExecutor:
        """The writer thread (started on first use), for the batches and the routes alike."""
        assert self.engine is not None
        if self._thread is None:
            self._thread = _writer_thread()
        return self._thread

    def _run(self, fn: Callable[[Session], T]) -> T:
        assert self.engine is not None
        with Session(self.engine, expire_on_commit=False) as session, session.begin():
            return fn(session)

    async def close(self) -> None:
        """Write what is queued, then stop the writer task."""
        if self._task is None or self._task.done():
            return
        while self._queue:
            await asyncio.sleep(0.001)
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
        if self._thread is not None:
            self._thread.shutdown(wait=True)
            self._thread = None
        if self.engine is not None:
            self.engine.dispose()
        log.info("group commit: %d writes in %d transactions", self.writes, self.batches)


# The writer thread waits for the GIL after each round trip while the event loop runs,
# and Python hands the GIL over only every switch interval (5 ms by default).
SWITCH_INTERVAL = 0.00025


def _writer_thread() -> ThreadPoolExecutor:
    """The writer thread, with the GIL handed over at least every millisecond: each call
    into the driver (a PostgreSQL round trip, an SQLite step or fsync) gives the GIL up and
    waits for it back while the event loop runs. On a busy server a PostgreSQL transaction
    took 96 ms at 5 ms, 61 ms at 1 ms (100 rooms); on SQLite, with the other core loaded,
    p99 went 1,183 → 626 ms and 1,233 → 851 ms (60 rooms, two alternating runs each).
    At 0.25 ms against 1 ms (100 rooms, two alternating turns): p99 80 → 63 ms on SQLite,
    211 → 168 ms on PostgreSQL, with no more server CPU a decision (docs/performance.md)."""
    if sys.getswitchinterval() > SWITCH_INTERVAL:
        sys.setswitchinterval(SWITCH_INTERVAL)
    return ThreadPoolExecutor(1, thread_name_prefix="paohuzi-commit")


@functools.cache
def _insert(table: Table) -> Insert:
    """An insert that reads nothing back: no RETURNING of a generated key (a lone row's
    would need a round trip of its own, and pipeline mode reads no rows)."""
    return insert(table).inline()


def _insert_rows(conn: Connection, table: Table, values: list[dict[str, Any]]) -> None:
    """``values`` inserted: on PostgreSQL in one statement on the driver's cursor, a
    column an array (``unnest``). psycopg's ``executemany`` in pipeline mode sends each row
    as a command of its own and flushes the socket after each, with the GIL held: under
    load (100 rooms) that was most of the writer thread's time with the GIL, which the
    event loop waited for. One text for any number of rows, so psycopg parses it once
    and prepares it. Only for tables whose columns take driver values as they are (no
    bind processing) and rows with the same keys."""
    cols = tuple(values[0])
    sql = _unnest_sql(table, cols, conn.dialect)
    if sql is None or any(tuple(v) != cols for v in values):
        conn.execute(_insert(table), values)
        return
    arrays = [[v[c] for v in values] for c in cols]
    cursor = conn.connection.driver_connection.cursor()  # type: ignore[union-attr]
    try:
        cursor.execute(sql, arrays)
    finally:
        cursor.close()


_PLAIN = (Integer, BigInteger, SmallInteger, String, Text, Boolean, DateTime)


@functools.lru_cache(maxsize=64)
def _unnest_sql(table: Table, cols: tuple[str, ...], dialect: Any) -> str | None:
    """``INSERT INTO t (cols) SELECT * FROM unnest(%s::type[], …)`` on PostgreSQL, or
    None: elsewhere, or where a column is not the table's or not of a plain type (whose
    values psycopg sends as they are: JSON, enums and the like are SQLAlchemy's to bind)."""
    if dialect.name != "postgresql":
        return None
    if not all(c in table.c and type(table.c[c].type) in _PLAIN for c in cols):
        return None
    names = ", ".join(f'"{c}"' for c in cols)
    arrays = ", ".join(f"%s::{table.c[c].type.compile(dialect=dialect)}[]" for c in cols)
    return f'INSERT INTO "{table.name}" ({names}) SELECT * FROM unnest({arrays})'


def _pipelined(conn: Connection, plain: bool) -> contextlib.AbstractContextManager[Any]:
    """psycopg's pipeline mode for a transaction of blind writes (``plain``: inserts, and
    SyncWrites committed as ``blind``): they go with the COMMIT in one round trip after
    the BEGIN's. Not with a SyncWrite that reads a result (SQLAlchemy reads no rows in
    pipeline mode: "This result object does not return rows"); not on SQLite. The COMMIT
    still waits for the server's answer: durable before anyone is told. A round's
    settlement is blind (persist.settle) unless it rates people (ratings.rate reads): with
    a hundred tables nearly every transaction holds a settlement or a deal, and each of
    their round trips cost the writer thread a wait for the GIL."""
    if not plain or conn.dialect.name != "postgresql":
        return contextlib.nullcontext()
    psycopg_connection: Any = conn.connection.driver_connection
    pipeline: contextlib.AbstractContextManager[Any] = psycopg_connection.pipeline()
    return pipeline


_COMMITTERS: weakref.WeakKeyDictionary[Any, GroupCommitter] = weakref.WeakKeyDictionary()


def committer_for(sessions: async_sessionmaker[AsyncSession]) -> GroupCommitter:
    """The committer of a database (one per session factory)."""
    c = _COMMITTERS.get(sessions)
    if c is None:
        bind = sessions.kw.get("bind")
        engine = writer_engine(bind) if isinstance(bind, AsyncEngine) else None
        c = _COMMITTERS[sessions] = GroupCommitter(sessions, engine=engine)
    return c


def _on_connection(then: SyncWrite) -> Callable[[Session], None]:
    """``then`` as a function of a session (``AsyncSession.run_sync``): its connection."""
    return lambda session: then(session.connection())


async def transaction(
    sessions: async_sessionmaker[AsyncSession], db: AsyncSession, fn: Callable[[Session], T]
) -> T:
    """``fn(session)`` in a transaction of its own, committed when this returns (rolled
    back if it raises): a route's change to the database, ``db`` being the route's session
    (of ``sessions``).

    On an SQLite file it runs on the group committer's writer thread: run on the event
    loop, each statement waited a turn of the busy loop while the transaction held
    SQLite's one write lock, and the group commits waited behind it in SQLite's busy
    handler (1, 2, 5, 10… ms sleeps): a join held the lock for 22 ms at p50 and 110 at
    p95 (100 rooms), and the group commit's first insert waited 43 ms at p95. Elsewhere
    (PostgreSQL, whose row locks another worker may hold; an in-memory SQLite database)
    in ``db`` itself, ``fn`` seeing it as a blocking session (a second session would hold
    a second pooled connection while the first waits: under load the pool ran dry)."""
    c = committer_for(sessions)
    if c.engine is not None and c.engine.dialect.name == "sqlite":
        return await c.run(fn)
    try:
        out = await db.run_sync(fn)
        await db.commit()
    except BaseException:
        await db.rollback()
        raise
    return out


async def close_committer(sessions: async_sessionmaker[AsyncSession]) -> None:
    """Finish and stop a database's committer (at shutdown)."""
    c = _COMMITTERS.get(sessions)
    if c is not None:
        await c.close()
