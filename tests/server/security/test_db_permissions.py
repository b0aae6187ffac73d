"""The SQLite database (password hashes, session hashes) is the owner's alone: its folder
0700 when the server makes it, the file and its -wal/-shm 0600, old ones tightened."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from paohuzi.server.db import default_db_url, upgrade


def _mode(p: Path) -> int:
    return stat.S_IMODE(p.stat().st_mode)


@pytest.fixture
def loose_umask() -> Iterator[None]:
    old = os.umask(0o022)
    yield
    os.umask(old)


def test_a_new_database_is_private(tmp_path: Path, loose_umask: None) -> None:
    path = tmp_path / "new" / "deeper" / "server.db"
    upgrade(f"sqlite:///{path}")
    assert _mode(path) == 0o600
    assert _mode(path.parent) == 0o700 and _mode(path.parent.parent) == 0o700
    for extra in ("server.db-wal", "server.db-shm"):
        if (path.parent / extra).exists():
            assert _mode(path.parent / extra) == 0o600


def test_an_old_database_is_tightened(tmp_path: Path, loose_umask: None) -> None:
    path = tmp_path / "server.db"
    upgrade(f"sqlite:///{path}")
    path.chmod(0o644)
    upgrade(f"sqlite:///{path}")
    assert _mode(path) == 0o600


def test_the_default_folder_is_private(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, loose_umask: None
) -> None:
    monkeypatch.delenv("PAOHUZI_DB", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    (tmp_path / ".paohuzi").mkdir(mode=0o755)
    url = default_db_url()
    assert _mode(tmp_path / ".paohuzi") == 0o700
    upgrade(url)
    assert _mode(tmp_path / ".paohuzi" / "server.db") == 0o600
