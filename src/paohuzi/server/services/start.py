"""Starting a claimed room's match: its opening balances, its rows in the database, its live
table with the sockets that waited for it."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from ...core.match import Match
from ...core.rules import RuleSet
from .. import nearby, rulesets
from ..db import Account, MatchRow, RoomRow, RoomSeat, RoundRow
from ..errors import ApiError
from ..hub import Hub
from ..tables import SeatInfo, Table

__all__ = ["opening_balances", "start_match"]


async def opening_balances(db: AsyncSession, rules: RuleSet, seats: list[RoomSeat]) -> list[int]:
    """The seats' balances as the match starts: their accounts' 悟性 when the room plays
    for the ledger (the standard rules), else the rules' starting balance (room-local)."""
    if rulesets.scoring_of(rules) != "ledger":
        return [rules.starting_balance] * 3
    out = []
    for s in seats:
        acct = await db.get(Account, s.account_id)
        assert acct is not None
        out.append(acct.balance)
    return out


async def _store(db: AsyncSession, room: RoomRow, match: Match, balances: list[int]) -> MatchRow:
    """Commit the match's row and its first round's (the room is already ``playing``)."""
    scoring = rulesets.scoring_of(match.rules)
    first = match.start_round()
    await nearby.forget(db, [room.id])  # positions only ever warn before the start
    row = MatchRow(
        room_id=room.id,
        rules=match.rules.to_dict(),
        seed=match.seed,
        rounds_total=match.rounds_total,
        balances=balances,
        status="playing",
        scoring=scoring,
    )
    db.add(row)
    await db.flush()
    db.add(
        RoundRow(
            match_id=row.id,
            index=0,
            seed=match.round_seed(0),
            dealer=first.dealer,
            balances=balances,
        )
    )
    await db.commit()
    return row


async def start_match(
    db: AsyncSession, hub: Hub, room: RoomRow, seats: list[RoomSeat], seeds: dict[str, int]
) -> MatchRow:
    """Start the match of ``room``, claimed open -> playing with its three ``seats``: store
    it, make its table (the sockets waiting for the room attach), and hand the table to the
    hub, whose driver task plays the bots. ``not_full`` (409, the room open again) unless
    every seat is taken. ``seeds``: a room's fixed seed (web.py's test hook), used once."""
    if len(seats) != 3:
        taken = len(seats)
        await db.rollback()  # the room is open again
        raise ApiError("not_full", f"{taken} of 3 seats are taken", 409)
    rules = RuleSet.from_dict(room.rules)
    rulesets.check_points(rules)  # (a room made before the allowed values were)
    balances = await opening_balances(db, rules, seats)
    match = Match(
        rules,
        rounds=room.rounds,
        balances=(balances[0], balances[1], balances[2]),
        seed=seeds.pop(room.code, None),  # None unless a test fixed it
    )
    row = await _store(db, room, match, balances)
    table = Table(
        hub.sessions,
        row.id,
        room.id,
        [SeatInfo(s.account_id, s.bot, bool(s.tuoguan)) for s in seats],
        match,
        time_limit=room.time_limit,
        settings=hub.settings,
        on_end=hub.release,
        ledger=row.scoring == "ledger",
        ready_seconds=room.ready_seconds,
    )
    for conn in hub.waiting.pop(room.code, []):
        if not conn.spectator:
            conn.seat = table.seat_of(conn.account_id or -1)
        if conn.spectator or conn.seat is not None:
            await table.attach(conn, conn.since)
    await hub.adopt(room.code, table)
    return row
