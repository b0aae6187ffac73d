"""准备 between rounds (``Readiness``): after a round's 结算 the next round is dealt only
when every seat is ready (its person pressed 准备, or the server plays the seat: a bot, or
托管) or the room's ``ready_seconds`` have passed (then the server readies the rest, as
托管 would). Until then no seat has a decision open and no clock runs.

A readiness is a frozen value; pressing 准备 makes a new one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .errors import ApiError
from .protocol import readiness_dict

__all__ = ["DEFAULT_READY_SECONDS", "Readiness"]

DEFAULT_READY_SECONDS = 20.0  # a room that set none


@dataclass(frozen=True)
class Readiness:
    """The wait before round ``round`` is dealt: who pressed 准备, and until when."""

    round: int  # the round to deal
    pressed: tuple[bool, bool, bool]
    deadline: float  # Unix time, seconds

    @classmethod
    def open(cls, rnd: int, deadline: float) -> Readiness:
        """A new wait before round ``rnd``: nobody has pressed yet."""
        return cls(rnd, (False, False, False), deadline)

    def press(self, seat: int) -> Readiness:
        """Seat ``seat`` pressed 准备 (again: no change)."""
        pressed = list(self.pressed)
        pressed[seat] = True
        return Readiness(self.round, (pressed[0], pressed[1], pressed[2]), self.deadline)

    def ready(self, auto: Sequence[bool]) -> list[bool]:
        """Each seat's readiness: pressed, or played by the server (``auto``)."""
        return [p or a for p, a in zip(self.pressed, auto, strict=True)]

    def due(self, auto: Sequence[bool], now: float) -> bool:
        """Whether to deal: all ready, or the time is up."""
        return all(self.ready(auto)) or now >= self.deadline

    def message(self, auto: Sequence[bool], now: float) -> dict[str, Any]:
        """The ``readiness`` message."""
        remaining = round(max(0.0, self.deadline - now), 3)
        return readiness_dict(self.round, self.ready(auto), self.deadline, remaining)

    @staticmethod
    def not_open() -> ApiError:
        """The refusal of a 准备 sent while no round waits for one."""
        return ApiError("not_waiting", "no round is waiting for 准备: the next round is dealt")
