"""The WebSocket protocol: one pydantic model per message, and the seat view's JSON form.

``python -m paohuzi.server.protocol`` prints the JSON Schemas that docs/protocol.md holds;
a test checks the document against them.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from ..core.actions import Action
from ..core.cards import format_faces, glyph, parse_face, parse_faces
from ..core.groups import GroupKind
from ..core.state import Phase
from ..core.views import SeatView, ViewGroup

__all__ = [
    "CLIENT_TYPES",
    "CLOSE_FLOOD",
    "CLOSE_RESTART",
    "CLOSE_TOO_BIG",
    "MAX_FRAME",
    "MAX_MESSAGE",
    "Ack",
    "Act",
    "Auth",
    "ClientMessage",
    "ClientMsg",
    "Dissolve",
    "DissolveVote",
    "ErrorMsg",
    "EventMsg",
    "LegalAction",
    "MatchOver",
    "Ping",
    "Pong",
    "Prompt",
    "Resync",
    "SeatStatus",
    "Seats",
    "ServerMessage",
    "Snapshot",
    "Tuoguan",
    "Waiting",
    "client_adapter",
    "encode",
    "render_doc",
    "schemas",
    "schemas_text",
    "view_from_dict",
    "view_to_dict",
]

MAX_MESSAGE = 4096  # characters; a longer client message is refused with "too_large"
MAX_FRAME = 64 * 1024  # bytes; a longer frame closes the socket with CLOSE_TOO_BIG
CLOSE_FLOOD = 1008  # policy violation: the client kept sending past its rate limit
CLOSE_TOO_BIG = 1009  # a frame over MAX_FRAME (the WebSocket layer closes it)
CLOSE_RESTART = 1012  # the server is shutting down; reconnect with ``since`` later


class _Msg(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


# -- client to server --------------------------------------------------------------------


class Auth(_Msg):
    """First message: the session token; ``since`` asks for the seat's events after it.

    ``spectate`` watches the room with the public view (a public room, or its host).
    ``views`` asks for the seat's view in every prompt, not only when it has a decision,
    so a client that draws the table needs no snapshot after each decision.
    ``batch`` lets the server send the messages it has queued for the socket together, as
    one frame holding a JSON array of them, in order (fewer frames: cheaper for both ends).
    """

    type: Literal["auth"]
    token: Annotated[str, Field(min_length=1, max_length=200)]
    since: Annotated[int | None, Field(ge=0)] = None
    spectate: bool = False
    views: bool = False
    batch: bool = False


class Act(_Msg):
    """A decision: an action id or text, the seat's ``step`` it was made at (the latest
    prompt's), a client id.

    The same ``client_id`` sent twice by a seat is applied once (the second gets an ack
    marked duplicate).
    """

    type: Literal["act"]
    action: int | Annotated[str, Field(max_length=64)]
    step: Annotated[int, Field(ge=0)]
    client_id: Annotated[str, Field(min_length=1, max_length=64)]


class Resync(_Msg):
    """Ask for a fresh snapshot (after a gap in event numbers)."""

    type: Literal["resync"]


class Ping(_Msg):
    """Keep-alive; answered with a pong."""

    type: Literal["ping"]


class Tuoguan(_Msg):
    """托管: ``on`` lets the server play this seat (the heuristic bot) until ``off``."""

    type: Literal["tuoguan"]
    on: bool


class Dissolve(_Msg):
    """解散: with no vote open, ``agree: true`` proposes to end the match early; with one
    open, it is this seat's vote (``false`` refuses, which cancels the vote)."""

    type: Literal["dissolve"]
    agree: bool


ClientMsg = Auth | Act | Resync | Ping | Tuoguan | Dissolve
ClientMessage = Annotated[ClientMsg, Field(discriminator="type")]
CLIENT_TYPES = ("auth", "act", "resync", "ping", "tuoguan", "dissolve")


try:  # orjson (extra ``server``) encodes several times faster; json is the fallback
    import orjson

    def encode(message: dict[str, Any]) -> str:
        """One outbound message as JSON text (a plain dict: the models' fields, in order)."""
        return orjson.dumps(message).decode()

except ImportError:  # pragma: no cover - without orjson
    _ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))

    def encode(message: dict[str, Any]) -> str:
        """One outbound message as JSON text (a plain dict: the models' fields, in order)."""
        return _ENCODER.encode(message)


def client_adapter() -> TypeAdapter[ClientMsg]:
    """The validator for one client message."""
    return TypeAdapter(ClientMessage)


# -- server to client --------------------------------------------------------------------


class LegalAction(_Msg):
    """One action the seat may take now: its id and its text (``打:五``, ``过``)."""

    id: int
    text: str


class SeatStatus(_Msg):
    """Who plays a seat now, as everyone (spectators too) may see it.

    ``bot``: the seat's bot kind (a bot seat), else None. ``connected``: the seat's person
    has a socket open (a bot seat: always true). ``tuoguan``: the server plays the seat
    for its person (托管), because they asked (``reason`` "self") or because they have been
    disconnected longer than the grace period ("disconnect").
    """

    seat: int
    bot: str | None
    connected: bool
    tuoguan: bool
    reason: Literal["self", "disconnect"] | None


