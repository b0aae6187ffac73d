"""The one dispatch of a validated play message: each client message type to its table
method, a refusal or failure to an ``error`` message. The socket's worker calls it for
every message; with several workers, a table's owner calls it again for the messages forwarded to it
(cluster.py), so both paths answer alike."""

from __future__ import annotations

import logging
from collections.abc import Awaitable
from typing import Annotated

from pydantic import Field, TypeAdapter

from .errors import ApiError
from .protocol import Act, Chat, Dissolve, Ready, Resync, Tuoguan, error_dict
from .tables import Connection, TableHandle

__all__ = ["PlayMsg", "dispatch", "guarded", "play_adapter"]

log = logging.getLogger("paohuzi.server")

PlayMsg = (
    Act | Resync | Tuoguan | Dissolve | Ready | Chat
)  # what a signed-in socket sends to its table


def play_adapter() -> TypeAdapter[PlayMsg]:
    """The validator of a forwarded play message (cluster.py)."""
    return TypeAdapter(Annotated[PlayMsg, Field(discriminator="type")])


async def guarded(
    conn: Connection, what: str, step: Awaitable[None], client_id: str | None
) -> None:
    """Await ``step``; a refusal (ApiError) or a failure (a commit that failed: the table
    keeps its last durable state) goes back to the socket as an ``error`` message."""
    try:
        await step
    except ApiError as e:
        conn.put_dict(error_dict(e.code, e.reason, client_id))
    except Exception:
        log.exception("%s failed", what)
        conn.put_dict(error_dict("internal", "not applied; try again", client_id))


async def dispatch(msg: PlayMsg, conn: Connection, handle: TableHandle) -> None:
    """Apply ``msg`` from ``conn`` at ``handle`` (a local table, or cluster.RemoteTable,
    which forwards it to the table's owner, where it is dispatched again)."""
    if isinstance(msg, Act):
        step = handle.intent(conn, msg.action, msg.step, msg.client_id)
        await guarded(conn, msg.type, step, msg.client_id)
    elif isinstance(msg, Tuoguan):
        await guarded(conn, msg.type, handle.set_tuoguan(conn, msg.on), None)
    elif isinstance(msg, Dissolve):
        await guarded(conn, msg.type, handle.vote_dissolve(conn, msg.agree), None)
    elif isinstance(msg, Ready):
        await guarded(conn, msg.type, handle.press_ready(conn), None)
    elif isinstance(msg, Chat):
        await guarded(conn, msg.type, handle.chat(conn, msg.phrase), None)
    else:
        await guarded(conn, msg.type, handle.attach(conn, None), None)
