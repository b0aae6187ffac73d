"""A rule-based player: always 胡, claims what helps, discards what hurts least.

Every decision compares hand potentials (:mod:`paohuzi.bots.handeval`) of the
positions an action leads to, so discards and claims use one yardstick: blocks
still to complete and how live they are, 胡息 against the minimum, and exact waits
near the end. Discards also weigh what they give away (a 跑 or 碰 to a hidden 坎
or pair, a 吃 to the 下家), using only the cards this seat has seen.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core.actions import Action, ActionKind
from ..core.cards import NUM_FACES
from ..core.engine import Phase
from ..core.groups import Group
from ..core.hand import complete_size
from ..core.rules import HONG_GUAI_WAN, RuleSet
from ..core.views import SeatView
from .base import obvious_action
from .handeval import (
    DEFAULT_WEIGHTS,
    Weights,
    decompose_free,
    evaluate_hand,
    free_counts,
    mingtang_lean,
    unseen_counts,
)

__all__ = ["Context", "HeuristicBot", "claim_value", "discardable"]

# For each face: the pairs of other faces that form a set with it (吃 shapes).
_CHI_PARTNERS: list[list[tuple[int, int]]] = []
for _x in range(NUM_FACES):
    _n, _base = _x % 10, _x - _x % 10
    _o = _x + 10 if _x < 10 else _x - 10
    _lst: list[tuple[int, int]] = []
    if _n >= 2:
        _lst.append((_x - 2, _x - 1))
    if 1 <= _n <= 8:
        _lst.append((_x - 1, _x + 1))
    if _n <= 7:
        _lst.append((_x + 1, _x + 2))
    if _n in (1, 6, 9):
        _a, _b = (_base + m for m in (1, 6, 9) if m != _n)
        _lst.append((_a, _b))
    _lst.append((_x, _o))
    _lst.append((_o, _o))
    _CHI_PARTNERS.append(_lst)


class Context:
    """What a decision needs from a view: own hand and table, unseen copies, risks."""

    __slots__ = (
        "hand",
        "in_pile",
        "next_dead",
        "next_pile",
        "rules",
        "seat",
        "table",
        "unseen",
        "weights",
    )

    def __init__(
        self,
        seat: int,
        hand: list[int],
        table: tuple[Group, ...],
        seen: list[int],
        piles: Sequence[Sequence[int]],
        dead: Sequence[bool],
        rules: RuleSet,
        weights: Weights = DEFAULT_WEIGHTS,
    ) -> None:
        self.seat = seat
        self.rules = rules
        self.weights = weights
        self.hand = hand
        self.table = table
        self.unseen = unseen_counts(seen)
        piled = 0
        for p in piles:
            for f in p:
                piled |= 1 << f
        self.in_pile = piled
        nxt = (seat + 1) % 3
        self.next_dead = dead[nxt]
        np = 0
        for f in piles[nxt]:
            np |= 1 << f
        self.next_pile = np

    @classmethod
    def from_view(
        cls, view: SeatView, rules: RuleSet, weights: Weights = DEFAULT_WEIGHTS
    ) -> Context:
        """The context of the view's seat (what it may know, nothing more)."""
        seat = view.seat
        assert seat is not None
        groups: list[Group] = []
        for vg in view.tables[seat]:
            g = vg.group()
            if g is not None:
                groups.append(g)
        seen = view.seen_counts()
        if view.dealer != seat and seen[view.liangzhang] < 4 and not view.over:
            # The 亮张 is most likely still in the dealer's hand: not available.
            seen[view.liangzhang] += 1
        return cls(
            seat, view.hand_counts(), tuple(groups), seen, view.piles, view.dead, rules, weights
        )

    def risk(self, f: int) -> float:
        """What discarding ``f`` may give the others."""
        u = self.unseen
        w = self.weights
        r = 0.0
        if u[f] >= 3 and not (self.in_pile >> f) & 1:
            r += w.risk_pao
        if u[f] >= 2:
            r += w.risk_peng * (u[f] - 1) / 2.0
        if not self.next_dead and not (self.next_pile >> f) & 1:
            chi = 0.0
            for a, b in _CHI_PARTNERS[f]:
                if a == b:
                    chi += min(u[a], 2) * 0.5 * 0.5
                else:
                    chi += min(u[a], 2) * min(u[b], 2) / 8.0
            r += w.risk_chi * min(chi, 2.0)
        return r

    def value(self, hand: Sequence[int], table: Sequence[Group]) -> float:
        w = self.weights
        v = evaluate_hand(hand, table, self.unseen, self.rules, True, w).value
        if w.leans:
            v += mingtang_lean(hand, table, w, self.rules)
        return v

    def best_discard(
        self, hand: list[int], table: Sequence[Group], faces: Sequence[int], fast: bool = False
    ) -> tuple[float, int]:
        """The best face to discard among ``faces`` and the resulting value.

        ``fast`` tries only the singles of the hand's decomposition when it has any
        (what search playouts use: a few evaluations instead of one per face).
        """
        if fast:
            singles = [f for f in decompose_free(free_counts(hand)).singles if f in faces]
            if singles:
                faces = sorted(set(singles))
        best_v = -1e18
        best_f = faces[0]
        for f in faces:
            hand[f] -= 1
            v = self.value(hand, table) - self.risk(f)
            hand[f] += 1
            if v > best_v:
                best_v, best_f = v, f
        return best_v, best_f

    def fast_discard(self, ids: Sequence[int]) -> int:
        """A discard for playouts: the best single of the decomposition."""
        return self.best_discard(self.hand, self.table, ids, fast=True)[1]


