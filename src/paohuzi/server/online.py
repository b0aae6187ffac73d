"""Who is online, and at which table, across every worker: each worker knows its own signed-in
sockets (:func:`here`); with several workers behind Redis (cluster.py) each also keeps its
map in the hash ``phz:online:{worker}`` (account id → the room code of the table it sits
at, or "" for watching or waiting), rewritten only when it changed and expiring with the
worker's liveness (3 leases), renewed in the same round trip as its leases. The club member
list (services/clubs.py) merges this worker's map, read fresh, with the other live
workers' hashes, so a member connected to any worker shows online."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .forwarding import alive_key

if TYPE_CHECKING:  # pragma: no cover
    from .hub import Hub

__all__ = ["WORKERS", "Published", "everywhere", "here", "online_key"]

WORKERS = "phz:online-workers"  # the workers that published a map


def online_key(worker: str) -> str:
    """The Redis hash of the accounts online on ``worker``."""
    return f"phz:online:{worker}"


def here(hub: Hub) -> dict[int, str | None]:
    """Account ids with a signed-in socket on this worker (a forwarded one counts where
    its table is), and the room code of the table they sit at (None: watching, or
    waiting for a room to start)."""
    out: dict[int, str | None] = {}
    for code, conns in hub.waiting.items():
        for conn in conns:
            if conn.account_id is not None:
                out.setdefault(conn.account_id, None if conn.spectator else code)
    for code, table in hub.tables.items():
        for audience in table.players:
            for conn in audience.conns:
                if conn.account_id is not None:
                    out[conn.account_id] = code
        for conn in table.spectators.conns:
            if conn.account_id is not None:
                out.setdefault(conn.account_id, None)
    return out


def _merge(into: dict[int, str | None], account: int, code: str | None) -> None:
    """A table's code wins over watching or waiting, whichever worker said it."""
    if code is not None or account not in into:
        into[account] = code


class Published:
    """This worker's last published map, so an unchanged one only has its expiry renewed
    (and is written again every :data:`REWRITE` turns, should Redis have lost it)."""

    REWRITE = 10

    def __init__(self) -> None:
        self.last: dict[int, str | None] | None = None
        self.turns = 0

    def queue(self, pipe: Any, hub: Hub, worker: str, ttl_ms: int) -> None:
        """Add the commands that publish this worker's map to the pipeline ``pipe``."""
        now = here(hub)
        key = online_key(worker)
        self.turns = (self.turns + 1) % self.REWRITE
        if now != self.last or self.turns == 0:
            pipe.delete(key)
            if now:
                pipe.hset(key, mapping={str(a): code or "" for a, code in now.items()})
            pipe.sadd(WORKERS, worker)
            self.last = now
        pipe.pexpire(key, ttl_ms)


async def everywhere(hub: Hub) -> dict[int, str | None]:
    """:func:`here`, merged with every other live worker's published map."""
    out = here(hub)
    cluster = hub.cluster
    if cluster is None:
        return out
    redis = cluster.redis
    others = sorted(str(w) for w in await redis.smembers(WORKERS) if w != cluster.worker)
    if not others:
        return out
    async with redis.pipeline(transaction=False) as p:
        for w in others:
            p.exists(alive_key(w))
            p.hgetall(online_key(w))
        answers = await p.execute()
    gone = [w for w, alive in zip(others, answers[::2], strict=True) if not alive]
    if gone:
        await redis.srem(WORKERS, *gone)
    for alive, seen in zip(answers[::2], answers[1::2], strict=True):
        for account, code in seen.items() if alive else ():
            _merge(out, int(account), code or None)
    return out
