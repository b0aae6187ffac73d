"""Duplicate tournaments (as ``paohuzi arena`` plays bots): a club's owner names 3·k players
(members, or bots to fill seats) and N deals. Every deal is played at k tables at once, one
one-round room each, with the same cards for the same seat everywhere (one seed a deal):
either three times, in each cyclic seat rotation, by the players of each fixed table of
three, or (two tables or more) once, each player at a table and seat that change from deal
to deal (duplicate.py's ``slot_of``), so nobody plays a deal whose hands they have seen.
A player's duplicate score for a deal is the mean, over the player's plays of it, of
the result minus the average result of the same seat on the same deal (all tables and
rotations): the luck of the cards cancels, and a deal's scores sum to zero.

The tournament moves on by stages (a deal in one rotation, at every table at once): when
every table of the stage has finished, the next is opened by whichever call notices first
(:func:`advance`, under the hub's lock; the stage is claimed in the database first).
Rooms are the club's (members only), on the arena's rules (caps off: room-local scores,
no 悟性 moves), and their rounds count in the club's standings like any club room's.
"""

from __future__ import annotations

import secrets
from collections import defaultdict
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from .. import accounts
from ..clubaccess import club_row, is_member
from ..clubdb import (
    Club,
    ClubResult,
    ClubRoom,
    Tournament,
    TournamentGame,
    TournamentPlayer,
)
from ..db import Account, MatchRow, RoomRow, RoomSeat
from ..duplicate import ROTATIONS, RULES, deal_seed, rank, slot_of
from ..errors import ApiError
from ..hub import Hub
from ..rooms import new_code
from ..schemas import BOT_KINDS
from .clubs import Caller
from .start import start_match

__all__ = ["RULES", "advance", "create", "mine", "results", "the_tournament"]

MAX_TABLES = 8


async def create(
    db: AsyncSession, c: Caller, deals: int, players: list[int | str], rotations: int | None
) -> Tournament:
    """The owner's new tournament: ``players`` are member account ids or bot kinds, in
    table order (slot i plays at table i // 3); ``rotations`` how many times each plays
    each deal (None: once from two tables on where the mixed tables all seat a member,
    else three times); its first stage opens on the first call."""
    if len(players) % 3 or not 3 <= len(players) <= 3 * MAX_TABLES:
        raise ApiError(
            "bad_players", f"a tournament seats 3·k players (k = 1 to {MAX_TABLES}), "
            f"got {len(players)}",
        )  # fmt: skip
    tables = len(players) // 3
    if rotations is None:  # once where the tables can mix without a table of bots only
        rotations = 1 if tables >= 2 and _mixes(players, tables, deals) else 3
    if rotations not in ROTATIONS:
        raise ApiError("bad_request", f"rotations is 1 or 3, got {rotations!r}")
    if rotations == 1 and tables < 2:
        raise ApiError(
            "bad_players", "a deal played once needs two tables or more (six players) "
            "to compare each seat's result with; one table plays each deal three times",
        )  # fmt: skip
    people = [p for p in players if isinstance(p, int)]
    if len(set(people)) != len(people):
        raise ApiError("bad_players", "a member plays in one slot only")
    _no_table_of_bots(players, tables, rotations, deals)
    for p in players:
        if isinstance(p, str) and p not in BOT_KINDS:
            raise ApiError("bad_bot", f"a bot is one of {list(BOT_KINDS)}, got {p[:20]!r}")
        if isinstance(p, int) and not await is_member(db, c.club.id, p):
            raise ApiError("no_member", f"account {p} is not a member of this club", 404)
    running = await db.scalar(
        select(Tournament.id).where(
            Tournament.club_id == c.club.id, Tournament.status != "finished"
        )
    )
    if running is not None:
        raise ApiError(
            "busy", f"the club's tournament {running} is being played; one at a time", 409
        )
    t = Tournament(club_id=c.club.id, deals=deals, tables=tables, rotations=rotations,
                   seed=secrets.randbelow(2**62), stage=0, status="playing")  # fmt: skip
    db.add(t)
    try:
        await db.flush()
    except IntegrityError:  # another create went in since the check (uq_tournament_playing)
        await db.rollback()
        raise ApiError(
            "busy", "the club's tournament is being played; one at a time", 409
        ) from None
    for slot, p in enumerate(players):
        if isinstance(p, str):
            bot = await accounts.create_account(db, kind="bot", nickname=f"{p} bot", grant=0)
            row = TournamentPlayer(tournament_id=t.id, slot=slot, account_id=bot.id, bot=p)
        else:
            row = TournamentPlayer(tournament_id=t.id, slot=slot, account_id=p, bot=None)
        db.add(row)
    await db.commit()
    return t


