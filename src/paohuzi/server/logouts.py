"""Logout ends the sockets signed in with the token, not only its HTTP use.

Each socket that authenticates is listed under its token's hash (the hash, as the
database keeps it); ``POST /accounts/logout`` ends this worker's sockets under it. With
several workers the hash is published on the cluster's Redis (channel
:data:`CHANNEL`, next to ``phz:rooms``) and every worker ends its own: no socket
re-checks its token on a timer.
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["CHANNEL", "CLOSE_LOGGED_OUT", "SignedInSockets"]

CHANNEL = "phz:logout"
CLOSE_LOGGED_OUT = 4001  # the socket's session ended (logout): sign in again


class SignedInSockets:
    """Open sockets by the hash of the session token they authenticated with."""

    def __init__(self) -> None:
        self._by_token: dict[str, dict[object, Callable[[], None]]] = {}
        self._token_of: dict[object, str] = {}

    def signed_in(self, conn: object, token_hash: str, end: Callable[[], None]) -> None:
        """``conn`` authenticated with the token; ``end`` closes it."""
        self._by_token.setdefault(token_hash, {})[conn] = end
        self._token_of[conn] = token_hash

    def closed(self, conn: object) -> None:
        """Forget a socket that closed."""
        token_hash = self._token_of.pop(conn, None)
        if token_hash is not None:
            ends = self._by_token.get(token_hash, {})
            ends.pop(conn, None)
            if not ends:
                self._by_token.pop(token_hash, None)

    def end(self, token_hash: str) -> int:
        """Close every socket signed in with the token; how many."""
        ends = self._by_token.pop(token_hash, {})
        for conn, end in ends.items():
            self._token_of.pop(conn, None)
            end()
        return len(ends)
