"""A Redis logical database of its own, on the server that ``$PAOHUZI_TEST_REDIS_URL`` names.

The workers of one cluster share keys (leases, the live set, inboxes), so two clusters on
one database — two xdist workers' fixtures, or a load benchmark's smoke run beside them —
would take each other's tables. Each user claims a free database among 1–15 (a claim key
set if absent, expiring after an hour should its test die), empties it, and empties it
again when done. ``tools/throwaway-redis start DIR`` starts a server and prints its URL;
``.ci/run`` does that and sets ``PAOHUZI_TEST_REDIS_REQUIRED=1``, which turns a missing or
unreachable server from a skip into a failure.
"""

from __future__ import annotations

import contextlib
import os
import uuid
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest

from .pg import unavailable

REDIS_VAR = "PAOHUZI_TEST_REDIS_URL"
REQUIRED_VAR = "PAOHUZI_TEST_REDIS_REQUIRED"
CLAIM = "paohuzi-test:claimed"


def _unavailable(why: str) -> None:
    unavailable("Redis", REQUIRED_VAR, "tools/throwaway-redis", why)


def with_db(url: str, n: int) -> str:
    """``url`` with its logical database set to ``n``."""
    return urlsplit(url)._replace(path=f"/{n}").geturl()


@contextlib.contextmanager
def redis_database() -> Iterator[str]:
    """A claimed, empty logical database on the test Redis; its ``redis://`` URL."""
    url = os.environ.get(REDIS_VAR, "")
    if not url:
        _unavailable(f"${REDIS_VAR} is not set")
    try:
        import redis
    except ImportError as e:  # pragma: no cover - depends on the install
        _unavailable(f"the redis package is not installed ({e})")
        raise  # unreachable: _unavailable raises
    try:
        redis.Redis.from_url(url, socket_connect_timeout=2).ping()
    except redis.RedisError as e:
        _unavailable(f"{url} is unreachable ({e})")
    token = uuid.uuid4().hex
    for n in range(1, 16):
        mine = with_db(url, n)
        r = redis.Redis.from_url(mine)
        if not r.set(CLAIM, token, nx=True, ex=3600):
            continue
        try:
            for key in r.scan_iter():  # what a killed run left, not the claim
                if key != CLAIM.encode():
                    r.delete(key)
            yield mine
        finally:
            r.flushdb()
            r.close()
        return
    pytest.fail(f"no free logical database (1-15) on {url}: each holds a {CLAIM!r} key")
