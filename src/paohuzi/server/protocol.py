"""The WebSocket protocol (docs/protocol.md), one import for all of it: its parts are

- ``wire``: the size limits, the close codes, the base of every message model;
- ``inbound``: what a client may send (one model per message, validated on arrival);
- ``outbound``: what the server sends, one model per message (the schema);
- ``builders``: the one way the server builds each message it sends (plain dicts in the
  models' field order, checked against them by a test) and ``encode``, which makes the
  text once per message however many sockets it goes to;
- ``protocoldoc``: docs/protocol.md's generated schemas
  (``python -m paohuzi.server.protocol docs/protocol.md`` writes them).

The seat view's JSON form is ``viewjson``'s (re-exported here). The ``__all__`` of
``builders``, ``inbound``, ``outbound`` and ``viewjson`` is re-exported whole (of ``wire``
and ``protocoldoc``, the names above), so a message's names are listed in their part only.
"""

from __future__ import annotations

from . import builders, inbound, outbound, viewjson
from .builders import *  # noqa: F403  (each part's __all__, listed there only)
from .inbound import *  # noqa: F403
from .outbound import *  # noqa: F403
from .protocoldoc import render_doc, schemas, schemas_text
from .viewjson import *  # noqa: F403
from .wire import CLOSE_FLOOD, CLOSE_RESTART, CLOSE_TOO_BIG, MAX_FRAME, MAX_MESSAGE

__all__ = [
    *builders.__all__,
    *inbound.__all__,
    *outbound.__all__,
    *viewjson.__all__,
    "CLOSE_FLOOD",
    "CLOSE_RESTART",
    "CLOSE_TOO_BIG",
    "MAX_FRAME",
    "MAX_MESSAGE",
    "render_doc",
    "schemas",
    "schemas_text",
]

if __name__ == "__main__":  # pragma: no cover - a documentation helper
    from .protocoldoc import main

    main()
