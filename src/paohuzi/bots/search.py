"""Determinized Monte-Carlo search over the heuristic player.

A view hides the others' hands, their face-down groups and the stock order. The
search samples those hidden cards consistently with the view (four copies of each
face minus everything the seat sees; a face-down 偎/提 is an unseen face with 3/4
copies left; the others' hand sizes; faces that passed a claim window cannot sit
in a hidden 坎, or a 跑 would have been forced), builds a full engine state from
each sample, and plays every candidate action out to the end of the round with
the heuristic player in all seats (its fast discard mode). The same samples serve
every candidate, so the comparison is paired: the heuristic's first choice is
kept unless another candidate gains clearly more balance (a paired test on the
per-sample differences), since with a few dozen playouts the noise would
otherwise pick at random among good actions.

The number of samples is fixed (not a clock), so a seeded bot is deterministic.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence

from ..core.actions import HU_ID, PASS_ID, Action
from ..core.cards import COPIES, NUM_FACES, faces_of_counts
from ..core.engine import Assignment, Phase, State, TableGroup, determinize
from ..core.errors import HandError
from ..core.groups import Group, GroupKind
from ..core.rules import HONG_GUAI_WAN, RuleSet
from ..core.views import SeatView
from .base import obvious_action
from .handeval import DEFAULT_WEIGHTS, Weights
from .heuristic import Context, HeuristicBot, claim_value

__all__ = [
    "SearchBot",
    "candidate_outcomes",
    "compare_candidates",
    "paired_gain",
    "playout",
    "playout_score",
    "policy",
    "sample_assignment",
    "sample_state",
]


# --------------------------------------------------------------------- sampling


def _visible_mask(view: SeatView) -> int:
    """Faces that passed a claim window: no other seat can hold a 坎 of them."""
    mask = 0
    for p in view.piles:
        for f in p:
            mask |= 1 << f
    for s in range(3):
        for vg in view.tables[s]:
            if vg.faces is not None and vg.kind is GroupKind.PENG:
                mask |= 1 << vg.faces[0]
    return mask


def sample_assignment(view: SeatView, rng: random.Random) -> Assignment:
    """A random guess at the cards ``view`` hides, fitting what the seat has seen.

    Four copies of each face minus everything seen; a face-down 偎/提 takes a face
    with 3/4 unseen copies; faces that passed a claim window, or the card on offer,
    are kept out of the others' 坎 where possible (a 跑 would have been forced).
    """
    me = view.seat
    if me is None:
        raise HandError("a spectator view cannot be determinized")
    seen = view.seen_counts()
    pool = [COPIES - c for c in seen]
    offer = view.offer if view.phase is Phase.CLAIM else None
    window_mask = _visible_mask(view)
    # Face-down groups of the others: the 提 (four unseen copies) first, then the
    # 偎; a dead end (a face taken twice) is retried.
    hidden = [
        (s, i, vg.kind) for s in range(3) for i, vg in enumerate(view.tables[s]) if vg.faces is None
    ]
    hidden.sort(key=lambda h: -h[2].size)
    chosen: dict[tuple[int, int], int] = {}
    for attempt in range(30):
        trial = pool[:]
        chosen = {}
        for s, i, kind in hidden:
            size = kind.size
            cands = [f for f in range(NUM_FACES) if trial[f] >= size]
            if attempt < 20:
                strict = [f for f in cands if f != offer and not (window_mask >> f) & 1]
                cands = strict or cands
            if not cands:
                break
            f = rng.choice(cands)
            trial[f] -= size
            chosen[s, i] = f
        else:
            pool = trial
            break
    else:
        raise HandError("no assignment of the face-down groups fits the seen cards")
    tables: list[list[TableGroup]] = [[], [], []]
    for s in range(3):
        for i, vg in enumerate(view.tables[s]):
            if vg.faces is not None:
                tables[s].append(TableGroup(Group(vg.kind, vg.faces), vg.hidden))
            else:
                f = chosen[s, i]
                tables[s].append(TableGroup(Group(vg.kind, (f,) * vg.kind.size), True))
    # The others' hands and the stock.
    others = [s for s in range(3) if s != me]
    sizes = {s: view.hand_sizes[s] for s in others}
    reserved: dict[int, list[int]] = {s: [] for s in others}
    lz = view.liangzhang
    if (
        view.dealer != me
        and pool[lz] > 0
        and seen[lz] - view.hand_counts()[lz] == 0
        and sizes[view.dealer] > 0
    ):
        reserved[view.dealer].append(lz)
        pool[lz] -= 1
    cards = [f for f in range(NUM_FACES) for _ in range(pool[f])]
    need = sum(sizes.values()) - sum(len(r) for r in reserved.values()) + view.stock_count
    if len(cards) < need:  # inconsistent view (should not happen): pad with any faces
        cards += [rng.randrange(NUM_FACES) for _ in range(need - len(cards))]
    rng.shuffle(cards)
    cards = cards[:need]

    def limit(s: int, f: int) -> int:
        lim = 3
        if (window_mask >> f) & 1:
            lim = 2
        for t in tables[s]:
            if t.group.faces[0] == f and t.group.kind is not GroupKind.CHI:
                lim = 0
        if offer is not None and f == offer:
            lim = 1 if s == view.offer_source else min(lim, 2)
        return lim

    hands: list[list[int]] = [[0] * NUM_FACES for _ in range(3)]
    hands[me] = view.hand_counts()
    pos = 0
    for s in others:
        h = hands[s]
        for f in reserved[s]:
            h[f] += 1
        n = sizes[s] - len(reserved[s])
        for f in cards[pos : pos + n]:
            h[f] += 1
        pos += n
    stock = cards[pos:]
    # Repair: swap excess copies with the stock or the other hidden hand.
    for s in others:
        h = hands[s]
        for f in range(NUM_FACES):
            while h[f] > limit(s, f):
                swaps: list[tuple[int, int]] = [
                    (-1, i) for i, g in enumerate(stock) if g != f and h[g] + 1 <= limit(s, g)
                ]
                for s2 in others:
                    if s2 != s and hands[s2][f] + 1 <= limit(s2, f):
                        h2 = hands[s2]
                        swaps += [
                            (s2, g)
                            for g in range(NUM_FACES)
                            if g != f and h2[g] and h[g] + 1 <= limit(s, g)
                        ]
                if not swaps:
                    break
                where, i = rng.choice(swaps)
                if where < 0:
                    g = stock[i]
                    stock[i] = f
                else:
                    g = i
                    hands[where][g] -= 1
                    hands[where][f] += 1
                h[g] += 1
                h[f] -= 1
    return Assignment(
        hands=(faces_of_counts(hands[0]), faces_of_counts(hands[1]), faces_of_counts(hands[2])),
        hidden=chosen,
        stock=tuple(reversed(stock)),
    )


def sample_state(
    view: SeatView, rules: RuleSet, rng: random.Random, tries: int = 5
) -> State | None:
    """A determinized state for ``view`` (:func:`paohuzi.core.engine.determinize`).

    A guess that would change the seat's own options (say, a guessed 坎 of the card
    on offer) is drawn again, up to ``tries`` times; None if none fits.
    """
    for _ in range(tries):
        try:
            return determinize(view, sample_assignment(view, rng), rules)
        except HandError:
            continue
    return None


# --------------------------------------------------------------------- playouts


def _state_context(st: State, seat: int, weights: Weights = DEFAULT_WEIGHTS) -> Context:
    """The heuristic's context of ``seat`` from a (sampled) state: what it could see."""
    seen = st.hands[seat][:]
    for s in range(3):
        for t in st.tables[s]:
            if not t.hidden or s == seat:
                for f in t.group.faces:
                    seen[f] += 1
        for f in st.piles[s]:
            seen[f] += 1
    w = st.window
    if w is not None and st.phase is Phase.CLAIM and not w.after_own:
        seen[w.card] += 1
    return Context(
        seat, st.hands[seat][:], st.table_groups(seat), seen, st.piles, st.dead, st.rules, weights
    )


