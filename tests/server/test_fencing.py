"""Every write of a table passes one fence (``Table._write`` → ``CommitHooks.before_commit``,
in the write's own transaction): once it refuses, as it does for a worker that lost the
table's lease, nothing is stored — no decision, ledger row or match end, no 托管 switch, no
解散 vote or its expiry — and the table's memory is left as it was."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path
from typing import Any

from sqlalchemy import select

from paohuzi.server.cluster import LeaseLost
from paohuzi.server.db import LedgerEntry, MatchRow, RoomRow, RoomSeat
from paohuzi.server.errors import ApiError
from paohuzi.server.tables import Table

from .harness import Seat, act, make_table, stored


class Fence:
    """Commit hooks that count the writes they see and refuse them while ``refusing``."""

    def __init__(self) -> None:
        self.refusing = False
        self.seen = 0
        self.refused = 0

    async def before_commit(self, table: Table, db: Any) -> None:
        self.seen += 1
        if self.refusing:
            self.refused += 1
            raise LeaseLost(table.match_id)

    def committed(self, table: Table, seconds: float) -> None:
        pass


async def _stored(table: Table) -> dict[str, Any]:
    """Everything the database holds about the table's match."""
    async with table.sessions() as db:
        match = await db.get(MatchRow, table.match_id)
        room = await db.get(RoomRow, table.room_id)
        assert match is not None and room is not None
        ledger = (
            await db.scalars(select(LedgerEntry).where(LedgerEntry.match_id == table.match_id))
        ).all()
        seats = (await db.scalars(select(RoomSeat).where(RoomSeat.room_id == table.room_id))).all()
        return {
            "decisions": await stored(table),
            "ledger": sorted((r.account_id, r.delta) for r in ledger),
            "match": (match.status, match.dissolve),
            "room": room.status,
            "tuoguan": sorted((s.seat, bool(s.tuoguan)) for s in seats),
        }


async def _refused(call: Any) -> str:
    try:
        await call
    except ApiError as e:
        return e.code
    return "applied"


async def test_a_refusing_fence_stores_no_write_of_any_kind(tmp_path: Path) -> None:
    table = await make_table(tmp_path, seed=4)
    fence = Fence()
    table.hooks = fence
    seats = [Seat(0), Seat(1), Seat(2)]
    rng = random.Random(4)
    # Play (through the fence) up to the decision that ends the round.
    while True:
        st = table.state
        s = st.to_act()[0]
        aid = rng.choice(st.legal_actions(s))
        after = st.clone()
        after.apply(s, aid)
        if after.result is not None:
            break
        assert (await act(table, seats[s], aid, f"c{table.decision_seq}"))["type"] == "ack"
    decided = table.decision_seq
    # 托管 on and off, and a 解散 proposal, pass the same fence while it lets them through.
    await table.set_tuoguan(seats[2].conn, True)
    await table.set_tuoguan(seats[2].conn, False)
    await table.vote_dissolve(seats[1].conn, True)
    assert fence.seen == decided + 3 and fence.refused == 0
    before = await _stored(table)
    assert before["match"][1] is not None and before["match"][1]["votes"] == [None, True, None]
    vote = table.vote
    assert vote is not None

    fence.refusing = True  # the lease is lost: every kind of write is refused
    assert await _refused(table.set_tuoguan(seats[0].conn, True)) == "moved"
    assert await _refused(table.vote_dissolve(seats[0].conn, True)) == "moved"
    assert await _refused(table.vote_dissolve(seats[2].conn, False)) == "moved"
    table.vote = replace(vote, deadline=0.0)  # the vote's time is up: its expiry is a write too
    assert await _refused(table.expire_vote()) == "moved"
    ending = act(table, seats[s], aid, "the-last")  # with the ledger rows and the match's end
    assert (await ending) == {"type": "error", "code": "moved"}
    assert fence.refused == 5
    assert await _stored(table) == before
    assert table.decision_seq == decided and not table.match.finished and not table.ended
    assert [i.tuoguan for i in table.seats] == [False, False, False]
    assert table.vote is not None and table.vote.votes == (None, True, None)

    fence.refusing = False  # the table goes on from its last durable state
    table.vote = vote
    assert (await act(table, seats[s], aid, "the-last"))["type"] == "ack"
    after_end = await _stored(table)
    assert after_end["match"] == ("finished", None) and after_end["room"] == "finished"
    assert len(after_end["ledger"]) == 3 and sum(d for _, d in after_end["ledger"]) == 0
