"""The multiplayer server (extra ``server``): accounts, rooms, play over WebSockets.

The core never imports this package; it needs FastAPI, SQLAlchemy and the rest of
``pip install 'paohuzi[server]'``.
"""

from __future__ import annotations

__all__ = ["run"]


def run(host: str, port: int, db_url: str) -> None:
    """Migrate the database, then serve until interrupted."""
    import logging

    import uvicorn

    from .app import create_app
    from .db import upgrade

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s %(message)s")
    upgrade(db_url)
    uvicorn.run(
        create_app(db_url),
        host=host,
        port=port,
        ws_max_size=64 * 1024,
        ws_per_message_deflate=False,  # small messages: compressing them costs more than it saves
        log_level="info",
        timeout_graceful_shutdown=5,
    )