class DissolveVote(_Msg):
    """A 解散 vote: who proposed it, each seat's vote so far (None: not yet), its deadline.

    ``outcome`` is None while it is open, else "dissolved" (all agreed; ``match_over``
    follows), "refused" (a seat said no) or "expired" (the deadline passed).
    """

    type: Literal["dissolve_vote"] = "dissolve_vote"
    proposer: int
    votes: list[bool | None]
    deadline: float  # Unix time, seconds
    remaining: float  # seconds left when the message was sent
    outcome: Literal["dissolved", "refused", "expired"] | None = None


class Snapshot(_Msg):
    """The seat's view now; events numbered after ``seq`` follow.

    ``step`` counts the changes this seat (or the spectators) could see: its events, or
    what it is shown of who acts and what it may do. It never moves on another seat's
    private answer (RULES.md §14); the match's own decision numbers are never sent.

    ``deadline`` (Unix time, seconds) and ``remaining`` (seconds, at sending): when the
    server will answer for this seat if it has not decided (None: no decision open, no
    time limit, or the server plays the seat). ``time_limit``: the room's per-decision
    limit in seconds (None: none). ``seats``: every seat's status; ``dissolve``: the open
    解散 vote, if any.
    """

    type: Literal["snapshot"] = "snapshot"
    match_id: int
    seat: int | None  # None: a spectator
    round: int
    step: int  # the changes this audience has seen; an intent quotes it
    since: int  # the step at which the seat's current decision opened
    seq: int  # the seat's events so far
    view: dict[str, Any]
    legal: list[LegalAction]
    deadline: float | None = None
    remaining: float | None = None
    time_limit: float | None = None
    seats: list[SeatStatus] = Field(default_factory=list)
    dissolve: DissolveVote | None = None


class EventMsg(_Msg):
    """One event as this seat may see it (RULES.md §14), numbered 1, 2, … per seat."""

    type: Literal["event"] = "event"
    seq: int
    round: int
    event: dict[str, Any]


class Prompt(_Msg):
    """After each change this seat (or the spectators) can see: its new ``step`` (one more
    than the last; the same again only with a fresh deadline when 托管 ends), and what
    this seat may do now (maybe nothing). A decision that shows an audience nothing
    (another seat's private 过) sends it no prompt.

    ``deadline``/``remaining`` as in the snapshot: when the server answers for this seat.
    """

    type: Literal["prompt"] = "prompt"
    round: int
    step: int
    since: int
    to_act: list[int]
    legal: list[LegalAction]
    deadline: float | None = None
    remaining: float | None = None
    # The seat's view: when ``legal`` is not empty, or always if the auth asked for ``views``.
    view: dict[str, Any] | None = None


class Seats(_Msg):
    """Sent to everyone when a seat's connection or 托管 status changes."""

    type: Literal["seats"] = "seats"
    seats: list[SeatStatus]


class Ack(_Msg):
    """The intent ``client_id`` is durable; ``step`` is the seat's step it made (the
    prompt that follows carries it)."""

    type: Literal["ack"] = "ack"
    client_id: str
    step: int
    duplicate: bool = False


class ErrorMsg(_Msg):
    """A refused message; the socket stays open."""

    type: Literal["error"] = "error"
    code: str
    reason: str
    client_id: str | None = None


class Waiting(_Msg):
    """Authenticated in a room whose match has not started; a snapshot follows at the start."""

    type: Literal["waiting"] = "waiting"
    room: str
    seat: int | None


class MatchOver(_Msg):
    """The match has ended: each seat's net 悟性 and the balances.

    ``dissolved``: it ended early by a 解散 vote (the round in play was not settled).
    ``scoring``: "ledger" (the standard rules: settled onto the players' 悟性) or "local"
    (a room's own rules: the totals and balances are room-local scores; no account moved).
    """

    type: Literal["match_over"] = "match_over"
    match_id: int
    totals: list[int]
    balances: list[int]
    dissolved: bool = False
    scoring: Literal["ledger", "local"] = "ledger"


class Pong(_Msg):
    """The answer to a ping."""

    type: Literal["pong"] = "pong"


ServerMessage = Annotated[
    Snapshot
    | EventMsg
    | Prompt
    | Ack
    | ErrorMsg
    | Waiting
    | MatchOver
    | Pong
    | Seats
    | DissolveVote,
    Field(discriminator="type"),
]


def _faces(faces: tuple[int, ...] | None) -> str | None:
    return None if faces is None else format_faces(faces)