def discardable(hand: Sequence[int]) -> list[int]:
    """Faces a hand may discard (never a 坎 card, unless nothing else is left)."""
    faces = [f for f in range(NUM_FACES) if 0 < hand[f] < 3]
    return faces or [f for f in range(NUM_FACES) if hand[f]]


class HeuristicBot:
    """Strong rule-based play from the seat's view only; deterministic.

    ``weights`` is its yardstick; the ``heuristic`` bot keeps the defaults.
    """

    name = "heuristic"

    def __init__(
        self,
        seed: int | None = None,
        rules: RuleSet = HONG_GUAI_WAN,
        weights: Weights = DEFAULT_WEIGHTS,
    ) -> None:
        self.seed = seed
        self.rules = rules
        self.weights = weights

    def act(self, view: SeatView) -> Action:
        sure = obvious_action(view)
        if sure is not None:
            return sure
        ranked = self.rank(view)
        return ranked[0][1]

    def rank(self, view: SeatView) -> list[tuple[float, Action]]:
        """Every legal action with its heuristic value, best first (stable order)."""
        ctx = Context.from_view(view, self.rules, self.weights)
        legal = view.legal
        out: list[tuple[float, Action]] = []
        if view.phase is Phase.DISCARD:
            for a in legal:
                assert a.face is not None
                f = a.face
                ctx.hand[f] -= 1
                v = ctx.value(ctx.hand, ctx.table) - ctx.risk(f)
                ctx.hand[f] += 1
                out.append((v, a))
        else:
            for a in legal:
                out.append((claim_value(ctx, a), a))
        order = sorted(range(len(out)), key=lambda i: (-out[i][0], i))
        return [out[i] for i in order]


def claim_value(ctx: Context, a: Action, fast: bool = False) -> float:
    """Value of the position a claim (or pass) leads to, after its best discard, less the
    claim's margin (a claim shows cards and gives up a turn's flexibility)."""
    kind = a.kind
    if kind is ActionKind.HU:
        return 1e9
    if kind is ActionKind.PASS:
        return ctx.value(ctx.hand, ctx.table)
    margin = ctx.weights.margin_peng if kind is ActionKind.PENG else ctx.weights.margin_chi
    hand = ctx.hand[:]
    for f in a.hand_cards():
        hand[f] -= 1
    table = (*ctx.table, *a.groups)
    owned = sum(hand) + sum(len(g.faces) for g in table)
    k = sum(1 for g in table if g.kind.name in ("TI", "PAO"))
    if owned == complete_size(k):
        faces = discardable(hand)
        if not faces:
            return -1e9
        v, _f = ctx.best_discard(hand, table, faces, fast)
    else:
        v = ctx.value(hand, table)
    return v - margin
