"""The bot interface: a bot sees one seat's view, never the state."""

from __future__ import annotations

import random
from typing import Protocol

from ..core.actions import Action, ActionKind
from ..core.views import SeatView

__all__ = ["Bot", "RandomBot", "obvious_action"]


class Bot(Protocol):
    """A player. ``act`` gets the seat's censored view (its ``legal`` actions included)."""

    name: str

    def act(self, view: SeatView) -> Action: ...


def obvious_action(view: SeatView) -> Action | None:
    """The action any sensible bot takes without thinking: the only legal one, or 胡."""
    legal = view.legal
    if not legal:
        raise ValueError(f"seat {view.seat} has no legal action at version {view.version}")
    if len(legal) == 1:
        return legal[0]
    for a in legal:
        if a.kind is ActionKind.HU:
            return a
    return None


class RandomBot:
    """Uniform over the legal actions; deterministic for a given seed."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, view: SeatView) -> Action:
        if not view.legal:
            raise ValueError(f"seat {view.seat} has no legal action at version {view.version}")
        return self.rng.choice(view.legal)
