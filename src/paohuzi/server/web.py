"""What the browser client needs beyond the protocol: its files, hints, results, replays.

The browser client (``paohuzi.web``, static ES modules) is served at ``/`` from the same
origin as the API. Three read-only endpoints give it what the WebSocket protocol does
not carry, each computed from information the asking seat may see (RULES.md §14):

- ``GET /rooms/{code}/hint``: the 听牌 hint of the caller's own seat, from its view only;
- ``GET /matches/{id}/rounds/{n}``: a finished round's 结算, itemised (public: the round
  is over and every card is face up);
- ``GET /matches/{id}/replay/{n}?seat=S``: a finished match's round, step by step, as
  seat S (or a spectator) saw it, with the seats' nicknames.

``PAOHUZI_TEST_SEEDS=1`` (off by default) adds ``POST /rooms/{code}/seed`` so tests can
fix a room's deals before its start.
"""

import asyncio
import json
import os
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Query, Request
from fastapi.responses import FileResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from ..core.actions import ActionKind
from ..core.cards import format_faces, glyph
from ..core.engine import new_game
from ..core.groups import Group
from ..core.hand import Wait, WinResult, waits_counts
from ..core.record import MatchRecord
from ..core.state import State
from ..core.views import view
from .db import Account, MatchRow, RoomRow, RoomSeat, room_by_code
from .errors import ApiError
from .protocol import view_to_dict
from .replays import ReplayCache, rebuild
from .validation import MatchId

MAX_ROUNDS = 64  # above any room's rounds (schemas.RoomBody: at most 32)

__all__ = ["WEB_DIR", "add_web", "result_json"]

WEB_DIR = Path(str(resources.files("paohuzi") / "web" / "static"))


class SeedBody(BaseModel):
    """A test's fixed match seed."""

    model_config = ConfigDict(extra="forbid")
    seed: Annotated[int, Field(ge=0, lt=2**63)]


def _win_json(w: WinResult) -> dict[str, Any]:
    return {
        "card": glyph(w.card),
        "how": w.how,
        "self_drawn": w.self_drawn,
        "last_card": w.last_card,
        "huxi": w.huxi,
        "tun": w.tun,
        "fan": w.fan,
        "score": w.score,
        "mingtang": [[k, v] for k, v in w.mingtang.items()],
        "groups": [{"text": g.notation(), "huxi": g.huxi} for g in w.groups],
    }


def result_json(st: State) -> dict[str, Any]:
    """A finished round's 结算: the win itemised, every hand and table, the 悟性 changes."""
    r = st.result
    if r is None:
        raise ApiError("not_finished", "the round is not over")
    return {
        "winner": r.winner,
        "dealer": st.dealer,
        "next_dealer": r.next_dealer,
        "deltas": list(r.deltas),
        "balances_before": list(st.balances_at_start),
        "balances": list(r.balances),
        "win": None if r.win is None else _win_json(r.win),
        "hands": [format_faces(tuple(_faces(st.hands[s]))) for s in range(3)],
        "tables": [[t.group.notation() for t in st.tables[s]] for s in range(3)],
    }


def _faces(counts: list[int]) -> list[int]:
    return [f for f, n in enumerate(counts) for _ in range(n)]


def _wait_json(w: Wait) -> dict[str, Any]:
    def one(r: WinResult | None) -> dict[str, int] | None:
        return None if r is None else {"huxi": r.huxi, "score": r.score}

    return {"face": glyph(w.face), "other": one(w.other), "self_drawn": one(w.self_drawn)}


def hint_json(st: State, seat: int, step: int) -> dict[str, Any]:
    """The seat's 听牌 hint from its own view: waits now, or per legal discard; ``step``:
    the seat's step it answers (its own numbering, never the match's decisions)."""
    v = view(st, seat)
    groups = [g for g in (vg.group() for vg in v.tables[seat]) if g is not None]
    counts = v.hand_counts()
    rules = st.rules
    discards = sorted(
        {a.face for a in v.legal if a.kind is ActionKind.DISCARD and a.face is not None}
    )
    if v.over:
        return {"step": step, "now": [], "after": []}
    if discards:
        after = []
        for f in discards:
            h = list(counts)
            h[f] -= 1
            ws = waits_counts(groups, h, rules)
            if ws:
                after.append({"discard": glyph(f), "waits": [_wait_json(w) for w in ws]})
        return {"step": step, "now": [], "after": after}
    now = _current_waits(groups, counts, st)
    return {"step": step, "now": [_wait_json(w) for w in now], "after": []}


def _current_waits(groups: list[Group], counts: list[int], st: State) -> list[Wait]:
    return waits_counts(groups, counts, st.rules)


def _steps_json(rec: MatchRecord, rnd: int, seat: int | None) -> bytes:
    """``_steps`` as compact JSON (CPU-bound: run in a thread)."""
    return json.dumps(_steps(rec, rnd, seat), ensure_ascii=False, separators=(",", ":")).encode()


def _steps(rec: MatchRecord, rnd: int, seat: int | None) -> dict[str, Any]:
    if not 0 <= rnd < len(rec.rounds):
        raise ApiError("no_round", f"the match has rounds 0-{len(rec.rounds) - 1}, not {rnd}", 404)
    r = rec.rounds[rnd]
    st = new_game(r.rules, seed=r.seed, deal=r.deal, balances=r.balances)
    pos = 0

    def step(actor: int | None, text: str) -> dict[str, Any]:
        nonlocal pos
        events = [c.to_dict() for e in st.log[pos:] if (c := e.censor(seat)) is not None]
        pos = len(st.log)
        return {
            "seat": actor,
            "action": text,
            "events": events,
            "view": view_to_dict(view(st, seat)),
        }

    steps = [step(None, "")]
    for a in r.actions:
        st.apply(a.seat, a.id if a.id is not None else a.text)
        steps.append(step(a.seat, a.text))
    return {
        "round": rnd,
        "rounds": len(rec.rounds),
        "seat": seat,
        "steps": steps,
        "result": result_json(st) if st.result is not None else None,
    }


