"""Backups and restores of the server's database (``paohuzi db backup`` / ``db restore``).

SQLite: the online backup API (``sqlite3.Connection.backup``), which copies a consistent
snapshot while the server keeps writing; the copy is an ordinary SQLite file. PostgreSQL:
``pg_dump --format=custom`` and ``pg_restore``, run as child processes (Debian's
``postgresql-client``). A restore goes into a new, empty database only (never over one
that holds the server's tables), and then migrates it to the head, so a backup taken by
an older version opens on this one.
"""

from __future__ import annotations

import glob
import os
import shutil
import sqlite3
import subprocess
from pathlib import Path

from sqlalchemy.engine import make_url

from .db import backend_of, private_sqlite_file, safe_url, upgrade

__all__ = ["BackupError", "backup", "restore"]

_SQLITE_MAGIC = b"SQLite format 3\x00"
_PG_MAGIC = b"PGDMP"  # pg_dump's custom format


class BackupError(RuntimeError):
    """A backup or restore that cannot be done; the message says why, quoting the path."""


def backup(url: str, path: Path) -> int:
    """Write a backup of the database at ``url`` to the new file ``path``; its size."""
    if path.exists():
        raise BackupError(f"{path}: already exists (a backup never overwrites a file)")
    if not path.parent.is_dir():
        raise BackupError(f"{path.parent}: no such folder")
    if backend_of(url) == "sqlite":
        _sqlite_backup(_sqlite_path(url), path)
    else:
        _pg("pg_dump", "--format=custom", "--no-owner", f"--file={path}", _libpq(url))
    return path.stat().st_size


def restore(url: str, path: Path) -> None:
    """Load the backup ``path`` into the empty database at ``url``, then migrate it."""
    try:
        with path.open("rb") as f:
            head = f.read(16)
    except OSError as e:
        raise BackupError(f"{path}: {e.strerror or e}") from None
    if backend_of(url) == "sqlite":
        if head != _SQLITE_MAGIC:
            raise BackupError(f"{path}: not an SQLite backup (paohuzi db backup writes one)")
        target = _sqlite_path(url)
        if target.exists() and target.stat().st_size > 0:
            raise BackupError(f"{target}: already exists; restore into a new database file")
        private_sqlite_file(target)
        _sqlite_backup(path, target)
    else:
        if not head.startswith(_PG_MAGIC):
            raise BackupError(f"{path}: not a pg_dump custom-format backup")
        _pg("pg_restore", "--no-owner", "--exit-on-error", f"--dbname={_libpq(url)}", str(path))
    upgrade(url)


def _sqlite_path(url: str) -> Path:
    name = make_url(url).database
    if not name or name == ":memory:":
        raise BackupError(f"{safe_url(url)}: an in-memory database has nothing to back up")
    return Path(name)


def _sqlite_backup(source: Path, target: Path) -> None:
    """Copy ``source`` to ``target`` with SQLite's online backup (a consistent snapshot
    even while another process writes), then check the copy."""
    if not source.is_file():
        raise BackupError(f"{source}: no such database file")
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    try:
        if not target.exists():
            os.close(os.open(target, os.O_CREAT | os.O_WRONLY, 0o600))  # the owner's alone
        dst = sqlite3.connect(target)
        try:
            src.backup(dst)
            ok = dst.execute("PRAGMA quick_check").fetchone()
        finally:
            dst.close()
    except sqlite3.DatabaseError as e:
        raise BackupError(f"{source}: {e}") from None
    finally:
        src.close()
    if ok != ("ok",):
        raise BackupError(f"{target}: the copy fails SQLite's check: {ok!r}")


def _libpq(url: str) -> str:
    """The URL as libpq reads it (``postgresql://``, no SQLAlchemy driver name)."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def _pg_tool(name: str) -> str:
    """``pg_dump``/``pg_restore`` on the PATH, else the newest under /usr/lib/postgresql."""
    found = shutil.which(name)
    if found:
        return found
    local = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    if not local:
        raise BackupError(f"{name} is not installed (Debian: apt-get install postgresql-client)")
    return local[-1]


def _pg(name: str, *args: str) -> None:
    done = subprocess.run([_pg_tool(name), *args], capture_output=True, text=True)
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]
        raise BackupError(f"{name}: {last[:300]}")
