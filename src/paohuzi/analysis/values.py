"""Every option of one decision valued in expected points, from the seat's view only.

Fairness: the cards the seat could not see are drawn again and again from its view
(:func:`paohuzi.bots.search.sample_state`, the search's determinization), never
read from the real state. Every option is played on the same sampled worlds to
the end of the round by one fixed policy in all seats (the heuristic's fast
player), so options are compared sample by sample (paired) and the luck of the
hidden cards cancels out of their differences.

Losses are cross-fitted against the winner's curse: the best option is picked on
one half of the worlds (even-numbered, odd-numbered) and every option's loss is
measured against that pick on the *other* half, then the halves swap. Picking
and measuring on the same worlds would favour whichever option got lucky there
and inflate every other option's loss; a pick made on separate worlds cannot
have been lucky on the worlds that measure it. The rollouts are deterministic
(the same world and option always end the same), so the only chance in a value
is which worlds were drawn, and the error bar of a loss comes from the spread
of its per-world paired differences, allowing for an unseen big outcome
(:func:`paohuzi.analysis.errorbar.heavy_se`: a round's points are heavy-tailed).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from ..bots.handeval import DEFAULT_WEIGHTS, Weights
from ..bots.heuristic import HeuristicBot
from ..bots.search import playout_score, sample_state
from ..core.actions import HU_ID, Action, ActionKind
from ..core.engine import State
from ..core.rules import RuleSet
from ..core.views import SeatView
from .errorbar import heavy_se, mean_se

TAIL = 1.0  # a loss's error bar allows for an unseen outcome this share of the largest seen
Z_KEEP = 2.0  # an option within this many errors of the best stays a contender

__all__ = [
    "DecisionValues",
    "OptionValue",
    "choice_losses",
    "cross_fit_losses",
    "value_options",
]


@dataclass(frozen=True, slots=True)
class OptionValue:
    """One option: its mean balance change for the round (points) and what it risks.

    ``se`` is the standard error of ``mean``; ``loss``/``loss_se`` the paired mean
    shortfall against the best option (cross-fitted: :func:`cross_fit_losses`)
    and its standard error; ``feed`` the share of
    sampled worlds in which another seat may 胡 right after it (a discard fed to a
    win, 放胡).
    """

    action: Action
    mean: float
    se: float
    loss: float
    loss_se: float
    feed: float


@dataclass(frozen=True, slots=True)
class DecisionValues:
    """The valued options, best first, and how many sampled worlds they share.

    ``refined`` counts further worlds on which only the option in focus (the one
    chosen) and the best of the shared worlds were played: the focus option's loss
    rests on ``worlds + refined`` worlds, every other figure on ``worlds``.
    """

    options: tuple[OptionValue, ...]
    worlds: int
    refined: int = 0

    def option(self, aid: int) -> OptionValue | None:
        """The valued option with action id ``aid`` (None if it was not valued)."""
        return next((o for o in self.options if o.action.id == aid), None)


def _candidates(
    v: SeatView, rules: RuleSet, max_options: int, include: Sequence[int]
) -> list[Action]:
    """The options worth valuing: all when few, else the heuristic's best plus ``include``.

    胡 and the options in ``include`` (the one the seat chose) are always kept.
    """
    legal = list(v.legal)
    if len(legal) <= max_options:
        return legal
    ranked = [a for _v, a in HeuristicBot(0, rules).rank(v)]
    keep = [a for a in ranked if a.id == HU_ID or a.id in include]
    for a in ranked:
        if len(keep) >= max_options:
            break
        if a not in keep:
            keep.append(a)
    return keep


def _fed(st: State, me: int) -> bool:
    """Whether a seat other than ``me`` may 胡 in the window ``st`` has open now."""
    return any(s != me and HU_ID in st.legal_actions(s) for s in st.to_act())


def _scale(outcomes: Sequence[Sequence[float]]) -> float:
    """The size of the largest outcome seen, the tail a loss's error bar allows for."""
    return max((abs(x) for o in outcomes for x in o), default=0.0)


