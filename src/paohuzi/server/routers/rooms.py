"""The room endpoints: create a room, look one up, join, leave, seat bots, start its match."""

import secrets
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Request
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value

from ...core.match import Match
from .. import fairplay, nearby, rulesets
from ..commit import transaction
from ..db import MatchRow, RoomRow, RoomSeat
from ..deps import Db, MaybeMe, Me, Srv, address
from ..errors import ApiError
from ..protocol import error_dict
from ..rooms import check_quota, find_room, new_code, room_json
from ..schemas import BOT_KINDS, BotBody, JoinBody, LocationBody, RoomBody
from ..seating import claim, claim_open, commit_seats, seat_taken
from ..services.analysis import app_pool
from ..services.clubrooms import bots_allowed
from ..services.seats import find_open, seat_bots, take_seat
from ..services.start import (
    address_bot_matches_cap,
    bot_matches_cap,
    new_match,
    open_table,
    started_from,
)

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
    try:
        await transaction(srv.sessions, db, lambda s: s.add(room))
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
        room = await find_open(db, srv.rates, code, (me, address(request), body.key))
        key, who, wanted, addr = (room.id, room.code), me.id, body.seat, address(request)
        try:
            seat = await transaction(
                srv.sessions, db, lambda s: take_seat(s, key, who, wanted, addr)
            )
        except IntegrityError:
            raise seat_taken() from None
        out = await room_json(db, room, me)
        fairplay.warn(srv.hub.waiting.get(code, []), code, out["same_address"])
        return {"seat": seat, "room": out}


@router.post("/rooms/{code}/leave")
async def leave(code: str, me: Me, db: Db, request: Request, srv: Srv) -> dict[str, Any]:
    async with srv.hub.lock:
        room = await find_open(db, srv.rates, code, (me, address(request), None))
        key, who = (room.id, room.code), me.id

        def give_up_seat(s: Session) -> None:
            mine = [x for x in claim(s, *key) if x.account_id == who]
            if not mine:
                raise ApiError("not_seated", "this account has no seat here", 409)
            for x in mine:
                s.delete(x)
            nearby.withdraw_in(s, key[0], who)

        await transaction(srv.sessions, db, give_up_seat)
        for c in srv.hub.waiting.get(code, []):
            if c.account_id == me.id:
                c.put_dict(error_dict("left", "you left the room"))
        return await room_json(db, room, me)


async def _at_my_seat(
    db: Db, srv: Srv, code: str, me: Me, request: Request, change: Callable[[Session, int], None]
) -> RoomRow:
    """The open room, claimed and changed by ``change(session, room id)`` in one
    transaction, if ``me`` has a seat in it: 403 ``not_seated`` otherwise (a spectator, a
    host without a seat), after the per-account rate."""
    srv.rates.location.take(f"account:{me.id}")
    room = await find_open(db, srv.rates, code, (me, address(request), None))
    key, who = (room.id, room.code), me.id

    def at_seat(s: Session) -> None:
        if not any(x.account_id == who and x.bot is None for x in claim(s, *key)):
            raise ApiError("not_seated", "only a seated player may share a location here", 403)
        change(s, key[0])

    await transaction(srv.sessions, db, at_seat)
    return room


@router.put("/rooms/{code}/location")
async def share_location(
    code: str, body: LocationBody, me: Me, db: Db, request: Request, srv: Srv
) -> dict[str, Any]:
    """Share this seat's rough position for the close-by warning (nearby.py): the player's
    own choice; kept rounded, for this seat of this open room only, never shown."""
    who, lat, lon = me.id, body.lat, body.lon
    async with srv.hub.lock:
        room = await _at_my_seat(
            db, srv, code, me, request, lambda s, r: nearby.record_in(s, r, who, lat, lon)
        )
        out = await room_json(db, room, me)
        nearby.warn(srv.hub.waiting.get(code, []), code, out["close_by"])
        return out


@router.delete("/rooms/{code}/location")
async def withdraw_location(
    code: str, me: Me, db: Db, request: Request, srv: Srv
) -> dict[str, Any]:
    """Withdraw (delete) this seat's shared position."""
    who = me.id
    async with srv.hub.lock:
        room = await _at_my_seat(
            db, srv, code, me, request, lambda s, r: nearby.withdraw_in(s, r, who)
        )
        return await room_json(db, room, me)


@router.post("/rooms/{code}/bots")
async def add_bots(
    code: str, body: BotBody, me: Me, db: Db, request: Request, srv: Srv
) -> dict[str, Any]:
    if body.bot not in BOT_KINDS:
        raise ApiError("bad_bot", f"a bot is one of {list(BOT_KINDS)}, got {body.bot[:40]!r}")
    async with srv.hub.lock:
        who = (me, address(request), None)
        room = await find_open(db, srv.rates, code, who, host="seat bots")
        seats = await claim_open(db, room)
        if not await bots_allowed(db, room.id):
            await db.rollback()
            raise ApiError("no_bots", "this club room's template seats no bots", 403)
        await seat_bots(db, room, seats, body.seat, body.bot)
        await commit_seats(db)
        return await room_json(db, room, me)


@router.post("/rooms/{code}/start")
async def start(code: str, me: Me, db: Db, request: Request, srv: Srv) -> dict[str, Any]:
    async with srv.hub.lock:
        who = (me, address(request), None)
        room = await find_open(db, srv.rates, code, who, host="start the match")
        seeds = request.app.state.seeds  # a room's fixed seed: web.py's test hook
        key, seed = (room.id, room.rules, room.rounds), seeds.get(room.code)

        def claim_and_store(s: Session) -> tuple[list[RoomSeat], MatchRow, Match]:
            # Claimed open -> playing: of concurrent starts, on any worker, one goes on.
            seats = claim(s, key[0], code, "playing")
            bot_matches_cap(s, me.id, seats)
            cap = int(srv.rates.settings.bot_matches_address)
            address_bot_matches_cap(srv.hub, cap, who[1], seats)
            return seats, *new_match(s, key, seats, seed)

        seats, row, match = await transaction(srv.sessions, db, claim_and_store)
        started_from(srv.hub, who[1], seats, row.id)
        seeds.pop(room.code, None)
        set_committed_value(room, "status", "playing")
        await open_table(srv.hub, room, seats, row, match)
        started = {"match_id": row.id, "room": await room_json(db, room, me)}
    if sum(s.bot is None for s in seats) == 1:  # a practice game: its 提示 soon asked
        app_pool(request.app.state).warm_hints()  # (a process start: not under the lock)
    return started
