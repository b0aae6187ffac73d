"""Signing a socket in (its ``auth`` message) and attaching it to its room's table: the live
one, a finished match's from the database, another worker's through the cluster, or the
room's waiting list until it starts."""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import select

from .. import accounts, fairplay, nearby
from ..db import MatchRow, RoomRow, RoomSeat
from ..errors import ApiError
from ..hub import Hub
from ..protocol import Auth, error_dict, waiting_dict
from ..ratelimit import Rates
from ..rooms import find_room, running_tournament, seat_rows, warnings_of
from ..tables import Connection, TableHandle

__all__ = ["sign_in"]


async def _room_and_seat(
    hub: Hub, rates: Rates, m: Auth, code: str, who: tuple[str, str | None]
) -> tuple[int, RoomRow, int | None, tuple[list[list[int]], list[list[int]]]]:
    """The token's account, the room (as that account may see it), its seat there, and
    the seats that share an address (fairplay.py) and that are close by (nearby.py; an
    open room only); ``ApiError`` if the token or the room is refused."""
    async with hub.sessions() as db:
        acct = await accounts.account_for_token(db, m.token)
        if acct is None:
            raise ApiError("unauthenticated", "unknown or expired token")
        room = await find_room(db, rates, code, who[0], acct, who[1])
        seat = await db.scalar(
            select(RoomSeat.seat).where(RoomSeat.room_id == room.id, RoomSeat.account_id == acct.id)
        )
        if seat is None and (tid := await running_tournament(db, room.id)) is not None:
            # Its deal is played at the other tables too: watching one shows their cards.
            raise ApiError(
                "not_allowed",
                f"the tables of tournament {tid} are not watched while it is being played",
            )
        shared: list[list[int]] = []
        near: list[list[int]] = []
        if room.status == "open":
            shared, near = warnings_of(await seat_rows(db, room.id))
    return acct.id, room, seat, (shared, near)


async def _table_for(hub: Hub, code: str, room: RoomRow) -> TableHandle | None:
    """The room's table as a socket may attach to it now, if it has one."""
    table: TableHandle | None = hub.tables.get(code)
    if table is not None or room.status == "open":
        return table
    async with hub.sessions() as db:
        row = await db.scalar(
            select(MatchRow).where(MatchRow.room_id == room.id).order_by(MatchRow.id.desc())
        )
        if row is not None and row.status == "finished":
            # A finished match, served from the database (not kept in memory).
            table = await hub.load(db, row, room)
    table = table or hub.tables.get(code)
    if table is None and hub.cluster is not None and room.status == "playing":
        table = await hub.cluster.bind(room)  # owned by another worker, or orphaned
    return table


async def sign_in(
    hub: Hub,
    rates: Rates,
    m: Auth,
    code: str,
    conn: Connection,
    who: tuple[str, str | None],
    logged_out: Callable[[], None],
) -> None:
    """Sign ``conn`` in with ``m`` and attach it to the room's table (or have it wait for
    the room to start); ``who`` is its address and invite key, ``logged_out`` what ends it
    when its token is logged out. A refusal goes back on the socket."""
    if conn.account_id is not None:
        conn.put_dict(error_dict("already_authenticated", "this socket is signed in"))
        return
    try:
        account_id, room, seat, warnings = await _room_and_seat(hub, rates, m, code, who)
    except ApiError as e:
        conn.put_dict(error_dict(e.code, e.reason))
        return
    if room.status == "expired":
        conn.put_dict(error_dict("room_expired", f"room {code} expired before it started"))
        return
    if m.spectate:
        seat = None
    elif seat is None:
        conn.put_dict(error_dict("not_seated", "this account has no seat in the room"))
        return
    conn.account_id = account_id
    hub.signed_in.signed_in(conn, accounts.hash_token(m.token), logged_out)
    conn.seat, conn.spectator, conn.views = seat, m.spectate, m.views
    conn.since, conn.batch = m.since, m.batch
    table = await _table_for(hub, code, room)
    if table is None:
        async with hub.lock:
            table = hub.tables.get(code)
            if table is None:
                hub.waiting.setdefault(code, []).append(conn)
                conn.put_dict(waiting_dict(code, seat))
                fairplay.warn([conn], code, warnings[0])
                nearby.warn([conn], code, warnings[1])
                return
    await table.attach(conn, m.since)