def _mixes(players: list[int | str], tables: int, deals: int) -> bool:
    """Whether every deal played once at mixed tables seats a member at every table."""
    try:
        _no_table_of_bots(players, tables, 1, deals)
    except ApiError:
        return False
    return True


def _no_table_of_bots(players: list[int | str], tables: int, rotations: int, deals: int) -> None:
    """Refuse (``bad_players``) a tournament that would seat bots only at a table in some
    deal: such a table costs the server its CPU for the stage with nobody watching (two
    tournaments of 24 bots put 16 such matches in play at once). With mixed tables
    (``rotations`` 1) every deal's seating is checked, not only the tables as listed."""
    for deal in range(deals if rotations == 1 else 1):
        for table in range(tables):
            slots = [slot_of(tables, rotations, table, deal, 0, seat) for seat in range(3)]
            if not any(isinstance(players[i], int) for i in slots):
                where = f"table {table + 1}" + (f" of deal {deal + 1}" if rotations == 1 else "")
                listed = ", ".join(str(i + 1) for i in sorted(slots))
                raise ApiError(
                    "bad_players", f"{where} has no member: bots only (the players listed "
                    f"{listed}); put a member in one of those places",
                )  # fmt: skip


async def the_tournament(db: AsyncSession, c: Caller, tournament_id: int) -> Tournament:
    """The club's tournament (404 ``no_tournament`` otherwise)."""
    return await club_row(db, c.club.id, Tournament, tournament_id, "tournament")


async def _games(db: AsyncSession, t: Tournament) -> list[tuple[TournamentGame, RoomRow]]:
    rows = await db.execute(
        select(TournamentGame, RoomRow)
        .join(RoomRow, RoomRow.id == TournamentGame.room_id)
        .where(TournamentGame.tournament_id == t.id)
        .order_by(TournamentGame.deal, TournamentGame.rotation, TournamentGame.table)
    )
    return [(g, r) for g, r in rows.tuples().all()]


async def _open_stage(db: AsyncSession, hub: Hub, t: Tournament, stage: int) -> None:
    """Open every table's room of ``stage`` and start its match (claimed already)."""
    deal, rotation = divmod(stage, t.rotations)
    players = {
        p.slot: p
        for p in (
            await db.scalars(select(TournamentPlayer).where(TournamentPlayer.tournament_id == t.id))
        ).all()
    }
    club = await db.get(Club, t.club_id)
    assert club is not None
    for table in range(t.tables):
        room = RoomRow(code=await new_code(db), host_id=club.owner_id, public=False, rounds=1,
                       rules=RULES.to_dict(), status="playing", time_limit=None,
                       invite_key=secrets.token_urlsafe(16))  # fmt: skip
        db.add(room)
        await db.flush()
        db.add(ClubRoom(room_id=room.id, club_id=t.club_id, template_id=None, bots=True))
        seats = []
        for seat in range(3):
            p = players[slot_of(t.tables, t.rotations, table, deal, rotation, seat)]
            rs = RoomSeat(room_id=room.id, seat=seat, account_id=p.account_id, bot=p.bot)
            db.add(rs)
            seats.append(rs)
        db.add(TournamentGame(tournament_id=t.id, deal=deal, rotation=rotation, table=table,
                              room_id=room.id))  # fmt: skip
        await start_match(db, hub, room, seats, {room.code: deal_seed(t.seed, deal)}, False)


