"""A match: N rounds with running 悟性 balances and dealer rotation (RULES.md §13).

The winner of a round deals the next; after 荒庄 the dealer deals again. Each
round's seed is derived from the match seed, so (rules, seed, decisions) replays
the whole match; :func:`replay_match` does that from a :class:`MatchRecord`.
"""

from __future__ import annotations

import random

from .engine import State, new_game
from .errors import RecordError
from .record import MatchRecord, replay_match, round_record
from .rules import HONG_GUAI_WAN, RuleSet

__all__ = ["Match", "MatchRecord", "replay_match"]


class Match:
    """Rounds played so far, the current round and the balances."""

    def __init__(
        self,
        rules: RuleSet = HONG_GUAI_WAN,
        seed: int | None = None,
        rounds: int | None = None,
        balances: tuple[int, int, int] | None = None,
    ) -> None:
        """Set up a match; without ``seed`` one is drawn from the system's randomness."""
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise RecordError(f"a match seed is an integer, got {seed!r}")
        self.rules = rules
        self.seed = seed
        self.rounds_total = rounds if rounds is not None else rules.rounds_per_match
        if self.rounds_total < 1:
            raise RecordError(f"a match has at least one round, got {self.rounds_total!r}")
        self.balances: tuple[int, int, int] = balances or (rules.starting_balance,) * 3
        if len(self.balances) != 3:
            raise RecordError(f"three balances expected, got {self.balances!r}")
        self.start_balances = self.balances
        self.dealer = random.Random(f"match-dealer:{seed}").randrange(3)
        self.finished: list[State] = []
        self.current: State | None = None

    def __repr__(self) -> str:
        """Summarise: seed, rounds played and balances."""
        return (
            f"<Match seed {self.seed}, {len(self.finished)}/{self.rounds_total} rounds, "
            f"balances {list(self.balances)}>"
        )

    @property
    def over(self) -> bool:
        """Whether every round has been played and settled."""
        return len(self.finished) >= self.rounds_total and self.current is None

    def round_seed(self, index: int) -> int:
        """Return the seed of round ``index`` (0-based), derived from the match seed."""
        return random.Random(f"round:{self.seed}:{index}").randrange(2**63)

    def start_round(self) -> State:
        """Deal the next round (the previous one must be finished)."""
        if self.current is not None:
            raise RecordError("the current round is not finished")
        if self.over:
            raise RecordError("the match is over")
        idx = len(self.finished)
        self.current = new_game(
            self.rules, seed=self.round_seed(idx), dealer=self.dealer, balances=self.balances
        )
        return self.current

    def end_round(self) -> State:
        """Settle the finished current round into the match."""
        st = self.current
        if st is None or st.result is None:
            raise RecordError("no finished round to settle")
        self.balances = st.result.balances
        self.dealer = st.result.next_dealer
        self.finished.append(st)
        self.current = None
        return st

    def totals(self) -> tuple[int, int, int]:
        """Return each seat's net result over the finished rounds."""
        b, s = self.balances, self.start_balances
        return (b[0] - s[0], b[1] - s[1], b[2] - s[2])

    def record(self) -> MatchRecord:
        """Return the match so far as a record (the current round included, unfinished)."""
        rounds = [round_record(st) for st in self.finished]
        if self.current is not None:
            rounds.append(round_record(self.current))
        return MatchRecord(
            rules=self.rules,
            seed=self.seed,
            rounds_total=self.rounds_total,
            balances=self.start_balances,
            rounds=tuple(rounds),
        )
