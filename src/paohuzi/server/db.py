"""The database: tables, the async engine and Alembic upgrades.

Every table change goes through an Alembic migration (``migrations/``); the server
upgrades the database to the newest revision before it accepts a connection.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
    bindparam,
    event,
    select,
    text,
    true,
    union_all,
)
from sqlalchemy.engine import URL, Engine, make_url
from sqlalchemy.exc import ArgumentError
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.sql import Select, Subquery
from sqlalchemy.types import TypeEngine

__all__ = [
    "LIVE_ROOM",
    "Account",
    "AnalysisRow",
    "Base",
    "DatabaseUrlError",
    "Decision",
    "LedgerEntry",
    "MatchRow",
    "RoomRow",
    "RoomSeat",
    "RoundRow",
    "SessionToken",
    "backend_of",
    "bound_rows",
    "default_db_url",
    "make_engine",
    "private_sqlite_file",
    "room_by_code",
    "row_params",
    "safe_url",
    "upgrade",
    "writer_engine",
]

MIGRATIONS = Path(__file__).parent / "migrations"


def now() -> datetime:
    """The current time, timezone-aware (UTC)."""
    return datetime.now(UTC)


class Base(DeclarativeBase):
    """The declarative base; ``Base.metadata`` is what the migrations must equal."""


class Account(Base):
    """A player: registered (username + argon2id hash), a guest, or a bot seat."""

    __tablename__ = "accounts"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    username: Mapped[str | None] = mapped_column(String(32), unique=True)
    nickname: Mapped[str] = mapped_column(String(32))
    password_hash: Mapped[str | None] = mapped_column(String(200))
    kind: Mapped[str] = mapped_column(String(8))  # "user", "guest" or "bot"
    balance: Mapped[int] = mapped_column(BigInteger)  # 悟性, always the ledger's sum
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class SessionToken(Base):
    """A login: only the SHA-256 of the opaque token is stored."""

    __tablename__ = "sessions"
    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class LedgerEntry(Base):
    """One change of an account's 悟性 balance, with why."""

    __tablename__ = "ledger"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    delta: Mapped[int] = mapped_column(BigInteger)
    balance_after: Mapped[int] = mapped_column(BigInteger)
    reason: Mapped[str] = mapped_column(String(16))  # "grant" or "round"
    match_id: Mapped[int | None] = mapped_column(ForeignKey("matches.id"))
    round_index: Mapped[int | None] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


#: The statuses in which a room holds its code (finished and expired rooms let it go).
LIVE_ROOM = ("open", "playing")
_LIVE_WHERE = text("status IN ('open', 'playing')")


class RoomRow(Base):
    """A room: its code, host, options and where it stands (open, playing, finished,
    expired). A code is unique among the live rooms only, so a million codes are enough
    however many rooms have been; a private room's ``invite_key`` is what its invite link
    carries, needed (with the code) to join or watch it."""

    __tablename__ = "rooms"
    __table_args__ = (
        Index(
            "ix_rooms_live_code",
            "code",
            unique=True,
            sqlite_where=_LIVE_WHERE,
            postgresql_where=_LIVE_WHERE,
        ),
        Index("ix_rooms_host_status", "host_id", "status"),
    )
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    code: Mapped[str] = mapped_column(String(6), index=True)
    host_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"))
    public: Mapped[bool] = mapped_column(Boolean)
    rounds: Mapped[int] = mapped_column(Integer)
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(8))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    time_limit: Mapped[float | None] = mapped_column(Float)  # seconds per decision; None: none
    invite_key: Mapped[str | None] = mapped_column(String(32))  # private rooms only
    # Seconds the players have to press 准备 after a round's 结算 (None: the default).
    ready_seconds: Mapped[float | None] = mapped_column(Float)
    # 再来一局: the room its seats moved on to (the same seats, a new match).
    next_room_id: Mapped[int | None] = mapped_column(Integer)


