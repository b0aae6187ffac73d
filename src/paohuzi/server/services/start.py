"""Starting a claimed room's match: its opening balances, its rows in the database, its live
table with the sockets that waited for it.

:func:`new_match` is the part inside the database transaction (blocking, so a route runs
it on the writer thread through ``commit.transaction`` and an async caller through
``run_sync``); :func:`open_table` the part after it, on the event loop."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session

from ...core.match import Match
from ...core.rules import RuleSet
from .. import nearby, rulesets
from ..db import Account, MatchRow, RoomRow, RoomSeat, RoundRow
from ..errors import ApiError
from ..hub import Hub
from ..tables import SeatInfo, Table

__all__ = ["new_match", "open_table", "opening_balances", "start_match"]


def opening_balances(session: Session, rules: RuleSet, seats: list[RoomSeat]) -> list[int]:
    """The seats' balances as the match starts: their accounts' 悟性 when the room plays
    for the ledger (the standard rules), else the rules' starting balance (room-local)."""
    if rulesets.scoring_of(rules) != "ledger":
        return [rules.starting_balance] * 3
    ids = [s.account_id for s in seats]
    rows = session.execute(select(Account.id, Account.balance).where(Account.id.in_(ids)))
    found = dict(rows.tuples().all())
    return [found[i] for i in ids]


def _store(session: Session, room_id: int, match: Match, balances: list[int]) -> MatchRow:
    """Add the match's row and its first round's (the room is already ``playing``)."""
    first = match.start_round()
    nearby.forget_in(session, [room_id])  # positions only ever warn before the start
    row = MatchRow(
        room_id=room_id,
        rules=match.rules.to_dict(),
        seed=match.seed,
        rounds_total=match.rounds_total,
        balances=balances,
        status="playing",
        scoring=rulesets.scoring_of(match.rules),
    )
    session.add(row)
    session.flush()
    session.add(
        RoundRow(
            match_id=row.id,
            index=0,
            seed=match.round_seed(0),
            dealer=first.dealer,
            balances=balances,
        )
    )
    session.flush()
    return row


def new_match(
    session: Session,
    room: tuple[int, dict[str, object], int],
    seats: list[RoomSeat],
    seed: int | None,
) -> tuple[MatchRow, Match]:
    """The match of a room claimed open -> playing with its ``seats``, its rows added in
    the caller's transaction. ``room``: its id, rules and rounds. ``not_full`` (409; the
    caller rolls back, the room open again) unless all three seats are taken. ``seed``:
    a room's fixed seed (web.py's test hook), else None."""
    if len(seats) != 3:
        raise ApiError("not_full", f"{len(seats)} of 3 seats are taken", 409)
    room_id, rules_dict, rounds = room
    rules = RuleSet.from_dict(rules_dict)
    rulesets.check_points(rules)  # (a room made before the allowed values were)
    balances = opening_balances(session, rules, seats)
    match = Match(rules, rounds=rounds, balances=(balances[0], balances[1], balances[2]), seed=seed)
    return _store(session, room_id, match, balances), match


async def open_table(
    hub: Hub, room: RoomRow, seats: list[RoomSeat], row: MatchRow, match: Match
) -> None:
    """Make the committed match's table (the sockets waiting for the room attach) and hand
    it to the hub, whose driver task plays the bots."""
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


async def start_match(
    db: AsyncSession, hub: Hub, room: RoomRow, seats: list[RoomSeat], seeds: dict[str, int]
) -> MatchRow:
    """Start the match of ``room``, claimed open -> playing in ``db``'s transaction with its
    three ``seats``: commit it (:func:`new_match`), then :func:`open_table`. ``not_full``
    (409, rolled back: the room open again) unless every seat is taken."""
    key = (room.id, room.rules, room.rounds)
    seed = seeds.pop(room.code, None)
    try:
        row, match = await db.run_sync(lambda s: new_match(s, key, seats, seed))
    except ApiError:
        await db.rollback()
        raise
    await db.commit()
    await open_table(hub, room, seats, row, match)
    return row
