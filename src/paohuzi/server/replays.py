"""Finished matches' records, built once and kept: a replay is public and anonymous, so
rebuilding a long match for every request would let anyone stall the server.

The rebuild (replaying every decision) runs in a thread, off the event loop;
concurrent requests for one match share one rebuild; the encoded JSON is kept in an
LRU bounded by count and bytes. A finished match never changes, so nothing goes stale.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from ..core.match import Match
from ..core.rules import RuleSet
from .db import Decision, MatchRow
from .errors import ApiError

__all__ = ["ReplayCache", "encode_record", "rebuild"]

log = logging.getLogger("paohuzi.server")


def encode_record(
    rules: dict[str, Any],
    seed: int,
    rounds: int,
    balances: Sequence[int],
    decisions: Sequence[tuple[int, int]],
) -> bytes:
    """A finished match's record as compact JSON, replayed from its (seat, action)
    decisions in order (CPU-bound: call it in a thread)."""
    match = Match(
        RuleSet.from_dict(rules),
        seed=seed,
        rounds=rounds,
        balances=(balances[0], balances[1], balances[2]),
    )
    match.start_round()
    for seat, action in decisions:
        st = match.current
        assert st is not None
        st.apply(seat, action)
        if st.result is not None:
            match.end_round()
            if not match.over:
                match.start_round()
    record = json.loads(match.record().to_json())
    return json.dumps(record, ensure_ascii=False, separators=(",", ":")).encode()


class ReplayCache:
    """Encoded records by match id, at most ``max_items`` of them and ``max_bytes`` in
    all (least recently used dropped first)."""

    def __init__(self, max_items: int = 256, max_bytes: int = 64 * 1024 * 1024) -> None:
        self.max_items = max_items
        self.max_bytes = max_bytes
        self.items: OrderedDict[int, bytes] = OrderedDict()
        self.size = 0
        self.building: dict[int, asyncio.Future[bytes]] = {}
        self.builds = 0  # rebuilds started (a test reads it)

    async def get(self, match_id: int, build: Callable[[], Awaitable[bytes]]) -> bytes:
        """The record of ``match_id``: from the cache, from a rebuild already under way,
        or from ``build()`` (then kept)."""
        hit = self.items.get(match_id)
        if hit is not None:
            self.items.move_to_end(match_id)
            return hit
        pending = self.building.get(match_id)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self.building[match_id] = future
        self.builds += 1
        try:
            data = await build()
        except Exception as e:
            future.set_exception(e)
            future.exception()  # retrieved: the waiters (if any) get it too
            raise
        except BaseException:  # cancelled: the waiters try again themselves
            future.cancel()
            raise
        finally:
            del self.building[match_id]
        future.set_result(data)
        self._keep(match_id, data)
        return data

    def _keep(self, match_id: int, data: bytes) -> None:
        if len(data) > self.max_bytes:
            return
        self.items[match_id] = data
        self.size += len(data)
        while len(self.items) > self.max_items or self.size > self.max_bytes:
            _, old = self.items.popitem(last=False)
            self.size -= len(old)


async def rebuild(sessions: async_sessionmaker[AsyncSession], match_id: int) -> bytes:
    """A finished match's record from its decisions, replayed in a thread (404 for no such
    match, 409 before it is over). Its own short session: the requests waiting on this
    rebuild hold no connection."""
    async with sessions() as db:
        row = await db.get(MatchRow, match_id)
        if row is None:
            raise ApiError("no_match", f"no match {match_id}", 404)
        if row.status != "finished":
            raise ApiError("not_finished", "a match's record is public once it is over", 409)
        decisions = (
            await db.execute(
                select(Decision.seat, Decision.action_id)
                .where(Decision.match_id == row.id)
                .order_by(Decision.seq)
            )
        ).all()
    moves = [(int(seat), int(action)) for seat, action in decisions]
    data = await asyncio.to_thread(
        encode_record, row.rules, row.seed, row.rounds_total, row.balances, moves
    )
    log.info("match %s record rebuilt from %d decisions", row.id, len(moves))
    return data