def bound_rows(name: str, columns: Sequence[tuple[str, TypeEngine[Any]]], n: int) -> Subquery:
    """A derived table ``name`` of ``n`` rows whose values are bind parameters
    (``row_params`` names them), to INSERT … SELECT from in one statement that reads
    nothing back (a round's ledger and club results: pipelined on PostgreSQL,
    commit.py). A UNION ALL of one-row SELECTs: SQLite has no ``VALUES … AS name
    (columns)``. Built once per shape and kept: a statement built afresh each round cost
    SQLAlchemy more than the database's work (cache keys, labels, annotations)."""
    return union_all(
        *(select(*(bindparam(f"{name}_{k}_{i}", type_=t).label(k) for k, t in columns))
          for i in range(n))
    ).subquery(name)  # fmt: skip


def row_params(name: str, rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The parameters of ``bound_rows(name, …, len(rows))`` for these rows."""
    return {f"{name}_{k}_{i}": v for i, row in enumerate(rows) for k, v in row.items()}


def room_by_code(code: str) -> Select[RoomRow]:
    """The room a code names: the live one if any, else the newest that had it (the
    newest is the live one: a code is taken again only once its room is over)."""
    return select(RoomRow).where(RoomRow.code == code).order_by(RoomRow.id.desc()).limit(1)


class RoomSeat(Base):
    """Who sits in a seat of a room: an account, and the bot that plays it if any."""

    __tablename__ = "room_seats"
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"))
    bot: Mapped[str | None] = mapped_column(String(16))
    tuoguan: Mapped[bool] = mapped_column(Boolean, default=False)  # 托管 chosen by the player


class MatchRow(Base):
    """A match of a room: everything that, with its decisions, replays it."""

    __tablename__ = "matches"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"), index=True)
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    rounds_total: Mapped[int] = mapped_column(Integer)
    balances: Mapped[list[int]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(8))  # "playing" or "finished"
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    # The open 解散 vote {"proposer", "votes", "deadline"}, or its "outcome": "dissolved".
    dissolve: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    # Raised by each worker that takes the match over (several workers: server/cluster.py);
    # a decision commits only while the row still holds its committer's epoch (fencing).
    lease_epoch: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # "ledger": the standard rules, settled onto the accounts' 悟性; "local": a room's own
    # rules, room-local scores only (server/rulesets.py).
    scoring: Mapped[str] = mapped_column(String(8), default="ledger", server_default="ledger")


class RoundRow(Base):
    """A dealt round: its seed, dealer and starting balances (the deal follows from them)."""

    __tablename__ = "rounds"
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    index: Mapped[int] = mapped_column(Integer, primary_key=True)
    seed: Mapped[int] = mapped_column(BigInteger)
    dealer: Mapped[int] = mapped_column(Integer)
    balances: Mapped[list[int]] = mapped_column(JSON)
    # Dealt: every seat pressed 准备 (or its time ran out); until then the last round's
    # 结算 stays open. Rows from before 准备 existed count as dealt.
    started: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())


class Decision(Base):
    """One applied decision; ``seq`` numbers a match's decisions from 1 with no gap."""

    __tablename__ = "decisions"
    __table_args__ = (
        UniqueConstraint("match_id", "seq", name="uq_decision_seq"),
        UniqueConstraint("match_id", "seat", "client_id", name="uq_decision_client"),
    )
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id"))
    seq: Mapped[int] = mapped_column(Integer)
    round_index: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    action_id: Mapped[int] = mapped_column(Integer)
    client_id: Mapped[str | None] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class AnalysisRow(Base):
    """复盘 of one seat of a finished match (server/services/analysis.py): asked for,
    run in a worker process, then kept with the match."""

    __tablename__ = "analyses"
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    status: Mapped[str] = mapped_column(String(8))  # "running", "done" or "failed"
    requested_by: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


def default_db_url() -> str:
    """``$PAOHUZI_DB``, else an SQLite file under ``~/.paohuzi/``."""
    env = os.environ.get("PAOHUZI_DB")
    if env:
        return env
    home = Path.home() / ".paohuzi"
    home.mkdir(mode=0o700, parents=True, exist_ok=True)
    home.chmod(0o700)  # it holds password hashes: the owner's alone, an old one too
    return f"sqlite+aiosqlite:///{home / 'server.db'}"


class DatabaseUrlError(ValueError):
    """A ``--db`` URL that names no database this server can use."""


_URL_HELP = "sqlite:///PATH or postgresql+psycopg://USER[:PASSWORD]@HOST[:PORT]/DATABASE"


def _parsed(url: str) -> URL:
    """``url`` parsed, with the drivers this package installs filled in."""
    try:
        u = make_url(url)
    except ArgumentError:
        raise DatabaseUrlError(f"not a database URL: {url!r} ({_URL_HELP})") from None
    backend, _, driver = u.drivername.partition("+")
    if backend == "postgres":  # the spelling some hosts hand out
        backend = "postgresql"
    if backend == "sqlite" and driver in ("", "aiosqlite", "pysqlite"):
        return u.set(drivername="sqlite")
    if backend == "postgresql" and driver in ("", "psycopg"):
        return u.set(drivername="postgresql+psycopg")
    raise DatabaseUrlError(f"unsupported database URL {url!r}: use {_URL_HELP}")


def backend_of(url: str) -> str:
    """``"sqlite"`` or ``"postgresql"``; raises :class:`DatabaseUrlError` for anything else."""
    return _parsed(url).get_backend_name()


def async_url(url: str) -> str:
    """The URL with an async driver (``sqlite://`` becomes ``sqlite+aiosqlite://``)."""
    u = _parsed(url)
    if u.drivername == "sqlite":
        u = u.set(drivername="sqlite+aiosqlite")
    return u.render_as_string(hide_password=False)


def sync_url(url: str) -> str:
    """The URL with a blocking driver, for Alembic (psycopg 3 serves both)."""
    return _parsed(url).render_as_string(hide_password=False)


def safe_url(url: str) -> str:
    """The URL as it may be logged: the password masked."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return "<not a URL>"


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    """WAL with full sync: a commit is on disk before anyone is told of it."""
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=FULL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=5000")
    cur.close()


def writer_engine(engine: AsyncEngine) -> Engine | None:
    """A blocking engine for the group committer's writer thread, or None.

    On an SQLite file: one hand-off per transaction instead of aiosqlite's one per
    statement. On PostgreSQL: each round trip of a transaction on the event loop waited
    for a whole turn of the busy loop (~10 ms under load, ten round trips a transaction
    with a settlement), where the thread waits for the GIL only, and not at all while the
    loop is idle. An in-memory SQLite database is not seen by another connection: None.
    """
    from sqlalchemy import create_engine

    url = engine.url
    if url.get_backend_name() == "postgresql":
        return create_engine(url, pool_size=1, max_overflow=1)
    if url.get_backend_name() != "sqlite":
        return None
    if not url.database or url.database == ":memory:" or "memory" in str(url.query):
        return None
    out = create_engine(url.set(drivername="sqlite"), pool_size=1, max_overflow=1)
    event.listen(out, "connect", _sqlite_pragmas)
    return out


def make_engine(url: str) -> tuple[AsyncEngine, async_sessionmaker[Any]]:
    """The async engine and a session factory for ``url``."""
    engine = create_async_engine(async_url(url))
    if engine.dialect.name == "sqlite":
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
    return engine, async_sessionmaker(engine, expire_on_commit=False)


def alembic_config(url: str) -> Any:
    """An Alembic config for ``url`` that finds the package's migrations."""
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", sync_url(url).replace("%", "%%"))
    return cfg


def upgrade(url: str) -> None:
    """Apply every migration not yet applied (blocking: run it in a thread from async code)."""
    from alembic import command

    if backend_of(url) == "sqlite":
        path = make_url(url).database
        if path and path != ":memory:":
            private_sqlite_file(Path(path))
    command.upgrade(alembic_config(url), "head")


def private_sqlite_file(path: Path) -> None:
    """Make the SQLite file (and its -wal/-shm) readable by the owner alone (0600; it
    holds password hashes), creating it, and any folder missing above it (0700), first."""
    missing = [p for p in [path.parent, *path.parent.parents] if not p.exists()]
    for folder in reversed(missing):
        folder.mkdir(mode=0o700, exist_ok=True)
    os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
    for p in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        if p.exists():
            p.chmod(0o600)


def sync_engine(url: str) -> Engine:
    """A blocking engine (for Alembic and tests)."""
    from sqlalchemy import create_engine

    return create_engine(sync_url(url))


# The clubs' and ratings' tables (clubdb.py), so that Base.metadata holds them too.
from . import clubdb as clubdb  # noqa: E402
