"""A table's database side: every write group-committed behind the fencing hook,
the decision row, a round's settlement (ledger rows, the next round or the match's end),
the stored 托管 switch and 解散 vote, and rebuilding a table from its rows (``load``)."""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol, cast

from sqlalchemy import (
    BigInteger,
    Insert,
    Integer,
    Update,
    bindparam,
    case,
    insert,
    literal,
    select,
    update,
)
from sqlalchemy import Connection as SqlConnection
from sqlalchemy import Table as SqlTable
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from ..core.match import Match
from ..core.rules import RuleSet
from ..core.state import State
from . import ratings, standings
from .clock import SeatInfo
from .commit import Row, SyncWrite, Write, committer_for
from .db import (
    Account,
    Decision,
    LedgerEntry,
    MatchRow,
    RoomRow,
    RoomSeat,
    RoundRow,
    bound_rows,
    now,
    row_params,
)
from .limits import PlaySettings
from .vote import Vote

if TYPE_CHECKING:
    from .tables import Table

__all__ = [
    "CommitHooks",
    "load",
    "settle",
    "settle_accounts",
    "store_deal",
    "store_decision",
    "store_tuoguan",
    "store_vote",
    "write",
]

log = logging.getLogger("paohuzi.server")

DECISIONS = cast(SqlTable, Decision.__table__)


class CommitHooks(Protocol):
    """Called around each of a table's writes: metrics, and (several workers) fencing."""

    async def before_commit(self, table: Table, db: AsyncSession) -> None:
        """Inside every write's transaction (``Store.write``); raising refuses it."""

    def committed(self, table: Table, seconds: float) -> None:
        """After the decision is durable, with the transaction's wall time."""


# Functions of the table, not methods of an object it holds: a part that pointed back at its
# table would make a reference cycle, and a finished table must be freed by reference
# counting alone (tests/server/test_gc.py).


async def write(
    table: Table,
    work: Write | None,
    rows: Sequence[Row] = (),
    then: SyncWrite | None = None,
    blind: bool = False,
) -> None:
    """Every write of the table goes through here: ``rows``, ``work`` and ``then`` in
    one transaction (group-committed), behind ``hooks.before_commit`` in that same
    transaction when commits are fenced, so a worker that lost the table's lease
    (fencing) stores nothing: no decision, ledger row or match end, no 托管 switch, no
    解散 vote. Unfenced, a decision with no coroutine part can take the committer's
    writer thread; ``blind``: ``then`` reads nothing back (commit.py: pipelined)."""
    hooks = table.hooks
    # Hooks that say ``fencing = False`` (one process: Metrics) have nothing to check.
    if hooks is None or not getattr(hooks, "fencing", True):
        await committer_for(table.sessions).commit(work, rows, then, blind)
        return

    async def fenced(db: AsyncSession) -> None:
        await hooks.before_commit(table, db)  # raising refuses (rolls back) the lot
        if work is not None:
            await work(db)

    await committer_for(table.sessions).commit(fenced, rows, then, blind)


async def store_decision(
    table: Table, seq: int, rnd: int, seat: int, aid: int, client_id: str | None, new: State
) -> None:
    """Store decision ``seq`` (round ``rnd``) and, if it ends the round (``new`` is the
    state after it), the round's settlement in the same transaction."""
    row = {"match_id": table.match_id, "seq": seq, "round_index": rnd, "seat": seat,
           "action_id": aid, "client_id": client_id, "created_at": now()}  # fmt: skip

    def then(db: SqlConnection) -> None:  # the ledger, the next round or the end
        settle(table, db, new, rnd)

    if new.result is None:
        await write(table, None, [(DECISIONS, row)])
        return
    await write(table, None, [(DECISIONS, row)], then, blind=not _rates(table, rnd))


def _rates(t: Table, rnd: int) -> bool:
    """Whether settling round ``rnd`` rates people (it reads their ratings: not blind)."""
    last = rnd + 1 >= t.match.rounds_total
    return last and t.ledger and ratings.rates(_players(t))


def _players(t: Table) -> list[ratings.Player]:
    return [ratings.Player(s.account_id, s.bot) for s in t.seats]


