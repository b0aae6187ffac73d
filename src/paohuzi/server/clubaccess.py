"""Who belongs to a club, which club a room belongs to, and which of a club's rows (a
template, a tournament) a member may ask for: the questions every check of a club's rooms
asks (rooms.py's look-up, the clubs' endpoints). A ``pending`` request is not membership:
it sees nothing of the club."""

from __future__ import annotations

from enum import StrEnum
from typing import Protocol, TypeVar

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from .clubdb import ClubMember
from .errors import ApiError

__all__ = ["MEMBER_ROLES", "Role", "club_row", "is_member", "role_of"]


class Role(StrEnum):
    """A place in a club: the owner (one), admins (approve, remove members, templates),
    members, and pending requests."""

    OWNER = "owner"
    ADMIN = "admin"
    MEMBER = "member"
    PENDING = "pending"


MEMBER_ROLES = (Role.OWNER, Role.ADMIN, Role.MEMBER)


async def role_of(db: AsyncSession, club_id: int, account_id: int) -> Role | None:
    """The account's role in the club (``pending`` included), or None."""
    role = await db.scalar(
        select(ClubMember.role).where(
            ClubMember.club_id == club_id, ClubMember.account_id == account_id
        )
    )
    return None if role is None else Role(role)


async def is_member(db: AsyncSession, club_id: int, account_id: int) -> bool:
    """Whether the account is a member (owner, admin or member; not a pending request)."""
    return await role_of(db, club_id, account_id) in MEMBER_ROLES


class _ClubOwned(Protocol):
    """A row that belongs to one club (``ClubTemplate``, ``Tournament``)."""

    @property
    def club_id(self) -> int: ...


_R = TypeVar("_R", bound=_ClubOwned)


async def club_row(db: AsyncSession, club_id: int, model: type[_R], row_id: int, noun: str) -> _R:
    """The club's ``model`` row ``row_id``; 404 ``no_<noun>`` when there is none or it is
    another club's (the same answer: a member learns nothing of other clubs' rows)."""
    row = await db.get(model, row_id)
    if row is None or row.club_id != club_id:
        raise ApiError(f"no_{noun}", f"no {noun} {row_id} in this club", 404)
    return row
