"""解散 at a table: a seat's proposal or vote, stored before it is told, and the end of a
vote whose time is up. These are ``Table``'s methods ``vote_dissolve`` and
``expire_vote`` (bound in its class body); the vote itself is ``vote.Vote``, a frozen value.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import persist
from .clock import now
from .errors import ApiError
from .vote import Vote

if TYPE_CHECKING:
    from .outbox import Connection
    from .tables import Table

__all__ = ["PROPOSE_AGAIN", "expire", "vote"]

PROPOSE_AGAIN = 30.0  # seconds before a seat whose 解散 did not pass may propose again


async def vote(table: Table, conn: Connection, agree: bool) -> None:
    """Propose 解散 or vote on the open proposal; all agreeing ends the match."""
    async with table.seated(conn, "a spectator has no vote") as s:
        v = table.vote
        if v is None and not agree:
            raise ApiError("no_vote", "no 解散 vote is open; propose one with agree: true")
        if v is None:
            wait = table.proposed.get(s, 0.0) - now()
            if wait > 0:  # (a refused proposal made again at once put the vote up again)
                raise ApiError(
                    "too_many_requests",
                    f"seat {s}'s last 解散 proposal did not pass; it may propose again in "
                    f"{wait:.0f} s",
                )
            bots = [i.bot is not None for i in table.seats]
            v = Vote.propose(s, bots, now() + table.settings.dissolve_seconds)
        v = v.cast(s, agree)
        outcome = v.outcome
        if outcome == "refused":
            table.proposed[v.proposer] = now() + PROPOSE_AGAIN
        await persist.store_vote(table, None if outcome == "refused" else v, outcome == "dissolved")
        table._tell_all(v.message(now(), outcome))
        table.vote = None if outcome is not None else v
        if outcome == "dissolved":
            table.dissolved = True
            table._tell_all(table._over())
        table.driver.wake.set()


async def expire(table: Table) -> None:
    """End the open 解散 vote if its time is up (stored, then told)."""
    v = table.vote
    if v is None or not v.expired(now()):
        return
    await persist.store_vote(table, None)
    table.proposed[v.proposer] = now() + PROPOSE_AGAIN
    table._tell_all(v.message(now(), "expired"))
    table.vote = None