#: A round's row, inserted as the round before it settles (built once: parameters).
_NEXT_ROUND = insert(RoundRow).inline()
#: A round's row marked dealt (``store_deal``; built once: parameters).
_DEALT = (
    update(RoundRow)
    .where(RoundRow.match_id == bindparam("dealt_match", type_=Integer()),
           RoundRow.index == bindparam("dealt_round", type_=Integer()))
    .values(started=True)
)  # fmt: skip


def settle(t: Table, db: SqlConnection, new: State, rnd: int) -> None:
    """The round's ledger rows (a ``ledger`` match only), a club room's results
    (standings.py), the next round or the match's end with its ratings (ratings.py): in
    the decision's transaction (blocking: the committer's writer thread runs it). Blind
    (nothing read back) unless it rates people (``_rates``)."""
    result = new.result
    assert result is not None
    if t.ledger:
        settle_accounts(t, db, result.deltas, rnd)
    last = rnd + 1 >= t.match.rounds_total
    accts = [s.account_id for s in t.seats]
    standings.record_round(db, t.room_id, t.match_id, rnd, accts, result, last)
    if _rates(t, rnd):  # a person's rating: standard-rule matches played to the end
        gained = [b - a for a, b in zip(t.match.start_balances, result.balances, strict=True)]
        ratings.rate(db, _players(t), gained)
    if not last:  # (an open 解散 vote stays open)
        # (not dealt: dealt once every seat is ready, store_deal)
        next_round = {"match_id": t.match_id, "index": rnd + 1, "dealer": result.next_dealer,
                      "seed": t.match.round_seed(rnd + 1), "balances": list(result.balances),
                      "started": False}  # fmt: skip
        db.execute(_NEXT_ROUND, next_round)
    else:
        db.execute(
            update(MatchRow)
            .where(MatchRow.id == t.match_id)
            .values(status="finished", dissolve=None)  # a vote still open lapses
        )
        db.execute(update(RoomRow).where(RoomRow.id == t.room_id).values(status="finished"))


def settle_accounts(t: Table, db: SqlConnection, deltas: Sequence[int], rnd: int) -> None:
    """Move each seat's account balance by its delta, with a ledger row saying why.

    Two blind statements (nothing read back, so pipelined on PostgreSQL): one UPDATE of
    the accounts, then one INSERT … SELECT whose rows read each balance after it (the
    same transaction's UPDATE is visible to it), in seat order."""
    ids = [info.account_id for info in t.seats]
    if len(set(ids)) != len(ids):  # one account in two seats: one seat after the other
        for s, account in enumerate(ids):
            _settle_seats(t, db, [(s, account, deltas[s])], rnd)
        return
    _settle_seats(t, db, list(zip(range(len(ids)), ids, deltas, strict=True)), rnd)


def _settle_seats(
    t: Table, db: SqlConnection, seats: Sequence[tuple[int, int, int]], rnd: int
) -> None:
    """``settle_accounts`` for (seat, account, delta) rows of distinct accounts."""
    move, ledger = _settle_statements(len(seats))
    params = row_params("seats", [{"seat": s, "account_id": a, "delta": d} for s, a, d in seats])
    params.update(match_id=t.match_id, round_index=rnd, created_at=now())
    db.execute(move, params)
    db.execute(ledger, params)


@functools.cache
def _settle_statements(n: int) -> tuple[Update, Insert]:
    """``_settle_seats``'s two statements for ``n`` seats, built once (bind parameters
    ``db.row_params`` names, and ``match_id``, ``round_index``, ``created_at``)."""
    ints = [("seat", Integer()), ("account_id", Integer()), ("delta", BigInteger())]
    ids = [bindparam(f"seats_account_id_{i}", type_=Integer()) for i in range(n)]
    deltas = [bindparam(f"seats_delta_{i}", type_=BigInteger()) for i in range(n)]
    move = (
        update(Account)
        .where(Account.id.in_(ids))
        .values(balance=Account.balance
                + case(*((Account.id == a, d) for a, d in zip(ids, deltas, strict=True)),
                       else_=0))
    )  # fmt: skip
    rows = bound_rows("seats", ints, n)
    names = ["account_id", "delta", "balance_after", "reason", "match_id", "round_index",
             "created_at"]  # fmt: skip
    after = (
        select(rows.c.account_id, rows.c.delta, Account.balance, literal("round"),
               bindparam("match_id", type_=Integer()), bindparam("round_index", type_=Integer()),
               bindparam("created_at", type_=LedgerEntry.created_at.type))
        .join_from(rows, Account, Account.id == rows.c.account_id)
        .order_by(rows.c.seat)
    )  # fmt: skip
    return move, insert(LedgerEntry).from_select(names, after)


