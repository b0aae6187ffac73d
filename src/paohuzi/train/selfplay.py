"""Self-play data and duplicate evaluation for training (numpy, no torch).

Both are lists of independent jobs for :func:`paohuzi.parallel.map_jobs`, so they
run in a local process pool or on Ray. Deals are seeded from the training seed
with their own prefix (``train:``, ``curve:``), never from the arena's, so no
training or tuning deal is an arena deal.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from ..arena import ARENA_RULES, RoundOutcome, play_bots, seatings, summarize
from ..bots import Bot, make_bot
from ..bots.base import obvious_action
from ..bots.handeval import DEFAULT_WEIGHTS, Weights
from ..bots.heuristic import HeuristicBot
from ..bots.learned import LearnedBot, Policy, prior
from ..bots.network import INPUTS, input_row
from ..core.actions import Action
from ..core.engine import State, new_game
from ..core.rules import RuleSet
from ..core.views import view
from ..encoding.observation import encode

__all__ = [
    "LABEL_CANDIDATES",
    "duplicate_eval",
    "eval_job",
    "features",
    "search_label_job",
    "seat_bot",
    "teacher_job",
]


def features(st: State, seat: int, ranked: list[tuple[float, Action]]) -> np.ndarray[Any, Any]:
    """The network's input for ``seat`` as uint8: encoding, then :func:`prior` of ``ranked``."""
    row: np.ndarray[Any, Any] = input_row(encode(st, seat), prior(ranked), np.uint8)
    return row


def seat_bot(
    name: str,
    seed: int,
    rules: RuleSet,
    policy: Policy | None = None,
    weights: Weights = DEFAULT_WEIGHTS,
) -> Bot:
    """A training seat's bot: the learned one with ``policy``, or ``name`` (a heuristic with
    ``weights``)."""
    if policy is not None:
        return LearnedBot(seed, policy, rules)
    if name == "heuristic":
        return HeuristicBot(seed, rules, weights)
    return make_bot(name, seed, rules)


def teacher_job(job: tuple[int, int, int, str, dict[str, float]]) -> dict[str, Any]:
    """Games ``start``…``start+count-1`` of the teacher against itself, as training data.

    Every decision with a choice becomes a row: the network's input (uint8, see
    :func:`features`, its prior from a heuristic with these ``weights``), the
    teacher's action id, and the seat's balance change at the end of the round.
    A ``heuristic`` teacher plays with the same weights.
    """
    seed, start, count, teacher, weights = job
    w = Weights.from_dict(weights)
    obs: list[np.ndarray[Any, Any]] = []
    acts: list[int] = []
    rets: list[float] = []
    ranker = HeuristicBot(None, ARENA_RULES, w)
    for i in range(start, start + count):
        rng = random.Random(f"train:{seed}:{i}")
        st = new_game(ARENA_RULES, seed=rng.randrange(2**63), dealer=rng.randrange(3))
        bots = [seat_bot(teacher, rng.randrange(2**31), ARENA_RULES, None, w) for _ in range(3)]
        rows: list[tuple[int, int]] = []
        while not st.over:
            seat = st.to_act()[0]
            v = view(st, seat)
            aid = bots[seat].act(v).id
            if len(v.legal) > 1:
                obs.append(features(st, seat, ranker.rank(v)))
                acts.append(aid)
                rows.append((len(acts) - 1, seat))
            st.apply(seat, aid)
        assert st.result is not None
        for _row, seat in rows:
            rets.append(float(st.result.deltas[seat]))
    return {
        "obs": np.stack(obs) if obs else np.zeros((0, INPUTS), np.uint8),
        "act": np.asarray(acts, np.int16),
        "ret": np.asarray(rets, np.float32),
    }


LABEL_CANDIDATES = 3
"""Actions the search labels at a decision: the heuristic's best few (the search bot's)."""


