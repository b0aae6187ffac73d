"""``paohuzi bot --new``: the host starts its room once it is full, through a server restart."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from paohuzi.cli.bot import _start_when_full
from paohuzi.server.client import ClientError

DOWN = ClientError("cannot reach the server at http://127.0.0.1:1: connection refused")


class _Http:
    """A server whose answers are scripted: each ``room`` call takes the next one."""

    def __init__(self, rooms: list[Any], start: list[Any] | None = None) -> None:
        self.rooms = rooms
        self.starts = start or [None]
        self.started = 0

    async def room(self, code: str) -> dict[str, Any]:
        got = self.rooms.pop(0) if len(self.rooms) > 1 else self.rooms[0]
        if isinstance(got, Exception):
            raise got
        return {"code": code, "status": got[0], "seats": got[1]}

    async def start(self, code: str) -> int:
        self.started += 1
        got = self.starts.pop(0) if len(self.starts) > 1 else self.starts[0]
        if isinstance(got, Exception):
            raise got
        return 1


async def _host(http: _Http, wait: float = 5) -> asyncio.Task[Any]:
    play = asyncio.create_task(asyncio.sleep(60))
    try:
        await _start_when_full(http, "123456", wait, play)
    finally:
        play.cancel()
    return play


FULL = ("open", ["a", "b", "c"])
WAITING = ("open", ["a", None, None])


async def test_the_host_waits_through_a_server_restart_then_starts() -> None:
    http = _Http([WAITING, DOWN, DOWN, FULL])
    await _host(http)
    assert http.started == 1


async def test_a_start_whose_answer_was_lost_is_not_sent_twice() -> None:
    http = _Http([FULL, ("playing", ["a", "b", "c"])], start=[DOWN])
    await _host(http)
    assert http.started == 1


async def test_a_room_that_never_fills_is_one_error_naming_the_last_trouble() -> None:
    with pytest.raises(ClientError, match=r"did not fill within 0.3 s \(last: cannot reach"):
        await _host(_Http([WAITING, DOWN]), wait=0.3)
    with pytest.raises(ClientError, match=r"did not fill within 0.3 s$"):
        await _host(_Http([WAITING]), wait=0.3)


async def test_a_refusal_is_not_retried() -> None:
    refused = ClientError("GET /rooms/123456: 404 no room 123456", bad_input=True)
    with pytest.raises(ClientError, match="404"):
        await _host(_Http([refused]))
