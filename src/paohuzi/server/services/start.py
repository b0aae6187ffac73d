"""Starting a claimed room's match: its opening balances, its rows in the database, its live
table with the sockets that waited for it.

:func:`new_match` is the part inside the database transaction (blocking, so a route runs
it on the writer thread through ``commit.transaction`` and an async caller through
``run_sync``); :func:`open_table` the part after it, on the event loop."""

from __future__ import annotations

from typing import Any

from sqlalchemy import ColumnElement, Select, func, select, text
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session

from ...core.match import Match
from ...core.rules import RuleSet
from .. import nearby, rulesets
from ..db import Account, MatchRow, RoomRow, RoomSeat, RoundRow
from ..errors import ApiError
from ..hub import Hub
from ..tables import SeatInfo, Table

__all__ = [
    "BOT_MATCHES",
    "PERSON_MATCHES",
    "SERVER_BOT_MATCHES",
    "address_bot_matches_cap",
    "bot_matches_cap",
    "new_match",
    "one_ledger_match",
    "open_table",
    "opening_balances",
    "person_matches_cap",
    "start_match",
    "started_from",
]


def opening_balances(session: Session, rules: RuleSet, seats: list[RoomSeat]) -> list[int]:
    """The seats' balances as the match starts: their accounts' 悟性 when the room plays
    for the ledger (the standard rules), else the rules' starting balance (room-local).

    A person plays for 悟性 in one match at a time (:func:`one_ledger_match`): each
    match caps what a seat may lose at the balance it opened with, so two matches opened
    on the same 100 could together take 300 (a guest in five rooms at once went to −136).
    """
    if rulesets.scoring_of(rules) != "ledger":
        return [rules.starting_balance] * 3
    ids = [s.account_id for s in seats]
    one_ledger_match(session, seats)
    rows = session.execute(select(Account.id, Account.balance).where(Account.id.in_(ids)))
    found = dict(rows.tuples().all())
    for i in ids:
        if found[i] < 0:  # never, unless the database was changed by hand
            raise ApiError("bad_players", f"account {i}'s 悟性 is {found[i]}, below zero", 409)
    return [found[i] for i in ids]


BOT_MATCHES = 2  # matches of bots only an account may have running at once
SERVER_BOT_MATCHES = 8  # and the whole server (every worker of its database)


def bot_matches_cap(session: Session, host_id: int, seats: list[RoomSeat]) -> None:
    """Refuse a match of bots only past the host's :data:`BOT_MATCHES` running
    (``too_many_rooms``, 409), or the server's :data:`SERVER_BOT_MATCHES` (``busy``, 503):
    each costs CPU for its whole length, and nobody's absence ends it (one guest ran 24 of
    the guided bot and slowed every table; guests cost nothing, hence the server's cap)."""
    if any(s.bot is None for s in seats):
        return
    person = select(RoomSeat.room_id).where(RoomSeat.room_id == RoomRow.id, RoomSeat.bot.is_(None))
    running = (
        select(func.count(func.distinct(RoomRow.id)))
        .join(MatchRow, MatchRow.room_id == RoomRow.id)
        .where(MatchRow.status == "playing", ~person.exists())
    )
    if (session.scalar(running.where(RoomRow.host_id == host_id)) or 0) >= BOT_MATCHES:
        raise ApiError(
            "too_many_rooms",
            f"an account may run {BOT_MATCHES} matches of bots only at once; "
            "watch one to its end first",
            409,
        )
    if (session.scalar(running) or 0) >= SERVER_BOT_MATCHES:
        raise ApiError(
            "busy",
            f"the server runs {SERVER_BOT_MATCHES} matches of bots only at once; "
            "try again when one has ended",
            503,
        )


PERSON_MATCHES = 3  # playing matches a person may be seated in at once (for 悟性: one)


def address_bot_matches_cap(hub: Hub, cap: int, address: str, seats: list[RoomSeat]) -> None:
    """Refuse (``too_many_rooms``, 409) a match with a bot seated when the request's
    network address started ``cap`` such matches still being played (on this worker;
    ``RateSettings.bot_matches_address``). Guests cost nothing, so the cap on each
    person's matches bounded nothing: ten guests of one address started 30 matches
    against the guided bot, never connected, and the server played them all (81 % of a
    core)."""
    started = sum(a == address for a in hub.bot_match_address.values())
    if started >= cap and any(s.bot is not None for s in seats):
        raise ApiError(
            "too_many_rooms",
            f"{cap} matches with bots started from this network address are being played; "
            "start another once one has ended",
            409,
        )


def started_from(hub: Hub, address: str, seats: list[RoomSeat], match_id: int) -> None:
    """Count a started match with a bot seated against the address that started it."""
    if any(s.bot is not None for s in seats):
        hub.bot_match_address[match_id] = address


