"""Determinized search guided by the learned network (:mod:`paohuzi.bots.learned`).

The flat search of :mod:`paohuzi.bots.search` with the learned policy and value
in the places where that search uses the heuristic:

- **candidates**: the policy's most likely legal actions (softmax over the legal
  logits), at most ``candidates`` of them and only those with a probability of at
  least ``min_prior`` — prior-weighted pruning, as the policy prior in PUCT; when
  the policy is at least ``confident`` sure, or only one candidate is left, its
  choice is played without searching;
- **the default**: the policy's first choice is kept unless another candidate
  gains clearly more over the same sampled states (a paired test, as the search);
- **playouts**: every candidate is played on each sampled state (hidden cards
  drawn from the seat's view only, :func:`paohuzi.bots.search.sample_state`) by
  the heuristic's fast player in all seats, weighing positions with the policy's
  own (tuned) heuristic weights, those of its prior; with a ``horizon``, a playout stops
  after that many moves at the seat's next decision and scores it with the
  network's value head, read from the seat's view of the sampled state.

Everything is counted in samples and moves, never a clock, so a seeded bot is
deterministic; the budget (``samples`` × candidates playouts) bounds its time.
"""

from __future__ import annotations

import random
from typing import Any

from ..core.actions import Action
from ..core.engine import Phase, State
from ..core.rules import HONG_GUAI_WAN, RuleSet
from ..core.views import SeatView, view
from .base import obvious_action
from .learned import VALUE_SCALE, LearnedBot, Policy, _numpy, policy_inputs
from .search import compare_candidates, policy

__all__ = ["GuidedBot"]


class GuidedBot:
    """Determinized Monte-Carlo search with the learned policy as prior (see the module)."""

    name = "guided"

    def __init__(
        self,
        seed: int | None = None,
        rules: RuleSet = HONG_GUAI_WAN,
        policy: Policy | None = None,
        samples: int = 12,
        candidates: int = 3,
        min_prior: float = 0.02,
        confident: float = 0.995,
        horizon: int | None = None,
        z: float = 1.0,
    ) -> None:
        self.rng = random.Random(seed)
        self.rules = rules
        self.learned = LearnedBot(seed, policy, rules)
        self.samples = samples
        self.candidates = candidates
        self.min_prior = min_prior
        self.confident = confident
        self.horizon = horizon
        self.z = z

    def ranked(self, v: SeatView) -> list[tuple[float, Action]]:
        """The legal actions with the policy's probabilities, most likely first."""
        np = _numpy()
        logits, _value = self._forward(v)
        legal = list(v.legal)
        z = np.asarray([float(logits[a.id]) for a in legal], np.float64)
        p = np.exp(z - z.max())
        p /= p.sum()
        order = sorted(range(len(legal)), key=lambda i: (-p[i], i))
        return [(float(p[i]), legal[i]) for i in order]

    def act(self, view: SeatView) -> Action:
        sure = obvious_action(view)
        if sure is not None:
            return sure
        ranked = self.ranked(view)
        p0 = ranked[0][0]
        cands = [ranked[0][1]] + [a for p, a in ranked[1 : self.candidates] if p >= self.min_prior]
        if len(cands) <= 1 or p0 >= self.confident or self.samples <= 0:
            return ranked[0][1]
        return compare_candidates(
            view, self.rules, self.rng, cands, self.samples, self._rollout, self.z
        )

    def _rollout(self, st: State, me: int) -> float:
        """``me``'s balance change: played out, or the value head's after ``horizon`` moves."""
        moves = 0
        while st.phase is not Phase.OVER:
            seat = st.to_act()[0]
            ids = st.legal_actions(seat)
            if self.horizon is not None and moves >= self.horizon and seat == me and len(ids) > 1:
                return self.leaf_value(st, me)
            st.apply_fast(seat, policy(st, seat, ids, self.learned.policy.weights))
            moves += 1
        res = st.result
        assert res is not None
        return float(res.deltas[me])

    def leaf_value(self, st: State, me: int) -> float:
        """The value head's estimate of ``me``'s balance change, from ``me``'s view only."""
        _logits, value = self._forward(view(st, me))
        return float(value) * VALUE_SCALE

    def _forward(self, v: SeatView) -> tuple[Any, Any]:
        """The network's logits and value for ``v`` (input: the view, the heuristic's prior)."""
        policy = self.learned.policy
        return policy.forward(policy_inputs(v, policy, self.rules))
