"""复盘 on the server: a finished match analysed for one seat, off the event loop.

The review is CPU-bound Python, so it runs in worker processes (a thread would hold
the interpreter lock the event loop needs): at most ``workers`` at once and
``queue`` more waiting; beyond that a request is refused (503 ``busy``) rather than
queued without bound. A request is allowed to whoever may see the match's room (a
public room: anyone signed in; a club's: its members; a private one: its host and
players) or played the match (rooms.visible_match); each account may start a few
(ratelimit.py ``analysis``). The result is stored with the match (``analyses``
table), so it is computed once per (match, seat).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from ...analysis.jobs import analyse_record, hint_options, ready
from ...core.rules import RuleSet
from ...core.views import SeatView
from ..db import Account, AnalysisRow, MatchRow, now
from ..errors import ApiError
from ..limits import env_positive
from ..replays import ReplayCache, rebuild
from ..rooms import visible_match

__all__ = [
    "AnalysisPool",
    "AnalysisSettings",
    "analysis_json",
    "analysis_summary",
    "app_pool",
    "may_analyse",
]

log = logging.getLogger("paohuzi.server")

HINT_BATCHES = 2  # a 提示 values on twice a review's batch of worlds: on one (16), the best
# and the next were too close to call nearly always, and its order often not the review's


@dataclass(frozen=True)
class AnalysisSettings:
    """Worker processes, waiting jobs, sampled worlds per decision and the workers' niceness
    (``PAOHUZI_ANALYSIS_WORKERS`` / ``_QUEUE`` / ``_SAMPLES`` / ``_NICE``), and the 提示's
    own workers (``PAOHUZI_HINT_WORKERS``): a hint is due within a player's clock, so it
    never waits behind a review of a whole match."""

    workers: int = 1
    queue: int = 4
    samples: int = 16
    nice: int = 10  # below the server's priority: live tables first, a review when idle
    hint_workers: int = 1

    @classmethod
    def from_env(cls) -> AnalysisSettings:
        """The defaults, each overridden by its environment variable where set."""
        return cls(
            int(env_positive("PAOHUZI_ANALYSIS_WORKERS", cls.workers)),
            int(env_positive("PAOHUZI_ANALYSIS_QUEUE", cls.queue)),
            int(env_positive("PAOHUZI_ANALYSIS_SAMPLES", cls.samples)),
            _env_nice("PAOHUZI_ANALYSIS_NICE", cls.nice),
            int(env_positive("PAOHUZI_HINT_WORKERS", cls.hint_workers)),
        )


def _env_nice(name: str, default: int) -> int:
    """A niceness 0-19 from the environment (unset or empty: ``default``), quoting a bad one."""
    raw = os.environ.get(name)
    if not raw:
        return default
    if not raw.strip().isdigit() or not 0 <= int(raw) <= 19:
        raise ValueError(f"{name} must be a whole number from 0 to 19, got {raw!r}")
    return int(raw)


def _lower_priority(nice: int) -> None:
    """A worker's first step: give the CPU to the event loop's process when both want it
    (an analysis runs for a minute; a decision's answer is due in milliseconds)."""
    if nice:
        os.nice(nice)


def analysis_json(row: AnalysisRow) -> dict[str, Any]:
    """What GET answers: the status and, once done, the review (or why it failed)."""
    out: dict[str, Any] = {"match_id": row.match_id, "seat": row.seat, "status": row.status}
    if row.result is not None:
        out["result" if row.status == "done" else "error"] = row.result
    return out


def analysis_summary(row: AnalysisRow) -> dict[str, Any]:
    """A done analysis in one line: its match, seat, decisions, 一致率, loss per decision."""
    s = (row.result or {}).get("summary", {})
    return {
        "match_id": row.match_id,
        "seat": row.seat,
        "decisions": int(s.get("decisions", 0)),
        "agreement": float(s.get("agreement", 0.0)),
        "loss_per_decision": float(s.get("loss_per_decision", 0.0)),
    }


async def may_analyse(db: AsyncSession, match_id: int, me: Account) -> MatchRow:
    """The finished match ``me`` may have analysed: one whose room ``me`` may see (a
    public room; a club's room: its members; a private room: its host and players) or
    that ``me`` played (rooms.visible_match). Else 404 as for no match at all (a 403
    would tell an outsider which ids are private matches); 409 before it is over."""
    match = await visible_match(db, match_id, me, None)
    if match.status != "finished":
        raise ApiError("not_finished", "a match can be analysed once it is over", 409)
    return match


def app_pool(state: Any) -> AnalysisPool:
    """The application's analysis pool (``app.state.analysis``), made on first use."""
    if getattr(state, "analysis", None) is None:
        state.analysis = AnalysisPool()
    p: AnalysisPool = state.analysis
    return p


class AnalysisPool:
    """The bounded worker pools, one for reviews and one for 提示, and the jobs under way
    (in this process)."""

    def __init__(self, settings: AnalysisSettings | None = None) -> None:
        self.settings = settings or AnalysisSettings.from_env()
        self.executors: dict[str, ProcessPoolExecutor] = {}
        self.running: dict[tuple[int, int], asyncio.Task[None]] = {}
        self.reserved: set[tuple[int, int]] = set()  # places taken, their rows committing
        self.hints = 0  # 提示 under way

    def _pool(self, kind: str = "review") -> ProcessPoolExecutor:
        """The ``"review"`` or ``"hint"`` workers, started on first use."""
        if kind not in self.executors:
            ctx = multiprocessing.get_context("spawn")  # no fork of a threaded server
            size = self.settings.hint_workers if kind == "hint" else self.settings.workers
            self.executors[kind] = ProcessPoolExecutor(
                size, mp_context=ctx, initializer=_lower_priority, initargs=(self.settings.nice,)
            )
        return self.executors[kind]

    def warm_hints(self) -> None:
        """Start the 提示 worker ahead of the first hint (a practice game began): a new
        worker takes a second or two to start and import the analysis, which the player's
        first 提示 would otherwise wait for."""
        if "hint" not in self.executors:
            self._pool("hint").submit(ready)

    def check_room(self) -> None:
        """Refuse (503 ``busy``) when every worker and every waiting place is taken."""
        taken = len(self.running) + len(self.reserved)
        if taken >= self.settings.workers + self.settings.queue:
            raise ApiError("busy", "the analysis workers are busy; try again in a minute", 503)

    def check_hint_room(self) -> None:
        """Refuse a 提示 (503 ``busy``) when the hint workers and their waiting places are
        all taken."""
        if self.hints >= self.settings.hint_workers + self.settings.queue:
            raise ApiError("busy", "the hint workers are busy; try again in a moment", 503)

    def under_way(self, key: tuple[int, int]) -> bool:
        """Whether (match, seat) is being analysed, or about to be, in this process."""
        return key in self.running or key in self.reserved

    def reserve(self, key: tuple[int, int]) -> None:
        """Take a place for (match, seat) now (:meth:`check_room` first), before the
        request's row is committed: :meth:`start` or :meth:`release` gives it back."""
        self.check_room()
        self.reserved.add(key)

    def release(self, key: tuple[int, int]) -> None:
        """Give back a place :meth:`reserve` took (the request failed)."""
        self.reserved.discard(key)

    def start(
        self,
        key: tuple[int, int],
        sessions: async_sessionmaker[AsyncSession],
        replays: ReplayCache,
    ) -> None:
        """Start the job for (match, seat) (after :meth:`check_room`)."""
        self.reserved.discard(key)
        if key in self.running:
            return
        task = asyncio.create_task(self._job(key, sessions, replays))
        self.running[key] = task
        task.add_done_callback(lambda _t: self.running.pop(key, None))

    async def _job(
        self,
        key: tuple[int, int],
        sessions: async_sessionmaker[AsyncSession],
        replays: ReplayCache,
    ) -> None:
        match_id, seat = key
        status, result = "failed", None
        try:
            record = await replays.get(match_id, lambda: rebuild(sessions, match_id))
            loop = asyncio.get_running_loop()
            result = await loop.run_in_executor(
                self._pool(), analyse_record, record, (seat,), self.settings.samples, match_id
            )
            status = "done"
        except Exception as e:  # a failed job is stored as failed, never retried blindly
            log.exception("analysis of match %s seat %s failed", match_id, seat)
            result = {"reason": f"{type(e).__name__}: {str(e)[:200]}"}
        async with sessions() as db:
            row = await db.get(AnalysisRow, key)
            if row is not None:
                row.status, row.result, row.finished_at = status, result, now()
                await db.commit()

    async def hint(self, v: SeatView, rules: RuleSet, seed: int) -> dict[str, Any]:
        """提示: the options of ``v`` valued in a hint worker (503 ``busy`` when full)."""
        self.check_hint_room()
        self.hints += 1
        try:
            loop = asyncio.get_running_loop()
            out: dict[str, Any] = await loop.run_in_executor(
                self._pool("hint"),
                hint_options,
                v,
                rules,
                HINT_BATCHES * self.settings.samples,
                seed,
            )
            return out
        finally:
            self.hints -= 1

    def close(self) -> None:
        """Stop the workers (jobs under way are cancelled)."""
        for task in list(self.running.values()):
            task.cancel()
        for executor in self.executors.values():
            # A worker in the middle of a review would run on for a minute, orphaned, after
            # the server stopped: end them (the executor has no public way before 3.14).
            workers = list(getattr(executor, "_processes", {}).values())
            executor.shutdown(wait=False, cancel_futures=True)
            for proc in workers:
                with contextlib.suppress(Exception):
                    proc.terminate()
        self.executors.clear()
