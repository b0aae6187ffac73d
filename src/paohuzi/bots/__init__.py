"""Bots: they see a seat's view only, never the game state."""

from __future__ import annotations

from collections.abc import Callable

from .base import Bot, RandomBot
from .heuristic import HeuristicBot
from .search import SearchBot

__all__ = ["BOTS", "Bot", "HeuristicBot", "RandomBot", "SearchBot", "make_bot"]


def _learned(seed: int | None = None) -> Bot:
    """The learned bot, imported on first use (its inference needs numpy)."""
    from .learned import LearnedBot

    return LearnedBot(seed)


def _guided(seed: int | None = None) -> Bot:
    """The search guided by the learned network, imported on first use (numpy)."""
    from .guided import GuidedBot

    return GuidedBot(seed)


BOTS: dict[str, Callable[[int | None], Bot]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "search": SearchBot,
    "learned": _learned,
    "guided": _guided,
}


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A bot by name (see :data:`BOTS`), seeded."""
    try:
        factory = BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}: choose from {', '.join(sorted(BOTS))}") from None
    return factory(seed)
