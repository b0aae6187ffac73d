"""The match driver (``Driver``): a table's task that plays its bot seats, the seats under
托管 and those whose time ran out, expires 解散 votes, deals the next round once every
seat is ready (准备) or the wait is over, and notices gone seats, backing off after a
failed commit.

The bots think in a worker thread (never on the event loop, never holding the table's
lock), and their decisions are committed through the same path as a person's intent.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..bots import Bot, make_bot
from ..core.actions import PASS_ID
from ..core.rules import RuleSet
from ..core.state import Phase
from ..core.views import SeatView
from .clock import SeatInfo, now

if TYPE_CHECKING:
    from .tables import Table

__all__ = ["Backoff", "Driver", "Job"]

log = logging.getLogger("paohuzi.server")


@dataclass(frozen=True)
class Job:
    """A decision the driver takes for ``seat``: a fixed action, or its bot's choice."""

    seat: int
    since: int  # the seat's decision point (its step) it answers
    bot: Bot | None
    seen: SeatView | None
    action: int | None


@dataclass
class Backoff:
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


class Driver:
    """One table's driver task, its bots, and the heuristic bots that play 托管 and
    timeouts; ``wake`` tells it something may have become due.

    It keeps no reference to its table (each call is given it): a finished table must be
    freed by reference counting, without a cycle for the collector (tests/server/test_gc.py).
    """

    def __init__(self, match_id: int, seats: list[SeatInfo], rules: RuleSet) -> None:
        self.match_id = match_id
        self.rules = rules
        self.bots: dict[int, Bot] = {
            s: make_bot(info.bot, seed=match_id * 3 + s, rules=rules)
            for s, info in enumerate(seats)
            if info.bot is not None
        }
        self.helpers: dict[int, Bot] = {}  # the heuristic bots that play 托管 and timeouts
        self.wake = asyncio.Event()
        self.task: asyncio.Task[None] | None = None

    def launch(self, table: Table) -> None:
        """Start the task (after a start or a restore); it ends with the match."""
        if self.task is None:
            self.task = asyncio.create_task(self._run(table), name=f"table-{self.match_id}")

    async def stop(self, lock: asyncio.Lock) -> None:
        """Stop the task (shutdown); a commit in progress (holding ``lock``) finishes first."""
        task, self.task = self.task, None
        if task is not None:
            async with lock:
                task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    def _helper(self, s: int) -> Bot:
        helper = self.helpers.get(s)
        if helper is None:
            helper = self.helpers[s] = make_bot(
                "heuristic", seed=self.match_id * 3 + s, rules=self.rules
            )
        return helper

    def job(self, t: Table) -> Job | None:
        """The next decision the server takes for a seat of ``t``, if one is due now."""
        st = t.state
        if t.ended or st.phase is Phase.OVER:
            return None
        for s in st.to_act():
            a = t.audience(s)
            why = t.clock.auto(s)
            if why == "bot":
                return Job(s, a.since, self.bots[s], a.view(st), None)
            if why is None and not t.clock.due(s):
                continue
            if why is None and st.phase is Phase.CLAIM and PASS_ID in st.legal_actions(s):
                return Job(s, a.since, None, None, PASS_ID)  # a timed-out claim: 过
            return Job(s, a.since, self._helper(s), a.view(st), None)
        return None

    def due(self, t: Table) -> bool:
        """Whether the driver may have work after a person's decision: the match ended, a
        seat the server plays is to act, or clocks restarted (its timers for grace
        periods and votes are unchanged by a decision)."""
        if t.ended or t.time_limit is not None or t.readiness is not None:
            return True
        st = t.state
        return st.phase is Phase.OVER or any(t.clock.auto(s) is not None for s in st.to_act())

    async def _run(self, t: Table) -> None:
        retry = Backoff()
        while True:
            self.wake.clear()
            try:
                async with t.lock:
                    if t.ended:
                        break
                    await t.expire_vote()
                    t.tell_status()
                    await t.deal_if_ready()
                    t.tell_ready()
                    job = self.job(t)
                    wake_at = t.next_time() if job is None else None
                if job is None:
                    await self._sleep(wake_at)
                    continue
                await self._do(t, job)
                retry.reset()
            except asyncio.CancelledError:
                raise
            except Exception:  # a failed commit: the table keeps its last durable state
                await asyncio.sleep(retry.failed(t.match_id))
        t.vote = None
        if t.on_end is not None:
            t.on_end(t)

    async def _sleep(self, until: float | None) -> None:
        """Wait for ``wake`` or until ``until`` (Unix time; None: no timer)."""
        timeout = None if until is None else max(0.0, until - now()) + 0.001
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.wake.wait(), timeout)

    async def _do(self, t: Table, job: Job) -> None:
        """Take ``job``'s decision (its bot thinking off the event loop) and commit it if
        it still answers the seat's open decision."""
        aid = job.action
        if aid is None:
            assert job.bot is not None and job.seen is not None
            aid = (await asyncio.to_thread(job.bot.act, job.seen)).id
        async with t.lock:
            if self._holds(t, job):
                st = t.state
                if not st.can_apply(job.seat, aid):  # pragma: no cover - a bot's bug
                    log.error("match %s: bot chose illegal %s", t.match_id, aid)
                    aid = st.legal_actions(job.seat)[0]
                await t.commit(job.seat, aid, None)

    def _holds(self, t: Table, job: Job) -> bool:
        """Whether ``job`` still answers the seat's open decision (nobody answered first)."""
        if t.ended or t.audience(job.seat).since != job.since:
            return False
        again = self.job(t)
        return again is not None and again.seat == job.seat and again.since == job.since
