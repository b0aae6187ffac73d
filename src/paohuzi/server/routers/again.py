"""再来一局: after a match, the same seats start a new match once all its people agree.

The first of a finished room's people to ask makes the follow-up room (the same options,
the bots in their seats) and is seated there in the same seat; each other person who asks
takes their own old seat in it; when the last person has, the match starts. A person who
never asks leaves the others in an open room, which they can fill or leave as any room."""

import secrets
from typing import Any

from fastapi import APIRouter, Request
from sqlalchemy import update
from sqlalchemy.engine import CursorResult

from ..clubdb import ClubRoom
from ..db import RoomRow, RoomSeat
from ..deps import Db, Me, Srv, address
from ..errors import ApiError
from ..rooms import find_room, new_code, room_json
from ..seating import claim_open, commit_seats, seats_of
from ..services.seats import seat_bots
from ..services.start import start_match

__all__ = ["router"]

router = APIRouter()


async def _follow_up(db: Db, old: RoomRow, me_id: int, bots: list[RoomSeat]) -> RoomRow:
    """The finished room's follow-up room, made now (hosted by ``me_id``) if it has none;
    of two made at once, one is kept (the other request answers ``busy``)."""
    if old.next_room_id is not None:
        new = await db.get(RoomRow, old.next_room_id)
        assert new is not None
        return new
    new = RoomRow(code=await new_code(db), host_id=me_id, public=old.public, rounds=old.rounds,
                  rules=old.rules, status="open", time_limit=old.time_limit,
                  ready_seconds=old.ready_seconds,
                  invite_key=None if old.public else secrets.token_urlsafe(16))  # fmt: skip
    db.add(new)
    await db.flush()
    result = await db.execute(
        update(RoomRow)
        .where(RoomRow.id == old.id, RoomRow.next_room_id.is_(None))
        .values(next_room_id=new.id)
        .execution_options(synchronize_session=False)
    )
    assert isinstance(result, CursorResult)
    if result.rowcount != 1:
        await db.rollback()
        raise ApiError(
            "busy", "another player asked for 再来一局 at the same moment; try again", 503
        )
    club = await db.get(ClubRoom, old.id)
    if club is not None:  # a club's room's follow-up is the club's too (its members, its
        # template's "no bots", its standings); it was a private room open to any key holder
        db.add(ClubRoom(room_id=new.id, club_id=club.club_id, template_id=club.template_id,
                        bots=club.bots))  # fmt: skip
    seated: list[RoomSeat] = []
    for b in bots:
        assert b.bot is not None
        await seat_bots(db, new, seated, b.seat, b.bot)
        seated.append(RoomSeat(room_id=new.id, seat=b.seat, account_id=0, bot=b.bot))
    return new


@router.post("/rooms/{code}/again")
async def play_again(code: str, me: Me, db: Db, request: Request, srv: Srv) -> dict[str, Any]:
    """Ask for 再来一局 in finished room ``code``: the follow-up room (started once all agreed)."""
    async with srv.hub.lock:
        old = await find_room(db, srv.rates, code, address(request), me, None)
        if old.status != "finished":
            raise ApiError("not_finished", f"room {code}'s match is not over", 409)
        old_seats = await seats_of(db, old.id)
        mine = next((s for s in old_seats if s.account_id == me.id and s.bot is None), None)
        if mine is None:
            raise ApiError("not_seated", f"this account played no seat in room {code}", 409)
        new = await _follow_up(db, old, me.id, [s for s in old_seats if s.bot is not None])
        if new.status != "open":
            await db.commit()
            raise ApiError("room_started", f"room {new.code} has started", 409)
        seats = await seats_of(db, new.id)
        if all(s.account_id != me.id for s in seats):
            db.add(RoomSeat(room_id=new.id, seat=mine.seat, account_id=me.id, bot=None))
        await commit_seats(db)
        seats = await seats_of(db, new.id)
        people = {s.account_id for s in old_seats if s.bot is None}
        if len(seats) == 3 and people <= {s.account_id for s in seats}:  # all agreed
            await claim_open(db, new, "playing")
            await start_match(db, srv.hub, new, await seats_of(db, new.id),
                              request.app.state.seeds)  # fmt: skip
        return await room_json(db, new, me)
