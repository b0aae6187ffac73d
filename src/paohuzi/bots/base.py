"""The bot interface: a bot sees one seat's view, never the state."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from ..core.actions import Action, ActionKind
from ..core.match import Match
from ..core.state import State
from ..core.views import SeatView, view

__all__ = ["Bot", "RandomBot", "finish_match", "finish_round", "obvious_action"]


class Bot(Protocol):
    """A player. ``act`` gets the seat's censored view (its ``legal`` actions included)."""

    name: str

    def act(self, view: SeatView) -> Action: ...


def finish_round(st: State, bots: Sequence[Bot]) -> None:
    """Play the round ``st`` to its end, each seat's bot (seats 0-2) on its own view."""
    while not st.over:
        seat = st.to_act()[0]
        st.apply(seat, bots[seat].act(view(st, seat)).id)


def finish_match(match: Match, bots: Sequence[Bot]) -> Match:
    """Play every round left of ``match`` with these bots (seats 0-2); the match, over."""
    while not match.over:
        finish_round(match.start_round(), bots)
        match.end_round()
    return match


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
