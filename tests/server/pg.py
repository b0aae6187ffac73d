"""A fresh PostgreSQL database per test, on the server that ``$PAOHUZI_TEST_PG_URL`` names.

``tools/throwaway-postgres start DIR`` starts one and prints its URL; ``.ci/run`` does
that and sets ``PAOHUZI_TEST_PG_REQUIRED=1``, which turns a missing or unreachable
server from a skip into a failure.
"""

from __future__ import annotations

import contextlib
import os
import uuid
from collections.abc import Iterator

import pytest

URL_VAR = "PAOHUZI_TEST_PG_URL"
REQUIRED_VAR = "PAOHUZI_TEST_PG_REQUIRED"


def unavailable(service: str, required_var: str, tool: str, why: str) -> None:
    """Skip the test for want of a service, or fail it where ``required_var`` is set (CI)."""
    if os.environ.get(required_var, "") not in ("", "0"):
        pytest.fail(f"{service} is required ({required_var} is set) but {why}")
    pytest.skip(f"no {service}: {why} ({tool} start DIR prints a URL)")


def _unavailable(why: str) -> None:
    unavailable("PostgreSQL", REQUIRED_VAR, "tools/throwaway-postgres", why)


@contextlib.contextmanager
def pg_database() -> Iterator[str]:
    """A new, empty database on the test server (dropped afterwards); its SQLAlchemy URL."""
    base = os.environ.get(URL_VAR, "")
    if not base:
        _unavailable(f"${URL_VAR} is not set")
    try:
        import psycopg
        from sqlalchemy.engine import make_url
    except ImportError as e:
        _unavailable(f"psycopg is not installed ({e})")
        raise  # unreachable: _unavailable raises
    url = make_url(base)
    name = f"t_{uuid.uuid4().hex[:16]}"
    admin = url.set(drivername="postgresql").render_as_string(hide_password=False)
    try:
        conn = psycopg.connect(admin, autocommit=True, connect_timeout=5)
    except psycopg.Error as e:
        _unavailable(f"{url.render_as_string()} is unreachable ({e})")
        raise
    with conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield url.set(database=name, drivername="postgresql+psycopg").render_as_string(
            hide_password=False
        )
    finally:
        with psycopg.connect(admin, autocommit=True, connect_timeout=5) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
