"""A table's sockets coming and going, and 托管: attaching a socket (its snapshot; a
returning person's seat leaves disconnect-托管), detaching one (a seat left with no socket
starts its grace period), a seat's 托管 on or off (stored before it is told). These are
``Table``'s methods ``attach``, ``detach`` and ``set_tuoguan`` (bound in its class body).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import persist
from .protocol import seats_dict

if TYPE_CHECKING:
    from .outbox import Connection
    from .tables import Table

__all__ = ["attach", "detach", "set_tuoguan"]


async def attach(table: Table, conn: Connection, since: int | None) -> None:
    """Register a seat's socket and send it the snapshot; a returning person's seat
    leaves disconnect-托管 (with a fresh clock for its open decision)."""
    async with table.lock:
        conn.table = table
        s = conn.seat
        if s is not None and table.clock.arrive(s):
            table.clock.restart(s, table._acting(s))
        table.audience(s).conns.add(conn)
        table.snapshot(conn, since)
        table.tell_status()
        table.driver.wake.set()


def detach(table: Table, conn: Connection) -> None:
    """Forget a closed socket; a seat with none left starts its grace period."""
    s = conn.seat
    conns = table.audience(s).conns
    if conn not in conns:
        return
    conns.discard(conn)
    if s is not None and not conns and table.seats[s].bot is None:
        table.clock.leave(s)
        table.tell_status()
        table.driver.wake.set()


async def set_tuoguan(table: Table, conn: Connection, on: bool) -> None:
    """托管 on or off for the socket's seat, stored before it is told."""
    async with table.seated(conn, "a spectator has no seat to hand over") as s:
        if table.seats[s].tuoguan != on:
            await persist.store_tuoguan(table, s, on)
            table.seats[s].tuoguan = on
        if not table.tell_status():
            conn.put_dict(seats_dict(table._status))  # the answer, even when nothing changed
        if not on:  # the seat's prompt again, with a fresh deadline
            table.clock.restart(s, table._acting(s))
            table._broadcast(only=s)
        table.driver.wake.set()
