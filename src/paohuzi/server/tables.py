"""Live tables: one match each, its seats, its sockets, and the event-sourced commit path.

A decision is verified by the core, applied to a copy of the state, written to the
database (with the round's ledger rows when it ends the round) and only then made the
table's state and told to anyone. A table is rebuilt after a restart by replaying its
decisions from the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, cast

from pydantic import BaseModel
from sqlalchemy import Table as SqlTable
from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from ..bots import Bot, make_bot
from ..core.errors import IllegalActionError, PaohuziError
from ..core.match import Match
from ..core.rules import RuleSet
from ..core.state import Phase, State
from ..core.views import view
from .commit import committer_for
from .db import Account, Decision, LedgerEntry, MatchRow, RoomRow, RoundRow, now
from .errors import ApiError
from .protocol import Ack, EventMsg, LegalAction, MatchOver, Prompt, Snapshot, view_to_dict

__all__ = ["Connection", "SeatInfo", "Table"]

log = logging.getLogger("paohuzi.server")

DECISIONS = cast(SqlTable, Decision.__table__)


class Connection:
    """One socket's outbox: messages leave in the order they were queued."""

    def __init__(self, send: Callable[[str], Any]) -> None:
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self._send = send
        self.account_id: int | None = None
        self.seat: int | None = None  # None: a spectator (once attached)
        self.spectator = False
        self.table: Table | None = None
        self.sent = 0  # the seat's events this socket has been given
        self.since: int | None = None  # the auth message's ``since``

    def put(self, msg: BaseModel) -> None:
        """Queue a message."""
        self.queue.put_nowait(msg.model_dump_json())

    async def pump(self) -> None:
        """Send queued messages until ``close`` (run as the socket's writer task)."""
        while (text := await self.queue.get()) is not None:
            await self._send(text)

    def close(self) -> None:
        """Stop the writer after what is queued."""
        self.queue.put_nowait(None)


@dataclass
class SeatInfo:
    """Who sits in a seat: the account, and the bot that plays it (None: a person)."""

    account_id: int
    bot: str | None


@dataclass
class _Seen:
    """Per seat: its events so far, its decision point and when that opened."""

    events: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    key: Hashable = None
    since: int = 0


def _who(index: int) -> int | None:
    """The seat of a ``Table.seen``/``conns`` index (3: the spectators, seat None)."""
    return None if index == 3 else index


def _index(seat: int | None) -> int:
    return 3 if seat is None else seat


