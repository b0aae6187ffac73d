"""准备 between rounds (``Readiness``): after a round's 结算 the next round is dealt only
when every seat is ready (its person pressed 准备, or the server plays the seat: a bot, or
托管) or the room's ``ready_seconds`` have passed (then the server readies the rest, as
托管 would). Until then no seat has a decision open and no clock runs.

A readiness is a frozen value; pressing 准备 makes a new one. The functions below are
``Table``'s 准备 methods (bound in its class body, so a call costs no more than a method
written there): telling the wait, pressing 准备, dealing the next round.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from . import persist
from .clock import now
from .errors import ApiError
from .protocol import readiness_dict

if TYPE_CHECKING:
    from .outbox import Connection
    from .tables import Table

__all__ = [
    "DEFAULT_READY_SECONDS",
    "Readiness",
    "deal_if_ready",
    "deal_stored",
    "message",
    "press",
    "tell",
]

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


# -- a table's 准备 (``Table.ready_message``, ``tell_ready``, ``press_ready``,
# ``deal_if_ready``, ``deal_stored``) ----------------------------------------------------


def _auto(table: Table) -> list[bool]:
    """Which seats the server plays now (a bot, 托管): they are ready at once."""
    return [table.clock.auto(s) is not None for s in range(3)]


def message(table: Table) -> dict[str, Any] | None:
    """The ``readiness`` message while a round waits for 准备 (else None)."""
    r = table.readiness
    return None if r is None or table.ended else r.message(_auto(table), now())


def tell(table: Table) -> None:
    """Send everyone the wait for 准备 if a seat's readiness changed since last sent."""
    r = table.readiness
    if r is None or table.ended:
        return
    key = (r.round, tuple(r.ready(_auto(table))))
    if key != table._ready_key:
        table._ready_key = key
        msg = message(table)
        assert msg is not None
        table._tell_all(msg)


async def press(table: Table, conn: Connection) -> None:
    """准备: the socket's seat is ready for the next round (told to everyone)."""
    async with table.seated(conn, "a spectator has no seat to ready") as s:
        if table.readiness is None:
            raise Readiness.not_open()
        table.readiness = table.readiness.press(s)
        tell(table)
        table.driver.wake.set()


async def deal_if_ready(table: Table) -> bool:
    """Deal the next round if every seat is ready or the wait is over (the deal is
    stored first); whether it dealt. The driver calls it holding ``lock``."""
    r = table.readiness
    if r is None or table.ended or not r.due(_auto(table), now()):
        return False
    await persist.store_deal(table, r.round)
    _start_round(table)
    table._count_steps()
    table._broadcast()
    return True


def deal_stored(table: Table) -> None:
    """Deal the waiting round when rebuilding a table whose deal was stored (counted
    as a step, as it was when it was dealt live)."""
    _start_round(table)
    table._count_steps()


def _start_round(table: Table) -> None:
    """Deal the round the table waits for (its 结算 closes)."""
    table.readiness = None
    table._ready_key = None
    table.match.start_round()
    table._log_pos = 0
    table._collect()
