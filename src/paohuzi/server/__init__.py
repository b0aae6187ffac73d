"""The multiplayer server (extra ``server``): accounts, rooms, play over WebSockets.

The core never imports this package; it needs FastAPI, SQLAlchemy and the rest of
``pip install 'paohuzi[server]'``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from .limits import PlaySettings

__all__ = ["run"]


def run(
    host: str,
    port: int,
    db_url: str,
    settings: PlaySettings | None = None,
    log_format: str = "text",
) -> None:
    """Migrate the database, then serve until interrupted (SIGTERM: a graceful stop)."""
    import uvicorn

    from .app import create_app
    from .db import upgrade
    from .logs import configure_logging
    from .protocol import MAX_FRAME

    configure_logging(log_format)
    upgrade(db_url)
    shown = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    print(f"paohuzi: open http://{shown}:{port}/ in a browser to play", flush=True)
    uvicorn.run(
        create_app(db_url, settings),
        host=host,
        port=port,
        ws_max_size=MAX_FRAME,
        ws_per_message_deflate=False,  # small messages: compressing them costs more than it saves
        log_level="info",
        log_config=None,  # uvicorn's loggers go through configure_logging's handler
        timeout_graceful_shutdown=5,
    )
