"""The group committer: shared transactions, on the writer thread or the async session."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest
from sqlalchemy import (
    JSON,
    Column,
    Connection,
    DateTime,
    Integer,
    MetaData,
    String,
    Table,
    select,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from paohuzi.server.commit import GroupCommitter, committer_for
from paohuzi.server.db import make_engine, sync_engine

META = MetaData()
ROWS = Table("rows", META, Column("k", Integer, primary_key=True), Column("v", String(8)))
AUTO = Table("auto", META, Column("id", Integer, primary_key=True), Column("v", String(8)))
STAMPED = Table("stamped", META, Column("k", Integer, primary_key=True),
                Column("note", String(8)), Column("at", DateTime(timezone=True)))  # fmt: skip
NOTES = Table("notes", META, Column("k", Integer, primary_key=True), Column("doc", JSON))


@pytest.mark.parametrize("threaded", [True, False])
async def test_writes_share_transactions_and_a_bad_one_fails_alone(
    db_url: str, threaded: bool
) -> None:
    # (on PostgreSQL the writer thread's batches of inserts alone go in pipeline mode)
    url = db_url
    blocking = sync_engine(url)
    META.create_all(blocking)
    engine, sessions = make_engine(url)
    c = committer_for(sessions)
    assert c.engine is not None  # a file or PostgreSQL: the writer thread
    if not threaded:
        c = GroupCommitter(sessions)  # the async session only

    def then_fails(db: Connection) -> None:
        raise RuntimeError("refused")

    async def one(k: int) -> str:
        key = k if k >= 100 else k % 40  # 40..49 repeat 0..9: duplicate keys
        rows = [(ROWS, {"k": key, "v": str(k)})]
        try:
            # (blind: a batch's reading writes commit after its blind ones, the
            # coroutine writes last; these writes all share one kind, so queue order)
            await c.commit(rows=rows, then=then_fails if k == 7 else None, blind=True)
        except IntegrityError:
            return "duplicate"
        except RuntimeError:
            return "refused"
        return "ok"

    try:
        got = await asyncio.gather(*(one(k) for k in range(50)))
        before = c.batches  # (the failed transaction's writes were retried one by one)
        assert await asyncio.gather(*(one(k) for k in range(100, 120))) == ["ok"] * 20
        shared = c.batches - before
        await c.close()
    finally:
        await engine.dispose()
    # Key 7's first write was refused (its ``then`` raised), so 47 took the key.
    assert got.count("refused") == 1 and got[7] == "refused" and got[47] == "ok"
    assert got.count("duplicate") == 9 and got.count("ok") == 40
    with blocking.connect() as db:
        stored = {k: v for k, v in db.execute(select(ROWS.c.k, ROWS.c.v))}
    blocking.dispose()
    expected = {k: str(47 if k == 7 else k) for k in range(40)}
    assert stored == expected | {k: str(k) for k in range(100, 120)}
    assert c.writes == 60 and shared < 20  # 20 writes queued together share transactions


async def test_a_batchs_rows_go_in_one_statement_on_postgresql(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # psycopg's executemany in pipeline mode sends a command a row and flushes after each,
    # with the GIL held; the writer thread sends a batch's rows of a table as one INSERT
    # (commit._insert_rows). A column SQLAlchemy processes first (JSON) takes the slow way.
    from datetime import UTC, datetime

    from paohuzi.server import commit

    built: list[tuple[str, int]] = []  # (table, rows) of each one-statement insert
    real = commit._insert_rows

    def spy(conn: Connection, table: Table, values: list[dict[str, object]]) -> None:
        if commit._unnest_sql(table, tuple(values[0]), conn.dialect) is not None:
            built.append((table.name, len(values)))
        real(conn, table, values)

    monkeypatch.setattr(commit, "_insert_rows", spy)
    blocking = sync_engine(db_url)
    META.create_all(blocking)
    engine, sessions = make_engine(db_url)
    c = committer_for(sessions)
    at = datetime(2026, 12, 7, 19, 0, tzinfo=UTC)

    async def one(k: int) -> None:
        note = None if k % 3 == 0 else f"n{k}"
        rows = [(STAMPED, {"k": k, "note": note, "at": at}), (NOTES, {"k": k, "doc": {"k": [k]}})]
        await c.commit(rows=rows)

    try:
        await asyncio.gather(*(one(k) for k in range(12)))
        await c.close()
    finally:
        await engine.dispose()
    with blocking.connect() as db:
        stamped = sorted(db.execute(select(STAMPED.c.k, STAMPED.c.note, STAMPED.c.at)))
        notes = sorted(db.execute(select(NOTES.c.k, NOTES.c.doc)))
    blocking.dispose()
    assert [(k, note) for k, note, _ in stamped] == [
        (k, None if k % 3 == 0 else f"n{k}") for k in range(12)
    ]
    assert all(x.replace(tzinfo=x.tzinfo or UTC) == at for *_, x in stamped)
    assert notes == [(k, {"k": [k]}) for k in range(12)]
    if db_url.startswith("postgresql"):
        assert built and {name for name, _ in built} == {"stamped"}
        assert sum(n for _, n in built) == 12 and max(n for _, n in built) > 1
    else:
        assert built == []  # SQLite's executemany is one C loop already
    assert commit._unnest_sql(NOTES, ("k", "doc"), engine.dialect) is None


async def test_a_lone_row_with_a_generated_key_commits(db_url: str) -> None:
    # One row alone is not an executemany: its insert must not wait to read the key back
    # (in PostgreSQL's pipeline mode it could not).
    blocking = sync_engine(db_url)
    META.create_all(blocking)
    engine, sessions = make_engine(db_url)
    c = committer_for(sessions)
    try:
        for v in ("a", "b"):
            await c.commit(rows=[(AUTO, {"v": v})])
        await c.close()
    finally:
        await engine.dispose()
    with blocking.connect() as db:
        assert sorted(db.execute(select(AUTO.c.id, AUTO.c.v))) == [(1, "a"), (2, "b")]
    blocking.dispose()
    assert c.batches == 2


async def test_blind_writes_share_the_pipeline_and_a_reading_one_reads(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A round's settlement and a deal read nothing back (``blind``): on PostgreSQL they go
    # with the inserts and the COMMIT in one round trip. A write that reads (a rating's
    # SELECT … FOR UPDATE) is not pipelined: SQLAlchemy reads no rows in pipeline mode.
    from paohuzi.server import commit

    seen: list[tuple[str, bool]] = []
    real = commit._pipelined

    def spy(conn: Connection, plain: bool) -> object:
        seen.append((conn.dialect.name, plain))
        return real(conn, plain)

    monkeypatch.setattr(commit, "_pipelined", spy)
    blocking = sync_engine(db_url)
    META.create_all(blocking)
    engine, sessions = make_engine(db_url)
    c = committer_for(sessions)
    read: list[str | None] = []

    def blind(db: Connection) -> None:
        db.execute(ROWS.update().where(ROWS.c.k == 1).values(v="moved"))

    def reads(db: Connection) -> None:
        read.append(db.execute(select(ROWS.c.v).where(ROWS.c.k == 1)).scalar())

    try:
        await c.commit(rows=[(ROWS, {"k": 1, "v": "new"})], then=blind, blind=True)
        await c.commit(rows=[(ROWS, {"k": 2, "v": "x"})], then=reads)
        await c.close()
    finally:
        await engine.dispose()
    with blocking.connect() as db:
        assert dict(db.execute(select(ROWS.c.k, ROWS.c.v)).all()) == {1: "moved", 2: "x"}
    blocking.dispose()
    assert read == ["moved"]
    kind = "postgresql" if db_url.startswith("postgresql") else "sqlite"
    assert seen == [(kind, True), (kind, False)]  # (_pipelined is a no-op on SQLite)


async def test_a_reading_write_does_not_hold_back_the_blind_ones_beside_it(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Queued together, a blind write and one that reads (a match's last round, rating its
    # players) go in two transactions: the blind one first, pipelined on PostgreSQL, so
    # the reading one's round trips hold back no other table's decisions.
    from paohuzi.server import commit

    seen: list[tuple[str, bool]] = []
    real = commit._pipelined

    def spy(conn: Connection, plain: bool) -> object:
        seen.append((conn.dialect.name, plain))
        return real(conn, plain)

    monkeypatch.setattr(commit, "_pipelined", spy)
    blocking = sync_engine(db_url)
    META.create_all(blocking)
    engine, sessions = make_engine(db_url)
    c = committer_for(sessions)
    read: list[str | None] = []

    def blind(db: Connection) -> None:
        db.execute(ROWS.update().where(ROWS.c.k == 1).values(v="moved"))

    def reads(db: Connection) -> None:
        read.append(db.execute(select(ROWS.c.v).where(ROWS.c.k == 1)).scalar())

    try:
        await asyncio.gather(  # one batch: both are queued before the writer runs
            c.commit(rows=[(ROWS, {"k": 2, "v": "x"})], then=reads),
            c.commit(rows=[(ROWS, {"k": 1, "v": "new"})], then=blind, blind=True),
        )
        await c.close()
    finally:
        await engine.dispose()
    with blocking.connect() as db:
        assert dict(db.execute(select(ROWS.c.k, ROWS.c.v)).all()) == {1: "moved", 2: "x"}
    blocking.dispose()
    assert read == ["moved"]  # the blind transaction committed first
    kind = "postgresql" if db_url.startswith("postgresql") else "sqlite"
    assert seen == [(kind, True), (kind, False)]
    assert (c.batches, c.writes) == (2, 2)


def test_an_in_memory_database_has_no_writer_thread() -> None:
    _, sessions = make_engine("sqlite:///:memory:")
    assert committer_for(sessions).engine is None


def test_postgresql_commits_on_a_writer_thread() -> None:
    # On the event loop each round trip waited a turn of the busy loop (nothing connects here).
    _, sessions = make_engine("postgresql+psycopg://nobody@127.0.0.1:9/none")
    engine = committer_for(sessions).engine
    assert engine is not None and engine.dialect.name == "postgresql"
    assert engine.dialect.driver == "psycopg" and not engine.dialect.is_async


async def test_the_writer_thread_hands_the_gil_over_every_quarter_millisecond(db_url: str) -> None:
    # Each driver call gives the GIL up; at Python's default 5 ms a busy event loop kept
    # the writer waiting after every one (SQLite's steps and fsync as PostgreSQL's trips).
    import sys

    old = sys.getswitchinterval()
    sys.setswitchinterval(0.005)
    blocking = sync_engine(db_url)
    META.create_all(blocking)
    blocking.dispose()
    engine, sessions = make_engine(db_url)
    c = committer_for(sessions)
    try:
        await c.commit(rows=[(AUTO, {"v": "x"})])
        await c.close()
        assert sys.getswitchinterval() <= 0.00025
    finally:
        sys.setswitchinterval(old)
        await engine.dispose()


async def test_a_routes_transaction_commits_or_rolls_back_where_it_should_run(
    db_url: str,
) -> None:
    """``transaction``: committed when it returns, nothing kept when ``fn`` raises; on an
    SQLite file on the writer thread (a route's statements never wait a turn of the event
    loop holding SQLite's write lock), on PostgreSQL in the route's own session."""
    import threading

    from paohuzi.server.commit import transaction
    from paohuzi.server.errors import ApiError

    blocking = sync_engine(db_url)
    META.create_all(blocking)
    engine, sessions = make_engine(db_url)
    threads: list[str] = []

    def add(k: int, fail: bool) -> Callable[[Session], int]:
        def fn(s: Session) -> int:
            threads.append(threading.current_thread().name)
            s.execute(ROWS.insert().values(k=k, v="r"))
            if fail:
                raise ApiError("room_started", "refused after its insert", 409)
            return k

        return fn

    try:
        async with sessions() as db:
            await db.execute(select(ROWS.c.k))  # the route's session has read already
            assert await transaction(sessions, db, add(1, False)) == 1
            with pytest.raises(ApiError):
                await transaction(sessions, db, add(2, True))
            assert await transaction(sessions, db, add(3, False)) == 3
        await committer_for(sessions).close()
    finally:
        await engine.dispose()
    with blocking.connect() as conn:
        assert sorted(conn.scalars(select(ROWS.c.k))) == [1, 3]
    blocking.dispose()
    on_writer = [t.startswith("paohuzi-commit") for t in threads]
    assert on_writer == [db_url.startswith("sqlite")] * 3, threads


async def test_a_routes_transaction_takes_no_second_pooled_connection(db_url: str) -> None:
    """With the route's session holding the pool's only connection, ``transaction`` still
    commits: it once opened a session of its own on PostgreSQL, and under load (100 rooms
    made at once) every pooled connection was held by a route waiting for another: 500s
    after the pool's 30 s timeout."""
    from sqlalchemy.ext.asyncio import async_sessionmaker, create_async_engine

    from paohuzi.server.commit import transaction
    from paohuzi.server.db import async_url

    blocking = sync_engine(db_url)
    META.create_all(blocking)
    blocking.dispose()
    engine = create_async_engine(async_url(db_url), pool_size=1, max_overflow=0, pool_timeout=2)
    sessions = async_sessionmaker(engine, expire_on_commit=False)
    try:
        async with sessions() as db:
            await db.execute(select(ROWS.c.k))  # holds the one connection (PostgreSQL)
            got = await asyncio.wait_for(
                transaction(sessions, db, lambda s: s.execute(ROWS.insert().values(k=9))), 10
            )
            assert got is not None
        await committer_for(sessions).close()
    finally:
        await engine.dispose()
