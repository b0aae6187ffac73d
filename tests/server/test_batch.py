"""Batched frames (``auth`` with ``batch: true``): the same messages, fewer frames."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import websockets
from pydantic import TypeAdapter

from paohuzi.server.protocol import Ack, EventMsg, Prompt, ServerMessage

from .conftest import Server, seated_room, start


async def _reader(ws: Any, frames: list[Any], out: list[dict[str, Any]]) -> None:
    async for text in ws:
        data = json.loads(text)
        frames.append(data)
        out.extend(data if isinstance(data, list) else [data])


async def test_a_batched_socket_gets_the_plain_sockets_messages_in_fewer_frames(
    server: Server,
) -> None:
    # One person (seat 0) against two bots; the seat has a plain and a batched socket.
    code, (me,) = seated_room(server, 1, bot="random", rounds=1)
    plain = await websockets.connect(server.ws(code))
    batched = await websockets.connect(server.ws(code))
    await plain.send(json.dumps({"type": "auth", "token": me}))
    await batched.send(json.dumps({"type": "auth", "token": me, "batch": True}))
    got: dict[str, list[dict[str, Any]]] = {"plain": [], "batched": []}
    frames: dict[str, list[Any]] = {"plain": [], "batched": []}
    readers = [
        asyncio.create_task(_reader(ws, frames[k], got[k]))
        for k, ws in (("plain", plain), ("batched", batched))
    ]
    try:
        for _ in range(2):  # both have been told they are waiting
            while not all(any(m["type"] == "waiting" for m in got[k]) for k in got):
                await asyncio.sleep(0.01)
        await asyncio.to_thread(start, server, code, me)
        acted = 0
        for _ in range(2000):  # play a few decisions on the plain socket
            await asyncio.sleep(0.01)
            mine = [m for m in got["plain"] if m["type"] in ("snapshot", "prompt")]
            if mine and mine[-1]["legal"] and mine[-1]["since"] != getattr(plain, "acted", None):
                p = mine[-1]
                plain.acted = p["since"]  # type: ignore[attr-defined]
                act = {"type": "act", "action": p["legal"][0]["id"], "step": p["step"],
                       "client_id": f"c{acted}"}  # fmt: skip
                await plain.send(json.dumps(act))
                acted += 1
            if acted >= 6 or any(m["type"] == "match_over" for m in got["plain"]):
                break
        await asyncio.sleep(0.3)  # the last messages reach both sockets
    finally:
        await plain.close()
        await batched.close()
        await asyncio.gather(*readers, return_exceptions=True)
    assert acted >= 3

    # The seat's events and prompts: the same on both sockets, in the same order (the
    # acks go to the socket that sent the intent; snapshots and seat status depend on
    # when each socket joined).
    def seat_messages(k: str) -> list[dict[str, Any]]:
        return [m for m in got[k] if m["type"] in ("event", "prompt", "match_over")]

    n = min(len(seat_messages("plain")), len(seat_messages("batched")))
    assert n > 10 and seat_messages("plain")[:n] == seat_messages("batched")[:n]
    snap = next(m for m in got["batched"] if m["type"] == "snapshot")
    events = [m["seq"] for m in got["batched"] if m["type"] == "event"]
    assert events == list(range(snap["seq"] + 1, snap["seq"] + 1 + len(events)))
    # Every message is one the schema describes, with all its model's fields (the hot
    # path builds them as plain dicts, not through the models).
    schema = TypeAdapter(ServerMessage)
    models = {"prompt": Prompt, "event": EventMsg, "ack": Ack}
    for m in got["plain"] + got["batched"]:
        assert schema.validate_json(json.dumps(m)).type == m["type"]
        if m["type"] in models:
            assert list(m) == list(models[m["type"]].model_fields), m
    assert {"prompt", "event", "ack"} <= {m["type"] for m in got["plain"]}
    assert any(isinstance(f, list) and len(f) > 1 for f in frames["batched"])
    assert all(not isinstance(f, list) for f in frames["plain"])
    assert len(frames["batched"]) < len(frames["plain"])
