"""Who may see a room and what they see: rooms found by code (the live one; a private
room only to its host, its seated players and holders of its invite key, every look-up
counted against the caller's address), a room's matches (the same people, and whoever
played one), the room's JSON (the invite key for insiders only), free codes, and the
quota of rooms an account may create and host."""

from __future__ import annotations

import secrets
from typing import Any, NamedTuple

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from ..core.rules import RuleSet
from . import clubaccess, fairplay, nearby
from .clubdb import ClubRoom, SeatAddress, SeatLocation, Tournament, TournamentGame
from .db import LIVE_ROOM, Account, LedgerEntry, MatchRow, RoomRow, RoomSeat, room_by_code
from .errors import ApiError
from .ratelimit import Rates
from .rulesets import scoring_of

__all__ = [
    "check_quota",
    "find_room",
    "is_insider",
    "key_fits",
    "new_code",
    "room_json",
    "seat_rows",
    "visible_match",
    "warnings_of",
]


async def is_insider(db: AsyncSession, room: RoomRow, me: Account | None) -> bool:
    """Whether ``me`` hosts the room or has a seat in it."""
    if me is None:
        return False
    if room.host_id == me.id:
        return True
    found = await db.scalar(
        select(RoomSeat.seat).where(RoomSeat.room_id == room.id, RoomSeat.account_id == me.id)
    )
    return found is not None


def same_key(given: str | None, stored: str | None) -> bool:
    """Whether ``given`` is the invite key ``stored``, compared in constant time as UTF-8
    bytes (``secrets.compare_digest`` refuses a str with a non-ASCII character: an
    invite link's ``?key=é`` was a 500)."""
    if not given or not stored:
        return False
    return secrets.compare_digest(given.encode("utf-8", "surrogatepass"), stored.encode())


def key_fits(room: RoomRow, key: str | None) -> bool:
    """Whether ``key`` is the room's invite key (compared in constant time)."""
    return same_key(key, room.invite_key)


async def find_room(
    db: AsyncSession,
    rates: Rates,
    code: str,
    address: str,
    me: Account | None,
    key: str | None = None,
) -> RoomRow:
    """The room a code names, if this caller may see it: a public room, or a private
    one to its host, its seated players and whoever has its invite key. Else 404,
    like no room at all, counted against the address's look-ups of unknown rooms."""
    rates.lookup_check(address)
    found = (
        await db.execute(
            room_by_code(code)
            .add_columns(ClubRoom.club_id)
            .outerjoin(ClubRoom, ClubRoom.room_id == RoomRow.id)
        )
    ).first()  # the room and its club (if a club's) in one query
    if found is not None and await _may_see_in(db, found[0], found[1], me, key):
        room: RoomRow = found[0]
        return room
    rates.missed(address)
    raise ApiError("no_room", f"no room {code[:16]!r} (a private room needs its invite link)", 404)


async def _may_see_in(
    db: AsyncSession, room: RoomRow, club: int | None, me: Account | None, key: str | None
) -> bool:
    """Whether ``me`` may see the room, whose club is ``club`` (None: no club's): a club's
    room to its members only, whatever key (clubaccess.py); another room if public, or
    the key fits, or to an insider."""
    if club is not None:
        return me is not None and await clubaccess.is_member(db, club, me.id)
    return room.public or key_fits(room, key) or await is_insider(db, room, me)


async def visible_match(
    db: AsyncSession, match_id: int, me: Account | None, key: str | None
) -> MatchRow:
    """The match, if this caller may see its room (:func:`_may_see_in`) or played in it (a
    ledger row: a player who left the room since). Else 404 exactly as for no match at
    all: ids are sequential, and a private match's existence is the room's secret too.
    One query for a public room's match (match, room and club together)."""
    found = (
        await db.execute(
            select(MatchRow, RoomRow, ClubRoom.club_id)
            .join(RoomRow, RoomRow.id == MatchRow.room_id)
            .outerjoin(ClubRoom, ClubRoom.room_id == RoomRow.id)
            .where(MatchRow.id == match_id)
        )
    ).first()
    if found is not None:
        row, room, club = found
        if await _may_see_in(db, room, club, me, key) or await _played(db, match_id, me):
            if club is not None:
                await _not_in_a_running_tournament(db, row)
            return row
    raise ApiError("no_match", f"no match {match_id}", 404)


async def running_tournament(db: AsyncSession, room_id: int) -> int | None:
    """The tournament still being played that the room is a table of, if any."""
    found: int | None = await db.scalar(
        select(Tournament.id)
        .join(TournamentGame, TournamentGame.tournament_id == Tournament.id)
        .where(TournamentGame.room_id == room_id, Tournament.status != "finished")
        .limit(1)
    )
    return found


async def _not_in_a_running_tournament(db: AsyncSession, row: MatchRow) -> None:
    """Refuse (409 ``not_finished``) a game of a tournament still being played: every
    rotation of a deal is the same cards, so its record, 结算 or replay would show a
    player the hands and the stock of a game still to come (RULES.md §14)."""
    running = await running_tournament(db, row.room_id)
    if running is not None:
        raise ApiError(
            "not_finished",
            f"match {row.id} is a game of tournament {running}, still being played: its "
            "cards are shown once the tournament is over",
            409,
        )


