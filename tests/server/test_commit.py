"""The group committer: shared transactions, on the writer thread or the async session."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import Column, Connection, Integer, MetaData, String, Table, select
from sqlalchemy.exc import IntegrityError

from paohuzi.server.commit import GroupCommitter, committer_for
from paohuzi.server.db import make_engine, sync_engine

META = MetaData()
ROWS = Table("rows", META, Column("k", Integer, primary_key=True), Column("v", String(8)))
AUTO = Table("auto", META, Column("id", Integer, primary_key=True), Column("v", String(8)))


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
            await c.commit(rows=rows, then=then_fails if k == 7 else None)
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


def test_an_in_memory_database_has_no_writer_thread() -> None:
    _, sessions = make_engine("sqlite:///:memory:")
    assert committer_for(sessions).engine is None


def test_postgresql_commits_on_a_writer_thread() -> None:
    # On the event loop each round trip waited a turn of the busy loop (nothing connects here).
    _, sessions = make_engine("postgresql+psycopg://nobody@127.0.0.1:9/none")
    engine = committer_for(sessions).engine
    assert engine is not None and engine.dialect.name == "postgresql"
    assert engine.dialect.driver == "psycopg" and not engine.dialect.is_async


async def test_the_writer_thread_hands_the_gil_over_every_millisecond(db_url: str) -> None:
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
        assert sys.getswitchinterval() <= 0.001
    finally:
        sys.setswitchinterval(old)
        await engine.dispose()