def add_web(app: FastAPI, current: Any, db_session: Any) -> None:
    """Add the client's endpoints and files to ``app`` (call it after the API's routes)."""
    hub = app.state.hub
    rates = app.state.rates  # ratelimit.Rates: look-ups by code, replays

    def address(request: Request) -> str:
        return request.client.host if request.client else "?"

    Db = Annotated[AsyncSession, Depends(db_session)]
    Me = Annotated[Account, Depends(current)]
    app.state.seeds = {}
    round_steps = ReplayCache(max_items=1024)  # (match, round, audience) -> its steps

    async def _match(db: AsyncSession, match_id: int) -> tuple[MatchRow, Any]:
        row = await db.get(MatchRow, match_id)
        if row is None:
            raise ApiError("no_match", f"no match {match_id}", 404)
        room = await db.get(RoomRow, row.room_id)
        assert room is not None
        table = hub.tables.get(room.code)
        if table is None or table.match_id != match_id:
            table = await hub.load(db, row, room)
        return row, table

    @app.get("/rooms/{code}/hint")
    async def hint(code: str, me: Me, db: Db, request: Request) -> dict[str, Any]:
        rates.lookup_check(address(request))
        room = await db.scalar(room_by_code(code))
        if room is None:
            rates.missed(address(request))
            raise ApiError("no_room", f"no room {code!r}", 404)
        seat = await db.scalar(
            select(RoomSeat.seat).where(RoomSeat.room_id == room.id, RoomSeat.account_id == me.id)
        )
        if seat is None:  # a miss too: else it would tell which codes are rooms
            rates.missed(address(request))
            raise ApiError("not_seated", "this account has no seat in the room", 403)
        table = hub.tables.get(code)
        if table is None:  # not started, or finished (released): then from the database
            match_id = await db.scalar(
                select(MatchRow.id).where(MatchRow.room_id == room.id).order_by(MatchRow.id.desc())
            )
            if match_id is None:
                raise ApiError("not_started", "the match has not started", 409)
            _, table = await _match(db, match_id)
        return hint_json(table.state, seat, table.step(seat))

    @app.get("/matches/{match_id}/rounds/{rnd}")
    async def round_result(match_id: MatchId, rnd: int, db: Db, request: Request) -> dict[str, Any]:
        rates.replay.take(address(request))
        _, table = await _match(db, match_id)
        finished = table.match.finished
        if not 0 <= rnd < len(finished):
            raise ApiError("not_finished", f"round {rnd} of match {match_id} is not over", 404)
        return {"round": rnd, **result_json(finished[rnd])}

    @app.get("/matches/{match_id}/replay/{rnd}")
    async def replay_round(
        match_id: MatchId,
        rnd: int,
        db: Db,
        request: Request,
        seat: Annotated[int | None, Query(ge=0, le=2)] = None,
    ) -> Response:
        """One round of a finished match step by step, as ``seat`` (None: a spectator) saw
        it: from the cached record, worked out in a thread once and kept (public and
        anonymous, so no request replays the match again)."""
        rates.replay.take(address(request))
        if not 0 <= rnd < MAX_ROUNDS:
            raise ApiError("no_round", f"a match has at most {MAX_ROUNDS} rounds, not {rnd}", 404)
        sessions = app.state.server.sessions
        record = await app.state.replays.get(match_id, lambda: rebuild(sessions, match_id))
        key = (match_id * MAX_ROUNDS + rnd) * 4 + (3 if seat is None else seat)

        async def work() -> bytes:
            rec = MatchRecord.from_dict(json.loads(record))
            return await asyncio.to_thread(_steps_json, rec, rnd, seat)

        steps = await round_steps.get(key, work)
        row = await db.get(MatchRow, match_id)
        assert row is not None  # the record exists, so the match does
        found = await db.execute(
            select(Account.nickname)
            .join(RoomSeat, RoomSeat.account_id == Account.id)
            .where(RoomSeat.room_id == row.room_id)
            .order_by(RoomSeat.seat)
        )
        names = json.dumps([n for (n,) in found.all()], ensure_ascii=False)
        return Response(
            steps[:-1] + b',"names":' + names.encode() + b"}", media_type="application/json"
        )

    if os.environ.get("PAOHUZI_TEST_SEEDS") == "1":

        @app.post("/rooms/{code}/seed", status_code=204)
        async def seed(code: str, body: SeedBody, me: Me, db: Db) -> None:
            room = await db.scalar(room_by_code(code))
            if room is None:
                raise ApiError("no_room", f"no room {code!r}", 404)
            if room.host_id != me.id:
                raise ApiError("not_host", "only the host may seed the room", 403)
            app.state.seeds[code] = body.seed

    app.mount("/static", StaticFiles(directory=WEB_DIR), name="static")

    @app.get("/sw.js", include_in_schema=False)
    async def service_worker() -> FileResponse:
        """The service worker, at the root so its scope is the whole app."""
        return FileResponse(WEB_DIR / "sw.js", media_type="text/javascript",
                            headers={"Cache-Control": "no-cache"})  # fmt: skip

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(WEB_DIR / "index.html", headers={"Cache-Control": "no-cache"})
