"""``paohuzi db backup`` taken while a match is being played restores, with ``paohuzi db
restore``, into a new database that ``paohuzi serve`` opens: the finished match's record
replays, the match that was in play at the backup is back as a live table, and the backup
is a consistent snapshot (on SQLite and on PostgreSQL)."""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from sqlalchemy import text

from paohuzi.core.record import load_record, replay_match
from paohuzi.server.db import sync_engine

from ..docblocks import marked
from .conftest import SRC, Server
from .pg import pg_database


def _paohuzi(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(SRC))
    return subprocess.run(
        [sys.executable, "-m", "paohuzi", *args], capture_output=True, text=True, env=env,
        timeout=300,
    )  # fmt: skip


def _deploy(block: str, line: int, swaps: dict[str, str]) -> list[str]:
    """A line of a docs/deploy.md block, its paths and URLs swapped, as ``paohuzi`` args."""
    whole = marked(block)
    text = whole.splitlines()[line]
    for old, new in swaps.items():
        assert old in whole, (old, whole)  # the block still names what the test replaces
        text = text.replace(old, new)
    words = shlex.split(text)
    assert words[0] == "/opt/paohuzi/.venv/bin/paohuzi", words  # the guide's installed path
    return words[1:]


def _bot(srv: Server, rounds: int, record: Path) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(SRC))
    return subprocess.Popen(
        [sys.executable, "-m", "paohuzi", "bot", "--server", srv.http, "--new", "--fill",
         "heuristic", "--rounds", str(rounds), "--seed", "3", "--record", str(record)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
    )  # fmt: skip


def _decisions(url: str, match_id: int) -> int:
    engine = sync_engine(url)
    try:
        with engine.connect() as c:
            q = text("SELECT count(*) FROM decisions WHERE match_id = :m")
            return int(c.execute(q, {"m": match_id}).scalar_one())
    finally:
        engine.dispose()


@pytest.fixture
def fresh_url(db_url: str, tmp_path: Path) -> Iterator[str]:
    """A second, new database of the same kind as ``db_url``: the restore's target."""
    if db_url.startswith("sqlite"):
        yield f"sqlite:///{tmp_path / 'restored.db'}"
    else:
        with pg_database() as url:
            yield url


@pytest.mark.slow
def test_backup_during_play_restores_and_replays(
    db_url: str, fresh_url: str, tmp_path: Path
) -> None:
    swaps = {  # docs/deploy.md's commands, on this test's files and databases
        "/var/backups/paohuzi/server-now.db": str(tmp_path / "backup.bin"),
        "sqlite:////var/lib/paohuzi/server.db": db_url,
        "sqlite:////var/lib/paohuzi/restored.db": fresh_url,
    }
    srv = Server(db_url, tmp_path / "server.log")
    srv.start()
    try:
        first = _bot(srv, 1, tmp_path / "first.json")
        out, _ = first.communicate(timeout=300)
        assert first.returncode == 0, out
        second = _bot(srv, 32, tmp_path / "second.json")  # in play while the backup is taken
        deadline = time.monotonic() + 120
        while _decisions(db_url, 2) < 20:
            assert second.poll() is None and time.monotonic() < deadline, "no second match"
            time.sleep(0.05)
        # Seat 0's client is held while the backup runs (the server's bots play on until
        # they wait for it): on a fast machine the match could otherwise end before the
        # snapshot, which must be taken mid-match.
        second.send_signal(signal.SIGSTOP)
        try:
            done = _paohuzi(*_deploy("deploy-backup", 0, swaps))
        finally:
            second.send_signal(signal.SIGCONT)
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith("backup of ") and "backup.bin" in done.stdout
        out, _ = second.communicate(timeout=600)
        assert second.returncode == 0, out
        total = _decisions(db_url, 2)
    finally:
        srv.stop()

    again = _paohuzi("db", "backup", str(tmp_path / "backup.bin"), "--db", db_url)
    assert again.returncode == 1 and "already exists" in again.stderr  # never overwritten
    done = _paohuzi(*_deploy("deploy-backup", 1, swaps))
    assert done.returncode == 0, done.stderr
    assert 20 <= _decisions(fresh_url, 2) < total  # the snapshot taken mid-match
    upgraded = _paohuzi(*_deploy("deploy-upgrade", 0, {
        "sqlite:////var/lib/paohuzi/server.db": fresh_url}))  # fmt: skip
    assert upgraded.returncode == 0 and upgraded.stdout.startswith("database at head"), upgraded

    restored = Server(fresh_url, tmp_path / "restored.log")
    restored.start()
    try:
        got = httpx.get(f"{restored.http}/matches/1/record", timeout=30)
        assert got.status_code == 200, got.text
        saved = json.loads((tmp_path / "first.json").read_text(encoding="utf-8"))
        assert got.json() == saved
        states = replay_match(load_record(got.text))  # type: ignore[arg-type]
        assert states and states[-1].over
        live = httpx.get(f"{restored.http}/matches/2/record", timeout=30)
        assert live.status_code == 409  # not over: it is back as a live table
        assert "ready: 1 tables restored" in restored.output_tail(5000)
    finally:
        restored.stop()

    into_used = _paohuzi("db", "restore", str(tmp_path / "backup.bin"), "--db", fresh_url)
    assert into_used.returncode == 1 and "error:" in into_used.stderr  # never over a database


def test_restore_refuses_a_file_that_is_not_a_backup(db_url: str, tmp_path: Path) -> None:
    junk = tmp_path / "junk.bin"
    junk.write_bytes(b"not a backup\n" * 10)
    done = _paohuzi("db", "restore", str(junk), "--db", db_url)
    assert done.returncode == 1, done.stderr
    assert "junk.bin: not a" in done.stderr and "Traceback" not in done.stderr
