"""A round's settlement as the group commit's writer thread runs it: what it costs.

Each settlement is ``persist.settle`` in a transaction of its own: the accounts'
``UPDATE``, the ledger's ``INSERT … SELECT``, the club results' (a club room's) and the
next round's row (``PYTHONPATH=<another tree>/src`` measures that tree's). The writer
thread holds the GIL for its Python work, so what it spends here the event loop waits
for; on PostgreSQL the statements are pipelined as the server does
(``commit._pipelined``). Prints one JSON object:

- ``cpu_ms_per_settlement``: this process's CPU (SQLite's work included) a settlement;
- ``wall_ms_per_settlement``: wall time a settlement, the commit included;
- ``ledger_sum``/``ledger_rows``/``balances``: what it wrote, checked: the ledger sums to
  zero, three rows a round, and the balances are the start's plus the deltas;
  ``club_results``: the club's standings rows, three a round (none with ``--no-club``).

    .venv/bin/python benchmarks/settlement.py --rounds 2000 [--db postgresql+psycopg://…]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import func, insert, select
from sqlalchemy.engine import make_url

from paohuzi.core.roundstate import RoundResult
from paohuzi.server import persist
from paohuzi.server.clubdb import Club, ClubResult, ClubRoom, ClubSeason
from paohuzi.server.commit import _pipelined
from paohuzi.server.db import (
    Account,
    Base,
    LedgerEntry,
    MatchRow,
    RoomRow,
    make_engine,
    writer_engine,
)

START = 1_000  # each account's balance before the first round


@dataclass
class _Match:
    """What ``persist.settle`` reads of a match."""

    rounds_total: int
    start_balances: tuple[int, int, int] = (START, START, START)

    def round_seed(self, index: int) -> int:
        return 7919 * index


@dataclass
class _Seat:
    account_id: int
    bot: str | None = "random"  # bots: no ratings are read (the blind path)


@dataclass
class _Table:
    """What ``persist.settle`` reads of a table (``tables.Table``)."""

    match_id: int
    room_id: int
    match: _Match
    seats: list[_Seat] = field(default_factory=list)
    ledger: bool = True


@dataclass
class _State:
    result: RoundResult


def _setup(engine: Any, club: bool) -> _Table:
    tag = uuid.uuid4().hex[:8]  # a database used before keeps its rows: new names
    with engine.begin() as c:
        ids = [
            c.execute(
                insert(Account)
                .values(username=f"bench{tag}{i}", nickname=f"bench{i}", password_hash="-",
                        kind="guest", balance=START)
                .returning(Account.id)
            ).scalar_one()
            for i in range(3)
        ]  # fmt: skip
        room = c.execute(
            insert(RoomRow).values(code=tag[:6], host_id=ids[0], public=True, rounds=10**9,
                                   rules={}, status="playing").returning(RoomRow.id)
        ).scalar_one()  # fmt: skip
        match = c.execute(
            insert(MatchRow).values(room_id=room, rules={}, seed=1, rounds_total=10**9,
                                    balances=[START] * 3, status="playing")
            .returning(MatchRow.id)
        ).scalar_one()  # fmt: skip
        if club:
            cid = c.execute(
                insert(Club).values(name="bench", code=tag, invite_key="-",
                                    owner_id=ids[0]).returning(Club.id)
            ).scalar_one()  # fmt: skip
            c.execute(insert(ClubSeason).values(club_id=cid, number=1))
            c.execute(insert(ClubRoom).values(club_id=cid, room_id=room, bots=True))
    return _Table(match, room, _Match(10**9), [_Seat(a) for a in ids])


def run(db: str | None, rounds: int, club: bool) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        url = db or f"sqlite:///{Path(tmp) / 'bench.db'}"
        engine = writer_engine(make_engine(url)[0])
        assert engine is not None
        Base.metadata.create_all(engine)
        t = _setup(engine, club)
        moves = [(2 * k % 7 - 3, -(2 * k % 7 - 3) // 2) for k in range(rounds)]
        balances = [START] * 3
        cpu0, wall0 = time.process_time(), time.perf_counter()
        for k, (a, b) in enumerate(moves):
            deltas = (a, b, -a - b)
            balances = [x + d for x, d in zip(balances, deltas, strict=True)]
            result = RoundResult(0, None, deltas, (0, 0, 0), 0)
            with engine.connect() as conn, _pipelined(conn, True), conn.begin():
                persist.settle(t, conn, _State(result), k)  # type: ignore[arg-type]
        cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
        with engine.connect() as c:
            total, n = c.execute(
                select(func.coalesce(func.sum(LedgerEntry.delta), 0), func.count()).where(
                    LedgerEntry.match_id == t.match_id
                )
            ).one()
            got = [c.scalar(select(Account.balance).where(Account.id == s.account_id))
                   for s in t.seats]  # fmt: skip
            standings = c.scalar(
                select(func.count()).select_from(ClubResult)
                .where(ClubResult.match_id == t.match_id)
            )  # fmt: skip
        engine.dispose()
    want = 3 * rounds if club else 0
    if total != 0 or n != 3 * rounds or got != balances or standings != want:
        raise SystemExit(
            f"settlement wrote wrong rows: ledger sum {total}, {n} rows, balances {got} "
            f"(want {balances}), {standings} club results (want {want})"
        )
    return {
        "db": make_url(url).get_backend_name(),
        "club": club,
        "rounds": rounds,
        "cpu_ms_per_settlement": round(cpu / rounds * 1000, 3),
        "wall_ms_per_settlement": round(wall / rounds * 1000, 3),
        "ledger_sum": int(total),
        "ledger_rows": int(n),
        "balances": got,
        "club_results": int(standings or 0),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=2000)
    ap.add_argument("--db", help="a database URL (PostgreSQL); default a new SQLite file")
    ap.add_argument("--no-club", action="store_true", help="a room of no club")
    ap.add_argument("--quick", action="store_true", help="50 rounds (the smoke test)")
    args = ap.parse_args()
    rounds = 50 if args.quick else args.rounds
    print(json.dumps(run(args.db, rounds, not args.no_club)))


if __name__ == "__main__":
    main()
