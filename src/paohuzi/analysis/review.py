"""The review of a recorded round or match: every decision of the chosen seats judged.

Each decision with more than one legal option is valued by
:func:`paohuzi.analysis.values.value_options` from the deciding seat's view at that
moment; the loss of the option chosen against the best, its verdict
(:mod:`paohuzi.analysis.verdict`) and the certain losses by name (漏胡, 放胡) are
kept per decision, summed per round and over the match. Every decision draws its
worlds from its own seeded generator, so a review is reproducible from its seed.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ..core.actions import HU_ID, Action, ActionKind
from ..core.engine import State, new_game
from ..core.record import MatchRecord, RoundRecord
from ..core.views import view
from .values import DecisionValues, OptionValue, value_options
from .verdict import Verdict, judge, straddles_severe, unsettled

__all__ = [
    "Budget",
    "DecisionReview",
    "MatchReview",
    "RoundReview",
    "review_decision",
    "review_match",
    "review_round",
]

LOU_HU = "漏胡"  # a 胡 passed
FANG_HU = "放胡"  # a discard another seat may 胡 on in every sampled world


@dataclass(frozen=True, slots=True)
class Budget:
    """How hard to look: sampled worlds per decision (a batch), options valued at most,
    how many batches a decision may take while its interval straddles the mistake or
    blunder threshold, on how many batches at least a mistake or blunder must be
    confirmed (the rollouts' points are heavy-tailed, so a few worlds can understate a
    loss's error bar), how many options beside the one chosen a refinement keeps
    playing, on how many batches every option is played, and how many batches a
    question of inaccuracy or not may take."""

    samples: int = 16
    max_options: int = 6
    refine: int = 64  # straddling mistake/blunder: up to refine × samples worlds
    confirm: int = 16  # a mistake or blunder stands on at least min(confirm, refine) batches
    keep: int = 1  # options a refinement keeps playing beside the one chosen (contenders)
    shared: int = 4  # batches on which every option is played before the refinement
    mild: int = 8  # good or inaccuracy still unsettled: up to mild × samples worlds

    def __post_init__(self) -> None:
        if not 1 <= self.samples <= 1000:
            raise ValueError(f"samples must be 1..1000, got {self.samples!r}")
        if not 1 <= self.refine <= 64:
            raise ValueError(f"refine must be 1..64, got {self.refine!r}")
        if not 1 <= self.confirm <= 32:
            raise ValueError(f"confirm must be 1..32, got {self.confirm!r}")
        if not 1 <= self.shared <= 32:
            raise ValueError(f"shared must be 1..32, got {self.shared!r}")
        if not 1 <= self.mild <= 64:
            raise ValueError(f"mild must be 1..64, got {self.mild!r}")
        if not 1 <= self.keep <= 20:
            raise ValueError(f"keep must be 1..20, got {self.keep!r}")
        if not 2 <= self.max_options <= 20:
            raise ValueError(f"max_options must be 2..20, got {self.max_options!r}")


@dataclass(frozen=True, slots=True)
class DecisionReview:
    """One judged decision: where, the options, the choice, its loss and verdict."""

    round: int
    index: int  # the decision's index in the round's actions
    seat: int
    chosen: Action
    values: DecisionValues
    loss: float
    loss_se: float
    verdict: Verdict
    tags: tuple[str, ...]

    @property
    def best(self) -> OptionValue | None:
        """The best valued option (None when no world fitted the view)."""
        return self.values.options[0] if self.values.options else None

    @property
    def expected(self) -> float | None:
        """Expected points for the round after the option chosen (the graph's value)."""
        o = self.values.option(self.chosen.id)
        return None if o is None else o.mean

    @property
    def matches_best(self) -> bool:
        """Whether the option chosen is the best valued one (一致), or tied with it: where
        every option came out the same (+0.00 each, say) any choice agrees."""
        o = self.values.option(self.chosen.id)
        return self.best is not None and o is not None and o.mean >= self.best.mean


@dataclass(frozen=True, slots=True)
class RoundReview:
    """A round's judged decisions and the seats' balance changes."""

    round: int
    decisions: tuple[DecisionReview, ...]
    deltas: tuple[int, int, int] | None


@dataclass(frozen=True, slots=True)
class MatchReview:
    """Every judged round, for the ``seats`` reviewed, with the budget and seed used."""

    rounds: tuple[RoundReview, ...]
    seats: tuple[int, ...]
    budget: Budget
    seed: int

    def decisions(self) -> list[DecisionReview]:
        """All judged decisions in order."""
        return [d for r in self.rounds for d in r.decisions]


def _tags(chosen: Action, values: DecisionValues, legal: Iterable[int]) -> tuple[str, ...]:
    """The certain losses by name: a 胡 passed, a discard fed to a sure 胡."""
    tags = []
    if HU_ID in legal and chosen.id != HU_ID:
        tags.append(LOU_HU)
    o = values.option(chosen.id)
    if chosen.kind is ActionKind.DISCARD and o is not None and o.feed >= 1.0:
        tags.append(FANG_HU)
    return tuple(tags)


def review_decision(
    st: State,
    seat: int,
    aid: int,
    rng: random.Random,
    budget: Budget,
    round_index: int = 0,
    index: int = 0,
) -> DecisionReview:
    """Judge ``seat`` choosing ``aid`` in ``st``, valuing options from its view only."""
    v = view(st, seat)

    def more(values: DecisionValues) -> bool:
        o = values.option(aid)
        if o is None:
            return False
        worlds = values.worlds + values.refined
        if straddles_severe(o.loss, o.loss_se):
            return True
        if judge(o.loss, o.loss_se).rank >= Verdict.MISTAKE.rank:
            return worlds < budget.samples * budget.confirm
        return unsettled(o.loss, o.loss_se) and worlds < budget.samples * budget.mild

    values = value_options(
        v,
        st.rules,
        rng,
        budget.samples,
        budget.max_options,
        (aid,),
        more=more,
        max_samples=budget.samples * budget.refine,
        shared=budget.shared,
        contenders=budget.keep,
    )
    chosen = st.action(seat, aid)
    o = values.option(aid)
    loss, loss_se = (0.0, 0.0) if o is None else (o.loss, o.loss_se)
    verdict = judge(loss, loss_se)
    tags = _tags(chosen, values, (a.id for a in v.legal))
    return DecisionReview(round_index, index, seat, chosen, values, loss, loss_se, verdict, tags)


def _rng(seed: int, round_index: int, index: int, seat: int) -> random.Random:
    """The decision's own generator: reviews of parts of a match agree with the whole."""
    return random.Random(f"analyse:{seed}:{round_index}:{index}:{seat}")


def review_round(
    rec: RoundRecord,
    seats: tuple[int, ...] = (0, 1, 2),
    budget: Budget = Budget(),
    seed: int = 0,
    round_index: int = 0,
    progress: Callable[[int], None] | None = None,
) -> RoundReview:
    """Replay ``rec`` and judge every decision of ``seats`` that had a choice."""
    st = new_game(rec.rules, seed=rec.seed, deal=rec.deal, balances=rec.balances)
    out = []
    for i, a in enumerate(rec.actions):
        aid = a.id if a.id is not None else _id_of_text(st, a.seat, a.text)
        if a.seat in seats and len(st.legal_actions(a.seat)) > 1:
            out.append(
                review_decision(
                    st, a.seat, aid, _rng(seed, round_index, i, a.seat), budget, round_index, i
                )
            )
            if progress is not None:
                progress(1)
        st.apply(a.seat, aid)
    deltas = st.result.deltas if st.result is not None else None
    return RoundReview(round_index, tuple(out), deltas)


def _id_of_text(st: State, seat: int, text: str) -> int:
    """The id of a decision recorded by its text only (records may omit ids)."""
    for m in st.legal_moves(seat):
        if m.text() == text or m.text(ascii=True) == text:
            return m.id
    raise ValueError(f"seat {seat} has no legal action {text[:40]!r} here")


def review_match(
    rec: MatchRecord | RoundRecord,
    seats: tuple[int, ...] = (0, 1, 2),
    budget: Budget = Budget(),
    seed: int = 0,
    progress: Callable[[int], None] | None = None,
) -> MatchReview:
    """Judge every round of a match record (or one round record) for ``seats``."""
    rounds = rec.rounds if isinstance(rec, MatchRecord) else (rec,)
    reviews = tuple(review_round(r, seats, budget, seed, i, progress) for i, r in enumerate(rounds))
    return MatchReview(reviews, seats, budget, seed)
