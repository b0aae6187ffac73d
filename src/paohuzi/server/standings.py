"""A club's standings: each played round of a club room leaves one row per seat (written in
the round's settling transaction, persist.py, so a round is in the standings exactly when
it is in the match), and a season's table is their sums: rounds, wins, 大赢家 (the match's
biggest winner) and points. No endpoint writes a result: points come from play alone.

The table is zero-sum because each round's deltas are (RULES.md §12): bots' seats are
listed too, so nothing a bot won or lost goes missing.
"""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Insert,
    Integer,
    and_,
    bindparam,
    insert,
    select,
    true,
    update,
)
from sqlalchemy import Connection as SqlConnection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from ..core.state import RoundResult
from .clubdb import ClubResult, ClubRoom, ClubSeason, Tournament, TournamentGame
from .db import Account, MatchRow, bound_rows, now, row_params
from .errors import ApiError

__all__ = ["close_season", "record_round", "season_json", "seasons_json", "standings"]


def record_round(
    db: SqlConnection,
    room_id: int,
    match_id: int,
    rnd: int,
    players: Sequence[int],
    result: RoundResult,
    last: bool,
) -> None:
    """The round's rows in the club's open season, if the room is a club's (blocking: in
    the decision's transaction, on the committer's writer thread). One blind INSERT …
    SELECT (nothing read back: pipelined on PostgreSQL, commit.py) that finds the club
    and its open season itself and inserts nothing for a room of no club. A club always
    has one open season (``close_season`` opens the next in the same transaction)."""
    params = row_params(
        "seats",
        [{"seat": s, "account_id": acct, "delta": result.deltas[s], "won": result.winner == s}
         for s, acct in enumerate(players)],
    )  # fmt: skip
    params.update(match_id=match_id, round_index=rnd, last=last, created_at=now(), room_id=room_id)
    db.execute(_record_statement(len(players)), params)


@functools.cache
def _record_statement(n: int) -> Insert:
    """``record_round``'s statement for ``n`` seats, built once (bind parameters
    ``db.row_params`` names, and ``match_id``, ``round_index``, ``last``, ``created_at``,
    ``room_id``)."""
    seats = bound_rows(
        "seats",
        [("seat", Integer()), ("account_id", Integer()), ("delta", BigInteger()),
         ("won", Boolean())],
        n,
    )  # fmt: skip
    rows = (
        select(ClubRoom.club_id, ClubSeason.id, bindparam("match_id", type_=Integer()),
               bindparam("round_index", type_=Integer()), seats.c.account_id, seats.c.delta,
               seats.c.won, bindparam("last", type_=Boolean()),
               bindparam("created_at", type_=ClubResult.created_at.type))
        .join_from(ClubRoom, ClubSeason, and_(ClubSeason.club_id == ClubRoom.club_id,
                                               ClubSeason.closed_at.is_(None)))
        .join(seats, true())
        .where(ClubRoom.room_id == bindparam("room_id", type_=Integer()))
        .order_by(seats.c.seat)
    )  # fmt: skip
    names = ["club_id", "season_id", "match_id", "round_index", "account_id", "delta", "won",
             "last", "created_at"]  # fmt: skip
    return insert(ClubResult).from_select(names, rows)


async def _season(db: AsyncSession, club_id: int, number: int | None) -> ClubSeason:
    """The club's season ``number`` (None: the open one)."""
    where = ClubSeason.closed_at.is_(None) if number is None else ClubSeason.number == number
    season = await db.scalar(select(ClubSeason).where(ClubSeason.club_id == club_id, where))
    if season is None:
        raise ApiError("no_season", f"no season {number} in this club", 404)
    return season


def season_json(s: ClubSeason) -> dict[str, Any]:
    return {
        "number": s.number,
        "started_at": s.started_at.isoformat(),
        "closed_at": s.closed_at.isoformat() if s.closed_at else None,
    }


async def seasons_json(db: AsyncSession, club_id: int) -> list[dict[str, Any]]:
    """Every season of the club, the first first."""
    rows = await db.scalars(
        select(ClubSeason).where(ClubSeason.club_id == club_id).order_by(ClubSeason.number)
    )
    return [season_json(s) for s in rows.all()]


def _dayingjia(rows: Sequence[ClubResult]) -> dict[int, int]:
    """大赢家 counts: in each match whose last round is in ``rows``, the seats with the
    most points over its rounds here (a tie counts for each; none if nobody gained)."""
    finished = {r.match_id for r in rows if r.last}
    totals: dict[int, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    for r in rows:
        if r.match_id in finished:
            totals[r.match_id][r.account_id] += r.delta
    out: dict[int, int] = defaultdict(int)
    for per in totals.values():
        best = max(per.values())
        if best > 0:
            for acct, pts in per.items():
                out[acct] += pts == best
    return out


async def standings(db: AsyncSession, club_id: int, number: int | None) -> dict[str, Any]:
    """Season ``number``'s table (None: the open season), best first. The rounds of a
    tournament still being played count once it is over: each of its deals is played at
    other tables too, and a table's result would tell those still playing it what their
    hands are worth (as the tournament's own results hide it, services/tournaments.py)."""
    season = await _season(db, club_id, number)
    running = (
        select(MatchRow.id)
        .join(TournamentGame, TournamentGame.room_id == MatchRow.room_id)
        .join(Tournament, Tournament.id == TournamentGame.tournament_id)
        .where(Tournament.club_id == club_id, Tournament.status != "finished")
    )
    shown = (ClubResult.season_id == season.id) & ClubResult.match_id.not_in(running)
    rows = (await db.scalars(select(ClubResult).where(shown))).all()
    per: dict[int, dict[str, int]] = defaultdict(lambda: {"rounds": 0, "wins": 0, "points": 0})
    for r in rows:
        p = per[r.account_id]
        p["rounds"] += 1
        p["wins"] += r.won
        p["points"] += r.delta
    big = _dayingjia(rows)
    names = {
        a.id: (a.nickname, a.kind)
        for a in (await db.scalars(select(Account).where(Account.id.in_(list(per))))).all()
    }
    order = sorted(per, key=lambda a: (-per[a]["points"], -per[a]["wins"], a))
    table = [
        {"account_id": acct, "nickname": names[acct][0], "bot": names[acct][1] == "bot",
         **per[acct], "dayingjia": big.get(acct, 0)}
        for acct in order
    ]  # fmt: skip
    return {**season_json(season), "standings": table}


async def close_season(db: AsyncSession, club_id: int) -> dict[str, Any]:
    """Close the open season and open the next (one transaction): its table stays
    readable; the next starts from nothing."""
    season = await _season(db, club_id, None)
    closed = await db.execute(
        update(ClubSeason)
        .where(ClubSeason.id == season.id, ClubSeason.closed_at.is_(None))
        .values(closed_at=now())
        .execution_options(synchronize_session=False)
    )
    if getattr(closed, "rowcount", 1) != 1:
        await db.rollback()
        raise ApiError("season_closed", "the season was closed meanwhile", 409)
    db.add(ClubSeason(club_id=club_id, number=season.number + 1))
    try:
        await db.commit()
    except IntegrityError:
        await db.rollback()
        raise ApiError("season_closed", "the season was closed meanwhile", 409) from None
    return {"closed": season.number, "open": season.number + 1}