def person_matches_cap(session: Session, seats: list[RoomSeat]) -> None:
    """Refuse (``too_many_rooms``, 409) a match with a person already seated in
    :data:`PERSON_MATCHES` playing matches, whatever they are scored on. A match with a
    person costs the server CPU for its whole length once that person leaves it to
    托管 (or just closes the page): one guest started room-local matches against bots
    without end, each played to its last round by the server, while only matches for
    悟性 (one at a time) and matches of bots only were capped."""
    people = _people(seats)
    if not people:
        return
    seated = func.count(func.distinct(MatchRow.id))
    busy = session.execute(
        _playing(people, seated)
        .group_by(RoomSeat.account_id, Account.nickname)
        .having(seated >= PERSON_MATCHES)
        .limit(1)
    ).first()
    if busy is not None:
        raise ApiError(
            "too_many_rooms",
            f"{busy.nickname} (account {busy.account_id}) is playing {PERSON_MATCHES} matches "
            "already; a person plays in at most that many matches at once",
            409,
        )


def _people(seats: list[RoomSeat]) -> list[int]:
    """The accounts of the seats' people (not bots), in id order."""
    return sorted({s.account_id for s in seats if s.bot is None})


def _playing(people: list[int], *more: ColumnElement[Any]) -> Select[Any]:
    """Each seat of ``people`` in a match being played: the account, its nickname and
    ``more`` columns (the caps' common query; each adds its own filter or grouping)."""
    return (
        select(RoomSeat.account_id, Account.nickname, *more)
        .join(MatchRow, MatchRow.room_id == RoomSeat.room_id)
        .join(Account, Account.id == RoomSeat.account_id)
        .where(
            MatchRow.status == "playing", RoomSeat.bot.is_(None), RoomSeat.account_id.in_(people)
        )
    )


# The PostgreSQL advisory lock class of "a match is starting with this account" (with the
# account's id as the lock's second key).
START_LOCK = 29_001


def one_ledger_match(session: Session, seats: list[RoomSeat]) -> None:
    """Refuse (``in_match``, 409) a match for 悟性 with a person who is playing one
    already. On PostgreSQL each person's advisory lock is taken first, in id order and
    held to the commit, so of two rooms started at once on any workers with the same
    person the second sees the first's match (SQLite's one writer does the same). An
    advisory lock, not ``FOR UPDATE`` on the accounts: a round's settlement updates
    those rows in no set order, and a start holding one of them could deadlock with it."""
    people = _people(seats)
    if not people:
        return
    if session.get_bind().dialect.name == "postgresql":
        for account_id in people:
            session.execute(
                text("SELECT pg_advisory_xact_lock(:cls, :id)"),
                {"cls": START_LOCK, "id": account_id},
            )
    busy = session.execute(_playing(people).where(MatchRow.scoring == "ledger").limit(1)).first()
    if busy is not None:
        raise ApiError(
            "in_match",
            f"{busy.nickname} (account {busy.account_id}) is playing another match for 悟性; "
            "a person plays for 悟性 in one match at a time",
            409,
        )


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
    capped: bool = True,
) -> tuple[MatchRow, Match]:
    """The match of a room claimed open -> playing with its ``seats``, its rows added in
    the caller's transaction. ``room``: its id, rules and rounds. ``not_full`` (409; the
    caller rolls back, the room open again) unless all three seats are taken. ``seed``:
    a room's fixed seed (web.py's test hook), else None. ``capped``: whether the
    :func:`person_matches_cap` applies (not to a tournament's table: the club's owner
    seats its players, and a stage must open at every table)."""
    if len(seats) != 3:
        raise ApiError("not_full", f"{len(seats)} of 3 seats are taken", 409)
    room_id, rules_dict, rounds = room
    rules = RuleSet.from_dict(rules_dict)
    rulesets.check_points(rules)  # (a room made before the allowed values were)
    if capped:
        person_matches_cap(session, seats)
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
    db: AsyncSession,
    hub: Hub,
    room: RoomRow,
    seats: list[RoomSeat],
    seeds: dict[str, int],
    capped: bool = True,
) -> MatchRow:
    """Start the match of ``room``, claimed open -> playing in ``db``'s transaction with its
    three ``seats``: commit it (:func:`new_match`, ``capped`` as there), then
    :func:`open_table`. ``not_full`` (409, rolled back: the room open again) unless every
    seat is taken."""
    key = (room.id, room.rules, room.rounds)
    seed = seeds.pop(room.code, None)
    try:
        row, match = await db.run_sync(lambda s: new_match(s, key, seats, seed, capped))
    except ApiError:
        await db.rollback()
        raise
    await db.commit()
    await open_table(hub, room, seats, row, match)
    return row
