"""Live tables: one match each, its seats, its sockets, and the event-sourced commit path.

A decision is verified by the core, applied to a copy of the state, written to the
database (with the round's ledger rows when it ends the round) and only then made the
table's state and told to anyone. A table is rebuilt after a restart by replaying its
decisions from the database.

Each live table has a driver task: it plays the bot seats, the seats under 托管 and the
seats whose time ran out, with the bots thinking in a worker thread (never on the event
loop, never holding the table's lock), and commits their decisions through the same path
as a person's intent. It also expires 解散 votes and notices disconnected seats.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal, Protocol, cast

from pydantic import BaseModel
from sqlalchemy import Connection as SqlConnection
from sqlalchemy import Table as SqlTable
from sqlalchemy import insert, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from ..bots import Bot, make_bot
from ..core.actions import PASS_ID
from ..core.errors import IllegalActionError, PaohuziError
from ..core.match import Match
from ..core.rules import RuleSet
from ..core.state import Phase, State
from ..core.views import SeatView, view
from .commit import Row, SyncWrite, Write, committer_for
from .db import Account, Decision, LedgerEntry, MatchRow, RoomRow, RoomSeat, RoundRow, now
from .errors import ApiError
from .limits import PlaySettings
from .protocol import (
    Ack,
    DissolveVote,
    LegalAction,
    MatchOver,
    Seats,
    SeatStatus,
    Snapshot,
    encode,
    view_to_dict,
)

__all__ = ["CommitHooks", "Connection", "SeatInfo", "Table", "TableHandle"]

log = logging.getLogger("paohuzi.server")

DECISIONS = cast(SqlTable, Decision.__table__)


class TableHandle(Protocol):
    """What a socket talks to: a local :class:`Table`, or (several workers) a proxy that
    forwards to the worker owning the table (``cluster.RemoteTable``)."""

    async def attach(self, conn: Connection, since: int | None) -> None: ...
    def detach(self, conn: Connection) -> None: ...
    async def intent(
        self, conn: Connection, action: int | str, step: int, client_id: str
    ) -> None: ...
    async def set_tuoguan(self, conn: Connection, on: bool) -> None: ...
    async def vote_dissolve(self, conn: Connection, agree: bool) -> None: ...


class CommitHooks(Protocol):
    """Called around each of a table's writes: metrics, and (several workers) fencing."""

    async def before_commit(self, table: Table, db: AsyncSession) -> None:
        """Inside every write's transaction (``Table._write``); raising refuses it."""

    def committed(self, table: Table, seconds: float) -> None:
        """After the decision is durable, with the transaction's wall time."""


class Connection:
    """One socket's outbox: messages leave in the order they were queued."""

    def __init__(self, send: Callable[[str], Any]) -> None:
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self._send = send
        self.account_id: int | None = None
        self.seat: int | None = None  # None: a spectator (once attached)
        self.spectator = False
        self.table: TableHandle | None = None
        # Closes the socket with a code asking the client to reconnect (set by the app).
        self.kick: Callable[[], Any] | None = None
        self.sent = 0  # the seat's events this socket has been given
        self.told = 0  # the audience's step of the last snapshot or prompt queued here
        self.since: int | None = None  # the auth message's ``since``
        self.views = False  # the auth message's ``views``: a view in every prompt
        self.batch = False  # the auth message's ``batch``: queued messages in one frame
        self.drained = asyncio.Event()  # the writer has sent everything and stopped

    def put(self, msg: BaseModel) -> None:
        """Queue a message."""
        self.queue.put_nowait(msg.model_dump_json())

    def put_text(self, text: str) -> None:
        """Queue a message already encoded (one text shared by every socket it goes to)."""
        self.queue.put_nowait(text)

    async def pump(self) -> None:
        """Send queued messages until ``close`` (run as the socket's writer task); with
        ``batch``, those queued together go in one frame, as a JSON array."""
        try:
            closing = False
            while not closing and (text := await self.queue.get()) is not None:
                if not self.batch or self.queue.empty():
                    await self._send(text)
                    continue
                texts = [text]
                while not self.queue.empty():
                    more = self.queue.get_nowait()
                    if more is None:
                        closing = True
                        break
                    texts.append(more)
                await self._send(f"[{','.join(texts)}]" if len(texts) > 1 else text)
        finally:
            self.drained.set()

    def close(self) -> None:
        """Stop the writer after what is queued."""
        self.queue.put_nowait(None)


