"""A live match (``Table``): its state, its decisions' path from intent to durable to told,
composed of the parts that do the rest.

A decision is verified by the core, applied to a copy of the state, written to the
database (with the round's ledger rows when it ends the round) and only then made the
table's state and told to anyone. The parts: ``audience`` (what each seat and the
spectators are shown, and their sockets), ``clock`` (who plays each seat, deadlines,
grace periods), ``vote`` (the 解散 vote) and ``dissolve`` (proposing, voting, expiry),
``ready`` (准备 between rounds), ``presence`` (sockets coming and going, 托管), ``chat``
(快捷语), ``driver`` (the task that plays bots, 托管 and timeouts), ``persist`` (the
writes, and rebuilding a table after a restart by replaying its decisions), ``outbox`` (a
socket's queue). Names other modules import from here stay here.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from ..core.errors import IllegalActionError, PaohuziError
from ..core.match import Match
from ..core.state import Phase, State
from . import dissolve, persist, presence, ready
from .audience import Audience, collect, tell_all
from .chat import chat_limiter, say
from .clock import Clock, SeatInfo, now
from .driver import Driver
from .errors import ApiError
from .limits import PlaySettings
from .outbox import Connection, TableHandle
from .persist import CommitHooks
from .protocol import ack_dict, encode, match_over_dict, seats_dict, snapshot_dict
from .ready import DEFAULT_READY_SECONDS, Readiness
from .seated import hold, seat_of
from .vote import Vote

__all__ = ["CommitHooks", "Connection", "SeatInfo", "Table", "TableHandle"]

log = logging.getLogger("paohuzi.server")


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
        ready_seconds: float | None = None,
    ) -> None:
        self.sessions = sessions
        # Whether rounds settle onto the accounts' 悟性 (the standard rules); if not, the
        # match's own balances are room-local scores and no account or ledger row moves.
        self.ledger = ledger
        self.match_id = match_id
        self.room_id = room_id
        self.match = match
        self.time_limit = time_limit
        self.settings = settings or PlaySettings()
        self.on_end = on_end
        self.hooks: CommitHooks | None = None  # set by the hub (metrics, fencing)
        self.lock = asyncio.Lock()
        self.clock = Clock(seats, time_limit, self.settings.grace)
        self.vote: Vote | None = None  # the open 解散 vote
        self.proposed: dict[int, float] = {}  # when each seat may next propose 解散 (dissolve.py)
        # The wait for 准备 while the last round's 结算 is open (None: a round is in play).
        self.readiness: Readiness | None = None
        self.ready_seconds = ready_seconds or DEFAULT_READY_SECONDS
        self._ready_key: tuple[int, tuple[bool, ...]] | None = None
        self.chat_budget = chat_limiter()
        self.dissolved = False
        self.decisions: list[tuple[int, int, int]] = []  # (round, seat, id), seq = index + 1
        self.client_ids: dict[tuple[int, str], int] = {}  # (seat, client id) -> its step
        self.players = (Audience(0), Audience(1), Audience(2))
        self.spectators = Audience(None)  # the public view (RULES.md §14, seat None)
        self.audiences = (*self.players, self.spectators)
        self.driver = Driver(match_id, seats, match.rules)
        self._status: list[dict[str, Any]] = []
        self._status_key: tuple[tuple[Any, ...], ...] = ()
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

    @property
    def ended(self) -> bool:
        """Every round played, or the match dissolved (解散): no more decisions."""
        return self.dissolved or self.match.over

    @property
    def seats(self) -> list[SeatInfo]:
        """Who sits in each seat (the clock's: it tells who plays a seat now)."""
        return self.clock.seats

    @seats.setter
    def seats(self, seats: list[SeatInfo]) -> None:
        self.clock.seats = seats

    @property
    def conns(self) -> list[set[Connection]]:
        """Every audience's sockets: the seats', then the spectators'."""
        return [a.conns for a in self.audiences]

    def audience(self, seat: int | None) -> Audience:
        """Seat ``seat``'s audience (None: the spectators)."""
        return self.spectators if seat is None else self.players[seat]

    def step(self, seat: int | None) -> int:
        """The steps seat ``seat`` (None: the spectators) has seen so far."""
        return self.audience(seat).step

    def seat_of(self, account_id: int) -> int | None:
        """The seat an account holds at this table."""
        return next((s for s, i in enumerate(self.seats) if i.account_id == account_id), None)

    def _acting(self, s: int) -> bool:
        """Whether seat ``s`` has a decision open."""
        st = self.state
        return not self.ended and st.phase is not Phase.OVER and s in st.to_act()

    def _collect(self) -> None:
        """Append the new events of the round in play to each audience's censored list."""
        st = self.state
        collect(self.audiences, st.log[self._log_pos :], self.round)
        self._log_pos = len(st.log)

    def _count_steps(self) -> None:
        """After a decision (and at the start): move each audience's step if it can see a
        change, and each seat's ``since`` and clock if its question changed."""
        st = self.state
        rnd, acting, seq = self.round, st.to_act(), self.decision_seq
        open_ = () if self.ended or st.phase is Phase.OVER else acting  # as ``_acting``
        for a in self.players:
            if a.observe(st, rnd, acting, seq):
                self.clock.restart(a.seat, a.seat in open_)  # type: ignore[arg-type]
        self.spectators.observe(st, rnd, acting, seq)

    # -- seats: 托管, connections, status ----------------------------------------------

    def status(self) -> list[dict[str, Any]]:
        """Every seat's bot, connection and 托管 status (``SeatStatus`` dicts)."""
        return Clock.status_dicts(self.clock.status([bool(a.conns) for a in self.players]))

    def tell_status(self) -> bool:
        """Send everyone the seats' status if it changed since it was last sent."""
        key = self.clock.status([bool(a.conns) for a in self.players])
        if key == self._status_key:
            return False
        self._status_key = key
        self._status = Clock.status_dicts(key)
        self._tell_all(seats_dict(self._status))
        return True

    def next_time(self) -> float | None:
        """When the driver may have work: a deadline, a grace period's end, a vote's end,
        the end of the wait for 准备."""
        ends = [x.deadline for x in (self.vote, self.readiness) if x is not None]
        return self.clock.next_time(min(ends) if ends else None)

    # -- 准备 between rounds (ready.py), 快捷语 (chat.py), 解散 (dissolve.py) -----------
    # Table's methods, written beside the rest of their part and bound here (a call costs
    # what it would if the method were written in this class). ``seated`` (seated.py):
    # a seat's request, under the lock while the match goes on.

    seated = hold
    ready_message = ready.message
    tell_ready = ready.tell
    press_ready = ready.press
    deal_if_ready = ready.deal_if_ready
    deal_stored = ready.deal_stored
    chat = say
    vote_dissolve = dissolve.vote
    expire_vote = dissolve.expire

    # -- sockets coming and going, 托管 (presence.py) ----------------------------------

    attach = presence.attach
    detach = presence.detach
    set_tuoguan = presence.set_tuoguan

    # -- messages --------------------------------------------------------------------

    def _seat_clocks(self) -> list[tuple[float | None, float | None]]:
        """Each seat's deadline and seconds left, if its person has a decision open
        (worked out once for all the audiences a decision is told to)."""
        st = self.state
        open_ = () if self.ended or st.phase is Phase.OVER else st.to_act()
        shown = self.clock.shown
        return [shown(0, 0 in open_), shown(1, 1 in open_), shown(2, 2 in open_)]

    @staticmethod
    def _clocks(
        a: Audience, st: State, seat_clocks: list[tuple[float | None, float | None]]
    ) -> list[float | None]:
        """The deadlines of the seats ``a`` is shown to act (``Snapshot.clocks``)."""
        shown = a.shown_acting(st)
        return [seat_clocks[s][0] if s in shown else None for s in range(3)]

    def snapshot(self, conn: Connection, since: int | None = None) -> None:
        """Queue (events after ``since``, then) the seat's snapshot on ``conn``."""
        a = self.audience(conn.seat)
        st = self.state
        a.catch_up(conn, since)
        seat_clocks = self._seat_clocks()
        deadline, remaining = (None, None) if a.seat is None else seat_clocks[a.seat]
        vote = None if self.vote is None or self.ended else self.vote.message(now())
        conn.put_dict(snapshot_dict(
            self.match_id, a.seat, self.round, a.step, a.since, len(a.events), a.view_form(st),
            a.legal_form(st), deadline=deadline, remaining=remaining,
            time_limit=self.time_limit, seats=self.status(), dissolve=vote,
            ready=self.ready_message(), clocks=self._clocks(a, st, seat_clocks),
        ))  # fmt: skip
        if self.ended:
            conn.put_dict(self._over())

    def _over(self) -> dict[str, Any]:
        """The ``match_over`` message."""
        return match_over_dict(self.match_id, list(self.match.totals()),
                               list(self.match.balances), self.dissolved,
                               "ledger" if self.ledger else "local",
                               len(self.match.finished))  # fmt: skip

    def _tell_all(self, msg: dict[str, Any]) -> None:
        """Queue ``msg`` (encoded once) on every socket."""
        tell_all(self.audiences, encode(msg))

    def _broadcast(self, only: int | None = None) -> None:
        """Each socket's new events and prompt (``only``: just that seat's sockets, with a
        prompt even at the same step: its fresh deadline after 托管 ends).

        A socket whose audience saw no new step gets nothing: another seat's private
        answer is not told by a message either (RULES.md §14). Each message is encoded
        once and shared by every socket of the audience.
        """
        st = self.state
        over = encode(self._over()) if self.ended else None
        rnd, seat_clocks, none = self.round, self._seat_clocks(), (None, None)
        for a in self.audiences if only is None else (self.players[only],):
            conns = list(a.conns) if only is not None else a.behind()
            if conns:
                mine = none if a.seat is None else seat_clocks[a.seat]
                a.tell(conns, st, rnd, mine, over, self._clocks(a, st, seat_clocks))

    # -- decisions ---------------------------------------------------------------------

    async def intent(self, conn: Connection, action: int | str, step: int, client_id: str) -> None:
        """Check an intent, commit it, ack it on ``conn``, tell everyone, let the bots answer.

        The ack is queued before the events and prompts the decision causes, so a client
        knows its intent is durable before it is asked for the next decision.
        """
        seat = seat_of(conn, "a spectator cannot act")
        async with self.lock:
            done = self.client_ids.get((seat, client_id))
            if done is not None:
                conn.put_dict(ack_dict(client_id, done, duplicate=True))
                return
            if self.ended:
                raise ApiError("match_over", "the match is over; no more decisions")
            a = self.players[seat]
            if step > a.step:
                raise a.ahead(step)
            if step < a.since:
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
            await self.commit(seat, aid, client_id, conn)
            if self.driver.due(self):
                self.driver.wake.set()

    def _stale(self, seat: int, step: int) -> ApiError:
        """The refusal of an intent made before the seat's open decision (``since``)
        (``Audience.stale``), logged with what moved it."""
        a = self.players[seat]
        st = self.state
        mover = self.decisions[a.opened - 1] if 0 < a.opened <= len(self.decisions) else None
        log.debug(
            "match %s: stale intent of seat %s made at step %s; its decision moved at step "
            "%s (decision %s: round, seat, action) to %s; the seat is at step %s, the match "
            "at decision %s, phase %s, to act %s",
            self.match_id, seat, step, a.since, mover, a.key, a.step,
            self.decision_seq, st.phase.value, st.to_act(),
        )  # fmt: skip
        own = mover is not None and mover[1] == seat
        return a.stale(step, st.phase is not Phase.OVER and seat in st.to_act(), own)

    def launch(self) -> None:
        """Start the driver task (after a start or a restore); it ends with the match."""
        self.driver.launch(self)

    async def stop(self) -> None:
        """Stop the driver (shutdown); a commit in progress finishes first."""
        await self.driver.stop(self.lock)

    async def commit(
        self, seat: int, aid: int, client_id: str | None, reply: Connection | None = None
    ) -> int:
        """Store seat ``seat``'s decision ``aid``, then make it the table's and tell it
        (the ack on ``reply`` first); its ``seq``."""
        st = self.match.current
        assert st is not None
        rnd = len(self.match.finished)
        new = st.clone()
        new.apply_fast(seat, aid)
        seq = self.decision_seq + 1
        t0 = time.perf_counter()
        # Committed (with other tables' decisions, one transaction) before anything else.
        await persist.store_decision(self, seq, rnd, seat, aid, client_id, new)
        # Durable: now it is the table's state.
        if self.hooks is not None:
            self.hooks.committed(self, time.perf_counter() - t0)
        self.match.current = new
        self.decisions.append((rnd, seat, aid))
        self._advance()
        if client_id is not None:  # acked with the seat's step, before its events
            step = self.client_ids[(seat, client_id)] = self.players[seat].step
            if reply is not None:
                reply.put_dict(ack_dict(client_id, step))
        self._broadcast()
        return seq

    def replay(self, rnd: int, seat: int, aid: int, client_id: str | None) -> None:
        """Apply a stored decision (rebuilding the table: nothing is told or written)."""
        if self.match.current is None:  # a decision of the next round: it was dealt
            self.deal_stored()
        st = self.match.current
        assert st is not None
        st.apply(seat, aid)
        self.decisions.append((rnd, seat, aid))
        self._advance()
        if client_id is not None:
            self.client_ids[(seat, client_id)] = self.players[seat].step

    def _advance(self) -> None:
        """After a decision: collect events; at a round's end settle it and open the wait
        for 准备 before the next (``deal_if_ready`` deals it)."""
        self._collect()
        st = self.match.current
        if st is not None and st.result is not None:
            self.match.end_round()
            if not self.match.over:
                deadline = now() + self.ready_seconds
                self.readiness = Readiness.open(len(self.match.finished), deadline)
        self._count_steps()

    # Rebuild a table by replaying its decisions in order (``persist.load``, given the class).
    load = classmethod(persist.load)
