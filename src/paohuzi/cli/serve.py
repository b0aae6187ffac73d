"""``paohuzi serve`` and ``paohuzi db upgrade|backup|restore``: the multiplayer server
(extra ``server``) and its database."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated

import typer

from .app import app
from .errors import fail

__all__ = ["db_app", "serve_cmd"]

db_app = typer.Typer(help="The server's database.", no_args_is_help=True)
app.add_typer(db_app, name="db")

_DB_HELP = "SQLAlchemy URL (default: $PAOHUZI_DB, else ~/.paohuzi/server.db)"


def _need_server() -> None:
    try:
        import fastapi  # noqa: F401
        import sqlalchemy  # noqa: F401
    except ImportError as e:
        typer.echo(f"the server needs: pip install 'paohuzi[server]' ({e})", err=True)
        raise typer.Exit(2) from None


@contextlib.contextmanager
def _database(url: str) -> Iterator[None]:
    """A database that cannot be reached or migrated: one ``error:`` line, exit 1."""
    from sqlalchemy.exc import DBAPIError

    from ..server.db import safe_url

    try:
        yield
    except DBAPIError as e:
        first = str(e.orig if e.orig is not None else e).strip().splitlines()
        fail(f"the database at {safe_url(url)}: {first[0] if first else type(e).__name__}", 1)


@contextlib.contextmanager
def _backup_database(db: str | None) -> Iterator[str]:
    """The URL of the database a backup reads or a restore writes (``--db``, else the
    default), checked; a database error or a refused backup: one ``error:`` line, exit 1."""
    _need_server()
    from ..server.backup import BackupError
    from ..server.db import backend_of, default_db_url

    url = db or default_db_url()
    backend_of(url)
    with _database(url):
        try:
            yield url
        except BackupError as e:
            fail(str(e), 1)


@app.command("serve")
def serve_cmd(
    host: Annotated[
        str, typer.Option(help="Interface to listen on.", envvar="PAOHUZI_HOST")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="TCP port.", envvar="PAOHUZI_PORT")] = 8000,
    db: Annotated[str | None, typer.Option(help=_DB_HELP)] = None,
    grace: Annotated[
        float | None,
        typer.Option(
            help="Seconds a disconnected seat waits before 托管 (default: $PAOHUZI_GRACE or 30)."
        ),
    ] = None,
    dissolve_seconds: Annotated[
        float | None,
        typer.Option(
            help="Seconds a 解散 vote stays open (default: $PAOHUZI_DISSOLVE_SECONDS or 60)."
        ),
    ] = None,
    log_format: Annotated[
        str, typer.Option(help="Log lines as text or json.", envvar="PAOHUZI_LOG_FORMAT")
    ] = "text",
    redis: Annotated[
        str | None,
        typer.Option(
            help="redis://HOST:PORT: run as one of several workers sharing --db "
            "(PostgreSQL) and this Redis; tables move between workers by lease.",
            envvar="PAOHUZI_REDIS",
        ),
    ] = None,
    lease_ms: Annotated[
        int, typer.Option(help="A table's lease in Redis, in milliseconds (with --redis).", min=200)
    ] = 2000,
    workers: Annotated[
        int, typer.Option(help="Worker processes on this port (more than 1 needs --redis).", min=1)
    ] = 1,
    trusted_proxy: Annotated[
        list[str] | None,
        typer.Option(
            help="An address or network (repeatable, or comma-separated in "
            "$PAOHUZI_TRUSTED_PROXIES) of a reverse proxy whose X-Forwarded-For is believed; "
            "none by default: the connecting address is the client's.",
            envvar="PAOHUZI_TRUSTED_PROXIES",
        ),
    ] = None,
    verbose: Annotated[
        bool,
        typer.Option(
            "--verbose",
            help="Also show the libraries' INFO lines: Alembic's migration steps, uvicorn's "
            "start-up and one line per request with the client's address.",
        ),
    ] = False,
) -> None:
    """Run the multiplayer server (migrates the database first); GET /health when ready."""
    _need_server()
    from dataclasses import replace

    from ..server import run
    from ..server.db import backend_of, default_db_url
    from ..server.limits import PlaySettings
    from ..server.proxies import trusted_proxies

    try:
        settings = PlaySettings.from_env()
        if grace is not None:
            settings = replace(settings, grace=grace)
        if dissolve_seconds is not None:
            settings = replace(settings, dissolve_seconds=dissolve_seconds)
    except ValueError as e:
        typer.echo(f"paohuzi serve: {e}", err=True)
        raise typer.Exit(2) from None
    if log_format not in ("text", "json"):
        fail(f"--log-format {log_format!r}: choose text or json")
    try:
        proxies = trusted_proxies(trusted_proxy or [])
    except ValueError as e:
        fail(f"--trusted-proxy: {e}")
    url = db or default_db_url()
    backend_of(url)  # a bad URL is refused before anything starts
    if workers > 1 and redis is None:
        typer.echo("paohuzi serve: --workers above 1 needs --redis (tables are shared through it)",
                   err=True)  # fmt: skip
        raise typer.Exit(2)
    if redis is not None and not redis.startswith(("redis://", "rediss://", "unix://")):
        typer.echo(f"paohuzi serve: --redis {redis!r} is not a redis:// URL", err=True)
        raise typer.Exit(2)
    if redis is not None:
        try:
            import redis as _redis  # noqa: F401
        except ImportError as e:
            typer.echo(f"--redis needs: pip install 'paohuzi[cluster]' ({e})", err=True)
            raise typer.Exit(2) from None
    with _database(url):
        run(host, port, url, settings, log_format, redis_url=redis, lease_ms=lease_ms,
            workers=workers, trusted_proxies=proxies, verbose=verbose)  # fmt: skip


@db_app.command("upgrade")
def db_upgrade_cmd(db: Annotated[str | None, typer.Option(help=_DB_HELP)] = None) -> None:
    """Apply the database migrations not yet applied."""
    _need_server()
    from ..server.db import default_db_url, safe_url, upgrade

    url = db or default_db_url()
    with _database(url):
        upgrade(url)
    typer.echo(f"database at head: {safe_url(url)}")


@db_app.command("backup")
def db_backup_cmd(
    path: Annotated[Path, typer.Argument(help="The backup file to write (must not exist).")],
    db: Annotated[str | None, typer.Option(help=_DB_HELP)] = None,
) -> None:
    """Back the database up while the server runs (SQLite's online backup; pg_dump)."""
    with _backup_database(db) as url:
        from ..server.backup import backup
        from ..server.db import safe_url

        size = backup(url, path)
    typer.echo(f"backup of {safe_url(url)} written to {path} ({size:,} bytes)")


@db_app.command("restore")
def db_restore_cmd(
    path: Annotated[Path, typer.Argument(help="A file written by paohuzi db backup.")],
    db: Annotated[str | None, typer.Option(help=_DB_HELP + "; a new, empty database")] = None,
) -> None:
    """Restore a backup into a new, empty database, then migrate it to the head."""
    with _backup_database(db) as url:
        from ..server.backup import restore
        from ..server.db import safe_url

        restore(url, path)
    typer.echo(f"restored {path} into {safe_url(url)} (at head)")