def value_options(
    v: SeatView,
    rules: RuleSet,
    rng: random.Random,
    samples: int = 16,
    max_options: int = 6,
    include: Sequence[int] = (),
    weights: Weights = DEFAULT_WEIGHTS,
    more: Callable[[DecisionValues], bool] | None = None,
    max_samples: int | None = None,
    shared: int = 1,
    contenders: int = 1,
    tail: float = TAIL,
) -> DecisionValues:
    """Value the options of ``v`` on ``samples`` worlds drawn from the view (paired).

    While ``more(values)`` says the answer is still unclear, another ``samples``
    worlds are drawn, up to ``max_samples`` in all (adaptive: clear decisions cost
    one batch). Worlds that fit no state are skipped; with none left the options
    come back with no value (an empty tuple).
    """
    me = v.seat
    if me is None:
        raise ValueError("a spectator view has no decision to value")
    cands = _candidates(v, rules, max_options, include)
    outcomes: list[list[float]] = [[] for _ in cands]
    fed = [0] * len(cands)
    cap = max(samples, max_samples or samples)
    drawn = 0
    while True:  # every option on the first batches: the best is picked on all of them
        for _ in range(samples):
            _play_world(v, rules, rng, me, cands, weights, outcomes, fed)
        drawn += samples
        values = _values(cands, outcomes, fed, tail)
        if drawn >= samples * shared or drawn + samples > cap or more is None:
            break
        if not values.options or not more(values):
            return values
    focus = next((j for j, a in enumerate(cands) if include and a.id == include[0]), None)
    if more is None or focus is None or not values.options:
        return values
    keep = _contenders(outcomes, focus, contenders, tail * _scale(outcomes))
    sub = [list(outcomes[j]) for j in keep]
    acts = [cands[j] for j in keep]
    while drawn + samples <= cap and more(values):
        for _ in range(samples):
            _play_world(v, rules, rng, me, acts, weights, sub, [0] * len(keep))
        drawn += samples
        diffs = cross_fit_diffs(sub, keep.index(focus))
        loss = heavy_se(diffs, tail * _scale(sub))
        values = _refine(values, cands[focus].id, loss, len(diffs))
    return values


def choice_losses(
    v: SeatView,
    rules: RuleSet,
    rng: random.Random,
    choices: Sequence[int],
    samples: int = 16,
    max_options: int = 6,
    sharpen: Sequence[int] = (),
    more: int = 0,
    weights: Weights = DEFAULT_WEIGHTS,
) -> tuple[dict[int, float], int]:
    """The loss of each action id in ``choices`` (several players' choices at one
    decision), measured on the same worlds, and the number of worlds.

    Every candidate (the options :func:`value_options` would value, and every
    choice) is played on ``samples`` shared worlds, and each loss is cross-fitted
    against the best there, as the review's. When the actions in ``sharpen`` are
    not all one, ``more`` further worlds play just them and the best of the shared
    worlds (picked on worlds they do not score, so no winner's curse), and their
    losses are measured on all the worlds: two choices that differ are then
    compared on many more worlds than the decisions where all agree need.
    The difference between two choices' losses is their paired difference in value
    (the reference cancels), exactly 0 where they are the same action.
    """
    me = v.seat
    if me is None:
        raise ValueError("a spectator view has no decision to value")
    cands = _candidates(v, rules, max_options, list(dict.fromkeys(choices)))
    outcomes: list[list[float]] = [[] for _ in cands]
    fed = [0] * len(cands)
    for _ in range(samples):
        _play_world(v, rules, rng, me, cands, weights, outcomes, fed)
    n = len(outcomes[0])
    if n == 0:
        return {}, 0
    index = {a.id: j for j, a in enumerate(cands)}
    diffs = {a: cross_fit_diffs(outcomes, index[a]) for a in dict.fromkeys(choices)}
    focus = list(dict.fromkeys(sharpen))
    if more > 0 and len(focus) > 1:
        best = _best([sum(o) for o in outcomes])
        keep = list(dict.fromkeys([cands[best].id, *focus]))
        acts = [cands[index[a]] for a in keep]
        sub: list[list[float]] = [[] for _ in keep]
        for _ in range(more):
            _play_world(v, rules, rng, me, acts, weights, sub, [0] * len(keep))
        for k, a in enumerate(keep[1:], 1):
            if a in diffs:
                diffs[a] = diffs[a] + [r - x for r, x in zip(sub[0], sub[k], strict=True)]
    return {a: sum(d) / len(d) for a, d in diffs.items()}, n


