"""The protocol's ground rules, the same in both directions: the size limits of what a
client sends, the codes the server closes a socket with, and the base of every message
model (strict, frozen, no field it does not declare)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

__all__ = [
    "CLOSE_FLOOD",
    "CLOSE_RESTART",
    "CLOSE_TOO_BIG",
    "MAX_FRAME",
    "MAX_MESSAGE",
    "WireModel",
]

MAX_MESSAGE = 4096  # characters; a longer client message is refused with "too_large"
MAX_FRAME = 64 * 1024  # bytes; a longer frame closes the socket with CLOSE_TOO_BIG
CLOSE_FLOOD = 1008  # policy violation: the client kept sending past its rate limit
CLOSE_TOO_BIG = 1009  # a frame over MAX_FRAME (the WebSocket layer closes it)
CLOSE_RESTART = 1012  # the server is shutting down; reconnect with ``since`` later


class WireModel(BaseModel):
    """The base of every message model (``inbound``'s and ``outbound``'s)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)
