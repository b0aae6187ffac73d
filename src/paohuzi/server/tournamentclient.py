"""The bot client's part in a club's duplicate tournament: ask the server where to play
now, play that room's seat to its end with a bot, and again, until the tournament is over
(services/tournaments.py opens each stage as the last finishes)."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from ..bots import Bot
from .client import ClientError, SeatPlayer, ServerClient

__all__ = ["play_tournament"]


async def play_tournament(
    client: ServerClient,
    club_id: int,
    tournament_id: int,
    bot: Bot,
    poll: float = 0.2,
    timeout: float = 600,
) -> dict[str, Any]:
    """Play every room the tournament seats this account in; the final status, with the
    rooms played (``played``, in order). Gives up (ClientError) after ``timeout`` s."""
    path = f"/clubs/{club_id}/tournaments/{tournament_id}"
    played: list[str] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        status: dict[str, Any] = await client.call("GET", path)
        if status["status"] == "finished":
            return {**status, "played": played}
        room = status["room"]
        if room is not None and room not in played:
            played.append(room)
            assert client.token is not None
            await SeatPlayer(client.ws_url(room), client.token, bot).play()
        else:
            await asyncio.sleep(poll)
    raise ClientError(f"tournament {tournament_id} did not finish within {timeout:g} s")