def policy(st: State, seat: int, ids: Sequence[int], weights: Weights = DEFAULT_WEIGHTS) -> int:
    """The heuristic player's choice for ``seat`` in a state (fast discard mode), weighing
    positions with ``weights``."""
    if len(ids) == 1:
        return ids[0]
    if HU_ID in ids:
        return HU_ID
    ctx = _state_context(st, seat, weights)
    if st.phase is Phase.DISCARD:
        return ctx.fast_discard(ids)
    best_v = -1e18
    best = PASS_ID
    for aid in ids:
        if aid == PASS_ID:
            v = ctx.value(ctx.hand, ctx.table)
        else:
            v = claim_value(ctx, st.action(seat, aid), fast=True)
        if v > best_v:
            best_v, best = v, aid
    return best


def playout(st: State, weights: Weights = DEFAULT_WEIGHTS) -> None:
    """Play ``st`` to the end of the round with the heuristic (``weights``) in every seat."""
    while st.phase is not Phase.OVER:
        seat = st.to_act()[0]
        st.apply_fast(seat, policy(st, seat, st.legal_actions(seat), weights))


# ----------------------------------------------------------------------- the bot


class SearchBot:
    """Flat determinized Monte-Carlo search with heuristic playouts.

    ``samples`` determinizations are drawn per decision and every one of the (at
    most ``candidates``, best by the heuristic) actions is played out on each; a
    candidate replaces the heuristic's first choice when its mean gain exceeds
    ``z`` standard errors. A 胡 is always taken; a single legal action is returned
    at once.
    """

    name = "search"

    def __init__(
        self,
        seed: int | None = None,
        rules: RuleSet = HONG_GUAI_WAN,
        samples: int = 12,
        candidates: int = 3,
        z: float = 1.0,
    ) -> None:
        self.rng = random.Random(seed)
        self.rules = rules
        self.samples = samples
        self.candidates = candidates
        self.z = z
        self._heuristic = HeuristicBot(seed, rules)

    def act(self, view: SeatView) -> Action:
        sure = obvious_action(view)
        if sure is not None:
            return sure
        self._heuristic.rules = self.rules
        ranked = self._heuristic.rank(view)
        cands = [a for _v, a in ranked[: self.candidates]]
        if len(cands) == 1 or self.samples <= 0:
            return cands[0]
        return compare_candidates(
            view, self.rules, self.rng, cands, self.samples, playout_score, self.z
        )


