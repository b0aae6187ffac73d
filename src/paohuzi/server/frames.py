"""Reading one WebSocket frame as a client message: UTF-8 JSON of bounded size and nesting,
a known type, a valid message; else the ErrorMsg that says why not."""

from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter, ValidationError

from . import wirejson
from .protocol import CLIENT_TYPES, MAX_MESSAGE, ClientMsg, ErrorMsg, client_adapter

__all__ = ["read_frame"]

_ADAPTER: TypeAdapter[ClientMsg] = client_adapter()


def _text(frame: dict[str, Any]) -> str | ErrorMsg:
    text = frame.get("text")
    if text is not None:
        return str(text)
    data = frame.get("bytes") or b""
    try:
        return bytes(data).decode()
    except UnicodeDecodeError:
        return ErrorMsg(code="bad_json", reason="a message is UTF-8 JSON text")


def read_frame(frame: dict[str, Any]) -> ClientMsg | ErrorMsg:
    """The client message a received frame (``websocket.receive``) holds, validated."""
    text = _text(frame)
    if isinstance(text, ErrorMsg):
        return text
    if len(text) > MAX_MESSAGE:
        return ErrorMsg(code="too_large", reason=f"a message has at most {MAX_MESSAGE} characters")
    try:
        raw = wirejson.loads(text)  # nesting bounded: json.loads recurses per level
    except ValueError as e:
        return ErrorMsg(code="bad_json", reason=f"not JSON: {e}")
    if not isinstance(raw, dict) or raw.get("type") not in CLIENT_TYPES:
        got = raw.get("type") if isinstance(raw, dict) else raw
        return ErrorMsg(code="unknown_type", reason=f"unknown message type {str(got)[:40]!r}")
    try:
        return _ADAPTER.validate_python(raw)
    except ValidationError as e:
        first = e.errors()[0]
        where = ".".join(str(x) for x in first["loc"][1:])
        return ErrorMsg(code="bad_message", reason=f"{where}: {first['msg']}")
