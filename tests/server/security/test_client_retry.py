"""The bot client (``paohuzi bot --record``) downloads a match's record again while the
server restarts (no answer, a 5xx, a 409), a bounded number of times with growing waits;
a refusal that will not change (404) is not retried."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from paohuzi.server.client import ClientError, ServerClient
from paohuzi.server.process import ServerProcess


def _client(answers: list[object], seen: list[str]) -> ServerClient:
    """A client whose server gives ``answers`` in turn (an exception is raised)."""

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request.url.path)
        a = answers.pop(0)
        if isinstance(a, Exception):
            raise a
        assert isinstance(a, httpx.Response)
        return a

    c = ServerClient("http://127.0.0.1:9")
    c.http = httpx.AsyncClient(base_url=c.base, transport=httpx.MockTransport(handler))
    return c


async def test_record_is_fetched_again_after_a_restart() -> None:
    seen: list[str] = []
    answers: list[object] = [
        httpx.ConnectError("refused"),
        httpx.ConnectError("refused"),
        httpx.Response(503, json={"code": "busy", "reason": "starting"}),
        httpx.Response(409, json={"code": "not_finished", "reason": "not over"}),
        httpx.Response(200, json={"rounds": []}),
    ]
    c = _client(answers, seen)
    assert await c.record(7, first_wait=0.01) == {"rounds": []}
    assert seen == ["/matches/7/record"] * 5


async def test_retries_are_bounded_and_a_404_is_final() -> None:
    seen: list[str] = []
    c = _client([httpx.ConnectError("refused")] * 10, seen)
    with pytest.raises(ClientError, match="cannot reach"):
        await c.record(7, tries=3, first_wait=0.01)
    assert len(seen) == 3
    seen.clear()
    c = _client([httpx.Response(404, json={"code": "no_match", "reason": "no match 7"})], seen)
    with pytest.raises(ClientError, match="no match 7"):
        await c.record(7, first_wait=0.01)
    assert len(seen) == 1


async def test_record_across_a_real_restart(tmp_path: Path) -> None:
    """The server is down when the download starts and comes back meanwhile."""
    import asyncio

    srv = ServerProcess(tmp_path / "s.db", tmp_path / "s.log")
    srv.start()
    c = ServerClient(srv.http)
    await c.guest("host")
    code = await c.create_room(rounds=1)
    await c.call("POST", f"/rooms/{code}/bots", {"bot": "random"})
    match_id = await c.start(code)
    for _ in range(300):
        if (await c.room(code))["status"] != "playing":
            break
        await asyncio.sleep(0.1)
    srv.stop()
    fetch = asyncio.create_task(c.record(match_id, first_wait=0.2))
    await asyncio.sleep(0.5)  # the first tries find no server
    await asyncio.to_thread(srv.start)
    try:
        rec = await asyncio.wait_for(fetch, 60)
        assert rec["rounds"]
    finally:
        await c.aclose()
        srv.stop()