class Table:
    """A match in play. Every change holds ``lock``; nothing is told before it is durable."""

    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        match_id: int,
        room_id: int,
        seats: list[SeatInfo],
        match: Match,
    ) -> None:
        self.sessions = sessions
        self.match_id = match_id
        self.room_id = room_id
        self.seats = seats
        self.match = match
        self.lock = asyncio.Lock()
        self.decisions: list[tuple[int, int, int]] = []  # (round, seat, id), seq = index + 1
        self.client_ids: dict[tuple[int, str], int] = {}  # (seat, client id) -> seq
        # Index 3 holds the spectators: the public view (RULES.md §14, seat None).
        self.conns: list[set[Connection]] = [set(), set(), set(), set()]
        self.seen = [_Seen(), _Seen(), _Seen(), _Seen()]
        self.bots: dict[int, Bot] = {
            s: make_bot(info.bot, seed=match_id * 3 + s)
            for s, info in enumerate(seats)
            if info.bot is not None
        }
        self._log_pos = 0
        self._collect()

    # -- state -----------------------------------------------------------------------

    @property
    def state(self) -> State:
        """The round in play, or the last one once the match is over."""
        return self.match.current if self.match.current is not None else self.match.finished[-1]

    @property
    def round(self) -> int:
        """The index of ``state``'s round."""
        return len(self.match.finished) - (1 if self.match.current is None else 0)

    @property
    def version(self) -> int:
        """Decisions applied in the match so far."""
        return len(self.decisions)

    def seat_of(self, account_id: int) -> int | None:
        """The seat an account holds at this table."""
        return next((s for s, i in enumerate(self.seats) if i.account_id == account_id), None)

    def _collect(self) -> None:
        """Append the new events of the round in play to each seat's censored list."""
        st = self.state
        rnd = self.round
        for e in st.log[self._log_pos :]:
            for i in range(4):
                c = e.censor(_who(i))
                if c is not None:
                    self.seen[i].events.append((rnd, c.to_dict()))
        self._log_pos = len(st.log)
        for s in range(3):
            v = view(st, s)
            key = (rnd, st.phase, len(st.stock), tuple(map(len, st.discards)),
                   tuple(map(len, st.tables)), tuple(map(len, st.piles)),
                   tuple(a.id for a in v.legal))  # fmt: skip
            if key != self.seen[s].key:
                self.seen[s].key = key
                self.seen[s].since = self.version

    # -- messages --------------------------------------------------------------------

    def _legal(self, s: int | None) -> list[LegalAction]:
        st = self.state
        if st.phase is Phase.OVER or s is None:
            return []
        return [LegalAction(id=a.id, text=a.text()) for a in st.legal_moves(s)]

    def snapshot(self, conn: Connection, since: int | None = None) -> None:
        """Queue (events after ``since``, then) the seat's snapshot on ``conn``."""
        s = conn.seat
        events = self.seen[_index(s)].events
        if since is not None:
            for i in range(since, len(events)):
                rnd, ev = events[i]
                conn.put(EventMsg(seq=i + 1, round=rnd, event=ev))
        conn.sent = len(events)
        st = self.state
        from .protocol import view_to_dict

        conn.put(
            Snapshot(
                match_id=self.match_id,
                seat=s,
                round=self.round,
                version=self.version,
                since=self.seen[_index(s)].since,
                seq=len(events),
                view=view_to_dict(view(st, s)),
                legal=self._legal(s),
            )
        )
        if self.match.over:
            conn.put(self._over_msg())

    def _over_msg(self) -> MatchOver:
        return MatchOver(
            match_id=self.match_id,
            totals=list(self.match.totals()),
            balances=list(self.match.balances),
        )

    def _broadcast(self) -> None:
        st = self.state
        acting = st.to_act()
        for i in range(4):
            s = _who(i)
            events = self.seen[i].events
            legal = self._legal(s)
            if not self.conns[i]:
                continue
            # A seat with a decision gets its view with the prompt (a bot acts on it).
            seat_view = view_to_dict(view(st, s)) if legal else None
            for conn in self.conns[i]:
                for n in range(conn.sent, len(events)):
                    rnd, ev = events[n]
                    conn.put(EventMsg(seq=n + 1, round=rnd, event=ev))
                conn.sent = len(events)
                to_act = (
                    list(acting) if st.phase is not Phase.CLAIM else [a for a in acting if a == s]
                )
                conn.put(
                    Prompt(
                        round=self.round,
                        version=self.version,
                        since=self.seen[i].since,
                        to_act=to_act,
                        legal=legal,
                        view=seat_view,
                    )
                )
                if self.match.over:
                    conn.put(self._over_msg())

    # -- sockets -----------------------------------------------------------------------

    async def attach(self, conn: Connection, since: int | None) -> None:
        """Register a seat's socket and send it the snapshot."""
        async with self.lock:
            conn.table = self
            self.conns[_index(conn.seat)].add(conn)
            self.snapshot(conn, since)

    def detach(self, conn: Connection) -> None:
        """Forget a closed socket."""
        self.conns[_index(conn.seat)].discard(conn)

    # -- decisions ---------------------------------------------------------------------

    async def intent(
        self, conn: Connection, action: int | str, version: int, client_id: str
    ) -> None:
        """Check an intent, commit it, ack it on ``conn``, tell everyone, let the bots answer.

        The ack is queued before the events and prompts the decision causes, so a client
        knows its intent is durable before it is asked for the next decision.
        """
        seat = conn.seat
        if seat is None:
            raise ApiError("spectator", "a spectator cannot act")
        async with self.lock:
            done = self.client_ids.get((seat, client_id))
            if done is not None:
                conn.put(Ack(client_id=client_id, decision=done, duplicate=True))
                return
            if self.match.over:
                raise ApiError("match_over", "the match is over; no more decisions")
            if version > self.version or version < self.seen[seat].since:
                raise ApiError(
                    "stale",
                    f"the intent was made at version {version}; the seat's decision opened at "
                    f"{self.seen[seat].since} and the table is at {self.version}",
                )
            st = self.state
            if seat not in st.to_act():
                raise ApiError("not_your_turn", f"seat {seat} has nothing to decide now")
            try:
                aid = st.verify(seat, action)
            except IllegalActionError as e:
                raise ApiError("illegal", str(e)) from None
            except PaohuziError as e:
                raise ApiError("bad_action", str(e)) from None
            await self._commit(seat, aid, client_id, conn)
            await self._run_bots()

    async def start(self) -> None:
        """Let the bots play up to the first human decision (after a start or a restore)."""
        async with self.lock:
            await self._run_bots()

    async def _run_bots(self) -> None:
        while not self.match.over:
            st = self.state
            s = next((s for s in st.to_act() if s in self.bots), None)
            if s is None:
                return
            act = self.bots[s].act(view(st, s))
            await self._commit(s, st.verify(s, act.id), None)

    async def _commit(
        self, seat: int, aid: int, client_id: str | None, reply: Connection | None = None
    ) -> int:
        st = self.match.current
        assert st is not None
        rnd = len(self.match.finished)
        new = st.clone()
        new.apply_fast(seat, aid)
        seq = self.version + 1

        row = {"match_id": self.match_id, "seq": seq, "round_index": rnd, "seat": seat,
               "action_id": aid, "client_id": client_id, "created_at": now()}  # fmt: skip

        async def settle(db: AsyncSession) -> None:
            await self._settle(db, new, rnd)

        # Committed (with other tables' decisions, one transaction) before anything else.
        await committer_for(self.sessions).commit(
            settle if new.result is not None else None, [(DECISIONS, row)]
        )
        # Durable: now it is the table's state.
        self.match.current = new
        self.decisions.append((rnd, seat, aid))
        if client_id is not None:
            self.client_ids[(seat, client_id)] = seq
            if reply is not None:
                reply.put(Ack(client_id=client_id, decision=seq))
        self._advance()
        self._broadcast()
        return seq

    async def _settle(self, db: AsyncSession, new: State, rnd: int) -> None:
        """The round's ledger rows, the next round or the match's end: one transaction."""
        result = new.result
        assert result is not None
        for s, info in enumerate(self.seats):
            delta = result.deltas[s]
            acct = await db.get(Account, info.account_id, with_for_update=True)
            assert acct is not None
            acct.balance += delta
            db.add(
                LedgerEntry(
                    account_id=acct.id,
                    delta=delta,
                    balance_after=acct.balance,
                    reason="round",
                    match_id=self.match_id,
                    round_index=rnd,
                )
            )
        if rnd + 1 < self.match.rounds_total:
            db.add(
                RoundRow(
                    match_id=self.match_id,
                    index=rnd + 1,
                    seed=self.match.round_seed(rnd + 1),
                    dealer=result.next_dealer,
                    balances=list(result.balances),
                )
            )
        else:
            await db.execute(
                update(MatchRow).where(MatchRow.id == self.match_id).values(status="finished")
            )
            await db.execute(
                update(RoomRow).where(RoomRow.id == self.room_id).values(status="finished")
            )

    def _advance(self) -> None:
        """After a decision: collect events; at a round's end settle it and deal the next."""
        self._collect()
        st = self.match.current
        if st is not None and st.result is not None:
            self.match.end_round()
            if not self.match.over:
                self.match.start_round()
                self._log_pos = 0
                self._collect()

    # -- building ----------------------------------------------------------------------

    @staticmethod
    async def load(
        sessions: async_sessionmaker[AsyncSession], row: MatchRow, seats: list[SeatInfo]
    ) -> Table:
        """Rebuild a table by replaying its decisions in order."""
        match = Match(
            RuleSet.from_dict(row.rules),
            seed=row.seed,
            rounds=row.rounds_total,
            balances=(row.balances[0], row.balances[1], row.balances[2]),
        )
        match.start_round()
        table = Table(sessions, row.id, row.room_id, seats, match)
        async with sessions() as db:
            decisions = (
                await db.scalars(
                    select(Decision).where(Decision.match_id == row.id).order_by(Decision.seq)
                )
            ).all()
        for d in decisions:
            if d.seq != table.version + 1:
                raise RuntimeError(f"match {row.id}: decision {d.seq} follows {table.version}")
            st = match.current
            assert st is not None
            st.apply(d.seat, d.action_id)
            table.decisions.append((d.round_index, d.seat, d.action_id))
            if d.client_id is not None:
                table.client_ids[(d.seat, d.client_id)] = d.seq
            table._advance()
        log.info("match %s rebuilt from %d decisions", row.id, len(decisions))
        return table


async def close_all(conns: list[Connection]) -> None:
    """Stop every writer (shutdown)."""
    for c in conns:
        with contextlib.suppress(Exception):
            c.close()