def playout_score(st: State, seat: int, weights: Weights = DEFAULT_WEIGHTS) -> float:
    """``seat``'s balance change when :func:`playout` ends the round from ``st``."""
    playout(st, weights)
    res = st.result
    assert res is not None
    return float(res.deltas[seat])


def compare_candidates(
    view: SeatView,
    rules: RuleSet,
    rng: random.Random,
    candidates: Sequence[Action],
    samples: int,
    score: Callable[[State, int], float],
    z: float,
) -> Action:
    """The candidate to play, ``candidates[0]`` unless another scores clearly better.

    Each of ``samples`` determinizations of ``view`` is drawn once and every
    candidate is applied to its own clone of it, then scored by ``score(state,
    seat)``: the comparison is paired (the same hidden cards behind every
    candidate), so :func:`_choose` tests per-sample differences and the luck of
    the draw cancels out. Samples that fit no state are skipped; with none left
    the first candidate is kept.
    """
    outcomes = candidate_outcomes(view, rules, rng, candidates, samples, score)
    if not outcomes[0]:
        return candidates[0]
    return candidates[_choose(outcomes, z)]


def candidate_outcomes(
    view: SeatView,
    rules: RuleSet,
    rng: random.Random,
    candidates: Sequence[Action],
    samples: int,
    score: Callable[[State, int], float],
) -> list[list[float]]:
    """Each candidate's ``score`` on the same determinizations of ``view``, sample by sample.

    ``samples`` states are drawn (those that fit none are skipped, so the lists may
    be shorter); every candidate is applied to its own clone of each.
    """
    me = view.seat
    assert me is not None
    outcomes: list[list[float]] = [[] for _ in candidates]
    for _ in range(samples):
        base = sample_state(view, rules, rng)
        if base is None:
            continue
        for j, a in enumerate(candidates):
            st = base.clone()
            st.apply_fast(me, a.id)
            outcomes[j].append(score(st, me))
    return outcomes


def paired_gain(base: Sequence[float], other: Sequence[float]) -> tuple[float, float]:
    """The mean per-sample gain of ``other`` over ``base`` and its standard error."""
    n = len(base)
    diffs = [other[i] - base[i] for i in range(n)]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / max(1, n - 1)
    return mean, math.sqrt(var / n)


def _choose(outcomes: list[list[float]], z: float) -> int:
    """The candidate to play: the heuristic's first unless another beats it clearly.

    Outcomes are paired by sample, so the test is on the per-sample differences
    against candidate 0 (:func:`paired_gain`): a switch needs a mean gain above
    ``z`` standard errors. With few playouts the noise would otherwise pick at
    random among candidates.
    """
    best, best_gain = 0, 0.0
    for j in range(1, len(outcomes)):
        mean, se = paired_gain(outcomes[0], outcomes[j])
        if mean > 0 and mean > z * se and mean > best_gain:
            best, best_gain = j, mean
    return best
