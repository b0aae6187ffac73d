"""The browser client's endpoints beyond the protocol: a seat's 听牌 hint, a finished
round's 结算, a finished match's round step by step, and (tests only) a room's fixed seed.

The JSON they answer with is made by ``server/web.py`` from what the asking seat may see
(RULES.md §14); a match only to whoever may see its room (``rooms.visible_match``, asked
before any cache); finished matches are answered from the cached record
(``Server.replays``) with each round's work done once in a thread and kept
(``Server.derived``).
"""

import asyncio
import json
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from ..db import Account, MatchRow, RoomRow, RoomSeat, room_by_code
from ..deps import Db, MaybeMe, Me, Server, Srv, address
from ..errors import ApiError
from ..replays import rebuild
from ..rooms import visible_match
from ..tables import Table
from ..validation import InviteKey, MatchId
from ..web import (
    MAX_ROUNDS,
    SeedBody,
    hint_json,
    no_round,
    result_json,
    result_json_of,
    steps_json,
)

__all__ = ["router", "seed_router"]

router = APIRouter()
seed_router = APIRouter()  # PAOHUZI_TEST_SEEDS=1 only


async def _table(srv: Server, db: AsyncSession, row: MatchRow) -> Table:
    """The match's table: the live one of this worker, else rebuilt from the database."""
    room = await db.get(RoomRow, row.room_id)
    assert room is not None
    table = srv.hub.tables.get(room.code)
    if table is None or table.match_id != row.id:
        table = await srv.hub.load(db, row, room)
    return table


def _round_key(match_id: int, rnd: int, part: int) -> int:
    """A cache key per (match, round, part): parts 0-2 a seat's steps, 3 the spectators'
    steps, 4 the round's 结算, 5 the steps with every hand open."""
    return (match_id * MAX_ROUNDS + rnd) * 6 + part


async def _record(srv: Server, match_id: int) -> bytes:
    return await srv.replays.get(match_id, lambda: rebuild(srv.sessions, match_id))


@router.get("/rooms/{code}/hint")
async def hint(code: str, me: Me, db: Db, request: Request, srv: Srv) -> dict[str, Any]:
    """The caller's own seat's 听牌 hint, from its view only."""
    srv.rates.lookup_check(address(request))
    room = await db.scalar(room_by_code(code))
    if room is None:
        srv.rates.missed(address(request))
        raise ApiError("no_room", f"no room {code[:16]!r}", 404)
    seat = await db.scalar(
        select(RoomSeat.seat).where(RoomSeat.room_id == room.id, RoomSeat.account_id == me.id)
    )
    if seat is None:  # a miss too: else it would tell which codes are rooms
        srv.rates.missed(address(request))
        raise ApiError("not_seated", "this account has no seat in the room", 403)
    table = srv.hub.tables.get(code)
    if table is None:  # not started, or finished (released): then from the database
        row = await db.scalar(
            select(MatchRow).where(MatchRow.room_id == room.id).order_by(MatchRow.id.desc())
        )
        if row is None:
            raise ApiError("not_started", "the match has not started", 409)
        if row.status != "playing":  # nothing to wait for (rebuilding it cost 70 ms a call;
            # a page's last request may still arrive after the end: no error)
            return {"step": None, "now": [], "after": []}
        table = await _table(srv, db, row)
    return hint_json(table.state, seat, table.step(seat))


@router.get("/matches/{match_id}/rounds/{rnd}")
async def round_result(
    match_id: MatchId,
    rnd: int,
    db: Db,
    request: Request,
    srv: Srv,
    me: MaybeMe,
    key: InviteKey = None,
) -> Response:
    """A finished round's 结算, itemised (to whoever may see the match: the round is
    over, every card face up). A live match's from its table; a finished match's from the
    cached record, worked out once."""
    srv.rates.replay.take(address(request))
    if not 0 <= rnd < MAX_ROUNDS:
        raise no_round(match_id, rnd)
    row = await visible_match(db, match_id, me, key)
    if row.status != "finished":  # live (here or on another worker): from its table
        table = await _table(srv, db, row)
        finished = table.match.finished
        if rnd >= table.match.rounds_total:
            raise no_round(match_id, rnd)
        if rnd >= len(finished):
            raise ApiError("not_finished", f"round {rnd} of match {match_id} is not over", 404)
        body = {"round": rnd, **result_json(finished[rnd])}
        return Response(json.dumps(body, ensure_ascii=False), media_type="application/json")
    await db.close()  # a rebuild may take seconds: wait on it holding no connection
    record = await _record(srv, match_id)

    async def work() -> bytes:
        return await asyncio.to_thread(result_json_of, record, match_id, rnd)

    data = await srv.derived.get(_round_key(match_id, rnd, 4), work)
    return Response(data, media_type="application/json")


@router.get("/matches/{match_id}/replay/{rnd}")
async def replay_round(
    match_id: MatchId,
    rnd: int,
    db: Db,
    request: Request,
    srv: Srv,
    me: MaybeMe,
    seat: Annotated[int | None, Query(ge=0, le=2)] = None,
    key: InviteKey = None,
    open_hands: Annotated[bool, Query(alias="open")] = False,
) -> Response:
    """One round of a finished match step by step, as ``seat`` (None: a spectator) saw
    it, or with every hand open (``open``: what the match's record shows anyway), to
    whoever may see the match: from the cached record, worked out in a thread once and
    kept (anonymous callers too, so no request replays the match again)."""
    srv.rates.replay.take(address(request))
    if not 0 <= rnd < MAX_ROUNDS:
        raise no_round(match_id, rnd)
    row = await visible_match(db, match_id, me, key)
    found = (
        await db.execute(
            select(Account.nickname, RoomSeat.bot, Account.id)
            .join(RoomSeat, RoomSeat.account_id == Account.id)
            .where(RoomSeat.room_id == row.room_id)
            .order_by(RoomSeat.seat)
        )
    ).all()
    # The seats' names, and each seat's bot kind (None: a person): the page names a bot by
    # its level, as at the live table, not by its account's nickname ("putong bot"); and
    # their accounts (as the room shows them), so a player's replay opens at their seat.
    seats = {"names": [n for n, _, _ in found], "bots": [b for _, b, _ in found],
             "accounts": [a for _, _, a in found]}  # fmt: skip
    tail = json.dumps(seats, ensure_ascii=False)[1:-1].encode()  # (the object's members)
    await db.close()  # a rebuild may take seconds: wait on it holding no connection
    record = await _record(srv, match_id)

    who: int | Literal["open"] | None = "open" if open_hands else seat

    async def work() -> bytes:
        return await asyncio.to_thread(steps_json, record, match_id, rnd, who)

    part = 5 if who == "open" else 3 if who is None else who
    steps = await srv.derived.get(_round_key(match_id, rnd, part), work)
    return Response(steps[:-1] + b"," + tail + b"}", media_type="application/json")


@seed_router.post("/rooms/{code}/seed", status_code=204)
async def seed(code: str, body: SeedBody, me: Me, db: Db, request: Request) -> None:
    """Fix a room's deals before its start (tests only: ``PAOHUZI_TEST_SEEDS=1``)."""
    room = await db.scalar(room_by_code(code))
    if room is None:
        raise ApiError("no_room", f"no room {code[:16]!r}", 404)
    if room.host_id != me.id:
        raise ApiError("not_host", "only the host may seed the room", 403)
    request.app.state.seeds[code] = body.seed
