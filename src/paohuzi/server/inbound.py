"""What a client may send: one pydantic model per message (validated on arrival, and the
"client" half of docs/protocol.md's schemas), the list of their types, the validator."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from .wire import WireModel

__all__ = [
    "CLIENT_TYPES",
    "Act",
    "Auth",
    "Chat",
    "ClientMessage",
    "ClientMsg",
    "Dissolve",
    "Ping",
    "Ready",
    "Resync",
    "Tuoguan",
    "client_adapter",
]


class Auth(WireModel):
    """First message: the session token; ``since`` asks for the seat's events after it.

    ``spectate`` watches the room with the public view (a public room, or its host).
    ``views`` asks for the seat's view in every prompt, not only when it has a decision,
    so a client that draws the table needs no snapshot after each decision.
    ``batch`` lets the server send the messages it has queued for the socket together, as
    one frame holding a JSON array of them, in order (fewer frames: cheaper for both ends).
    """

    type: Literal["auth"]
    token: Annotated[str, Field(min_length=1, max_length=200)]
    since: Annotated[int | None, Field(ge=0, le=2**31 - 1)] = None
    spectate: bool = False
    views: bool = False
    batch: bool = False


class Act(WireModel):
    """A decision: an action id or text, the seat's ``step`` it was made at (the latest
    prompt's), a client id.

    The same ``client_id`` sent twice by a seat is applied once (the second gets an ack
    marked duplicate).
    """

    type: Literal["act"]
    # (bounded: a 4,000-digit number was quoted whole by the ``illegal`` or ``bad_step`` reply)
    action: Annotated[int, Field(ge=0, le=2**31 - 1)] | Annotated[str, Field(max_length=64)]
    step: Annotated[int, Field(ge=0, le=2**31 - 1)]
    client_id: Annotated[str, Field(min_length=1, max_length=64)]


class Resync(WireModel):
    """Ask for a fresh snapshot (after a gap in event numbers)."""

    type: Literal["resync"]


class Ping(WireModel):
    """Keep-alive; answered with a pong."""

    type: Literal["ping"]


class Tuoguan(WireModel):
    """托管: ``on`` lets the server play this seat (the heuristic bot) until ``off``."""

    type: Literal["tuoguan"]
    on: bool


class Dissolve(WireModel):
    """解散: with no vote open, ``agree: true`` proposes to end the match early; with one
    open, it is this seat's vote (``false`` refuses, which cancels the vote)."""

    type: Literal["dissolve"]
    agree: bool


class Ready(WireModel):
    """准备: this seat is ready for the next round (after a round's 结算). The round is
    dealt when every seat is ready or the room's ``ready_seconds`` ran out."""

    type: Literal["ready"]


class Chat(WireModel):
    """快捷语 or a reaction: a phrase id from the fixed list (0-15; server/chat.py), never
    free text. Each seat may send 3 at once, then one every 2 s (``rate_limited``)."""

    type: Literal["chat"]
    phrase: Annotated[int, Field(ge=0, le=15)]


ClientMsg = Auth | Act | Resync | Ping | Tuoguan | Dissolve | Ready | Chat
ClientMessage = Annotated[ClientMsg, Field(discriminator="type")]
CLIENT_TYPES = ("auth", "act", "resync", "ping", "tuoguan", "dissolve", "ready", "chat")


def client_adapter() -> TypeAdapter[ClientMsg]:
    """The validator for one client message."""
    return TypeAdapter(ClientMessage)
