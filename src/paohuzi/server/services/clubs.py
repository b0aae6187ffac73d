"""A club's membership: creating a club (its owner, code, invite key and first season),
asking to join by code and being approved, joining by invite link, roles, removal, leaving,
and the member list with who is online and at which table.

A club is shown only to its members: to anyone else (pending requests included) every
club id is ``no_club`` (404), the same answer as no club at all.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from ..clubaccess import MEMBER_ROLES, Role, role_of
from ..clubdb import Club, ClubMember, ClubSeason
from ..db import Account
from ..errors import ApiError
from ..hub import Hub
from ..online import everywhere
from ..ratelimit import Rates
from ..rooms import same_key

__all__ = [
    "MAX_MEMBERS",
    "MAX_OWNED",
    "MAX_PENDING",
    "Caller",
    "approve",
    "club_json",
    "create_club",
    "join_by_invite",
    "members_json",
    "my_clubs",
    "remove",
    "request_join",
    "set_role",
    "the_club",
]

MAX_OWNED = 10  # clubs one account may own
MAX_MEMBERS = 500  # members (and admins, the owner) of one club
MAX_PENDING = 100  # requests waiting for approval in one club
_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I
_RANK = {Role.OWNER: 3, Role.ADMIN: 2, Role.MEMBER: 1, Role.PENDING: 0}


@dataclass(frozen=True)
class Caller:
    """A member calling on a club: the club, the account and its role there."""

    club: Club
    me: Account
    role: Role


def _no_club(club_id: object) -> ApiError:
    return ApiError("no_club", f"no club {str(club_id)[:16]!r} (or you are not a member)", 404)


async def the_club(
    db: AsyncSession, club_id: int, me: Account, least: Role = Role.MEMBER
) -> Caller:
    """The club as a member sees it; 404 ``no_club`` to anyone else, 403 ``not_admin`` /
    ``not_owner`` to a member whose role is below ``least``."""
    club = await db.get(Club, club_id)
    role = None if club is None else await role_of(db, club_id, me.id)
    if club is None or role not in MEMBER_ROLES:
        raise _no_club(club_id)
    assert role is not None
    if _RANK[role] < _RANK[least]:
        raise ApiError(f"not_{least.value}", f"only the club's {least.value}s may do this", 403)
    return Caller(club, me, role)


def club_json(c: Caller) -> dict[str, Any]:
    """The club as a member sees it: the invite key to admins and the owner only."""
    admin = _RANK[c.role] >= _RANK[Role.ADMIN]
    return {
        "id": c.club.id,
        "name": c.club.name,
        "code": c.club.code,
        "owner_id": c.club.owner_id,
        "role": c.role.value,
        "invite_key": c.club.invite_key if admin else None,
    }


async def _new_code(db: AsyncSession) -> str:
    for _ in range(20):
        code = "".join(secrets.choice(_CODE_ALPHABET) for _ in range(6))
        if await db.scalar(select(Club.id).where(Club.code == code)) is None:
            return code
    raise ApiError("busy", "no free club code; try again", 503)  # pragma: no cover


async def create_club(db: AsyncSession, rates: Rates, me: Account, name: str) -> Caller:
    """A new club owned by ``me``, with its first season open (committed)."""
    rates.clubs.take(f"account:{me.id}")
    owned = await db.scalar(select(func.count()).where(Club.owner_id == me.id))
    if (owned or 0) >= MAX_OWNED:
        raise ApiError("too_many_clubs", f"an account may own {MAX_OWNED} clubs", 409)
    club = Club(
        name=name, code=await _new_code(db), invite_key=secrets.token_urlsafe(16), owner_id=me.id
    )
    db.add(club)
    await db.flush()
    db.add(ClubMember(club_id=club.id, account_id=me.id, role=Role.OWNER.value))
    db.add(ClubSeason(club_id=club.id, number=1))
    try:
        await db.commit()
    except IntegrityError:  # another club took the code a moment ago
        raise ApiError("busy", "that club code was just taken; try again", 503) from None
    return Caller(club, me, Role.OWNER)


async def _count(db: AsyncSession, club_id: int, pending: bool) -> int:
    where = ClubMember.role == Role.PENDING.value
    if not pending:
        where = ClubMember.role != Role.PENDING.value
    n = await db.scalar(select(func.count()).where(ClubMember.club_id == club_id, where))
    return n or 0


async def _full(db: AsyncSession, club_id: int) -> None:
    if await _count(db, club_id, pending=False) >= MAX_MEMBERS:
        raise ApiError("club_full", f"a club has at most {MAX_MEMBERS} members", 409)


async def request_join(
    db: AsyncSession, rates: Rates, me: Account, code: str, address: str
) -> dict[str, Any]:
    """Ask to join the club with ``code``: a pending request its admins approve. A code
    that names no club costs the address's budget of misses (like room codes)."""
    rates.lookup_check(address)
    club = await db.scalar(select(Club).where(Club.code == code.upper()))
    if club is None:
        rates.missed(address)
        raise ApiError("no_club", f"no club with the code {code[:16]!r}", 404)
    role = await role_of(db, club.id, me.id)
    if role is not None:
        raise ApiError("already_member", f"this account is already {role.value} here", 409)
    if await _count(db, club.id, pending=True) >= MAX_PENDING:
        raise ApiError("too_many_requests", "the club has too many open requests", 409)
    db.add(ClubMember(club_id=club.id, account_id=me.id, role=Role.PENDING.value))
    await _commit_member(db)
    return {"club_id": club.id, "name": club.name, "role": Role.PENDING.value}