def view_to_dict(v: SeatView) -> dict[str, Any]:
    """The JSON form of a seat's view: cards as glyphs, a face-down card as ``▢``."""
    return {
        "seat": v.seat,
        "step": v.version,  # live: the audience's step (the server numbers the view so)
        "phase": v.phase.value,
        "dealer": v.dealer,
        "liangzhang": glyph(v.liangzhang),
        "hands": [_faces(h) for h in v.hands],
        "hand_sizes": list(v.hand_sizes),
        "tables": [[g.text() for g in t] for t in v.tables],
        "hidden": [[g.hidden for g in t] for t in v.tables],  # face down to the others
        "piles": [format_faces(p) for p in v.piles],
        "discards": [format_faces(d) for d in v.discards],
        "stock_count": v.stock_count,
        "chou_chi": None if v.chou_chi is None else format_faces(sorted(v.chou_chi)),
        "chou_peng": None if v.chou_peng is None else format_faces(sorted(v.chou_peng)),
        "dead": list(v.dead),
        "to_act": list(v.to_act),
        "turn": v.turn,
        "offer": None if v.offer is None else glyph(v.offer),
        "offer_source": v.offer_source,
        "offer_from_draw": v.offer_from_draw,
        "offer_placed": v.offer_placed,
        "balances": list(v.balances),
        "result": None
        if v.result is None
        else {
            "winner": v.result.winner,
            "deltas": list(v.result.deltas),
            "balances": list(v.result.balances),
            "next_dealer": v.result.next_dealer,
        },
    }


def _faces_back(text: str | None) -> tuple[int, ...] | None:
    return None if text is None else parse_faces(text)


def _group_back(text: str, hidden: bool) -> ViewGroup:
    kind, _, cards = text.partition(":")
    faces = None if "▢" in cards else parse_faces(cards)
    return ViewGroup(GroupKind(kind), faces, hidden)


def view_from_dict(d: dict[str, Any], legal: list[LegalAction]) -> SeatView:
    """The :class:`SeatView` that ``view_to_dict`` wrote, with its ``legal`` actions.

    For a seat that has a decision to take (what a client's bot acts on); a finished
    round's result is not rebuilt (its win breakdown is not in the message).
    """
    if d["result"] is not None:
        raise ValueError("a finished round's view is not rebuilt")
    offer = None if d["offer"] is None else parse_face(d["offer"])
    hands = [_faces_back(h) for h in d["hands"]]
    tables = [
        tuple(_group_back(t, h) for t, h in zip(ts, hs, strict=True))
        for ts, hs in zip(d["tables"], d["hidden"], strict=True)
    ]
    piles = [parse_faces(p) for p in d["piles"]]
    discards = [parse_faces(x) for x in d["discards"]]
    sizes, dead, bal = d["hand_sizes"], d["dead"], d["balances"]
    return SeatView(
        seat=d["seat"],
        version=d["step"],
        phase=Phase(d["phase"]),
        dealer=d["dealer"],
        liangzhang=parse_face(d["liangzhang"]),
        hands=(hands[0], hands[1], hands[2]),
        hand_sizes=(sizes[0], sizes[1], sizes[2]),
        tables=(tables[0], tables[1], tables[2]),
        piles=(piles[0], piles[1], piles[2]),
        discards=(discards[0], discards[1], discards[2]),
        stock_count=d["stock_count"],
        chou_chi=None if d["chou_chi"] is None else frozenset(parse_faces(d["chou_chi"])),
        chou_peng=None if d["chou_peng"] is None else frozenset(parse_faces(d["chou_peng"])),
        dead=(dead[0], dead[1], dead[2]),
        to_act=tuple(d["to_act"]),
        turn=d["turn"],
        offer=offer,
        offer_source=d["offer_source"],
        offer_from_draw=d["offer_from_draw"],
        offer_placed=d["offer_placed"],
        legal=tuple(Action.from_id(a.id, offer) for a in legal),
        balances=(bal[0], bal[1], bal[2]),
        result=None,
    )


def schemas() -> dict[str, Any]:
    """The JSON Schemas of both directions, as docs/protocol.md shows them."""
    return {
        "client": TypeAdapter(ClientMessage).json_schema(),
        "server": TypeAdapter(ServerMessage).json_schema(),
    }


def schemas_text() -> str:
    """The schemas as the indented JSON docs/protocol.md embeds."""
    return json.dumps(schemas(), indent=2, ensure_ascii=False, sort_keys=True)


SCHEMA_BEGIN = "<!-- schemas: generated by python -m paohuzi.server.protocol docs/protocol.md -->"
SCHEMA_END = "<!-- end of schemas -->"


def render_doc(text: str) -> str:
    """``text`` (docs/protocol.md) with the block between the markers regenerated."""
    head, rest = text.split(SCHEMA_BEGIN, 1)
    _, tail = rest.split(SCHEMA_END, 1)
    return f"{head}{SCHEMA_BEGIN}\n```json\n{schemas_text()}\n```\n{SCHEMA_END}{tail}"


if __name__ == "__main__":  # pragma: no cover - a documentation helper
    import sys
    from pathlib import Path

    if len(sys.argv) > 1:
        doc = Path(sys.argv[1])
        doc.write_text(render_doc(doc.read_text(encoding="utf-8")), encoding="utf-8")
    else:
        print(schemas_text())
