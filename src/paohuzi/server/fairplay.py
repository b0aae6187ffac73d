"""Same-address warnings: when two seated players of a room joined from one network address,
everyone who sees the room is told before the start (the room's ``same_address`` field, and
a ``same_address`` message to the room's sockets); play is never blocked. Only a hash of the
address, salted with the room, is stored, and only the seat groups are shown."""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Iterable

from sqlalchemy import delete
from sqlalchemy.orm import Session

from .clubdb import SeatAddress
from .outbox import Connection
from .protocol import same_address_dict

__all__ = ["address_hash", "by_address", "record_in", "warn"]


def address_hash(room_id: int, address: str) -> str:
    """The address as stored: SHA-256 of the room and the address."""
    return hashlib.sha256(f"{room_id}|{address}".encode()).hexdigest()


def record_in(session: Session, room_id: int, account_id: int, address: str) -> None:
    """Note where the account joined the room from (its last join counts); the caller
    commits."""
    session.execute(
        delete(SeatAddress).where(
            SeatAddress.room_id == room_id, SeatAddress.account_id == account_id
        )
    )
    session.add(SeatAddress(room_id=room_id, account_id=account_id,
                            address_hash=address_hash(room_id, address)))  # fmt: skip


def by_address(seats: Iterable[tuple[int, str]]) -> list[list[int]]:
    """The groups of seats (``(seat, address hash)`` pairs) that share an address."""
    by: dict[str, list[int]] = defaultdict(list)
    for seat, digest in seats:
        by[digest].append(seat)
    return sorted(sorted(g) for g in by.values() if len(g) > 1)


def warn(conns: Iterable[Connection], code: str, found: list[list[int]]) -> None:
    """Tell ``conns`` (sockets waiting for the room) of ``found``, if any."""
    if found:
        msg = same_address_dict(code, found)
        for c in conns:
            c.put_dict(msg)
