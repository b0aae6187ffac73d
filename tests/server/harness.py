"""An in-process table on a fresh SQLite file, for tests that need a chosen deal or timing."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sqlalchemy import select

from paohuzi.core.match import Match
from paohuzi.core.rules import HONG_GUAI_WAN
from paohuzi.core.state import Phase, State
from paohuzi.server import accounts
from paohuzi.server.db import Decision, MatchRow, RoomRow, RoomSeat, RoundRow, make_engine, upgrade
from paohuzi.server.errors import ApiError
from paohuzi.server.limits import PlaySettings
from paohuzi.server.tables import Connection, SeatInfo, Table


class Seat:
    """A seat's socket without a socket: what the table queues for it, parsed."""

    def __init__(self, seat: int | None) -> None:
        self.conn = Connection(self._send)
        self.conn.seat = seat
        self.conn.account_id = 0

    async def _send(self, _: str) -> None:  # pragma: no cover - never pumped
        return None

    def drain(self) -> list[dict[str, Any]]:
        out = []
        while not self.conn.queue.empty():
            text = self.conn.queue.get_nowait()
            if text is not None:
                out.append(json.loads(text))
        return out


async def make_table(
    tmp: Path,
    seed: int,
    bots: tuple[str | None, str | None, str | None] = (None, None, None),
    *,
    rounds: int = 1,
    time_limit: float | None = None,
    settings: PlaySettings | None = None,
) -> Table:
    """A started match of seed ``seed`` with its rows in a new database under ``tmp``."""
    url = f"sqlite:///{tmp / 'table.db'}"
    await asyncio.to_thread(upgrade, url)
    _, sessions = make_engine(url)
    match = Match(HONG_GUAI_WAN, seed=seed, rounds=rounds, balances=(100, 100, 100))
    first = match.start_round()
    async with sessions() as db:
        accts = [
            await accounts.create_account(db, kind="guest", nickname=f"p{i}") for i in range(3)
        ]
        room = RoomRow(code=f"{seed % 10**6:06d}", host_id=accts[0].id, public=True,
                       rounds=rounds, rules=HONG_GUAI_WAN.to_dict(), status="playing",
                       time_limit=time_limit)  # fmt: skip
        db.add(room)
        await db.flush()
        for i, a in enumerate(accts):
            db.add(RoomSeat(room_id=room.id, seat=i, account_id=a.id, bot=bots[i]))
        row = MatchRow(room_id=room.id, rules=HONG_GUAI_WAN.to_dict(), seed=seed,
                       rounds_total=rounds, balances=[100, 100, 100], status="playing")  # fmt: skip
        db.add(row)
        await db.flush()
        db.add(RoundRow(match_id=row.id, index=0, seed=match.round_seed(0),
                        dealer=first.dealer, balances=[100, 100, 100]))  # fmt: skip
        await db.commit()
        infos = [SeatInfo(a.id, bots[i]) for i, a in enumerate(accts)]
    return Table(sessions, row.id, room.id, infos, match, time_limit=time_limit,
                 settings=settings)  # fmt: skip


async def stored(table: Table) -> list[tuple[int, int, str | None]]:
    """The table's decisions as the database holds them: (seat, action id, client id)."""
    async with table.sessions() as db:
        rows = (
            await db.scalars(
                select(Decision).where(Decision.match_id == table.match_id).order_by(Decision.seq)
            )
        ).all()
    return [(d.seat, d.action_id, d.client_id) for d in rows]


async def act(table: Table, seat: Seat, action: int, client_id: str) -> dict[str, Any]:
    """Send an intent; the ack or the error it gets."""
    try:
        await table.intent(seat.conn, action, table.step(seat.conn.seat), client_id)
    except ApiError as e:
        return {"type": "error", "code": e.code}
    acks = [m for m in seat.drain() if m["type"] == "ack" and m["client_id"] == client_id]
    assert len(acks) == 1, acks
    return acks[0]


def find_window(
    seeds: range, want: Callable[[State, tuple[int, ...]], tuple[int, int] | None]
) -> tuple[int, list[tuple[int, int]], int, int]:
    """The first (seed, decisions before it, seat a, seat b) where ``want`` sees a claim
    window it likes, playing passes in claims and seeded random choices otherwise."""
    for seed in seeds:
        m = Match(HONG_GUAI_WAN, seed=seed, rounds=1, balances=(100, 100, 100))
        st = m.start_round()
        rng = random.Random(seed)
        prefix: list[tuple[int, int]] = []
        while not st.over:
            acting = st.to_act()
            if st.phase is Phase.CLAIM and len(acting) >= 2:
                pair = want(st, acting)
                if pair is not None:
                    return seed, prefix, pair[0], pair[1]
            s = acting[0]
            ids = st.legal_actions(s)
            if st.phase is Phase.CLAIM:
                aid = 20 if 20 in ids else ids[0]
            else:
                aid = ids[rng.randrange(len(ids))]
            st.apply(s, aid)
            prefix.append((s, aid))
    raise AssertionError(f"no such claim window in seeds {seeds}")