@dataclass
class SeatInfo:
    """Who sits in a seat: the account, the bot that plays it (None: a person), and
    whether its person asked the server to play for them (托管)."""

    account_id: int
    bot: str | None
    tuoguan: bool = False


@dataclass(frozen=True)
class _Job:
    """A decision the driver takes for ``seat``: a fixed action, or its bot's choice."""

    seat: int
    since: int  # the seat's decision point (its step) it answers
    bot: Bot | None
    seen: SeatView | None
    action: int | None


def _now() -> float:
    return time.time()


@dataclass
class _Backoff:
    """The driver's wait after a failure: doubling from ``first`` to ``cap`` seconds while
    failures follow each other, so a match stuck on a commit that cannot succeed retries
    (and logs) a few times a minute, not twice a second."""

    first: float = 0.5
    cap: float = 30.0
    delay: float = 0.0  # the last wait (0: no failure since the last success)
    failures: int = 0

    def failed(self, match_id: int) -> float:
        """Log the failure (its traceback the first time in a row) and the wait before
        the next try, which this returns."""
        self.delay = min(self.cap, self.delay * 2) if self.delay else self.first
        self.failures += 1
        log.error("match %s: the driver failed (%d in a row); retrying in %.1f s",
                  match_id, self.failures, self.delay, exc_info=self.failures == 1)  # fmt: skip
        return self.delay

    def reset(self) -> None:
        """A step went through: the next failure waits ``first`` again."""
        self.delay, self.failures = 0.0, 0