async def join_by_invite(
    db: AsyncSession, rates: Rates, me: Account, club_id: int, key: str, address: str
) -> Caller:
    """Join at once with the invite link's key (a pending request becomes membership)."""
    rates.lookup_check(address)
    club = await db.get(Club, club_id)
    if club is None or not same_key(key, club.invite_key):
        rates.missed(address)
        raise _no_club(club_id)
    role = await role_of(db, club.id, me.id)
    if role in MEMBER_ROLES:
        assert role is not None
        return Caller(club, me, role)
    await _full(db, club.id)
    if role is None:
        db.add(ClubMember(club_id=club.id, account_id=me.id, role=Role.MEMBER.value))
    else:
        await _set(db, club.id, me.id, Role.MEMBER)
    await _commit_member(db)
    return Caller(club, me, Role.MEMBER)


async def _commit_member(db: AsyncSession) -> None:
    try:
        await db.commit()
    except IntegrityError:  # the same request twice at once
        await db.rollback()
        raise ApiError("already_member", "this account already asked or joined", 409) from None


async def _member_row(db: AsyncSession, club_id: int, account_id: int) -> ClubMember:
    row = await db.get(ClubMember, (club_id, account_id))
    if row is None:
        raise ApiError("no_member", f"account {account_id} is not in this club", 404)
    return row


async def _set(db: AsyncSession, club_id: int, account_id: int, role: Role) -> None:
    row = await _member_row(db, club_id, account_id)
    row.role = role.value


async def approve(db: AsyncSession, c: Caller, account_id: int) -> None:
    """An admin approves a pending request."""
    row = await _member_row(db, c.club.id, account_id)
    if row.role != Role.PENDING.value:
        raise ApiError("not_pending", f"account {account_id} has no open request", 409)
    await _full(db, c.club.id)
    row.role = Role.MEMBER.value
    await db.commit()


async def set_role(db: AsyncSession, c: Caller, account_id: int, role: Role) -> None:
    """The owner makes a member an admin or an admin a member (never a second owner)."""
    if role not in (Role.ADMIN, Role.MEMBER):
        raise ApiError("bad_role", f"a role set here is admin or member, not {role.value!r}")
    row = await _member_row(db, c.club.id, account_id)
    if row.role not in (Role.ADMIN.value, Role.MEMBER.value):
        raise ApiError("bad_role", f"account {account_id} is {row.role}, not a member", 409)
    row.role = role.value
    await db.commit()


async def remove(db: AsyncSession, c: Caller, account_id: int) -> None:
    """Remove a member, an admin (the owner only) or a pending request (decline it);
    yourself: leave (the owner cannot: the club would have none)."""
    row = await _member_row(db, c.club.id, account_id)
    target = Role(row.role)
    if account_id == c.me.id:
        if target is Role.OWNER:
            raise ApiError("owner_stays", "the owner cannot leave the club", 409)
    elif _RANK[c.role] < _RANK[Role.ADMIN] or _RANK[target] >= _RANK[c.role]:
        raise ApiError("not_allowed", f"a {c.role.value} cannot remove a {target.value}", 403)
    await db.delete(row)
    await db.commit()


async def members_json(db: AsyncSession, c: Caller, hub: Hub) -> list[dict[str, Any]]:
    """The members (and, to admins, the pending requests), each with whether it is online
    and the code of the table it sits at."""
    rows = (
        await db.execute(
            select(ClubMember, Account.nickname)
            .join(Account, Account.id == ClubMember.account_id)
            .where(ClubMember.club_id == c.club.id)
            .order_by(ClubMember.joined_at)
        )
    ).all()
    admin = _RANK[c.role] >= _RANK[Role.ADMIN]
    online = await everywhere(hub)  # on every worker (online.py)
    return [
        {
            "account_id": m.account_id,
            "nickname": nick,
            "role": m.role,
            "online": m.account_id in online,
            "table": online.get(m.account_id),
        }
        for m, nick in rows
        if admin or m.role != Role.PENDING.value
    ]


async def my_clubs(db: AsyncSession, me: Account) -> list[dict[str, Any]]:
    """The clubs the account is in or asked to join, with its role."""
    rows = (
        await db.execute(
            select(Club, ClubMember.role)
            .join(ClubMember, ClubMember.club_id == Club.id)
            .where(ClubMember.account_id == me.id)
            .order_by(Club.id)
        )
    ).all()
    out = []
    for club, role in rows:
        if role == Role.PENDING.value:
            out.append({"id": club.id, "name": club.name, "code": club.code, "role": role})
        else:
            out.append(club_json(Caller(club, me, Role(role))))
    return out
