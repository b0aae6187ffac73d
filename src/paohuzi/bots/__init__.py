"""Bots: they see a seat's view only, never the game state."""

from __future__ import annotations

import os
from collections.abc import Callable

from ..core.rules import HONG_GUAI_WAN, RuleSet
from .base import Bot, RandomBot
from .heuristic import HeuristicBot
from .levels import level_factories
from .search import SearchBot

__all__ = ["BOTS", "Bot", "HeuristicBot", "RandomBot", "SearchBot", "make_bot"]


def _random(seed: int | None, _rules: RuleSet) -> Bot:
    """The random bot: any legal action is as good as another, whatever the rules."""
    return RandomBot(seed)


def _learned(seed: int | None, rules: RuleSet) -> Bot:
    """The learned bot, imported on first use (its inference needs numpy)."""
    from .learned import LearnedBot

    return LearnedBot(seed, rules=rules)


def _guided(seed: int | None, rules: RuleSet) -> Bot:
    """The search guided by the learned network, imported on first use (numpy)."""
    from .guided import GuidedBot

    return GuidedBot(seed, rules)


def _dmc(seed: int | None, rules: RuleSet) -> Bot:
    """The self-play network of ``paohuzi train-dmc`` named by ``PAOHUZI_DMC_WEIGHTS``."""
    from .learned import DMCBot

    return DMCBot(seed, rules)


# name -> factory(seed, rules): a bot that judges hands by the rules it plays under.
BOTS: dict[str, Callable[[int | None, RuleSet], Bot]] = {
    "random": _random,
    "heuristic": HeuristicBot,
    "search": SearchBot,
    "learned": _learned,
    "guided": _guided,
}
BOTS.update(level_factories())  # 入门 / 普通 / 高手 / 大师 and their ASCII aliases
if os.environ.get("PAOHUZI_DMC_WEIGHTS"):  # a train-dmc export to play (bots.learned)
    BOTS["dmc"] = _dmc


def make_bot(name: str, seed: int | None = None, rules: RuleSet = HONG_GUAI_WAN) -> Bot:
    """A bot by name (see :data:`BOTS`), seeded, judging hands by ``rules`` (the rule set
    of the table it plays at: its 名堂, thresholds and 胡息 bars)."""
    try:
        factory = BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}: choose from {', '.join(sorted(BOTS))}") from None
    return factory(seed, rules)