async def advance(db: AsyncSession, hub: Hub, t: Tournament) -> None:
    """Open the next stage once every table of the current one has finished (or the
    first stage), or mark the tournament finished after the last."""
    if t.status == "finished":
        return
    async with hub.lock:
        await db.refresh(t)
        if t.stage > 0:
            games = [r for g, r in await _games(db, t) if _stage(t, g) == t.stage - 1]
            if len(games) < t.tables or any(r.status != "finished" for r in games):
                return
        if t.stage == t.rotations * t.deals:
            t.status = "finished"
            await db.commit()
            return
        claimed = await db.execute(
            update(Tournament)
            .where(Tournament.id == t.id, Tournament.stage == t.stage)
            .values(stage=t.stage + 1)
            .execution_options(synchronize_session=False)
        )
        if getattr(claimed, "rowcount", 0) != 1:  # another worker opened it
            await db.rollback()
            return
        await db.commit()
        await _open_stage(db, hub, t, t.stage)
        await db.refresh(t)


async def mine(db: AsyncSession, t: Tournament, me: Account) -> dict[str, Any]:
    """Where ``me`` plays now: the room of the current stage with a seat of mine."""
    room = None
    for g, r in await _games(db, t):
        if _stage(t, g) == t.stage - 1 and r.status != "finished":
            where = (RoomSeat.room_id == r.id) & (RoomSeat.account_id == me.id)
            if await db.scalar(select(RoomSeat.seat).where(where)) is not None:
                room = r.code
    return {
        "id": t.id,
        "status": t.status,
        "stage": t.stage,
        "stages": t.rotations * t.deals,
        "rotations": t.rotations,
        "room": room,
    }


async def _play(db: AsyncSession, g: TournamentGame, r: RoomRow) -> dict[str, Any]:
    """One table's play of a deal: its match and each seat's player and result."""
    match_id = await db.scalar(select(MatchRow.id).where(MatchRow.room_id == r.id))
    seats = (
        await db.scalars(select(RoomSeat).where(RoomSeat.room_id == r.id).order_by(RoomSeat.seat))
    ).all()
    got = {}
    if match_id is not None:
        rows = await db.scalars(select(ClubResult).where(ClubResult.match_id == match_id))
        got = {cr.account_id: cr.delta for cr in rows.all()}
    return {
        "table": g.table,
        "rotation": g.rotation,
        "room": r.code,
        "match_id": match_id,
        "seats": [
            {"account_id": s.account_id, "bot": s.bot, "result": got.get(s.account_id)}
            for s in seats
        ],
    }


async def results(db: AsyncSession, t: Tournament) -> dict[str, Any]:
    """Every deal's plays (table, rotation, match, each seat's player and result), each
    seat's average, each play's comparison with it, and the players ranked by their
    duplicate score (finished deals only: a deal counts once all its plays are in)."""
    games = await _games(db, t)
    stage_over: dict[tuple[int, int], bool] = defaultdict(lambda: True)
    for g, r in games:
        stage_over[g.deal, g.rotation] &= r.status == "finished"
    plays: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for g, r in games:
        play = await _play(db, g, r)
        if not stage_over[g.deal, g.rotation]:
            play = _unscored(play)
        plays[g.deal].append(play)
    return _ranked(t, plays)


def _unscored(play: dict[str, Any]) -> dict[str, Any]:
    """A play whose stage other tables are still playing, without its results: they hold
    the same cards, and a big win at one table tells the others what their hands, and
    their opponents' (hidden by RULES.md §14), are worth."""
    return play | {"seats": [seat | {"result": None} for seat in play["seats"]]}


def _ranked(t: Tournament, plays: dict[int, list[dict[str, Any]]]) -> dict[str, Any]:
    """The comparisons and the ranking from the plays of each deal (duplicate.py)."""
    deals, ranking = rank(t.tables, plays, t.rotations)
    return {"id": t.id, "status": t.status, "rotations": t.rotations, "deals": deals,
            "ranking": ranking}  # fmt: skip


def _stage(t: Tournament, g: TournamentGame) -> int:
    """The stage (counted from 0) of the game ``g``: its deal in its rotation."""
    return g.deal * t.rotations + g.rotation
