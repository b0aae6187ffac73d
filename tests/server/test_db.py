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


def test_db_upgrade_command_and_schema(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'x.db'}"
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
