"""A club's rooms: its templates (rules the server allows, rounds, time limit, bot seats or
not), opening a room from one (private, and seen by the club's members only: rooms.py asks
clubaccess.py), whether a club room may seat bots, and the club's lobby of open and running
tables."""

from __future__ import annotations

import secrets
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from sqlalchemy.orm import Session

from .. import rulesets
from ..clubaccess import club_row
from ..clubdb import Club, ClubRoom, ClubTemplate
from ..commit import transaction
from ..db import LIVE_ROOM, RoomRow
from ..errors import ApiError
from ..ratelimit import Rates
from ..rooms import check_quota, new_code, room_json
from .clubs import Caller

__all__ = [
    "MAX_TEMPLATES",
    "bots_allowed",
    "club_lobby",
    "delete_template",
    "new_template",
    "open_room",
    "template_json",
    "templates_json",
]

MAX_TEMPLATES = 20  # templates of one club


def template_json(t: ClubTemplate) -> dict[str, Any]:
    """A template as members see it."""
    return {
        "id": t.id,
        "name": t.name,
        "rules": t.rules,
        "rounds": t.rounds,
        "time_limit": t.time_limit,
        "bots": t.bots,
    }


async def new_template(
    db: AsyncSession,
    sessions: async_sessionmaker[AsyncSession],
    c: Caller,
    name: str,
    rules: dict[str, int | bool | str | float | None],
    rounds: int,
    time_limit: float | None,
    bots: bool,
) -> ClubTemplate:
    """An admin's new template; its rules are checked as a room's are (rulesets.py).

    Counted and added in one transaction that holds the club's row: counted apart, 30
    concurrent creates all went in past the cap."""
    rulesets.room_rules(dict(rules), rounds)  # 400 bad_rules naming the field
    club_id = c.club.id

    def add(s: Session) -> ClubTemplate:
        # A write first: it holds the club's row on PostgreSQL and SQLite's write lock,
        # so of concurrent creates (on any worker) each counts after the last went in.
        s.execute(update(Club).where(Club.id == club_id).values(id=Club.id))
        n = s.scalar(select(func.count()).where(ClubTemplate.club_id == club_id))
        if (n or 0) >= MAX_TEMPLATES:
            raise ApiError(
                "too_many_templates", f"a club has at most {MAX_TEMPLATES} templates", 409
            )
        t = ClubTemplate(club_id=club_id, name=name, rules=dict(rules), rounds=rounds,
                         time_limit=time_limit, bots=bots)  # fmt: skip
        s.add(t)
        s.flush()
        return t

    return await transaction(sessions, db, add)


async def templates_json(db: AsyncSession, c: Caller) -> list[dict[str, Any]]:
    """The club's templates, oldest first."""
    rows = await db.scalars(
        select(ClubTemplate).where(ClubTemplate.club_id == c.club.id).order_by(ClubTemplate.id)
    )
    return [template_json(t) for t in rows.all()]


async def delete_template(db: AsyncSession, c: Caller, template_id: int) -> None:
    """An admin deletes a template (rooms opened from it keep their rules)."""
    t = await club_row(db, c.club.id, ClubTemplate, template_id, "template")
    for cr in (await db.scalars(select(ClubRoom).where(ClubRoom.template_id == t.id))).all():
        cr.template_id = None
    await db.delete(t)
    await db.commit()


async def open_room(
    db: AsyncSession, rates: Rates, c: Caller, template_id: int, address: str
) -> dict[str, Any]:
    """A member opens a room from a template: a private room hosted by the member, that
    only the club's members see, join and watch. Counted against the member's rooms."""
    t = await club_row(db, c.club.id, ClubTemplate, template_id, "template")
    rules = rulesets.room_rules(dict(t.rules), t.rounds)
    await check_quota(db, rates, c.me, address)
    room = RoomRow(
        code=await new_code(db),
        host_id=c.me.id,
        public=False,
        rounds=t.rounds,
        rules=rules.to_dict(),
        status="open",
        time_limit=t.time_limit,
        invite_key=secrets.token_urlsafe(16),
    )
    db.add(room)
    try:
        await db.flush()
        db.add(ClubRoom(room_id=room.id, club_id=c.club.id, template_id=t.id, bots=t.bots))
        await db.commit()
    except IntegrityError:  # another room took the code a moment ago
        await db.rollback()
        raise ApiError("busy", "that room code was just taken; try again", 503) from None
    return await room_json(db, room, c.me)


async def bots_allowed(db: AsyncSession, room_id: int) -> bool:
    """Whether bots may take the room's seats: any room but a club's whose template
    said no."""
    allowed = await db.scalar(select(ClubRoom.bots).where(ClubRoom.room_id == room_id))
    return allowed is None or bool(allowed)


async def club_lobby(db: AsyncSession, c: Caller) -> list[dict[str, Any]]:
    """The club's open and running tables, newest first (at most 100)."""
    rooms = (
        await db.scalars(
            select(RoomRow)
            .join(ClubRoom, ClubRoom.room_id == RoomRow.id)
            .where(ClubRoom.club_id == c.club.id, RoomRow.status.in_(LIVE_ROOM))
            .order_by(RoomRow.id.desc())
            .limit(100)
        )
    ).all()
    return [await room_json(db, r, c.me) for r in rooms]
