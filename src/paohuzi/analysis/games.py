"""Bot matches to review: benchmarks, the metric check and tests need records."""

from __future__ import annotations

from collections.abc import Sequence

from ..bots import make_bot
from ..bots.base import finish_match
from ..core.match import Match, MatchRecord
from ..core.rules import HONG_GUAI_WAN, RuleSet

__all__ = ["bot_match"]


def bot_match(
    names: Sequence[str], seed: int, rounds: int = 8, rules: RuleSet = HONG_GUAI_WAN
) -> MatchRecord:
    """The record of a ``rounds``-round match of the bots ``names`` (seats 0, 1, 2)."""
    if len(names) != 3:
        raise ValueError(f"three bot names expected, got {list(names)!r}")
    bots = [make_bot(n, seed * 3 + s, rules) for s, n in enumerate(names)]
    return finish_match(Match(rules, seed=seed, rounds=rounds), bots).record()
