"""The one way the server builds each message it sends: a plain dict per message, its
fields in its model's order (``outbound``), and ``encode``, which makes the text once per
message however many sockets it goes to (a model per socket was too slow). A test
validates every builder's output against its model, so the two cannot drift."""

from __future__ import annotations

import json
from typing import Any, Literal

__all__ = [
    "ack_dict",
    "close_by_dict",
    "dissolve_vote_dict",
    "encode",
    "error_dict",
    "event_dict",
    "legal_dict",
    "match_over_dict",
    "pong_dict",
    "prompt_dict",
    "readiness_dict",
    "said_dict",
    "same_address_dict",
    "seat_status_dict",
    "seats_dict",
    "snapshot_dict",
    "waiting_dict",
]

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


# One builder per server message, the fields in the model's order; nested parts have their own.


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


MAX_REASON = 300  # characters of an error's reason: what it quotes of a message is bounded


def error_dict(code: str, reason: str, client_id: str | None = None) -> dict[str, Any]:
    """An :class:`ErrorMsg`, its reason cut to :data:`MAX_REASON` characters (an
    ellipsis marks a cut: a reason may quote what the client sent)."""
    if len(reason) > MAX_REASON:
        reason = reason[: MAX_REASON - 1] + "…"
    return {"type": "error", "code": code, "reason": reason, "client_id": client_id}


def waiting_dict(room: str, seat: int | None) -> dict[str, Any]:
    """A :class:`Waiting` message."""
    return {"type": "waiting", "room": room, "seat": seat}


def same_address_dict(room: str, seats: list[list[int]]) -> dict[str, Any]:
    """A :class:`SameAddress` message."""
    return {"type": "same_address", "room": room, "seats": seats}


def close_by_dict(room: str, seats: list[list[int]]) -> dict[str, Any]:
    """A :class:`CloseBy` message."""
    return {"type": "close_by", "room": room, "seats": seats}


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
