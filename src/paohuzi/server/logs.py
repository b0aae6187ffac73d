"""The server's logs: one line per event, as text or as one JSON object (``--log-format``).

uvicorn's own loggers are routed through the same handler, so a log collector reading
JSON lines gets every event of the process in one shape.
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime

__all__ = ["LIBRARY_LOGGERS", "LOG_FORMATS", "JsonFormatter", "configure_logging"]

LOG_FORMATS = ("text", "json")
#: Libraries whose INFO lines (Alembic's migration steps, uvicorn's start-up and request
#: lines, SQLAlchemy's) are shown only with ``paohuzi serve --verbose``; their warnings
#: and errors always are.
LIBRARY_LOGGERS = ("alembic", "uvicorn", "uvicorn.error", "uvicorn.access", "sqlalchemy")
_TEXT = "%(asctime)s %(levelname)s %(name)s %(message)s"
# LogRecord attributes that are not extra fields given with ``log.info(..., extra={...})``.
_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {"message", "asctime"}


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, extra fields, exception."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, object] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "msg": record.getMessage(),
        }
        for k, v in vars(record).items():
            if k not in _STANDARD and not k.startswith("_"):
                out[k] = v if isinstance(v, int | float | str | bool | None) else repr(v)
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False)


def configure_logging(
    fmt: str = "text", level: int = logging.INFO, *, verbose: bool = True
) -> None:
    """Send every log line (the server's and uvicorn's) to stderr in ``fmt``; without
    ``verbose`` the libraries' (``LIBRARY_LOGGERS``) only from WARNING up, so a start
    shows the address to open and the server's own short log, not Alembic's steps."""
    if fmt not in LOG_FORMATS:
        raise ValueError(f"log format {fmt!r}: choose text or json")
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter() if fmt == "json" else logging.Formatter(_TEXT))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        lg = logging.getLogger(name)
        lg.handlers[:] = []
        lg.propagate = True
    for name in LIBRARY_LOGGERS:
        logging.getLogger(name).setLevel(logging.NOTSET if verbose else logging.WARNING)
