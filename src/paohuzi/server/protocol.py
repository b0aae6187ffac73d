"""The WebSocket protocol: one pydantic model per message (the schema) and one builder per
server message (what the server sends).

The models are the schema: clients' messages are validated by them, and
``python -m paohuzi.server.protocol`` prints the JSON Schemas that docs/protocol.md holds
(a test checks the document against them). The server builds what it sends with the
``*_dict`` builders below, plain dicts in the models' field order that ``encode`` turns
into text once per message however many sockets it goes to (a model per socket was too
slow); a test validates each builder's output against its model, so the two cannot drift.
The seat view's JSON form is ``viewjson``'s (re-exported here).
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from .viewjson import view_from_dict, view_to_dict

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
    "Chat",
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
    "Readiness",
    "Ready",
    "Resync",
    "Said",
    "SameAddress",
    "SeatStatus",
    "Seats",
    "ServerMessage",
    "Snapshot",
    "Tuoguan",
    "Waiting",
    "ack_dict",
    "client_adapter",
    "dissolve_vote_dict",
    "encode",
    "error_dict",
    "event_dict",
    "legal_dict",
    "match_over_dict",
    "pong_dict",
    "prompt_dict",
    "readiness_dict",
    "render_doc",
    "said_dict",
    "same_address_dict",
    "schemas",
    "schemas_text",
    "seat_status_dict",
    "seats_dict",
    "snapshot_dict",
    "view_from_dict",
    "view_to_dict",
    "waiting_dict",
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


class Ready(_Msg):
    """准备: this seat is ready for the next round (after a round's 结算). The round is
    dealt when every seat is ready or the room's ``ready_seconds`` ran out."""

    type: Literal["ready"]


class Chat(_Msg):
    """快捷语 or a reaction: a phrase id from the fixed list (0-15; server/chat.py), never
    free text. Each seat may send 3 at once, then one every 2 s (``rate_limited``)."""

    type: Literal["chat"]
    phrase: Annotated[int, Field(ge=0, le=15)]


ClientMsg = Auth | Act | Resync | Ping | Tuoguan | Dissolve | Ready | Chat
ClientMessage = Annotated[ClientMsg, Field(discriminator="type")]
CLIENT_TYPES = ("auth", "act", "resync", "ping", "tuoguan", "dissolve", "ready", "chat")


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


def _no_clocks() -> list[float | None]:
    """No seat's clock shown (the default of ``clocks``)."""
    return [None, None, None]


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


class Readiness(_Msg):
    """The wait for 准备 before round ``round`` is dealt (the last round's 结算 is open):
    each seat's readiness (a bot or 托管 seat is ready at once), the deadline at which the
    server readies the rest. Sent to everyone when it opens and when a seat becomes
    ready; the next round's prompt ends it."""

    type: Literal["readiness"] = "readiness"
    round: int  # the round to deal (the 结算 open is round - 1's)
    ready: list[bool]
    deadline: float  # Unix time, seconds
    remaining: float  # seconds left when the message was sent


class Said(_Msg):
    """Seat ``seat`` sent quick-chat phrase ``phrase``: told to everyone, spectators too."""

    type: Literal["said"] = "said"
    seat: int
    phrase: int


class Snapshot(_Msg):
    """The seat's view now; events numbered after ``seq`` follow.

    ``step`` counts the changes this seat (or the spectators) could see: its events, or
    what it is shown of who acts and what it may do. It never moves on another seat's
    private answer (RULES.md §14); the match's own decision numbers are never sent.

    ``deadline`` (Unix time, seconds) and ``remaining`` (seconds, at sending): when the
    server will answer for this seat if it has not decided (None: no decision open, no
    time limit, or the server plays the seat). ``clocks``: per seat, the deadline of each
    seat this audience is shown to act (a claim window shows only the audience's own: who
    else may claim is private, RULES.md §14), so every seat can draw the acting seat's
    clock. ``time_limit``: the room's per-decision
    limit in seconds (None: none). ``seats``: every seat's status; ``dissolve``: the open
    解散 vote, if any; ``ready``: the wait for 准备 while the last round's 结算 is open
    (then ``round`` is that round's, and ``view`` its end).
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
    clocks: list[float | None] = Field(default_factory=_no_clocks)
    seats: list[SeatStatus] = Field(default_factory=list)
    dissolve: DissolveVote | None = None
    ready: Readiness | None = None


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

    ``deadline``/``remaining``/``clocks`` as in the snapshot: when the server answers for
    this seat, and for each seat this audience sees acting.
    """

    type: Literal["prompt"] = "prompt"
    round: int
    step: int
    since: int
    to_act: list[int]
    legal: list[LegalAction]
    deadline: float | None = None
    remaining: float | None = None
    clocks: list[float | None] = Field(default_factory=_no_clocks)
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


class SameAddress(_Msg):
    """A warning, never a block: seated players share a network address (fairplay.py).
    ``seats``: each group of seats that share one (the addresses are never sent)."""

    type: Literal["same_address"] = "same_address"
    room: str
    seats: list[list[int]]


class MatchOver(_Msg):
    """The match has ended: each seat's net 悟性 and the balances.

    ``dissolved``: it ended early by a 解散 vote (the round in play was not settled).
    ``played``: the rounds settled (each one's 结算 is at ``/matches/{id}/rounds/{n}``).
    ``scoring``: "ledger" (the standard rules: settled onto the players' 悟性) or "local"
    (a room's own rules: the totals and balances are room-local scores; no account moved).
    """

    type: Literal["match_over"] = "match_over"
    match_id: int
    totals: list[int]
    balances: list[int]
    dissolved: bool = False
    scoring: Literal["ledger", "local"] = "ledger"
    played: int = Field(default=0, ge=0)


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
    | SameAddress
    | MatchOver
    | Pong
    | Seats
    | DissolveVote
    | Readiness
    | Said,
    Field(discriminator="type"),
]


