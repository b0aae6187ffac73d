"""Play settings (timers, 托管 grace, 解散 vote, per-socket rate) and the socket token bucket."""

from __future__ import annotations

import math
import os
import time
from dataclasses import dataclass

__all__ = ["CLOSE_UNAUTHENTICATED", "PlaySettings", "TokenBucket", "env_positive"]

#: Policy violation: a socket that did not authenticate in time, or one too many
#: unauthenticated sockets from one address.
CLOSE_UNAUTHENTICATED = 1008


def env_positive(name: str, default: float) -> float:
    """A positive, finite number from the environment (unset or empty: ``default``); a
    bad value is refused, quoting it. For the settings of guard.py and expiry.py."""
    raw = os.environ.get(name)
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ValueError(f"{name} must be a number, got {raw!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise ValueError(f"{name} must be a positive number, got {raw!r}")
    return value


def _env_float(name: str, default: float, low: float) -> float:
    """A positive number from the environment; a bad value is refused, quoting it."""
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ValueError(f"{name} must be a number of seconds, got {raw!r}") from None
    if not math.isfinite(value) or value < low:
        raise ValueError(f"{name} must be at least {low}, got {raw!r}")
    return value


@dataclass(frozen=True)
class PlaySettings:
    """How long a disconnected seat waits before 托管, how long a 解散 vote stays open, and
    each socket's message budget (a bucket of ``ws_burst`` messages refilled at
    ``ws_rate`` a second), the seconds a socket has to authenticate, and how many
    unauthenticated sockets one address may hold open."""

    grace: float = 30.0
    dissolve_seconds: float = 60.0
    ws_rate: float = 100.0
    ws_burst: float = 200.0
    auth_seconds: float = 10.0
    unauthenticated_per_address: float = 500.0

    def __post_init__(self) -> None:
        names = ("grace", "dissolve_seconds", "ws_rate", "ws_burst", "auth_seconds",
                 "unauthenticated_per_address")  # fmt: skip
        for name in names:
            value = getattr(self, name)
            if not math.isfinite(value) or value < 0 or (name != "grace" and value == 0):
                raise ValueError(f"{name} must be a positive number, got {value!r}")

    @classmethod
    def from_env(cls) -> PlaySettings:
        """From ``PAOHUZI_GRACE``, ``PAOHUZI_DISSOLVE_SECONDS``, ``PAOHUZI_WS_RATE``,
        ``PAOHUZI_WS_BURST``, ``PAOHUZI_AUTH_SECONDS`` and
        ``PAOHUZI_UNAUTHENTICATED_SOCKETS`` (unset: the defaults)."""
        d = cls()
        return cls(
            grace=_env_float("PAOHUZI_GRACE", d.grace, 0.0),
            dissolve_seconds=_env_float("PAOHUZI_DISSOLVE_SECONDS", d.dissolve_seconds, 0.01),
            ws_rate=_env_float("PAOHUZI_WS_RATE", d.ws_rate, 0.01),
            ws_burst=_env_float("PAOHUZI_WS_BURST", d.ws_burst, 1.0),
            auth_seconds=_env_float("PAOHUZI_AUTH_SECONDS", d.auth_seconds, 0.01),
            unauthenticated_per_address=_env_float(
                "PAOHUZI_UNAUTHENTICATED_SOCKETS", d.unauthenticated_per_address, 1.0
            ),
        )


class TokenBucket:
    """A socket's message budget: ``take`` says whether a message may be read now.

    Past the budget the level goes negative (each refused message still costs one); at
    ``-burst`` the socket is flooding and ``flooding`` turns true (the caller closes it).
    """

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.level = burst
        self.stamp = time.monotonic()

    def take(self) -> bool:
        """Spend one message; True if it is within the budget."""
        now = time.monotonic()
        self.level = min(self.burst, self.level + (now - self.stamp) * self.rate)
        self.stamp = now
        self.level -= 1
        return self.level >= 0

    @property
    def flooding(self) -> bool:
        """A whole bucket of messages beyond the budget: time to close the socket."""
        return self.level <= -self.burst
