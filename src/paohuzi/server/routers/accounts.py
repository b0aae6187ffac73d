"""The account endpoints: sign-up, login, guests, logout, and an account's ledger and matches."""

from typing import Annotated, Any

from fastapi import APIRouter, Header, Request
from sqlalchemy import func, select

from .. import accounts
from ..db import Account, LedgerEntry, MatchRow, RoomRow, RoomSeat
from ..deps import Db, Me, Srv, address, bearer
from ..errors import ApiError
from ..logouts import CHANNEL as LOGOUT_CHANNEL
from ..schemas import Credentials, GuestBody, RegisterBody

__all__ = ["account_json", "ledger_json", "router"]

router = APIRouter()


def account_json(a: Account) -> dict[str, Any]:
    """An account as the API shows it."""
    return {
        "id": a.id,
        "username": a.username,
        "nickname": a.nickname,
        "kind": a.kind,
        "balance": a.balance,
    }


def ledger_json(r: LedgerEntry) -> dict[str, Any]:
    """A ledger row as the API shows it."""
    return {
        "account_id": r.account_id,
        "delta": r.delta,
        "balance_after": r.balance_after,
        "reason": r.reason,
        "match_id": r.match_id,
        "round": r.round_index,
    }


@router.post("/accounts/register", status_code=201)
async def register(body: RegisterBody, db: Db, request: Request, srv: Srv) -> dict[str, Any]:
    srv.rates.signup.take(address(request))
    acct = await accounts.create_account(
        db,
        kind="user",
        nickname=body.nickname or body.username,
        username=body.username,
        password=body.password,
    )
    token = await accounts.new_session(db, acct)
    await db.commit()
    return {"token": token, "account": account_json(acct)}


@router.post("/accounts/login")
async def login(body: Credentials, db: Db, request: Request, srv: Srv) -> dict[str, Any]:
    where = address(request)
    srv.logins.check(body.username, where)
    try:
        acct = await accounts.login(db, body.username, body.password)
    except ApiError:
        srv.logins.failed(body.username, where)
        raise
    token = await accounts.new_session(db, acct)
    await db.commit()
    return {"token": token, "account": account_json(acct)}


@router.post("/accounts/guest", status_code=201)
async def guest(body: GuestBody, db: Db, request: Request, srv: Srv) -> dict[str, Any]:
    srv.rates.signup.take(address(request))
    acct = await accounts.create_account(db, kind="guest", nickname=body.nickname)
    token = await accounts.new_session(db, acct)
    await db.commit()
    return {"token": token, "account": account_json(acct)}


@router.post("/accounts/logout", status_code=204)
async def logout(
    me: Me, db: Db, srv: Srv, authorization: Annotated[str | None, Header()] = None
) -> None:
    token = bearer(authorization)
    assert token is not None
    await accounts.logout(db, token)
    await db.commit()
    token_hash = accounts.hash_token(token)
    srv.hub.signed_in.end(token_hash)  # this worker's sockets; the others' through Redis
    if srv.hub.cluster is not None:
        await srv.hub.cluster.redis.publish(LOGOUT_CHANNEL, token_hash)


@router.get("/accounts/me")
async def me_(me: Me) -> dict[str, Any]:
    return account_json(me)


@router.get("/accounts/me/ledger")
async def ledger(me: Me, db: Db) -> list[dict[str, Any]]:
    rows = (
        await db.scalars(
            select(LedgerEntry).where(LedgerEntry.account_id == me.id).order_by(LedgerEntry.id)
        )
    ).all()
    return [ledger_json(r) for r in rows]


@router.get("/accounts/me/matches")
async def my_matches(me: Me, db: Db) -> list[dict[str, Any]]:
    rows = (
        await db.execute(
            select(MatchRow, RoomSeat.seat, RoomRow.code)
            .join(RoomSeat, RoomSeat.room_id == MatchRow.room_id)
            .join(RoomRow, RoomRow.id == MatchRow.room_id)
            .where(RoomSeat.account_id == me.id)
            .order_by(MatchRow.id.desc())
        )
    ).all()
    out = []
    for match, seat, code in rows:
        net = await db.scalar(
            select(func.coalesce(func.sum(LedgerEntry.delta), 0)).where(
                LedgerEntry.match_id == match.id, LedgerEntry.account_id == me.id
            )
        )
        out.append(
            {
                "match_id": match.id,
                "room": code,
                "seat": seat,
                "status": match.status,
                "rounds": match.rounds_total,
                "net": int(net or 0),  # on the ledger: 0 in a "local" match
                "scoring": match.scoring,
                "dissolved": bool(match.dissolve and match.dissolve.get("outcome")),
                "started": match.created_at.isoformat(),
            }
        )
    return out
