"""``paohuzi serve`` and ``paohuzi db upgrade``: the multiplayer server (extra ``server``)."""

from __future__ import annotations

from typing import Annotated

import typer

from .app import app

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


@app.command("serve")
def serve_cmd(
    host: Annotated[str, typer.Option(help="Interface to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="TCP port.")] = 8000,
    db: Annotated[str | None, typer.Option(help=_DB_HELP)] = None,
) -> None:
    """Run the multiplayer server (migrates the database first); GET /health when ready."""
    _need_server()
    from ..server import run
    from ..server.db import default_db_url

    run(host, port, db or default_db_url())


@db_app.command("upgrade")
def db_upgrade_cmd(db: Annotated[str | None, typer.Option(help=_DB_HELP)] = None) -> None:
    """Apply the database migrations not yet applied."""
    _need_server()
    from ..server.db import default_db_url, upgrade

    url = db or default_db_url()
    upgrade(url)
    typer.echo(f"database at head: {url}")
