"""The clubs' (亲友圈) endpoints: create, join (by code and approval, or by invite link),
members and roles, templates and the rooms opened from them, the club's lobby, seasons and
standings. Everything under ``/clubs/{club_id}`` answers 404 ``no_club`` to a non-member.
No endpoint changes points: standings come from played rounds only (standings.py)."""

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request

from ..clubaccess import Role
from ..clubschemas import ClubBody, CodeBody, InviteBody, RoleBody, TemplateBody
from ..deps import Db, Me, Srv, address
from ..errors import ApiError
from ..services import clubrooms, clubs
from ..standings import close_season, seasons_json, standings

__all__ = ["router"]

router = APIRouter(tags=["clubs"])

# Ids in paths: positive and within a 32-bit column (else 400, never a database error).
Id = Annotated[int, Path(ge=1, le=2**31 - 1)]


def _name(raw: str) -> str:
    name = raw.strip()
    if not name or not name.isprintable():
        raise ApiError("bad_name", f"a name has 1-32 printable characters, got {raw[:40]!r}")
    return name


@router.post("/clubs", status_code=201)
async def create(body: ClubBody, me: Me, db: Db, srv: Srv) -> dict[str, Any]:
    return clubs.club_json(await clubs.create_club(db, srv.rates, me, _name(body.name)))


@router.get("/clubs")
async def mine(me: Me, db: Db) -> list[dict[str, Any]]:
    return await clubs.my_clubs(db, me)


@router.post("/clubs/requests", status_code=201)
async def ask(body: CodeBody, me: Me, db: Db, request: Request, srv: Srv) -> dict[str, Any]:
    return await clubs.request_join(db, srv.rates, me, body.code, address(request))


@router.post("/clubs/{club_id}/join")
async def join(
    club_id: Id, body: InviteBody, me: Me, db: Db, request: Request, srv: Srv
) -> dict[str, Any]:
    caller = await clubs.join_by_invite(db, srv.rates, me, club_id, body.key, address(request))
    return clubs.club_json(caller)


@router.get("/clubs/{club_id}")
async def info(club_id: Id, me: Me, db: Db) -> dict[str, Any]:
    return clubs.club_json(await clubs.the_club(db, club_id, me))


@router.get("/clubs/{club_id}/members")
async def members(club_id: Id, me: Me, db: Db, srv: Srv) -> list[dict[str, Any]]:
    return await clubs.members_json(db, await clubs.the_club(db, club_id, me), srv.hub)


@router.post("/clubs/{club_id}/members/{account_id}/approve")
async def approve(club_id: Id, account_id: Id, me: Me, db: Db) -> dict[str, Any]:
    caller = await clubs.the_club(db, club_id, me, Role.ADMIN)
    await clubs.approve(db, caller, account_id)
    return {"account_id": account_id, "role": Role.MEMBER.value}


@router.post("/clubs/{club_id}/members/{account_id}/role")
async def set_role(club_id: Id, account_id: Id, body: RoleBody, me: Me, db: Db) -> dict[str, Any]:
    caller = await clubs.the_club(db, club_id, me, Role.OWNER)
    await clubs.set_role(db, caller, account_id, Role(body.role))
    return {"account_id": account_id, "role": body.role}


@router.delete("/clubs/{club_id}/members/{account_id}")
async def remove(club_id: Id, account_id: Id, me: Me, db: Db) -> dict[str, Any]:
    await clubs.remove(db, await clubs.the_club(db, club_id, me), account_id)
    return {"account_id": account_id, "removed": True}


@router.get("/clubs/{club_id}/templates")
async def templates(club_id: Id, me: Me, db: Db) -> list[dict[str, Any]]:
    return await clubrooms.templates_json(db, await clubs.the_club(db, club_id, me))


@router.post("/clubs/{club_id}/templates", status_code=201)
async def new_template(club_id: Id, body: TemplateBody, me: Me, db: Db, srv: Srv) -> dict[str, Any]:
    caller = await clubs.the_club(db, club_id, me, Role.ADMIN)
    t = await clubrooms.new_template(
        db, srv.sessions, caller, _name(body.name), body.rules, body.rounds, body.time_limit,
        body.bots,
    )  # fmt: skip
    return clubrooms.template_json(t)


@router.delete("/clubs/{club_id}/templates/{template_id}")
async def delete_template(club_id: Id, template_id: Id, me: Me, db: Db) -> dict[str, Any]:
    caller = await clubs.the_club(db, club_id, me, Role.ADMIN)
    await clubrooms.delete_template(db, caller, template_id)
    return {"template_id": template_id, "deleted": True}


@router.post("/clubs/{club_id}/templates/{template_id}/open", status_code=201)
async def open_room(
    club_id: Id, template_id: Id, me: Me, db: Db, request: Request, srv: Srv
) -> dict[str, Any]:
    caller = await clubs.the_club(db, club_id, me)
    return await clubrooms.open_room(db, srv.rates, caller, template_id, address(request))


@router.get("/clubs/{club_id}/rooms")
async def lobby(club_id: Id, me: Me, db: Db) -> list[dict[str, Any]]:
    return await clubrooms.club_lobby(db, await clubs.the_club(db, club_id, me))


@router.get("/clubs/{club_id}/seasons")
async def seasons(club_id: Id, me: Me, db: Db) -> list[dict[str, Any]]:
    await clubs.the_club(db, club_id, me)
    return await seasons_json(db, club_id)


@router.get("/clubs/{club_id}/standings")
async def table(
    club_id: Id, me: Me, db: Db, season: Annotated[int | None, Query(ge=1, le=10**6)] = None
) -> dict[str, Any]:
    await clubs.the_club(db, club_id, me)
    return await standings(db, club_id, season)


@router.post("/clubs/{club_id}/seasons/close")
async def close(club_id: Id, me: Me, db: Db) -> dict[str, Any]:
    await clubs.the_club(db, club_id, me, Role.OWNER)
    return await close_season(db, club_id)
