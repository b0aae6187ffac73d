"""The security tests run on both databases: the module's real server (``server``, a
subprocess) on an SQLite file and on a fresh PostgreSQL database, and the in-process app
through ``db_url`` (tests/server/conftest.py) likewise; without a PostgreSQL server
(``$PAOHUZI_TEST_PG_URL``) its half is skipped, and in CI it fails instead."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import pytest

from ..conftest import Server
from ..pg import pg_database


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    """``paohuzi serve`` on a database of each kind, shared by the module's tests."""
    d = tmp_path_factory.mktemp("srv")
    with contextlib.ExitStack() as stack:
        url = stack.enter_context(pg_database()) if request.param == "postgresql" else None
        srv = Server(url or d / "server.db", d / "server.log")
        srv.start()
        try:
            yield srv
        finally:
            srv.stop()
