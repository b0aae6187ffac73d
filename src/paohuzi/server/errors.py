"""The server's one error: a code a client can switch on, a reason people can read."""

from __future__ import annotations

__all__ = ["ApiError"]


class ApiError(Exception):
    """A refused request or intent; HTTP answers it with ``status``, a socket with a message."""

    def __init__(self, code: str, reason: str, status: int = 400) -> None:
        super().__init__(f"{code}: {reason}")
        self.code = code
        self.reason = reason
        self.status = status
