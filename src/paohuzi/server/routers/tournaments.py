"""A club's duplicate tournaments (services/tournaments.py): the owner creates one; a member
asks where to play now (the call also opens the next stage when the last has finished); the
results page has every deal's comparisons, each play's match (its replay) and the ranking."""

from typing import Annotated, Any

from fastapi import APIRouter, Path

from ..clubaccess import Role
from ..clubschemas import TournamentBody
from ..deps import Db, Me, Srv
from ..services import clubs, tournaments

__all__ = ["router"]

router = APIRouter(tags=["clubs"])

Id = Annotated[int, Path(ge=1, le=2**31 - 1)]


@router.post("/clubs/{club_id}/tournaments", status_code=201)
async def create(club_id: Id, body: TournamentBody, me: Me, db: Db, srv: Srv) -> dict[str, Any]:
    caller = await clubs.the_club(db, club_id, me, Role.OWNER)
    t = await tournaments.create(db, caller, body.deals, list(body.players), body.rotations)
    await tournaments.advance(db, srv.hub, t)
    return await tournaments.mine(db, t, me)


@router.get("/clubs/{club_id}/tournaments/{tournament_id}")
async def mine(club_id: Id, tournament_id: Id, me: Me, db: Db, srv: Srv) -> dict[str, Any]:
    t = await tournaments.the_tournament(db, await clubs.the_club(db, club_id, me), tournament_id)
    await tournaments.advance(db, srv.hub, t)
    return await tournaments.mine(db, t, me)


@router.get("/clubs/{club_id}/tournaments/{tournament_id}/results")
async def results(club_id: Id, tournament_id: Id, me: Me, db: Db, srv: Srv) -> dict[str, Any]:
    t = await tournaments.the_tournament(db, await clubs.the_club(db, club_id, me), tournament_id)
    await tournaments.advance(db, srv.hub, t)
    return await tournaments.results(db, t)
