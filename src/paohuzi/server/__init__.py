"""The multiplayer server (extra ``server``): accounts, rooms, play over WebSockets.

The core never imports this package; it needs FastAPI, SQLAlchemy and the rest of
``pip install 'paohuzi[server]'``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Sequence

    from fastapi import FastAPI

    from .limits import PlaySettings

__all__ = ["app_from_env", "run", "tune_gc"]


def run(
    host: str,
    port: int,
    db_url: str,
    settings: PlaySettings | None = None,
    log_format: str = "text",
    *,
    redis_url: str | None = None,
    lease_ms: int = 2000,
    workers: int = 1,
    trusted_proxies: Sequence[str] = (),
    verbose: bool = False,
) -> None:
    """Migrate the database, then serve until interrupted (SIGTERM: a graceful stop); with
    ``workers`` > 1, that many processes on one port (uvicorn's supervisor), each a worker
    of the cluster (``redis_url``). X-Forwarded-For is believed only from
    ``trusted_proxies`` (none: uvicorn would otherwise believe any loopback peer).
    The address to open is the first line printed; the libraries' INFO lines (Alembic's
    migration steps, uvicorn's start-up and request lines) only with ``verbose``."""
    import uvicorn

    from .app import create_app
    from .db import upgrade
    from .logs import configure_logging

    _announce(host, port)
    configure_logging(log_format, verbose=verbose)
    upgrade(db_url)
    options = _uvicorn_options(host, port, trusted_proxies, verbose)
    if workers > 1:
        assert redis_url is not None, "several workers share tables through Redis"
        _export_worker_env(db_url, redis_url, lease_ms, log_format, verbose, settings)
        uvicorn.run("paohuzi.server:app_from_env", factory=True, workers=workers, **options)  # type: ignore[arg-type]
        return
    app = create_app(db_url, settings, redis_url=redis_url, lease_ms=lease_ms)
    tune_gc()
    uvicorn.run(app, **options)  # type: ignore[arg-type]


def _announce(host: str, port: int) -> None:
    """Print the address to open in a browser: ``serve``'s first line, before any log."""
    shown = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    print(f"paohuzi: open http://{shown}:{port}/ in a browser to play", flush=True)


def _uvicorn_options(
    host: str, port: int, trusted_proxies: Sequence[str], verbose: bool
) -> dict[str, object]:
    """uvicorn's settings, the same for one process and for several workers."""
    from .protocol import MAX_FRAME

    return {
        "host": host,
        "port": port,
        "ws_max_size": MAX_FRAME,
        "ws_per_message_deflate": False,  # small messages: compressing costs more than it saves
        "log_level": "info" if verbose else "warning",
        "log_config": None,  # uvicorn's loggers go through configure_logging's handler
        "timeout_graceful_shutdown": 5,
        "proxy_headers": bool(trusted_proxies),
        "forwarded_allow_ips": list(trusted_proxies) or None,
        # A deadline for each request's headers and a cap of connections per address
        # (guard.py; uvicorn has neither), and idle keep-alive connections closed after 5 s.
        "http": "paohuzi.server.guard:GuardedHttp",
        "timeout_keep_alive": 5,
    }


def _export_worker_env(
    db_url: str,
    redis_url: str,
    lease_ms: int,
    log_format: str,
    verbose: bool,
    settings: PlaySettings | None,
) -> None:
    """Put what each worker process needs in the environment it inherits: uvicorn's
    workers are built by ``app_from_env``, which takes no arguments."""
    import os

    os.environ.update({"PAOHUZI_DB": db_url, "PAOHUZI_REDIS": redis_url,
                       "PAOHUZI_LEASE_MS": str(lease_ms)})  # fmt: skip
    os.environ["PAOHUZI_LOG_FORMAT"] = log_format
    os.environ["PAOHUZI_VERBOSE"] = "1" if verbose else ""
    if settings is not None:
        os.environ["PAOHUZI_GRACE"] = str(settings.grace)
        os.environ["PAOHUZI_DISSOLVE_SECONDS"] = str(settings.dissolve_seconds)
        os.environ["PAOHUZI_AUTH_SECONDS"] = str(settings.auth_seconds)
        os.environ["PAOHUZI_UNAUTHENTICATED_SOCKETS"] = str(settings.unauthenticated_per_address)


def app_from_env() -> FastAPI:
    """One worker's application from ``PAOHUZI_DB``/``PAOHUZI_REDIS``/``PAOHUZI_LEASE_MS``
    (what ``run`` sets for uvicorn's worker processes)."""
    import os

    from .app import create_app
    from .logs import configure_logging

    verbose = bool(os.environ.get("PAOHUZI_VERBOSE"))
    configure_logging(os.environ.get("PAOHUZI_LOG_FORMAT", "text"), verbose=verbose)
    app = create_app(
        os.environ["PAOHUZI_DB"],
        redis_url=os.environ.get("PAOHUZI_REDIS") or None,
        lease_ms=int(os.environ.get("PAOHUZI_LEASE_MS", "2000")),
    )
    tune_gc()
    return app


#: The collector's thresholds for a serving process (Python's default: 700, 10, 10).
GC_THRESHOLDS = (20_000, 20, 10)


def tune_gc() -> None:
    """Set a serving process's garbage collector for short pauses (call once it is built).

    Under load most objects live a few milliseconds to a few seconds (a state, a
    prompt, a round). With Python's defaults (a young collection every 700 net
    allocations) many of them outlive two young collections, are promoted to the oldest
    generation and trigger a full collection every two seconds or so: a pause of
    100-250 ms on this machine (100 rooms), every socket waiting, which was the load
    benchmark's p99. So: what start-up built (modules, the app: some 125,000 objects)
    is frozen, never scanned again, and the young generation is larger, so short-lived
    objects die there. Measured side by side in docs/performance.md (The server under load).
    """
    import gc

    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
