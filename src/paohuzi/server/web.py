"""What the browser client needs beyond the protocol: its files, and the JSON of its hints,
results and replays (the endpoints are in ``routers/web.py``).

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

import json
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field

from ..core.actions import ActionKind
from ..core.cards import format_faces, glyph
from ..core.engine import new_game
from ..core.groups import Group
from ..core.hand import Wait, WinResult, waits_counts
from ..core.record import MatchRecord
from ..core.scoring import tun_of
from ..core.state import State
from ..core.views import view
from .errors import ApiError
from .protocol import view_to_dict
from .validation import quote

MAX_ROUNDS = 64  # above any room's rounds (schemas.RoomBody: at most 32)

__all__ = [
    "MAX_ROUNDS",
    "WEB_DIR",
    "SeedBody",
    "hint_json",
    "mount_client",
    "no_round",
    "result_json",
    "result_json_of",
    "steps_json",
]

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
        # the 囤 of the 自摸 bonus, within ``tun`` (the sheet itemises it: RULES.md §10)
        "zimo_tun": w.tun - tun_of(w.huxi, self_drawn=False),
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


def _compact(body: dict[str, Any]) -> bytes:
    return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()


def steps_json(record: bytes, match_id: int, rnd: int, seat: int | Literal["open"] | None) -> bytes:
    """Round ``rnd`` of match ``match_id``'s encoded record step by step as ``seat``
    (None: a spectator) saw it, or with every hand open (``"open"``), as compact JSON
    (CPU-bound: run it in a thread)."""
    rec = MatchRecord.from_dict(json.loads(record))
    if not 0 <= rnd < len(rec.rounds):
        raise no_round(match_id, rnd)
    return _compact(_steps(rec, rnd, seat))


def no_round(match_id: int, rnd: int) -> ApiError:
    """The refusal of a round the match never had (nor will have)."""
    return ApiError("no_round", f"match {match_id} has no round {quote(rnd)}", 404)


def result_json_of(record: bytes, match_id: int, rnd: int) -> bytes:
    """Round ``rnd``'s 结算 (``result_json``) from an encoded finished match record, as
    compact JSON (CPU-bound: run it in a thread)."""
    rec = MatchRecord.from_dict(json.loads(record))
    if not 0 <= rnd < len(rec.rounds):
        raise no_round(match_id, rnd)
    st = _replayed(rec, rnd)
    if st is None or st.result is None:  # (a dissolved match's last round: never settled)
        raise ApiError("not_finished", f"round {rnd} of match {match_id} is not over", 404)
    return _compact({"round": rnd, **result_json(st)})


def _replayed(rec: MatchRecord, rnd: int) -> State:
    r = rec.rounds[rnd]
    st = new_game(r.rules, seed=r.seed, deal=r.deal, balances=r.balances)
    for a in r.actions:
        st.apply(a.seat, a.id if a.id is not None else a.text)
    return st


def open_view(st: State) -> dict[str, Any]:
    """The JSON form of ``st`` with every hand and face-down group shown, the claim
    window's card and every seat it waits for: a finished match's replay with the hands
    open, which shows no more than the match's record."""
    d = view_to_dict(view(st, None))
    for s in range(3):
        own = view_to_dict(view(st, s))
        d["hands"][s] = own["hands"][s]
        d["tables"][s] = own["tables"][s]
        d["offer"] = d["offer"] or own["offer"]
    d["to_act"] = list(st.to_act())
    return d


def _steps(rec: MatchRecord, rnd: int, seat: int | Literal["open"] | None) -> dict[str, Any]:
    r = rec.rounds[rnd]
    st = new_game(r.rules, seed=r.seed, deal=r.deal, balances=r.balances)
    pos = 0

    def step(actor: int | None, text: str) -> dict[str, Any]:
        nonlocal pos
        if seat == "open":
            events = [e.to_dict() for e in st.log[pos:]]
            shown = open_view(st)
        else:
            events = [c.to_dict() for e in st.log[pos:] if (c := e.censor(seat)) is not None]
            shown = view_to_dict(view(st, seat))
        pos = len(st.log)
        return {"seat": actor, "action": text, "events": events, "view": shown}

    steps = [step(None, "")]
    for a in r.actions:
        st.apply(a.seat, a.id if a.id is not None else a.text)
        steps.append(step(a.seat, a.text))
    return {
        "round": rnd,
        "rounds": len(rec.rounds),
        "seat": None if seat == "open" else seat,
        "open": seat == "open",
        "steps": steps,
        "result": result_json(st) if st.result is not None else None,
    }


def mount_client(app: FastAPI) -> None:
    """Serve the browser client's files at ``/static`` and its page at ``/`` (after the
    API's routes, so the API comes first)."""
    app.mount("/static", StaticFiles(directory=WEB_DIR), name="static")

    @app.get("/sw.js", include_in_schema=False)
    async def service_worker() -> FileResponse:
        """The service worker, at the root so its scope is the whole app."""
        return FileResponse(WEB_DIR / "sw.js", media_type="text/javascript",
                            headers={"Cache-Control": "no-cache"})  # fmt: skip

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(WEB_DIR / "index.html", headers={"Cache-Control": "no-cache"})