async def _played(db: AsyncSession, match_id: int, me: Account | None) -> bool:
    """Whether ``me`` has a ledger row of the match (settled a round of it)."""
    if me is None:
        return False
    found = await db.scalar(
        select(LedgerEntry.id)
        .where(LedgerEntry.match_id == match_id, LedgerEntry.account_id == me.id)
        .limit(1)
    )
    return found is not None


class SeatRow(NamedTuple):
    """A taken seat with what the room's warnings need (one query: :func:`seat_rows`)."""

    seat: int
    account_id: int
    nickname: str
    bot: str | None
    address_hash: str | None  # where a person joined from (fairplay.py)
    cell: tuple[int, int] | None  # a person's shared position (nearby.py)


async def seat_rows(db: AsyncSession, room_id: int) -> list[SeatRow]:
    """The room's taken seats, their players' names, addresses and shared positions, in
    one query (a room's JSON is sent to every seat at each join: it made eight)."""
    rows = await db.execute(
        select(RoomSeat.seat, Account.id, Account.nickname, RoomSeat.bot,
               SeatAddress.address_hash, SeatLocation.lat_cell, SeatLocation.lon_cell)
        .join(Account, Account.id == RoomSeat.account_id)
        .outerjoin(SeatAddress, (SeatAddress.room_id == RoomSeat.room_id)
                   & (SeatAddress.account_id == RoomSeat.account_id))
        .outerjoin(SeatLocation, (SeatLocation.room_id == RoomSeat.room_id)
                   & (SeatLocation.account_id == RoomSeat.account_id))
        .where(RoomSeat.room_id == room_id)
    )  # fmt: skip
    return [
        SeatRow(seat, aid, nick, bot, digest, None if lat is None else (lat, lon))
        for seat, aid, nick, bot, digest, lat, lon in rows
    ]


def warnings_of(seats: list[SeatRow]) -> tuple[list[list[int]], list[list[int]]]:
    """The seats of people who joined from one address (fairplay.py), and of those who
    shared positions close by (nearby.py)."""
    people = [s for s in seats if s.bot is None]
    same = fairplay.by_address((s.seat, s.address_hash) for s in people if s.address_hash)
    at = {s.seat: s.cell for s in people if s.cell is not None}
    return same, nearby.close_groups(at, nearby.close_by_km())


async def room_json(db: AsyncSession, room: RoomRow, me: Account | None) -> dict[str, Any]:
    """The room as ``me`` (None: anyone) may see it."""
    taken = await seat_rows(db, room.id)
    seats: list[dict[str, Any] | None] = [None, None, None]
    for t in taken:
        seats[t.seat] = {"account_id": t.account_id, "nickname": t.nickname, "bot": t.bot}
    match = (
        await db.execute(
            select(MatchRow.id, MatchRow.scoring)
            .where(MatchRow.room_id == room.id)
            .order_by(MatchRow.id.desc())
        )
    ).first()
    insider = me is not None and (
        room.host_id == me.id or any(s and s["account_id"] == me.id for s in seats)
    )
    same_address, close_by = warnings_of(taken)
    return {
        "code": room.code,
        "host_id": room.host_id,
        "public": room.public,
        "rounds": room.rounds,
        "time_limit": room.time_limit,
        "ready_seconds": room.ready_seconds,
        "rules": room.rules,
        # "ledger": settled onto the players' 悟性; "local": the room's own scores.
        "scoring": match.scoring if match else scoring_of(RuleSet.from_dict(room.rules)),
        "status": room.status,
        "seats": seats,
        "match_id": match.id if match else None,
        # What the invite link carries; only the host and the seated players see it.
        "invite_key": room.invite_key if insider else None,
        # Seats whose players joined from one address: a warning (fairplay.py).
        "same_address": same_address,
        # Seats of players who both shared a position near each other (a warning,
        # nearby.py; an open room only: positions are deleted at the start), and whether
        # ``me`` shared one (never where).
        "close_by": close_by if room.status == "open" else [],
        "location_shared": room.status == "open" and await _shared(db, room, me, taken),
    }


async def _shared(
    db: AsyncSession, room: RoomRow, me: Account | None, taken: list[SeatRow]
) -> bool:
    """Whether ``me`` shared a position in the room: read from its seat when it has one."""
    if me is None:
        return False
    for t in taken:
        if t.account_id == me.id and t.bot is None:
            return t.cell is not None
    return await nearby.shared(db, room.id, me.id)


async def new_code(db: AsyncSession) -> str:
    """A code no live room holds (finished and expired rooms let theirs go)."""
    for _ in range(20):
        code = f"{secrets.randbelow(10**6):06d}"
        taken = await db.scalar(
            select(RoomRow.id).where(RoomRow.code == code, RoomRow.status.in_(LIVE_ROOM))
        )
        if taken is None:
            return code
    raise ApiError("busy", "no free room code; try again", 503)  # pragma: no cover


async def check_quota(db: AsyncSession, rates: Rates, me: Account, address: str) -> None:
    """Refuse a new room past the account's or the address's rate, or while the account
    hosts its cap of open rooms."""
    rates.rooms.take(f"account:{me.id}")
    rates.rooms_address.take(address)
    hosting = await db.scalar(
        select(func.count()).where(RoomRow.host_id == me.id, RoomRow.status == "open")
    )
    cap = int(rates.settings.open_rooms)
    if (hosting or 0) >= cap:
        raise ApiError(
            "too_many_rooms", f"an account may host {cap} open rooms at once; "
            "start or leave one first", 409,
        )  # fmt: skip
