"""What the server sends: one pydantic model per message, the schema (the "server" half
of docs/protocol.md's schemas). The server never builds these models: it sends what
``builders`` makes, which a test validates against them."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from .wire import WireModel

__all__ = [
    "Ack",
    "CloseBy",
    "DissolveVote",
    "ErrorMsg",
    "EventMsg",
    "LegalAction",
    "MatchOver",
    "Pong",
    "Prompt",
    "Readiness",
    "Said",
    "SameAddress",
    "SeatStatus",
    "Seats",
    "ServerMessage",
    "Snapshot",
    "Waiting",
]


def _no_clocks() -> list[float | None]:
    """No seat's clock shown (the default of ``clocks``)."""
    return [None, None, None]


class LegalAction(WireModel):
    """One action the seat may take now: its id and its text (``打:五``, ``过``)."""

    id: int
    text: str


class SeatStatus(WireModel):
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


class DissolveVote(WireModel):
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


class Readiness(WireModel):
    """The wait for 准备 before round ``round`` is dealt (the last round's 结算 is open):
    each seat's readiness (a bot or 托管 seat is ready at once), the deadline at which the
    server readies the rest. Sent to everyone when it opens and when a seat becomes
    ready; the next round's prompt ends it."""

    type: Literal["readiness"] = "readiness"
    round: int  # the round to deal (the 结算 open is round - 1's)
    ready: list[bool]
    deadline: float  # Unix time, seconds
    remaining: float  # seconds left when the message was sent


class Said(WireModel):
    """Seat ``seat`` sent quick-chat phrase ``phrase``: told to everyone, spectators too."""

    type: Literal["said"] = "said"
    seat: int
    phrase: int


class Snapshot(WireModel):
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


class EventMsg(WireModel):
    """One event as this seat may see it (RULES.md §14), numbered 1, 2, … per seat."""

    type: Literal["event"] = "event"
    seq: int
    round: int
    event: dict[str, Any]


class Prompt(WireModel):
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


class Seats(WireModel):
    """Sent to everyone when a seat's connection or 托管 status changes."""

    type: Literal["seats"] = "seats"
    seats: list[SeatStatus]


class Ack(WireModel):
    """The intent ``client_id`` is durable; ``step`` is the seat's step it made (the
    prompt that follows carries it)."""

    type: Literal["ack"] = "ack"
    client_id: str
    step: int
    duplicate: bool = False


class ErrorMsg(WireModel):
    """A refused message; the socket stays open."""

    type: Literal["error"] = "error"
    code: str
    reason: str
    client_id: str | None = None


class Waiting(WireModel):
    """Authenticated in a room whose match has not started; a snapshot follows at the start."""

    type: Literal["waiting"] = "waiting"
    room: str
    seat: int | None


class SameAddress(WireModel):
    """A warning, never a block: seated players share a network address (fairplay.py).
    ``seats``: each group of seats that share one (the addresses are never sent)."""

    type: Literal["same_address"] = "same_address"
    room: str
    seats: list[list[int]]


class CloseBy(WireModel):
    """A warning, never a block: seated players who both chose to share their rough
    location are close by (nearby.py). ``seats``: each group of such seats (no position is
    ever sent)."""

    type: Literal["close_by"] = "close_by"
    room: str
    seats: list[list[int]]


class MatchOver(WireModel):
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


class Pong(WireModel):
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
    | CloseBy
    | MatchOver
    | Pong
    | Seats
    | DissolveVote
    | Readiness
    | Said,
    Field(discriminator="type"),
]
