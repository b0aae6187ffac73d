"""Who plays each seat and by when (``Clock``): the seats' bots and 托管 (``auto``), each
seat's decision deadline, and the grace period of a seat whose person has gone."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Literal

from .protocol import seat_status_dict

__all__ = ["Auto", "Clock", "SeatInfo", "now"]

Auto = Literal["bot", "self", "disconnect"]


def now() -> float:
    """Unix time, seconds (deadlines are sent as such)."""
    return time.time()


@dataclass
class SeatInfo:
    """Who sits in a seat: the account, the bot that plays it (None: a person), and
    whether its person asked the server to play for them (托管)."""

    account_id: int
    bot: str | None
    tuoguan: bool = False


class Clock:
    """The seats and their clocks: who plays each seat now, and when the server answers
    for a person who has not (their deadline, or their grace period's end)."""

    def __init__(self, seats: list[SeatInfo], time_limit: float | None, grace: float) -> None:
        self.seats = seats
        self.time_limit = time_limit
        self.grace = grace
        t = now()
        # When each seat's current decision times out (None: no limit, or nothing open).
        self.deadline: list[float | None] = [None, None, None]
        # Since when each person's seat has had no socket (None: connected).
        self.gone: list[float | None] = [None if i.bot else t for i in seats]

    def auto(self, s: int) -> Auto | None:
        """Why the server plays seat ``s`` now (None: its person does)."""
        if self.seats[s].bot is not None:
            return "bot"
        if self.seats[s].tuoguan:
            return "self"
        gone = self.gone[s]
        if gone is not None and now() - gone >= self.grace:
            return "disconnect"
        return None

    def restart(self, s: int, acting: bool) -> None:
        """Start seat ``s``'s clock for its open decision (``acting``: it has one)."""
        self.deadline[s] = now() + self.time_limit if acting and self.time_limit else None

    def due(self, s: int) -> bool:
        """Whether the time of seat ``s``'s person is up (its deadline passed)."""
        d = self.deadline[s]
        return d is not None and d <= now()

    def shown(self, s: int | None, acting: bool) -> tuple[float | None, float | None]:
        """What a prompt shows of seat ``s``'s clock: its deadline and the seconds left,
        if its person has a decision open (``acting``) with a time limit."""
        if s is None or not acting:
            return None, None
        d = self.deadline[s]
        if d is None or self.auto(s) is not None:
            return None, None
        return d, round(max(0.0, d - now()), 3)

    def next_time(self, vote_deadline: float | None) -> float | None:
        """When something may become due: a deadline, a grace period's end, a vote's end."""
        times = [d for s, d in enumerate(self.deadline) if d is not None and self.auto(s) is None]
        times += [g + self.grace for g in self.gone if g is not None]
        if vote_deadline is not None:
            times.append(vote_deadline)
        t = now()
        future = [x for x in times if x > t]
        return min(future) if future else None

    def arrive(self, s: int) -> bool:
        """Seat ``s``'s person has a socket again; whether it comes back from
        disconnect-托管 (its open decision then gets a fresh clock)."""
        if self.gone[s] is None:
            return False
        back = self.auto(s) == "disconnect"
        self.gone[s] = None
        return back

    def leave(self, s: int) -> None:
        """Seat ``s``'s person has no socket left: its grace period starts."""
        if self.seats[s].bot is None:
            self.gone[s] = now()

    def status(self, connected: list[bool]) -> tuple[tuple[Any, ...], ...]:
        """Every seat's (bot, connected, 托管 reason): what the seats message shows, cheap
        to compare (``connected``: which seats have a socket)."""
        out = []
        for s, info in enumerate(self.seats):
            why = self.auto(s)
            out.append((info.bot, info.bot is not None or connected[s],
                        None if why == "bot" else why))  # fmt: skip
        return tuple(out)

    @staticmethod
    def status_dicts(key: tuple[tuple[Any, ...], ...]) -> list[dict[str, Any]]:
        """``status``'s key as the seats' ``SeatStatus`` dicts."""
        return [seat_status_dict(s, bot, c, why) for s, (bot, c, why) in enumerate(key)]