def search_label_job(job: tuple[int, int, int, int, float, dict[str, float]]) -> dict[str, Any]:
    """Games ``start``…``start+count-1`` of the heuristic, some decisions valued by search.

    The heuristic plays every seat (so the positions are those a heuristic-like
    policy meets); a decision with a choice is picked with probability ``rate``
    (many games, few rows each: more varied positions for the same search time)
    and its :data:`LABEL_CANDIDATES` best actions by the heuristic are valued as
    the search bot values them: ``samples`` determinizations of the seat's view,
    every candidate played out on each by the heuristic (paired), the mean of the
    seat's balance change per candidate. A row: the network's input, the
    candidates' ids (−1 pads), their mean values, the standard error of each one's
    paired gain over the first, and the number of samples.
    """
    from ..bots.search import candidate_outcomes, paired_gain, playout_score

    seed, start, count, samples, rate, weights = job
    w = Weights.from_dict(weights)
    k = LABEL_CANDIDATES
    obs: list[np.ndarray[Any, Any]] = []
    cands: list[list[int]] = []
    qs: list[list[float]] = []
    ses: list[list[float]] = []
    ns: list[int] = []
    ranker = HeuristicBot(None, ARENA_RULES, w)

    def score(st: State, seat: int) -> float:
        return playout_score(st, seat, w)

    for i in range(start, start + count):
        rng = random.Random(f"label:{seed}:{i}")
        st = new_game(ARENA_RULES, seed=rng.randrange(2**63), dealer=rng.randrange(3))
        while not st.over:
            seat = st.to_act()[0]
            v = view(st, seat)
            sure = obvious_action(v)
            if sure is not None:
                st.apply(seat, sure.id)
                continue
            ranked = ranker.rank(v)
            if rng.random() < rate:
                top = [a for _v, a in ranked[:k]]
                outcomes = candidate_outcomes(v, ARENA_RULES, rng, top, samples, score)
                n = len(outcomes[0])
                if n:
                    pad = [0.0] * (k - len(top))
                    obs.append(features(st, seat, ranked))
                    cands.append([a.id for a in top] + [-1] * (k - len(top)))
                    qs.append([sum(o) / n for o in outcomes] + pad)
                    ses.append([paired_gain(outcomes[0], o)[1] for o in outcomes] + pad)
                    ns.append(n)
            st.apply(seat, ranked[0][1].id)
    return {
        "obs": np.stack(obs) if obs else np.zeros((0, INPUTS), np.uint8),
        "cand": np.asarray(cands, np.int16).reshape(-1, k),
        "q": np.asarray(qs, np.float32).reshape(-1, k),
        "se": np.asarray(ses, np.float32).reshape(-1, k),
        "n": np.asarray(ns, np.int16),
    }


def eval_job(job: tuple[dict[str, Any], str, int, int, RuleSet]) -> list[list[RoundOutcome]]:
    """Duplicate deals ``index`` of ``learned`` (these weights) against ``opponent``."""
    arrays, opponent, seed, index, rules = job
    policy = Policy(arrays)
    rng = random.Random(f"curve:{seed}:{index}")
    dseed, dealer = rng.randrange(2**63), rng.randrange(3)
    out: list[RoundOutcome] = []
    for r, names in enumerate(seatings(["learned", opponent])):
        brng = random.Random(f"curve-bots:{seed}:{index}:{r}")
        bots = [
            seat_bot(n, brng.randrange(2**31), rules, policy if n == "learned" else None)
            for n in names
        ]
        res = play_bots(bots, rules, dseed, dealer)
        huxi = res.win.huxi if res.win is not None else 0
        out.append(RoundOutcome(index, r, names, res.deltas, res.winner, huxi))
    return [out]


def duplicate_eval(
    arrays: dict[str, Any],
    deals: int,
    seed: int,
    *,
    opponent: str = "heuristic",
    workers: int = 1,
    backend: str = "process",
) -> dict[str, Any]:
    """Learned (``arrays``) against two ``opponent`` bots on the tuning deals of ``seed``."""
    from ..parallel import map_jobs

    jobs = [(arrays, opponent, seed, i, ARENA_RULES) for i in range(deals)]
    results = [
        deal for part in map_jobs(eval_job, jobs, backend=backend, workers=workers) for deal in part
    ]
    return summarize(["learned", opponent], results)