def _contenders(
    outcomes: Sequence[Sequence[float]], focus: int, most: int, scale: float
) -> list[int]:
    """The options a refinement keeps playing: the best on the shared worlds and the
    others not clearly worse than it (cross-fitted loss within ``Z_KEEP`` errors of 0),
    at most ``most``, best first, and the option in focus.

    A single reference picked on the shared worlds was often the wrong one, and a
    loss measured against a weaker reference comes out too small (a flip between
    reviews); keeping the close options and cross-fitting over all worlds lets the
    refinement settle which is best.
    """
    means = [sum(o) for o in outcomes]
    losses = cross_fit_losses(outcomes, scale)
    order = sorted(range(len(outcomes)), key=lambda j: (-means[j], j))
    keep = [j for j in order if j == order[0] or losses[j][0] - Z_KEEP * losses[j][1] <= 0]
    keep = keep[:most]
    if focus not in keep:
        keep.append(focus)
    return keep


def _refine(
    values: DecisionValues, aid: int, loss: tuple[float, float], worlds: int
) -> DecisionValues:
    """``values`` with option ``aid``'s loss (and error) measured on all ``worlds``."""
    opts = tuple(
        replace(o, loss=loss[0], loss_se=loss[1]) if o.action.id == aid else o
        for o in values.options
    )
    return DecisionValues(opts, values.worlds, worlds - values.worlds)


def _play_world(
    v: SeatView,
    rules: RuleSet,
    rng: random.Random,
    me: int,
    cands: Sequence[Action],
    weights: Weights,
    outcomes: list[list[float]],
    fed: list[int],
) -> None:
    """Draw one world from the view and play every candidate out on its own copy."""
    base = sample_state(v, rules, rng)
    if base is None:
        return
    for j, a in enumerate(cands):
        st = base.clone(history=False)
        st.apply_fast(me, a.id)
        if a.kind is ActionKind.DISCARD and _fed(st, me):
            fed[j] += 1
        outcomes[j].append(playout_score(st, me, weights))


def cross_fit_losses(
    outcomes: Sequence[Sequence[float]], scale: float = 0.0
) -> list[tuple[float, float]]:
    """Each option's loss against the best and its standard error, cross-fitted.

    ``outcomes[j][i]`` is option ``j``'s result on world ``i``. On each world the
    reference is the option with the best mean on the *other* half of the worlds
    (even- and odd-numbered worlds), so the pick of the best is never scored on
    the worlds that made it look best (no winner's curse). The loss is the mean
    per-world difference and its error bar the standard error of those paired
    differences, allowing for an unseen outcome ``scale`` points away
    (:func:`paohuzi.analysis.errorbar.heavy_se`; 0: the plain standard error).
    With a single world the reference is that world's best.
    """
    return [heavy_se(cross_fit_diffs(outcomes, j), scale) for j in range(len(outcomes))]


def cross_fit_diffs(outcomes: Sequence[Sequence[float]], j: int) -> list[float]:
    """Option ``j``'s per-world shortfall against the other half's best option."""
    n = len(outcomes[0])
    k = len(outcomes)
    halves = (range(0, n, 2), range(1, n, 2))
    picks = [_best([sum(outcomes[m][i] for i in h) for m in range(k)]) for h in halves]
    if n < 2:
        picks = [_best([o[0] for o in outcomes])] * 2
    return [outcomes[picks[1 - i % 2]][i] - outcomes[j][i] for i in range(n)]


def _best(totals: Sequence[float]) -> int:
    """The index of the largest total (the first on ties)."""
    return max(range(len(totals)), key=lambda j: (totals[j], -j))


def _values(
    cands: Sequence[Action], outcomes: list[list[float]], fed: list[int], tail: float
) -> DecisionValues:
    """Means, standard errors and cross-fitted paired losses, best (by mean) first."""
    n = len(outcomes[0])
    if n == 0:
        return DecisionValues((), 0)
    means = [mean_se(o) for o in outcomes]
    losses = cross_fit_losses(outcomes, tail * _scale(outcomes))
    opts = [
        OptionValue(a, means[j][0], means[j][1], losses[j][0], losses[j][1], fed[j] / n)
        for j, a in enumerate(cands)
    ]
    opts.sort(key=lambda o: (-o.mean, o.loss))
    return DecisionValues(tuple(opts), n)
