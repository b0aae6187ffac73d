"""The WebSocket protocol (docs/protocol.md), one import for all of it: its parts are

- ``wire``: the size limits, the close codes, the base of every message model;
- ``inbound``: what a client may send (one model per message, validated on arrival);
- ``outbound``: what the server sends, one model per message (the schema);
- ``builders``: the one way the server builds each message it sends (plain dicts in the
  models' field order, checked against them by a test) and ``encode``, which makes the
  text once per message however many sockets it goes to;
- ``protocoldoc``: docs/protocol.md's generated schemas
  (``python -m paohuzi.server.protocol docs/protocol.md`` writes them).

The seat view's JSON form is ``viewjson``'s (re-exported here).
"""

from __future__ import annotations

from .builders import (
    ack_dict,
    close_by_dict,
    dissolve_vote_dict,
    encode,
    error_dict,
    event_dict,
    legal_dict,
    match_over_dict,
    pong_dict,
    prompt_dict,
    readiness_dict,
    said_dict,
    same_address_dict,
    seat_status_dict,
    seats_dict,
    snapshot_dict,
    waiting_dict,
)
from .inbound import (
    CLIENT_TYPES,
    Act,
    Auth,
    Chat,
    ClientMessage,
    ClientMsg,
    Dissolve,
    Ping,
    Ready,
    Resync,
    Tuoguan,
    client_adapter,
)
from .outbound import (
    Ack,
    CloseBy,
    DissolveVote,
    ErrorMsg,
    EventMsg,
    LegalAction,
    MatchOver,
    Pong,
    Prompt,
    Readiness,
    Said,
    SameAddress,
    Seats,
    SeatStatus,
    ServerMessage,
    Snapshot,
    Waiting,
)
from .protocoldoc import render_doc, schemas, schemas_text
from .viewjson import view_from_dict, view_to_dict
from .wire import CLOSE_FLOOD, CLOSE_RESTART, CLOSE_TOO_BIG, MAX_FRAME, MAX_MESSAGE

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
    "CloseBy",
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

if __name__ == "__main__":  # pragma: no cover - a documentation helper
    from .protocoldoc import main

    main()