# -- builders: what the server sends, as plain dicts (``encode`` makes the text) -----------
# One per server message, the fields in the model's order; nested parts have their own.


def legal_dict(action_id: int, text: str) -> dict[str, Any]:
    """A :class:`LegalAction`."""
    return {"id": action_id, "text": text}


def seat_status_dict(
    seat: int, bot: str | None, connected: bool, reason: Literal["self", "disconnect"] | None
) -> dict[str, Any]:
    """A :class:`SeatStatus`: ``tuoguan`` is whether a ``reason`` is given."""
    return {"seat": seat, "bot": bot, "connected": connected, "tuoguan": reason is not None,
            "reason": reason}  # fmt: skip


def dissolve_vote_dict(
    proposer: int,
    votes: list[bool | None],
    deadline: float,
    remaining: float,
    outcome: Literal["dissolved", "refused", "expired"] | None = None,
) -> dict[str, Any]:
    """A :class:`DissolveVote` message."""
    return {"type": "dissolve_vote", "proposer": proposer, "votes": votes,
            "deadline": deadline, "remaining": remaining, "outcome": outcome}  # fmt: skip


def snapshot_dict(
    match_id: int,
    seat: int | None,
    rnd: int,
    step: int,
    since: int,
    seq: int,
    view: dict[str, Any],
    legal: list[dict[str, Any]],
    *,
    deadline: float | None,
    remaining: float | None,
    time_limit: float | None,
    seats: list[dict[str, Any]],
    dissolve: dict[str, Any] | None,
    ready: dict[str, Any] | None = None,
    clocks: list[float | None] | None = None,
) -> dict[str, Any]:
    """A :class:`Snapshot` (``rnd``: its ``round``)."""
    return {"type": "snapshot", "match_id": match_id, "seat": seat, "round": rnd,
            "step": step, "since": since, "seq": seq, "view": view, "legal": legal,
            "deadline": deadline, "remaining": remaining, "time_limit": time_limit,
            "clocks": clocks or [None, None, None], "seats": seats, "dissolve": dissolve,
            "ready": ready}  # fmt: skip


def said_dict(seat: int, phrase: int) -> dict[str, Any]:
    """A :class:`Said` message."""
    return {"type": "said", "seat": seat, "phrase": phrase}


def readiness_dict(
    rnd: int, ready: list[bool], deadline: float, remaining: float
) -> dict[str, Any]:
    """A :class:`Readiness` message (``rnd``: the round to deal)."""
    return {"type": "readiness", "round": rnd, "ready": ready, "deadline": deadline,
            "remaining": remaining}  # fmt: skip


def event_dict(seq: int, rnd: int, event: dict[str, Any]) -> dict[str, Any]:
    """An :class:`EventMsg` (``rnd``: its ``round``)."""
    return {"type": "event", "seq": seq, "round": rnd, "event": event}


def prompt_dict(
    rnd: int,
    step: int,
    since: int,
    to_act: list[int],
    legal: list[dict[str, Any]],
    deadline: float | None,
    remaining: float | None,
    view: dict[str, Any] | None,
    clocks: list[float | None] | None = None,
) -> dict[str, Any]:
    """A :class:`Prompt` (``rnd``: its ``round``)."""
    return {"type": "prompt", "round": rnd, "step": step, "since": since, "to_act": to_act,
            "legal": legal, "deadline": deadline, "remaining": remaining,
            "clocks": clocks or [None, None, None], "view": view}  # fmt: skip


def seats_dict(seats: list[dict[str, Any]]) -> dict[str, Any]:
    """A :class:`Seats` message (``seats``: ``seat_status_dict``'s)."""
    return {"type": "seats", "seats": seats}


def ack_dict(client_id: str, step: int, duplicate: bool = False) -> dict[str, Any]:
    """An :class:`Ack`."""
    return {"type": "ack", "client_id": client_id, "step": step, "duplicate": duplicate}


def error_dict(code: str, reason: str, client_id: str | None = None) -> dict[str, Any]:
    """An :class:`ErrorMsg`."""
    return {"type": "error", "code": code, "reason": reason, "client_id": client_id}


def waiting_dict(room: str, seat: int | None) -> dict[str, Any]:
    """A :class:`Waiting` message."""
    return {"type": "waiting", "room": room, "seat": seat}


def same_address_dict(room: str, seats: list[list[int]]) -> dict[str, Any]:
    """A :class:`SameAddress` message."""
    return {"type": "same_address", "room": room, "seats": seats}


def match_over_dict(
    match_id: int,
    totals: list[int],
    balances: list[int],
    dissolved: bool,
    scoring: Literal["ledger", "local"],
    played: int = 0,
) -> dict[str, Any]:
    """A :class:`MatchOver` message."""
    return {"type": "match_over", "match_id": match_id, "totals": totals,
            "balances": balances, "dissolved": dissolved, "scoring": scoring,
            "played": played}  # fmt: skip


def pong_dict() -> dict[str, Any]:
    """A :class:`Pong`."""
    return {"type": "pong"}


# The schema document's part (it reads the models above): re-exported here.
from .protocoldoc import render_doc, schemas, schemas_text  # noqa: E402

if __name__ == "__main__":  # pragma: no cover - a documentation helper
    from .protocoldoc import main

    main()
