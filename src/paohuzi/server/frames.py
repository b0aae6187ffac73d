"""Reading one WebSocket frame as a client message: UTF-8 JSON of bounded size and nesting,
a known type, a valid message; else an ``ApiError`` that says why not (the socket answers
it with an ``error`` message)."""

from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter, ValidationError

from . import wirejson
from .errors import ApiError
from .protocol import CLIENT_TYPES, MAX_MESSAGE, ClientMsg, client_adapter
from .validation import quoted_input

__all__ = ["read_frame"]

_ADAPTER: TypeAdapter[ClientMsg] = client_adapter()


def _text(frame: dict[str, Any]) -> str:
    text = frame.get("text")
    if text is not None:
        return str(text)
    data = frame.get("bytes") or b""
    try:
        return bytes(data).decode()
    except UnicodeDecodeError:
        raise ApiError("bad_json", "a message is UTF-8 JSON text") from None


def read_frame(frame: dict[str, Any]) -> ClientMsg:
    """The client message a received frame (``websocket.receive``) holds, validated;
    ``ApiError`` if it holds none."""
    text = _text(frame)
    if len(text) > MAX_MESSAGE:
        raise ApiError("too_large", f"a message has at most {MAX_MESSAGE} characters")
    try:
        raw = wirejson.loads(text)  # nesting bounded: json.loads recurses per level
    except ValueError as e:
        raise ApiError("bad_json", f"not JSON: {e}") from None
    if not isinstance(raw, dict) or raw.get("type") not in CLIENT_TYPES:
        got = raw.get("type") if isinstance(raw, dict) else raw
        raise ApiError("unknown_type", f"unknown message type {str(got)[:40]!r}")
    try:
        return _ADAPTER.validate_python(raw)
    except ValidationError as e:
        first = e.errors()[0]
        where = ".".join(str(x) for x in first["loc"][1:])
        raise ApiError("bad_message", f"{where}: {first['msg']}{quoted_input(first)}") from None