@dataclass
class _Seen:
    """Per audience (a seat, or the spectators): its events so far (and their ``event``
    messages, encoded once), its steps, its decision point and the step it opened at.

    A *step* is a change this audience can see: its events grew, or what it is shown of
    who acts and what it may do changed. Steps number 0, 1, 2, … per audience and never
    move on another seat's private answer (a 过 in a claim window, RULES.md §14), so
    neither the numbers nor the count of prompts tell who could claim a card. The
    match's decision sequence (``Table.decision_seq``) stays inside the server.
    """

    events: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    texts: list[str | None] = field(default_factory=list)  # None: not encoded yet
    key: Hashable = None  # the seat's question: when it changes, ``since`` moves
    since: int = 0  # the step at which the seat's current question opened
    opened: int = 0  # the decision seq at which it opened (for the server's log only)
    step: int = 0
    looks: Hashable = None  # what the audience saw at ``step``

    def text(self, n: int) -> str:
        """The ``event`` message of the seat's event ``n + 1``, encoded on first use."""
        t = self.texts[n]
        if t is None:
            rnd, ev = self.events[n]
            t = self.texts[n] = encode({"type": "event", "seq": n + 1, "round": rnd, "event": ev})
        return t


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
        *,
        time_limit: float | None = None,
        settings: PlaySettings | None = None,
        on_end: Callable[[Table], None] | None = None,
        ledger: bool = True,
    ) -> None:
        self.sessions = sessions
        # Whether rounds settle onto the accounts' 悟性 (the standard rules); if not, the
        # match's own balances are room-local scores and no account or ledger row moves.
        self.ledger = ledger
        self.match_id = match_id
        self.room_id = room_id
        self.seats = seats
        self.match = match
        self.time_limit = time_limit
        self.settings = settings or PlaySettings()
        self.on_end = on_end
        self.hooks: CommitHooks | None = None  # set by the hub (metrics, fencing)
        self.lock = asyncio.Lock()
        now = _now()
        # When each seat's current decision times out (None: no limit, or nothing open).
        self.deadline: list[float | None] = [None, None, None]
        # Since when each person's seat has had no socket (None: connected).
        self.gone: list[float | None] = [None if i.bot else now for i in seats]
        self.vote: dict[str, Any] | None = None  # the open 解散 vote
        self.dissolved = False
        self.helpers: dict[int, Bot] = {}  # the heuristic bots that play 托管 and timeouts
        self._status: list[SeatStatus] = []
        self._status_key: tuple[tuple[Any, ...], ...] = ()
        # Per seat index, for the state in play: its view, and the prompt's legal actions
        # and view as JSON (computed once per decision, on first use).
        self._views: list[SeatView | None] = [None, None, None, None]
        self._forms: list[list[dict[str, Any]] | None] = [None, None, None, None]
        self._view_forms: list[dict[str, Any] | None] = [None, None, None, None]
        self._wake = asyncio.Event()
        self._driver: asyncio.Task[None] | None = None
        self.decisions: list[tuple[int, int, int]] = []  # (round, seat, id), seq = index + 1
        self.client_ids: dict[tuple[int, str], int] = {}  # (seat, client id) -> its step
        # Index 3 holds the spectators: the public view (RULES.md §14, seat None).
        self.conns: list[set[Connection]] = [set(), set(), set(), set()]
        self.seen = [_Seen(), _Seen(), _Seen(), _Seen()]
        self.bots: dict[int, Bot] = {
            s: make_bot(info.bot, seed=match_id * 3 + s, rules=match.rules)
            for s, info in enumerate(seats)
            if info.bot is not None
        }
        self._log_pos = 0
        self._collect()
        self._count_steps()

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
    def decision_seq(self) -> int:
        """Decisions applied in the match so far: the durable log's ``seq``, never sent
        (it counts every seat's private answers; an audience is told its ``step``)."""
        return len(self.decisions)

    def step(self, seat: int | None) -> int:
        """The steps seat ``seat`` (None: the spectators) has seen so far."""
        return self.seen[_index(seat)].step

    @property
    def ended(self) -> bool:
        """Every round played, or the match dissolved (解散): no more decisions."""
        return self.dissolved or self.match.over

    def seat_of(self, account_id: int) -> int | None:
        """The seat an account holds at this table."""
        return next((s for s, i in enumerate(self.seats) if i.account_id == account_id), None)

    def _collect(self) -> None:
        """Append the new events of the round in play to each seat's censored list."""
        st = self.state
        rnd = self.round
        self._views = [None, None, None, None]
        self._forms = [None, None, None, None]
        self._view_forms = [None, None, None, None]
        for e in st.log[self._log_pos :]:
            forms: list[tuple[Any, dict[str, Any]]] = []  # each distinct censored form once
            for i in range(4):
                c = e.censor(_who(i))
                if c is None:
                    continue
                d = next((d for x, d in forms if x is c), None)
                if d is None:
                    d = c.to_dict()
                    forms.append((c, d))
                seen = self.seen[i]
                seen.events.append((rnd, d))
                seen.texts.append(None)
        self._log_pos = len(st.log)

    def _count_steps(self) -> None:
        """After a decision (and at the start): move each audience's step if it can see a
        change, and each seat's ``since`` and clock if its question changed."""
        st = self.state
        rnd = self.round
        acting = st.to_act()
        claim = st.phase is Phase.CLAIM
        for i in range(4):
            s = _who(i)
            seen = self.seen[i]
            legal = st.legal_actions(s) if s is not None and st.phase is not Phase.OVER else ()
            if s is not None:
                key = (rnd, st.phase, len(st.stock), tuple(map(len, st.discards)),
                       tuple(map(len, st.tables)), tuple(map(len, st.piles)),
                       legal)  # fmt: skip
            else:
                key = None
            shown = tuple(a for a in acting if a == s) if claim else acting
            looks = (len(seen.events), rnd, st.phase, st.turn, shown, key)
            if looks != seen.looks:
                if seen.looks is not None:
                    seen.step += 1
                seen.looks = looks
            if s is not None and key != seen.key:
                seen.key = key
                seen.since = seen.step
                seen.opened = self.decision_seq
                self._restart_clock(s)

    def _restart_clock(self, s: int) -> None:
        """Start seat ``s``'s clock for its open decision (if it has one and the room a limit)."""
        st = self.state
        acting = st.phase is not Phase.OVER and s in st.to_act()
        self.deadline[s] = _now() + self.time_limit if acting and self.time_limit else None

    # -- seats: bots, 托管, connections ---------------------------------------------------

    def auto(self, s: int) -> Literal["bot", "self", "disconnect"] | None:
        """Why the server plays seat ``s`` now (None: its person does)."""
        if self.seats[s].bot is not None:
            return "bot"
        if self.seats[s].tuoguan:
            return "self"
        gone = self.gone[s]
        if gone is not None and _now() - gone >= self.settings.grace:
            return "disconnect"
        return None

    def _status_now(self) -> tuple[tuple[Any, ...], ...]:
        """Every seat's (bot, connected, reason): what ``status`` shows, cheap to compare."""
        out = []
        for s, info in enumerate(self.seats):
            why = self.auto(s)
            out.append((info.bot, info.bot is not None or bool(self.conns[s]),
                        None if why == "bot" else why))  # fmt: skip
        return tuple(out)

    def status(self) -> list[SeatStatus]:
        """Every seat's bot, connection and 托管 status."""
        return [
            SeatStatus(
                seat=s, bot=bot, connected=connected, tuoguan=reason is not None, reason=reason
            )
            for s, (bot, connected, reason) in enumerate(self._status_now())
        ]

    def _tell_status(self) -> bool:
        """Send everyone the seats' status if it changed since it was last sent."""
        key = self._status_now()
        if key == self._status_key:
            return False
        self._status_key = key
        self._status = self.status()
        self._tell_all(Seats(seats=self._status))
        return True

    def _clock(self, s: int | None) -> tuple[float | None, float | None]:
        """The seat's deadline and the seconds left, if a person's decision is open."""
        if s is None or self.ended:
            return None, None
        d = self.deadline[s]
        if d is None or self.auto(s) is not None or s not in self.state.to_act():
            return None, None
        return d, round(max(0.0, d - _now()), 3)

    def _vote_msg(
        self, outcome: Literal["dissolved", "refused", "expired"] | None = None
    ) -> DissolveVote:
        v = self.vote
        assert v is not None
        return DissolveVote(
            proposer=v["proposer"],
            votes=list(v["votes"]),
            deadline=v["deadline"],
            remaining=round(max(0.0, v["deadline"] - _now()), 3),
            outcome=outcome,
        )

    # -- messages --------------------------------------------------------------------

    def _legal(self, s: int | None) -> list[LegalAction]:
        st = self.state
        if st.phase is Phase.OVER or s is None:
            return []
        return [LegalAction(id=a.id, text=a.text()) for a in st.legal_moves(s)]

    def _view(self, s: int | None) -> SeatView:
        """The seat's view of the state in play (computed once per decision)."""
        i = _index(s)
        v = self._views[i]
        if v is None:  # numbered with the audience's step, not the round's decisions
            v = self._views[i] = replace(view(self.state, s), version=self.seen[i].step)
        return v

    def _legal_form(self, i: int) -> list[dict[str, Any]]:
        """A seat index's legal actions as the prompt's JSON (once per decision)."""
        f = self._forms[i]
        if f is None:
            s = _who(i)
            f = self._forms[i] = (
                [{"id": a.id, "text": a.text()} for a in self._view(s).legal]
                if s is not None and self.state.phase is not Phase.OVER
                else []
            )
        return f

    def _view_form(self, i: int) -> dict[str, Any]:
        """A seat index's view as the prompt's JSON (once per decision)."""
        v = self._view_forms[i]
        if v is None:
            v = self._view_forms[i] = view_to_dict(self._view(_who(i)))
        return v

    def snapshot(self, conn: Connection, since: int | None = None) -> None:
        """Queue (events after ``since``, then) the seat's snapshot on ``conn``."""
        s = conn.seat
        seen = self.seen[_index(s)]
        events = seen.events
        if since is not None:
            for i in range(since, len(events)):
                conn.put_text(seen.text(i))
        conn.sent = len(events)
        conn.told = seen.step
        deadline, remaining = self._clock(s)
        conn.put(
            Snapshot(
                match_id=self.match_id,
                seat=s,
                round=self.round,
                step=seen.step,
                since=seen.since,
                seq=len(events),
                view=view_to_dict(self._view(s)),
                legal=self._legal(s),
                deadline=deadline,
                remaining=remaining,
                time_limit=self.time_limit,
                seats=self.status(),
                dissolve=None if self.vote is None or self.ended else self._vote_msg(),
            )
        )
        if self.ended:
            conn.put(self._over_msg())

    def _over_msg(self) -> MatchOver:
        return MatchOver(
            match_id=self.match_id,
            totals=list(self.match.totals()),
            balances=list(self.match.balances),
            dissolved=self.dissolved,
            scoring="ledger" if self.ledger else "local",
        )

    def _tell_all(self, msg: Any) -> None:
        for conns in self.conns:
            for c in conns:
                c.put(msg)

    def _broadcast(self, only: int | None = None) -> None:
        """Each socket's new events and prompt (``only``: just that seat's sockets, with a
        prompt even at the same step: its fresh deadline after 托管 ends).

        A socket whose audience saw no new step gets nothing: another seat's private
        answer is not told by a message either (RULES.md §14). Each message is encoded
        once and shared by every socket of the seat (spectators share the public one).
        """
        st = self.state
        acting = st.to_act()
        over = encode(self._over_msg().model_dump()) if self.ended else None
        for i in range(4) if only is None else (only,):
            if not self.conns[i]:
                continue
            s = _who(i)
            seen = self.seen[i]
            if only is None and all(c.told == seen.step for c in self.conns[i]):
                continue
            count = len(seen.events)
            legal = self._legal_form(i)
            deadline, remaining = self._clock(s)
            prompt: dict[str, Any] = {
                "type": "prompt",
                "round": self.round,
                "step": seen.step,
                "since": seen.since,
                "to_act": list(acting)
                if st.phase is not Phase.CLAIM
                else [a for a in acting if a == s],
                "legal": legal,
                "deadline": deadline,
                "remaining": remaining,
                "view": None,
            }
            texts: dict[bool, str] = {}  # with the view, without
            for conn in self.conns[i]:
                if only is None and conn.told == seen.step:
                    continue
                for n in range(conn.sent, count):
                    conn.put_text(seen.text(n))
                conn.sent = count
                conn.told = seen.step
                # A seat with a decision gets its view with the prompt (a bot acts on it),
                # and so does a socket that asked for ``views`` (a client drawing the table).
                with_view = bool(legal) or conn.views
                text = texts.get(with_view)
                if text is None:
                    prompt["view"] = self._view_form(i) if with_view else None
                    text = texts[with_view] = encode(prompt)
                conn.put_text(text)
                if over is not None:
                    conn.put_text(over)

    # -- sockets -----------------------------------------------------------------------

    async def attach(self, conn: Connection, since: int | None) -> None:
        """Register a seat's socket and send it the snapshot; a returning person's seat
        leaves disconnect-托管 (with a fresh clock for its open decision)."""
        async with self.lock:
            conn.table = self
            s = conn.seat
            if s is not None and self.gone[s] is not None:
                if self.auto(s) == "disconnect":
                    self._restart_clock(s)
                self.gone[s] = None
            self.conns[_index(s)].add(conn)
            self.snapshot(conn, since)
            self._tell_status()
            self._wake.set()

    def detach(self, conn: Connection) -> None:
        """Forget a closed socket; a seat with none left starts its grace period."""
        s = conn.seat
        conns = self.conns[_index(s)]
        if conn not in conns:
            return
        conns.discard(conn)
        if s is not None and not conns and self.seats[s].bot is None:
            self.gone[s] = _now()
            self._tell_status()
            self._wake.set()

    async def set_tuoguan(self, conn: Connection, on: bool) -> None:
        """托管 on or off for the socket's seat, stored before it is told."""
        s = conn.seat
        if s is None:
            raise ApiError("spectator", "a spectator has no seat to hand over")
        async with self.lock:
            if self.ended:
                raise ApiError("match_over", "the match is over")
            if self.seats[s].tuoguan != on:

                async def store(db: AsyncSession) -> None:
                    await db.execute(
                        update(RoomSeat)
                        .where(RoomSeat.room_id == self.room_id, RoomSeat.seat == s)
                        .values(tuoguan=on)
                    )

                await self._write(store)
                self.seats[s].tuoguan = on
            if not self._tell_status():
                conn.put(Seats(seats=self._status))  # the answer, even when nothing changed
            if not on:  # the seat's prompt again, with a fresh deadline
                self._restart_clock(s)
                self._broadcast(only=s)
            self._wake.set()

    # -- 解散 ---------------------------------------------------------------------------

    async def vote_dissolve(self, conn: Connection, agree: bool) -> None:
        """Propose 解散 or vote on the open proposal; all agreeing ends the match."""
        s = conn.seat
        if s is None:
            raise ApiError("spectator", "a spectator has no vote")
        async with self.lock:
            if self.ended:
                raise ApiError("match_over", "the match is over")
            v = self.vote
            if v is None:
                if not agree:
                    raise ApiError("no_vote", "no 解散 vote is open; propose one with agree: true")
                votes: list[bool | None] = [True if i.bot is not None else None for i in self.seats]
                v = {"proposer": s, "votes": votes,
                     "deadline": _now() + self.settings.dissolve_seconds}  # fmt: skip
            elif v["votes"][s] is not None:
                raise ApiError("already_voted", f"seat {s} has voted in this 解散 vote")
            v = {**v, "votes": list(v["votes"])}
            v["votes"][s] = agree
            outcome: Literal["dissolved", "refused"] | None = (
                "refused" if not agree else "dissolved" if all(v["votes"]) else None
            )
            await self._store_vote(None if outcome == "refused" else v, outcome)
            self.vote = v
            self._tell_all(self._vote_msg(outcome))
            if outcome == "dissolved":
                self.dissolved = True
                self._tell_all(self._over_msg())
            if outcome is not None:
                self.vote = None
            self._wake.set()

    async def _store_vote(
        self, v: dict[str, Any] | None, outcome: Literal["dissolved", "refused"] | None
    ) -> None:
        values: dict[str, Any] = {"dissolve": v}
        if outcome == "dissolved":
            values = {"dissolve": {**(v or {}), "outcome": "dissolved"}, "status": "finished"}

        async def store(db: AsyncSession) -> None:
            if outcome == "dissolved":
                await db.execute(
                    update(RoomRow).where(RoomRow.id == self.room_id).values(status="finished")
                )
            await db.execute(update(MatchRow).where(MatchRow.id == self.match_id).values(**values))

        await self._write(store)

    async def _expire_vote(self) -> None:
        v = self.vote
        if v is None or _now() < v["deadline"]:
            return
        await self._store_vote(None, None)
        self._tell_all(self._vote_msg("expired"))
        self.vote = None

    # -- decisions ---------------------------------------------------------------------

    async def intent(self, conn: Connection, action: int | str, step: int, client_id: str) -> None:
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
                conn.put(Ack(client_id=client_id, step=done, duplicate=True))
                return
            if self.ended:
                raise ApiError("match_over", "the match is over; no more decisions")
            if step > self.seen[seat].step or step < self.seen[seat].since:
                raise self._stale(seat, step)
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
            if self._driver_due():
                self._wake.set()

    def _stale(self, seat: int, step: int) -> ApiError:
        """The refusal of an intent made before the seat's open decision (``since``).

        A seat's ``since`` moves only when its own question changes (``_count_steps``),
        never when another seat answers the same claim window, so this is no false alarm:
        the decision the intent answered is gone. Under load it is almost always a claim
        overtaken in flight: another seat's higher claim (or the answer completing the
        window) settled it while this intent was on its way, and the prompt saying so was
        queued on the socket before this refusal. The text quotes the seat's own steps
        only, and names no other seat's answer (that may be private, RULES.md §14).
        """
        seen = self.seen[seat]
        st = self.state
        acting = st.phase is not Phase.OVER and seat in st.to_act()
        opened = seen.opened
        mover = self.decisions[opened - 1] if 0 < opened <= len(self.decisions) else None
        log.debug(
            "match %s: stale intent of seat %s made at step %s; its decision moved at step "
            "%s (decision %s: round, seat, action) to %s; the seat is at step %s, the match "
            "at decision %s, phase %s, to act %s",
            self.match_id, seat, step, seen.since, mover, seen.key, seen.step,
            self.decision_seq, st.phase.value, st.to_act(),
        )  # fmt: skip
        made = f"the intent was made at step {step}"
        if step > seen.step:
            return ApiError("stale", f"{made}, ahead of seat {seat}'s step {seen.step}")
        if mover is not None and mover[1] == seat:
            why = "the seat's own decision (another socket's, or the server's at its deadline)"
        else:
            why = "the table's move (its events came before this refusal)"
        if acting:
            return ApiError(
                "stale",
                f"{made}; {why} at step {seen.since} opened a new decision for seat {seat}: "
                f"answer the latest prompt (step {seen.step})",
            )
        return ApiError(
            "stale",
            f"{made}; {why} at step {seen.since} settled the decision it answered before it "
            f"arrived: seat {seat} has nothing to decide now",
        )

    # -- the driver: bots, 托管, timeouts, votes ------------------------------------------

    def launch(self) -> None:
        """Start the driver task (after a start or a restore); it ends with the match."""
        if self._driver is None:
            self._driver = asyncio.create_task(self._drive(), name=f"table-{self.match_id}")

    async def stop(self) -> None:
        """Stop the driver (shutdown); a commit in progress finishes first."""
        task, self._driver = self._driver, None
        if task is not None:
            async with self.lock:
                task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    def _job(self) -> _Job | None:
        """The next decision the server takes for a seat, if one is due now."""
        st = self.state
        if self.ended or st.phase is Phase.OVER:
            return None
        now = _now()
        for s in st.to_act():
            since = self.seen[s].since
            why = self.auto(s)
            if why == "bot":
                return _Job(s, since, self.bots[s], self._view(s), None)
            d = self.deadline[s]
            if why is None and (d is None or d > now):
                continue
            if why is None and st.phase is Phase.CLAIM and PASS_ID in st.legal_actions(s):
                return _Job(s, since, None, None, PASS_ID)  # a timed-out claim: 过
            helper = self.helpers.get(s)
            if helper is None:
                helper = self.helpers[s] = make_bot(
                    "heuristic", seed=self.match_id * 3 + s, rules=self.match.rules
                )
            return _Job(s, since, helper, self._view(s), None)
        return None

    def _driver_due(self) -> bool:
        """Whether the driver may have work after a person's decision: the match ended, a
        seat the server plays is to act, or clocks restarted (its timers for grace
        periods and votes are unchanged by a decision)."""
        if self.ended or self.time_limit is not None:
            return True
        st = self.state
        return st.phase is Phase.OVER or any(self.auto(s) is not None for s in st.to_act())

    def _next_time(self) -> float | None:
        """When something may become due: a deadline, a grace period's end, a vote's end."""
        times = [d for s, d in enumerate(self.deadline) if d is not None and self.auto(s) is None]
        times += [g + self.settings.grace for g in self.gone if g is not None]
        if self.vote is not None:
            times.append(self.vote["deadline"])
        now = _now()
        future = [t for t in times if t > now]
        return min(future) if future else None

    async def _drive(self) -> None:
        retry = _Backoff()
        while True:
            self._wake.clear()
            try:
                async with self.lock:
                    if self.ended:
                        break
                    await self._expire_vote()
                    self._tell_status()
                    job = self._job()
                    wake_at = self._next_time() if job is None else None
                if job is None:
                    timeout = None if wake_at is None else max(0.0, wake_at - _now()) + 0.001
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._wake.wait(), timeout)
                    continue
                aid = job.action
                if aid is None:
                    assert job.bot is not None and job.seen is not None
                    aid = (await asyncio.to_thread(job.bot.act, job.seen)).id
                async with self.lock:
                    if self._job_holds(job):
                        st = self.state
                        if not st.can_apply(job.seat, aid):  # pragma: no cover - a bot's bug
                            log.error("match %s: bot chose illegal %s", self.match_id, aid)
                            aid = st.legal_actions(job.seat)[0]
                        await self._commit(job.seat, aid, None)
                retry.reset()
            except asyncio.CancelledError:
                raise
            except Exception:  # a failed commit: the table keeps its last durable state
                await asyncio.sleep(retry.failed(self.match_id))
        self.vote = None
        if self.on_end is not None:
            self.on_end(self)

    def _job_holds(self, job: _Job) -> bool:
        """Whether ``job`` still answers the seat's open decision (nobody answered first)."""
        if self.ended or self.seen[job.seat].since != job.since:
            return False
        again = self._job()
        return again is not None and again.seat == job.seat and again.since == job.since

    async def _write(
        self, write: Write | None, rows: Sequence[Row] = (), then: SyncWrite | None = None
    ) -> None:
        """Every write of this table goes through here: ``rows``, ``write`` and ``then`` in
        one transaction (group-committed), behind ``hooks.before_commit`` in that same
        transaction when commits are fenced, so a worker that lost the table's lease
        (fencing) stores nothing: no decision, ledger row or match end, no 托管 switch, no
        解散 vote. Unfenced, a decision with no coroutine part can take the committer's
        writer thread (SQLite)."""
        hooks = self.hooks
        # Hooks that say ``fencing = False`` (one process: Metrics) have nothing to check.
        if hooks is None or not getattr(hooks, "fencing", True):
            await committer_for(self.sessions).commit(write, rows, then)
            return

        async def fenced(db: AsyncSession) -> None:
            await hooks.before_commit(self, db)  # raising refuses (rolls back) the lot
            if write is not None:
                await write(db)

        await committer_for(self.sessions).commit(fenced, rows, then)

    async def _commit(
        self, seat: int, aid: int, client_id: str | None, reply: Connection | None = None
    ) -> int:
        st = self.match.current
        assert st is not None
        rnd = len(self.match.finished)
        new = st.clone()
        new.apply_fast(seat, aid)
        seq = self.decision_seq + 1
        t0 = time.perf_counter()

        row = {"match_id": self.match_id, "seq": seq, "round_index": rnd, "seat": seat,
               "action_id": aid, "client_id": client_id, "created_at": now()}  # fmt: skip

        def settle(db: SqlConnection) -> None:  # the ledger, the next round or the end
            self._settle(db, new, rnd)

        # Committed (with other tables' decisions, one transaction) before anything else.
        await self._write(None, [(DECISIONS, row)], settle if new.result is not None else None)
        # Durable: now it is the table's state.
        if self.hooks is not None:
            self.hooks.committed(self, time.perf_counter() - t0)
        self.match.current = new
        self.decisions.append((rnd, seat, aid))
        self._advance()
        if client_id is not None:  # acked with the seat's step, before its events
            step = self.client_ids[(seat, client_id)] = self.seen[seat].step
            if reply is not None:
                reply.put_text(encode({"type": "ack", "client_id": client_id,
                                       "step": step, "duplicate": False}))  # fmt: skip
        self._broadcast()
        return seq

    def _settle(self, db: SqlConnection, new: State, rnd: int) -> None:
        """The round's ledger rows (a ``ledger`` match only), the next round or the match's
        end: in the decision's transaction (blocking: the committer's writer thread runs it)."""
        result = new.result
        assert result is not None
        if self.ledger:
            self._settle_accounts(db, result.deltas, rnd)
        if rnd + 1 < self.match.rounds_total:  # (an open 解散 vote stays open)
            db.execute(
                insert(RoundRow).values(
                    match_id=self.match_id,
                    index=rnd + 1,
                    seed=self.match.round_seed(rnd + 1),
                    dealer=result.next_dealer,
                    balances=list(result.balances),
                )
            )
        else:
            db.execute(
                update(MatchRow)
                .where(MatchRow.id == self.match_id)
                .values(status="finished", dissolve=None)  # a vote still open lapses
            )
            db.execute(update(RoomRow).where(RoomRow.id == self.room_id).values(status="finished"))

    def _settle_accounts(self, db: SqlConnection, deltas: Sequence[int], rnd: int) -> None:
        """Move each seat's account balance by its delta, with a ledger row saying why."""
        ledger = []
        for s, info in enumerate(self.seats):
            delta = deltas[s]
            balance = db.execute(
                update(Account)
                .where(Account.id == info.account_id)
                .values(balance=Account.balance + delta)
                .returning(Account.balance)
            ).scalar_one()
            ledger.append({"account_id": info.account_id, "delta": delta,
                           "balance_after": balance, "reason": "round",
                           "match_id": self.match_id, "round_index": rnd})  # fmt: skip
        db.execute(insert(LedgerEntry), ledger)

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
        self._count_steps()

    # -- building ----------------------------------------------------------------------

    @staticmethod
    async def load(
        sessions: async_sessionmaker[AsyncSession],
        row: MatchRow,
        seats: list[SeatInfo],
        *,
        time_limit: float | None = None,
        settings: PlaySettings | None = None,
        on_end: Callable[[Table], None] | None = None,
    ) -> Table:
        """Rebuild a table by replaying its decisions in order (clocks start afresh)."""
        match = Match(
            RuleSet.from_dict(row.rules),
            seed=row.seed,
            rounds=row.rounds_total,
            balances=(row.balances[0], row.balances[1], row.balances[2]),
        )
        match.start_round()
        table = Table(
            sessions,
            row.id,
            row.room_id,
            seats,
            match,
            time_limit=time_limit,
            settings=settings,
            on_end=on_end,
            ledger=row.scoring != "local",
        )
        vote = row.dissolve
        if vote is not None and vote.get("outcome") == "dissolved":
            table.dissolved = True
        elif vote is not None:
            table.vote = dict(vote)
        async with sessions() as db:
            decisions = (
                await db.scalars(
                    select(Decision).where(Decision.match_id == row.id).order_by(Decision.seq)
                )
            ).all()
        for d in decisions:
            if d.seq != table.decision_seq + 1:
                raise RuntimeError(f"match {row.id}: decision {d.seq} follows {table.decision_seq}")
            st = match.current
            assert st is not None
            st.apply(d.seat, d.action_id)
            table.decisions.append((d.round_index, d.seat, d.action_id))
            table._advance()
            if d.client_id is not None:
                table.client_ids[(d.seat, d.client_id)] = table.seen[d.seat].step
        log.info("match %s rebuilt from %d decisions", row.id, len(decisions))
        return table


async def close_all(conns: list[Connection]) -> None:
    """Stop every writer (shutdown)."""
    for c in conns:
        with contextlib.suppress(Exception):
            c.close()
