"""The room endpoints: create a room, look one up, join, leave, seat bots, start its match."""

import secrets
from typing import Any

from fastapi import APIRouter, Request
from sqlalchemy.exc import IntegrityError

from .. import fairplay, nearby, rulesets
from ..db import RoomRow, RoomSeat
from ..deps import Db, MaybeMe, Me, Srv, address
from ..errors import ApiError
from ..protocol import error_dict
from ..rooms import check_quota, find_room, new_code, room_json
from ..schemas import BOT_KINDS, BotBody, JoinBody, LocationBody, RoomBody
from ..seating import commit_seats
from ..services.clubrooms import bots_allowed
from ..services.seats import free_seat, open_room, seat_bots
from ..services.start import start_match

__all__ = ["router"]

router = APIRouter()


@router.post("/rooms", status_code=201)
async def create_room(body: RoomBody, me: Me, db: Db, request: Request, srv: Srv) -> dict[str, Any]:
    rules = rulesets.room_rules(dict(body.rules), body.rounds)
    await check_quota(db, srv.rates, me, address(request))
    room = RoomRow(
        code=await new_code(db),
        host_id=me.id,
        public=body.public,
        rounds=body.rounds,
        rules=rules.to_dict(),
        status="open",
        time_limit=body.time_limit,
        ready_seconds=body.ready_seconds,
        invite_key=None if body.public else secrets.token_urlsafe(16),
    )
    db.add(room)
    try:
        await db.commit()
    except IntegrityError:  # another room took the code a moment ago
        raise ApiError("busy", "that room code was just taken; try again", 503) from None
    return await room_json(db, room, me)


@router.get("/rooms/{code}")
async def room_info(
    code: str, db: Db, request: Request, me: MaybeMe, srv: Srv, key: str | None = None
) -> dict[str, Any]:
    room = await find_room(db, srv.rates, code, address(request), me, key)
    return await room_json(db, room, me)


@router.post("/rooms/{code}/join")
async def join(
    code: str, body: JoinBody, me: Me, db: Db, request: Request, srv: Srv
) -> dict[str, Any]:
    async with srv.hub.lock:
        room, seats = await open_room(db, srv.rates, code, (me, address(request), body.key))
        if any(s.account_id == me.id for s in seats):
            await db.rollback()
            raise ApiError("already_seated", "this account already has a seat here", 409)
        seat = await free_seat(db, seats, body.seat)
        db.add(RoomSeat(room_id=room.id, seat=seat, account_id=me.id, bot=None))
        await fairplay.record(db, room.id, me.id, address(request))
        await commit_seats(db)
        out = await room_json(db, room, me)
        fairplay.warn(srv.hub.waiting.get(code, []), code, out["same_address"])
        return {"seat": seat, "room": out}


@router.post("/rooms/{code}/leave")
async def leave(code: str, me: Me, db: Db, request: Request, srv: Srv) -> dict[str, Any]:
    async with srv.hub.lock:
        room, seats = await open_room(db, srv.rates, code, (me, address(request), None))
        mine = [s for s in seats if s.account_id == me.id]
        if not mine:
            await db.rollback()
            raise ApiError("not_seated", "this account has no seat here", 409)
        for s in mine:
            await db.delete(s)
        await nearby.withdraw(db, room.id, me.id)
        await db.commit()
        for c in srv.hub.waiting.get(code, []):
            if c.account_id == me.id:
                c.put_dict(error_dict("left", "you left the room"))
        return await room_json(db, room, me)


async def _my_open_seat(db: Db, srv: Srv, code: str, me: Me, request: Request) -> RoomRow:
    """The open room (claimed), if ``me`` has a seat in it: 403 ``not_seated`` otherwise
    (a spectator, a host without a seat), after the per-account rate."""
    srv.rates.location.take(f"account:{me.id}")
    room, seats = await open_room(db, srv.rates, code, (me, address(request), None))
    if not any(s.account_id == me.id and s.bot is None for s in seats):
        await db.rollback()
        raise ApiError("not_seated", "only a seated player may share a location here", 403)
    return room


@router.put("/rooms/{code}/location")
async def share_location(
    code: str, body: LocationBody, me: Me, db: Db, request: Request, srv: Srv
) -> dict[str, Any]:
    """Share this seat's rough position for the close-by warning (nearby.py): the player's
    own choice; kept rounded, for this seat of this open room only, never shown."""
    async with srv.hub.lock:
        room = await _my_open_seat(db, srv, code, me, request)
        await nearby.record(db, room.id, me.id, body.lat, body.lon)
        await db.commit()
        out = await room_json(db, room, me)
        nearby.warn(srv.hub.waiting.get(code, []), code, out["close_by"])
        return out


@router.delete("/rooms/{code}/location")
async def withdraw_location(
    code: str, me: Me, db: Db, request: Request, srv: Srv
) -> dict[str, Any]:
    """Withdraw (delete) this seat's shared position."""
    async with srv.hub.lock:
        room = await _my_open_seat(db, srv, code, me, request)
        await nearby.withdraw(db, room.id, me.id)
        await db.commit()
        return await room_json(db, room, me)


@router.post("/rooms/{code}/bots")
async def add_bots(
    code: str, body: BotBody, me: Me, db: Db, request: Request, srv: Srv
) -> dict[str, Any]:
    if body.bot not in BOT_KINDS:
        raise ApiError("bad_bot", f"a bot is one of {list(BOT_KINDS)}, got {body.bot[:40]!r}")
    async with srv.hub.lock:
        who = (me, address(request), None)
        room, seats = await open_room(db, srv.rates, code, who, host="seat bots")
        if not await bots_allowed(db, room.id):
            await db.rollback()
            raise ApiError("no_bots", "this club room's template seats no bots", 403)
        await seat_bots(db, room, seats, body.seat, body.bot)
        await commit_seats(db)
        return await room_json(db, room, me)


@router.post("/rooms/{code}/start")
async def start(code: str, me: Me, db: Db, request: Request, srv: Srv) -> dict[str, Any]:
    async with srv.hub.lock:
        # Claimed open -> playing: of concurrent starts, on any worker, one goes on.
        who = (me, address(request), None)
        room, seats = await open_room(
            db, srv.rates, code, who, host="start the match", status="playing"
        )
        row = await start_match(db, srv.hub, room, seats, request.app.state.seeds)
        return {"match_id": row.id, "room": await room_json(db, room, me)}
