"""Migrations build exactly the models' schema; ``paohuzi db upgrade`` applies them."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("alembic")
pytest.importorskip("typer")

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from typer.testing import CliRunner

from paohuzi.cli.app import app
from paohuzi.server.db import Base, default_db_url, sync_engine


def test_db_upgrade_command_and_schema(db_url: str) -> None:
    url = db_url
    runner = CliRunner()
    r = runner.invoke(app, ["db", "upgrade", "--db", url])
    assert r.exit_code == 0, r.output
    assert "database at head" in r.output
    again = runner.invoke(app, ["db", "upgrade", "--db", url])  # idempotent
    assert again.exit_code == 0, again.output
    engine = sync_engine(url)
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
    engine.dispose()
    assert diff == []


def test_default_db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PAOHUZI_DB", "sqlite:///elsewhere.db")
    assert default_db_url() == "sqlite:///elsewhere.db"
    monkeypatch.delenv("PAOHUZI_DB")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert default_db_url() == f"sqlite+aiosqlite:///{tmp_path / '.paohuzi' / 'server.db'}"
    assert (tmp_path / ".paohuzi").is_dir()


def test_serve_help() -> None:
    r = CliRunner().invoke(app, ["serve", "--help"])
    assert r.exit_code == 0 and "--db" in r.output and "--port" in r.output


@pytest.mark.parametrize(
    ("url", "status", "says"),
    [
        ("garbage", 2, "not a database URL: 'garbage'"),
        ("mysql://a/b", 2, "unsupported database URL 'mysql://a/b'"),
        ("postgresql+psycopg://u:secret@127.0.0.1:1/x", 1, "u:***@127.0.0.1:1/x"),
    ],
)
@pytest.mark.parametrize("command", [["db", "upgrade"], ["serve", "--port", "1"]])
def test_bad_or_unreachable_database_is_one_error_line(
    url: str, status: int, says: str, command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    from paohuzi.cli.errors import run

    assert run([*command, "--db", url]) == status
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith(("error:", "paohuzi: error:")) and says in err[-1], err
    assert "secret" not in err[-1]


def test_urls_get_this_packages_drivers() -> None:
    from paohuzi.server.db import async_url, backend_of, sync_url

    assert async_url("postgresql://u@h/d") == "postgresql+psycopg://u@h/d"
    assert async_url("postgres://u@h/d") == "postgresql+psycopg://u@h/d"
    assert sync_url("postgresql+psycopg://u@h/d") == "postgresql+psycopg://u@h/d"
    assert async_url("sqlite:///x.db") == "sqlite+aiosqlite:///x.db"
    assert sync_url("sqlite+aiosqlite:///x.db") == "sqlite:///x.db"
    assert backend_of("sqlite:///x.db") == "sqlite"
    assert backend_of("postgresql+psycopg://u@h/d") == "postgresql"
