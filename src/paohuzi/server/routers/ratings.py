"""Ratings: an account's openskill rating with its uncertainty, the bots' fixed published
ratings, and the leaderboard (ratings.py)."""

from typing import Annotated, Any

from fastapi import APIRouter, Path
from sqlalchemy import select

from ..clubdb import Rating
from ..db import Account, RoomSeat
from ..deps import Db
from ..errors import ApiError
from ..ratings import BOT_RATINGS, PRIOR, SkillRating, bot_rating, rating_json

__all__ = ["router"]

router = APIRouter(tags=["ratings"])


@router.get("/ratings/bots")
async def bots() -> dict[str, Any]:
    return {kind: rating_json(r, bot=kind) for kind, r in BOT_RATINGS.items()}


@router.get("/ratings")
async def leaderboard(db: Db) -> list[dict[str, Any]]:
    """The 100 best-rated people by ``mu - 3·sigma``."""
    rows = (
        await db.execute(
            select(Rating, Account.nickname)
            .join(Account, Account.id == Rating.account_id)
            .order_by((Rating.mu - 3 * Rating.sigma).desc(), Rating.account_id)
            .limit(100)
        )
    ).all()
    return [
        {"account_id": r.account_id, "nickname": nick,
         **rating_json(SkillRating(r.mu, r.sigma, r.matches))}
        for r, nick in rows
    ]  # fmt: skip


@router.get("/accounts/{account_id}/rating")
async def rating(account_id: Annotated[int, Path(ge=1, le=2**31 - 1)], db: Db) -> dict[str, Any]:
    acct = await db.get(Account, account_id)
    if acct is None:
        raise ApiError("no_account", f"no account {account_id}", 404)
    if acct.kind == "bot":
        kind = await db.scalar(select(RoomSeat.bot).where(RoomSeat.account_id == acct.id))
        fixed = bot_rating(kind) if kind is not None else None
        if fixed is not None:
            return {"account_id": acct.id, **rating_json(fixed, bot=kind)}
    row = await db.get(Rating, acct.id)
    r = PRIOR if row is None else SkillRating(row.mu, row.sigma, row.matches)
    return {"account_id": acct.id, **rating_json(r)}