async def store_deal(t: Table, rnd: int) -> None:
    """Store that round ``rnd`` is dealt (准备 done): a restart then shows it, not the
    last round's 结算. Blocking, so it joins the decisions' transaction on the committer's
    writer thread (a coroutine write costs a transaction of its own on the event loop:
    with a hundred tables, one in nearly every commit cycle, doubling its length)."""

    def store(db: SqlConnection) -> None:
        db.execute(_DEALT, {"dealt_match": t.match_id, "dealt_round": rnd})

    await write(t, None, (), store, blind=True)


async def store_tuoguan(t: Table, s: int, on: bool) -> None:
    """Store seat ``s``'s 托管 switch."""

    async def store(db: AsyncSession) -> None:
        await db.execute(
            update(RoomSeat)
            .where(RoomSeat.room_id == t.room_id, RoomSeat.seat == s)
            .values(tuoguan=on)
        )

    await write(t, store)


async def store_vote(t: Table, vote: Vote | None, dissolved: bool = False) -> None:
    """Store the open 解散 vote (None: none), or with ``dissolved`` the match's end by
    it (the room finished too)."""
    values: dict[str, Any] = {"dissolve": None if vote is None else vote.stored()}
    if dissolved:
        assert vote is not None
        values = {"dissolve": vote.stored("dissolved"), "status": "finished"}

    async def store(db: AsyncSession) -> None:
        if dissolved:
            await db.execute(
                update(RoomRow).where(RoomRow.id == t.room_id).values(status="finished")
            )
        await db.execute(update(MatchRow).where(MatchRow.id == t.match_id).values(**values))

    await write(t, store)


async def load(
    make: Callable[..., Table],
    sessions: async_sessionmaker[AsyncSession],
    row: MatchRow,
    seats: list[SeatInfo],
    *,
    time_limit: float | None = None,
    settings: PlaySettings | None = None,
    on_end: Callable[[Table], None] | None = None,
    ready_seconds: float | None = None,
) -> Table:
    """Rebuild a table (``make``: its class) by replaying its decisions in order (clocks
    start afresh); its 解散 vote as stored; a round that waits for 准备 still waits (its
    wait starts afresh), one dealt is dealt."""
    match = Match(
        RuleSet.from_dict(row.rules),
        seed=row.seed,
        rounds=row.rounds_total,
        balances=(row.balances[0], row.balances[1], row.balances[2]),
    )
    match.start_round()
    table = make(sessions, row.id, row.room_id, seats, match, time_limit=time_limit,
                 settings=settings, on_end=on_end, ledger=row.scoring != "local",
                 ready_seconds=ready_seconds)  # fmt: skip
    stored = row.dissolve
    if stored is not None and stored.get("outcome") == "dissolved":
        table.dissolved = True
    elif stored is not None:
        table.vote = Vote.from_stored(stored)
    async with sessions() as db:
        decisions = (
            await db.scalars(
                select(Decision).where(Decision.match_id == row.id).order_by(Decision.seq)
            )
        ).all()
        dealt = set(
            (await db.scalars(
                select(RoundRow.index).where(RoundRow.match_id == row.id, RoundRow.started)
            )).all()
        )  # fmt: skip
    for d in decisions:
        if d.seq != table.decision_seq + 1:
            raise RuntimeError(f"match {row.id}: decision {d.seq} follows {table.decision_seq}")
        table.replay(d.round_index, d.seat, d.action_id, d.client_id)
    if table.readiness is not None and table.readiness.round in dealt:
        table.deal_stored()
    log.info("match %s rebuilt from %d decisions", row.id, len(decisions))
    return table
