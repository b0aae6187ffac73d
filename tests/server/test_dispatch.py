"""dispatch.py: one mapping of a play message to its table, used by the socket's worker and,
for a forwarded socket, by the table's owner (cluster.py): both answer alike."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

pytest.importorskip("fastapi")

from paohuzi.server.dispatch import PlayMsg, dispatch
from paohuzi.server.errors import ApiError
from paohuzi.server.forwarding import Forwarding, RemoteTable, _Forwarded
from paohuzi.server.protocol import Act, Dissolve, Resync, Tuoguan
from paohuzi.server.tables import Connection

MESSAGES: list[PlayMsg] = [
    Act(type="act", action=7, step=3, client_id="c1"),
    Act(type="act", action="hu", step=4, client_id="c2"),
    Tuoguan(type="tuoguan", on=True),
    Dissolve(type="dissolve", agree=False),
    Resync(type="resync"),
]


class FakeTable:
    """A TableHandle that records each call, and refuses or fails when told to."""

    def __init__(self, fail: BaseException | None = None) -> None:
        self.calls: list[tuple[Any, ...]] = []
        self.fail = fail

    async def _called(self, *call: Any) -> None:
        self.calls.append(call)
        if self.fail is not None:
            raise self.fail

    async def attach(self, conn: Connection, since: int | None) -> None:
        await self._called("attach", since)

    def detach(self, conn: Connection) -> None:
        self.calls.append(("detach",))

    async def intent(self, conn: Connection, action: int | str, step: int, client_id: str) -> None:
        await self._called("intent", action, step, client_id)

    async def set_tuoguan(self, conn: Connection, on: bool) -> None:
        await self._called("tuoguan", on)

    async def vote_dissolve(self, conn: Connection, agree: bool) -> None:
        await self._called("dissolve", agree)


EXPECTED = [
    ("intent", 7, 3, "c1"),
    ("intent", "hu", 4, "c2"),
    ("tuoguan", True),
    ("dissolve", False),
    ("attach", None),
]


def _sent(conn: Connection) -> list[dict[str, Any]]:
    out = []
    while not conn.queue.empty():
        text = conn.queue.get_nowait()
        if text is None:  # closed
            break
        out.append(json.loads(text))
    return out


async def test_each_message_reaches_its_table_method() -> None:
    table, conn = FakeTable(), Connection(lambda _: None)
    for msg in MESSAGES:
        await dispatch(msg, conn, table)
    assert table.calls == EXPECTED
    assert _sent(conn) == []


async def test_a_refusal_and_a_failure_are_error_messages_with_the_client_id() -> None:
    conn = Connection(lambda _: None)
    await dispatch(MESSAGES[0], conn, FakeTable(ApiError("stale", "an old step", 409)))
    await dispatch(MESSAGES[2], conn, FakeTable(RuntimeError("the disk is full")))
    await dispatch(MESSAGES[1], conn, FakeTable(RuntimeError("the disk is full")))
    got = _sent(conn)
    assert got[0] == {"type": "error", "code": "stale", "reason": "an old step", "client_id": "c1"}
    assert got[1]["code"] == "internal" and got[1].get("client_id") is None
    assert got[2]["code"] == "internal" and got[2]["client_id"] == "c2"


class _Wire:
    """Stands in for the socket side's Forwarding: keeps what RemoteTable forwards."""

    def __init__(self) -> None:
        self.ops: list[dict[str, Any]] = []
        self.bound: dict[str, Any] = {}

    async def forward(self, handle: RemoteTable, conn: Connection, op: str, body: Any) -> None:
        self.ops.append(json.loads(json.dumps({"op": op, "sid": handle.sid, **body})))


async def test_a_forwarded_socket_reaches_the_same_table_methods_on_the_owner() -> None:
    """The socket's worker dispatches to a RemoteTable, which forwards; the owner's
    ``_serve`` dispatches what arrives: the table sees what a local socket would make."""
    wire = _Wire()
    remote = RemoteTable(wire, 1, "owner:x")  # type: ignore[arg-type]
    here = Connection(lambda _: None)
    await remote.attach(here, 5)
    for msg in MESSAGES:
        await dispatch(msg, here, remote)
    owner = Forwarding(None)  # type: ignore[arg-type]  # (no cluster needed to serve)
    table = FakeTable()
    there = Connection(lambda _: None)
    f = _Forwarded(there, table, "w")  # type: ignore[arg-type]
    owner.forwarded[remote.sid] = f
    for op in [*wire.ops, {"op": "detach", "sid": remote.sid}]:
        f.ops.put_nowait(op)
    await asyncio.wait_for(owner.serve(remote.sid, f), 5)
    assert table.calls == [("attach", 5), *EXPECTED, ("detach",)]
    assert remote.sid not in owner.forwarded


async def test_the_owner_answers_a_refusal_as_the_socket_worker_would() -> None:
    owner = Forwarding(None)  # type: ignore[arg-type]
    there = Connection(lambda _: None)
    f = _Forwarded(there, FakeTable(ApiError("stale", "an old step", 409)), "w")  # type: ignore[arg-type]
    msg = MESSAGES[0].model_dump(mode="json")
    for op in [{"op": "msg", "msg": msg}, {"op": "msg", "msg": {"type": "auth"}}, {"op": "detach"}]:
        f.ops.put_nowait(op)
    await asyncio.wait_for(owner.serve("s", f), 5)
    got = _sent(there)
    assert got[0] == {"type": "error", "code": "stale", "reason": "an old step", "client_id": "c1"}
    assert len(got) == 1  # (the malformed one is logged and dropped)
