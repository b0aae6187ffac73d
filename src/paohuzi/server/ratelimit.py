"""Rate limits on what an attacker gets for free: sign-ups, room creation, room-code
look-ups, replays and analyses, per address and per account.

Token buckets in memory, one process each (a worker of several limits its own share);
each limiter keeps at most ``max_keys`` buckets, the least recently used evicted first,
so a flood of new addresses cannot grow the memory. A refusal is a 429
``rate_limited`` with the seconds to wait (the ``Retry-After`` header).
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from dataclasses import dataclass, fields

from .errors import ApiError
from .limits import env_positive

__all__ = ["RateLimited", "RateLimiter", "RateSettings", "Rates"]


class RateLimited(ApiError):
    """A 429 that says when to come back (``Retry-After``)."""

    def __init__(self, what: str, retry_after: float) -> None:
        self.retry_after = max(1, math.ceil(retry_after))
        super().__init__("rate_limited", f"too many {what}; try again in {self.retry_after} s", 429)


@dataclass(frozen=True)
class RateSettings:
    """Each limit as (burst, refill per second); the defaults let real play, the tests
    and the load benchmark (hundreds of guests and rooms from one address) through and
    stop a script: ``PAOHUZI_RATE_<FIELD>`` (e.g. ``PAOHUZI_RATE_SIGNUP_BURST=5``)."""

    signup_burst: float = 1000  # per address: registrations and guests
    signup_rate: float = 5.0
    rooms_burst: float = 30  # per account
    rooms_rate: float = 0.5
    rooms_address_burst: float = 1000  # per address
    rooms_address_rate: float = 10.0
    open_rooms: float = 20  # open rooms one account may host at once
    bot_matches_address: float = 16  # matches with a bot one address started, being played
    lookup_burst: float = 3000  # per address: any look-up of a room by its code
    lookup_rate: float = 100.0
    miss_burst: float = 30  # per address: look-ups of codes that are no (visible) room
    miss_rate: float = 0.5
    clubs_burst: float = 10  # per account: clubs created
    clubs_rate: float = 0.05
    replay_burst: float = 60  # per address: match records
    replay_rate: float = 2.0
    analysis_burst: float = 5  # per account: 复盘 started (each takes a worker for seconds)
    analysis_rate: float = 1 / 120
    hint_burst: float = 30  # per account: 提示 in practice games
    hint_rate: float = 0.5
    location_burst: float = 30  # per account: locations shared or withdrawn (nearby.py)
    location_rate: float = 0.5

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if not math.isfinite(value) or value <= 0:
                raise ValueError(f"{f.name} must be a positive number, got {value!r}")

    @classmethod
    def from_env(cls) -> RateSettings:
        """The defaults, each overridden by ``PAOHUZI_RATE_<FIELD>`` where set."""
        defaults = cls()
        return cls(**{
            f.name: env_positive(f"PAOHUZI_RATE_{f.name.upper()}", getattr(defaults, f.name))
            for f in fields(cls)
        })  # fmt: skip


class RateLimiter:
    """Token buckets by key: ``burst`` at once, refilled at ``rate`` a second."""

    def __init__(self, what: str, burst: float, rate: float, max_keys: int = 100_000) -> None:
        self.what = what
        self.burst = burst
        self.rate = rate
        self.max_keys = max_keys
        self.buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # level, stamp

    def _level(self, key: str, now: float) -> float:
        level, stamp = self.buckets.get(key, (self.burst, now))
        return min(self.burst, level + (now - stamp) * self.rate)

    def check(self, key: str, cost: float = 0.0) -> None:
        """Raise :class:`RateLimited` unless ``key`` has a token left; spend ``cost``."""
        now = time.monotonic()
        level = self._level(key, now)
        if level < 1:
            self._store(key, level, now)
            raise RateLimited(self.what, (1 - level) / self.rate)
        self._store(key, level - cost, now)

    def take(self, key: str, cost: float = 1.0) -> None:
        """``check`` and spend ``cost`` tokens."""
        self.check(key, cost)

    def spend(self, key: str, cost: float = 1.0) -> None:
        """Spend ``cost`` tokens without refusing (an outcome known after the fact)."""
        now = time.monotonic()
        self._store(key, self._level(key, now) - cost, now)

    def _store(self, key: str, level: float, now: float) -> None:
        self.buckets[key] = (max(level, -self.burst), now)
        self.buckets.move_to_end(key)
        while len(self.buckets) > self.max_keys:
            self.buckets.popitem(last=False)


class Rates:
    """The server's limiters, built from one :class:`RateSettings`."""

    def __init__(self, s: RateSettings) -> None:
        self.settings = s
        self.signup = RateLimiter("sign-ups from this address", s.signup_burst, s.signup_rate)
        self.rooms = RateLimiter("rooms created", s.rooms_burst, s.rooms_rate)
        self.rooms_address = RateLimiter(
            "rooms created from this address", s.rooms_address_burst, s.rooms_address_rate
        )
        self.lookup = RateLimiter("room look-ups", s.lookup_burst, s.lookup_rate)
        self.miss = RateLimiter("look-ups of unknown rooms", s.miss_burst, s.miss_rate)
        self.clubs = RateLimiter("clubs created", s.clubs_burst, s.clubs_rate)
        self.replay = RateLimiter("replays from this address", s.replay_burst, s.replay_rate)
        self.analysis = RateLimiter("analyses started", s.analysis_burst, s.analysis_rate)
        self.hint = RateLimiter("hints", s.hint_burst, s.hint_rate)
        self.location = RateLimiter("location changes", s.location_burst, s.location_rate)

    def lookup_check(self, address: str) -> None:
        """Before a look-up by code: refused once the address spent its look-ups or its
        misses (an enumeration of codes is mostly misses)."""
        self.miss.check(address)
        self.lookup.take(address)

    def missed(self, address: str) -> None:
        """A look-up found no room it may see: it costs the miss budget."""
        self.miss.spend(address)
