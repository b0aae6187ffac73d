"""Bot levels people choose by name: 入门 / 普通 / 高手 / 大师 (docs/bot-levels.md).

Each level is an existing bot or a weakened one, and each beats the one below it
in duplicate arena deals (the measured ladder is in docs/bot-levels.md):

- 入门 (``rumen``): the heuristic with noise, :class:`NoisyHeuristicBot` — it takes
  a 胡 and forced moves, but half of its other decisions pick at random among the
  heuristic's few best, so it plays sensibly and still loses points;
- 普通 (``putong``): the heuristic;
- 高手 (``gaoshou``): the learned bot (numpy);
- 大师 (``dashi``): the search guided by the learned network (numpy).

The ASCII aliases serve terminals and URLs; both spellings name the same bot.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..core.actions import Action
from ..core.rules import HONG_GUAI_WAN, RuleSet
from ..core.views import SeatView
from .base import Bot, obvious_action
from .heuristic import HeuristicBot

__all__ = ["LEVELS", "LEVEL_ALIASES", "NoisyHeuristicBot", "level_factories", "level_of"]


class NoisyHeuristicBot:
    """入门: the heuristic's choice, except that with probability ``noise`` a decision
    picks uniformly among the heuristic's ``top`` best options (never misses a 胡)."""

    name = "入门"

    def __init__(
        self,
        seed: int | None = None,
        rules: RuleSet = HONG_GUAI_WAN,
        noise: float = 0.5,
        top: int = 4,
    ) -> None:
        if not 0.0 <= noise <= 1.0 or top < 1:
            raise ValueError(f"noise must be 0..1 and top at least 1, got {noise!r}, {top!r}")
        self.rng = random.Random(seed)
        self.heuristic = HeuristicBot(seed, rules)
        self.noise = noise
        self.top = top

    @property
    def rules(self) -> RuleSet:
        """The rule set the heuristic judges hands by."""
        return self.heuristic.rules

    def act(self, view: SeatView) -> Action:
        sure = obvious_action(view)
        if sure is not None:
            return sure
        ranked = self.heuristic.rank(view)
        if self.rng.random() < self.noise:
            return self.rng.choice(ranked[: self.top])[1]
        return ranked[0][1]


def _rumen(seed: int | None, rules: RuleSet) -> Bot:
    return NoisyHeuristicBot(seed, rules)


def _putong(seed: int | None, rules: RuleSet) -> Bot:
    return HeuristicBot(seed, rules)


def _gaoshou(seed: int | None, rules: RuleSet) -> Bot:
    from .learned import LearnedBot

    return LearnedBot(seed, rules=rules)


def _dashi(seed: int | None, rules: RuleSet) -> Bot:
    from .guided import GuidedBot

    return GuidedBot(seed, rules)


# level name -> (ASCII alias, the bot it is, factory), weakest first.
LEVELS: dict[str, tuple[str, str, Callable[[int | None, RuleSet], Bot]]] = {
    "入门": ("rumen", "noisy heuristic", _rumen),
    "普通": ("putong", "heuristic", _putong),
    "高手": ("gaoshou", "learned", _gaoshou),
    "大师": ("dashi", "guided", _dashi),
}

LEVEL_ALIASES: dict[str, str] = {alias: name for name, (alias, _b, _f) in LEVELS.items()}


def level_of(name: str) -> str | None:
    """The level a bot name (hanzi or ASCII alias) names, or None."""
    if name in LEVELS:
        return name
    return LEVEL_ALIASES.get(name)


def level_factories() -> dict[str, Callable[[int | None, RuleSet], Bot]]:
    """Every level's factory under both its names, for :data:`paohuzi.bots.BOTS`."""
    out: dict[str, Callable[[int | None, RuleSet], Bot]] = {}
    for name, (alias, _bot, factory) in LEVELS.items():
        out[name] = out[alias] = factory
    return out
