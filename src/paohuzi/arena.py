"""Duplicate-deal bot tournaments.

Every deal (seeded by the run seed and the deal index) is replayed with the bots
rotated through the seats, so the luck of the cards cancels: with three names the
three cyclic rotations, with two distinct names every seating in which both play
(six). A bot's result for a deal is its mean balance change per seat and round,
averaged over the rotations; its 95% confidence interval is taken over deals.

By default the rule set is 红拐弯 with both settlement caps off (RULES.md §12), so a
round pays exactly its score and balances never clip a result.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from itertools import permutations
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .bots import Bot, make_bot
from .bots.base import finish_round
from .core.engine import RoundResult, new_game
from .core.record import dumps, round_record
from .core.rules import HONG_GUAI_WAN, RuleSet
from .core.views import view
from .parallel import map_jobs

if TYPE_CHECKING:
    from .bots.learned import Policy

__all__ = [
    "ARENA_RULES",
    "WEIGHTED",
    "RoundOutcome",
    "arena_bot",
    "deal_seed",
    "load_weights",
    "mean_ci95",
    "play_bots",
    "play_deal",
    "play_round",
    "run_arena",
    "seatings",
    "summarize",
]

ARENA_RULES = HONG_GUAI_WAN.with_(cap_winner_gain=False, cap_loser_payment=False)
"""红拐弯 without the 悟性 caps: a round settles its full score."""


@dataclass(slots=True)
class RoundOutcome:
    """One round of one rotation of a deal."""

    deal: int
    rotation: int
    names: tuple[str, str, str]  # bot name per seat
    deltas: tuple[int, int, int]
    winner: int | None
    huxi: int  # of the win, 0 for 荒庄
    times: list[list[float]] = field(default_factory=list)  # per seat: decision seconds


def seatings(names: Sequence[str]) -> list[tuple[str, str, str]]:
    """The seatings a deal is played with (see the module doc)."""
    if len(names) == 3:
        a, b, c = names
        return [(a, b, c), (b, c, a), (c, a, b)]
    if len(names) == 2:
        a, b = names
        seen: list[tuple[str, str, str]] = []
        for p in permutations((a, a, b)):
            if p not in seen:
                seen.append(p)  # type: ignore[arg-type]
        for p in permutations((a, b, b)):
            if p not in seen:
                seen.append(p)  # type: ignore[arg-type]
        return seen
    if len(names) == 1:
        return [(names[0],) * 3]
    raise ValueError(f"an arena seats one to three bot names, got {len(names)}")


def deal_seed(seed: int, index: int) -> tuple[int, int]:
    """The seed and dealer of deal ``index`` of a run."""
    rng = random.Random(f"arena:{seed}:{index}")
    return rng.randrange(2**63), rng.randrange(3)


WEIGHTED = ("learned", "guided")
"""The bots that play the policy network, and so can play a trained ``.npz`` instead."""

_LOADED: dict[str, Policy] = {}


def load_weights(path: str) -> Policy:
    """The network in ``path`` (:meth:`Policy.load`; a ValueError quoting the path for a
    file that is not one), read once per process and shared by the bots that play it."""
    from .bots.learned import Policy

    policy = _LOADED.get(path)
    if policy is None:
        policy = _LOADED[path] = Policy.load(path)
    return policy


def arena_bot(name: str, seed: int | None, rules: RuleSet, weights: str | None = None) -> Bot:
    """:func:`make_bot`, except that with ``weights`` (a file from ``paohuzi train``) the
    learned and guided bots play that network instead of the shipped one, so that a run
    measures what was just trained. Only the arena's own command line names such a file."""
    if weights is None or name not in WEIGHTED:
        return make_bot(name, seed, rules)
    if name == "learned":
        from .bots.learned import LearnedBot

        return LearnedBot(seed, load_weights(weights), rules)
    from .bots.guided import GuidedBot

    return GuidedBot(seed, rules, load_weights(weights))


def play_bots(bots: Sequence[Bot], rules: RuleSet, seed: int, dealer: int) -> RoundResult:
    """Play one round of deal ``seed`` with these bots in seats 0–2, from the starting
    balances; its result. (:func:`play_round` also times and records the bots.)"""
    st = new_game(rules, seed=seed, dealer=dealer, balances=(rules.starting_balance,) * 3)
    finish_round(st, bots)
    assert st.result is not None
    return st.result


def play_round(
    names: tuple[str, str, str],
    seed: int,
    dealer: int,
    bot_seed: int,
    rules: RuleSet = ARENA_RULES,
    records: Path | None = None,
    record_name: str = "round",
    weights: str | None = None,
) -> tuple[tuple[int, int, int], int | None, int, list[list[float]]]:
    """Play one round; returns deltas, winner, 胡息 of the win and decision times
    (``weights``: see :func:`arena_bot`)."""
    bots = [arena_bot(name, bot_seed * 3 + s, rules, weights) for s, name in enumerate(names)]
    st = new_game(rules, seed=seed, dealer=dealer, balances=(rules.starting_balance,) * 3)
    times: list[list[float]] = [[], [], []]
    while not st.over:
        seat = st.to_act()[0]
        v = view(st, seat)
        t0 = time.perf_counter()
        action = bots[seat].act(v)
        dt = time.perf_counter() - t0
        if len(v.legal) > 1:
            times[seat].append(dt)
        st.apply(seat, action.id)
    res = st.result
    assert res is not None
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)
        (records / f"{record_name}.json").write_text(dumps(round_record(st)), encoding="utf-8")
    huxi = res.win.huxi if res.win is not None else 0
    return res.deltas, res.winner, huxi, times


def play_deal(
    names: Sequence[str],
    seed: int,
    index: int,
    rules: RuleSet = ARENA_RULES,
    records: Path | None = None,
    weights: str | None = None,
) -> list[RoundOutcome]:
    """Every rotation of deal ``index``."""
    dseed, dealer = deal_seed(seed, index)
    out = []
    for r, seating in enumerate(seatings(names)):
        bot_seed = random.Random(f"bots:{seed}:{index}:{r}").randrange(2**31)
        deltas, winner, huxi, times = play_round(
            seating, dseed, dealer, bot_seed, rules, records, f"deal{index:05d}_rot{r}", weights
        )
        out.append(RoundOutcome(index, r, seating, deltas, winner, huxi, times))
    return out


_Job = tuple[tuple[str, ...], int, int, RuleSet, str | None, str | None]


def _work(args: _Job) -> list[RoundOutcome]:
    names, seed, index, rules, records, weights = args
    return play_deal(names, seed, index, rules, Path(records) if records else None, weights)


def _deals(
    names: Sequence[str],
    deals: int,
    seed: int,
    rules: RuleSet,
    records: Path | None,
    workers: int,
    backend: str = "process",
    weights: str | None = None,
) -> Iterator[list[RoundOutcome]]:
    where = str(records) if records else None
    jobs: list[_Job] = [(tuple(names), seed, i, rules, where, weights) for i in range(deals)]
    # more processes than CPUs or deals only add start-up time (1000 workers: 6 s for one deal);
    # map_jobs caps them
    yield from map_jobs(_work, jobs, backend=backend, workers=workers)


def mean_ci95(xs: Sequence[float]) -> tuple[float, float, float]:
    """Mean and its 95% normal interval (the arena's, and the 复盘 metric's)."""
    n = len(xs)
    if n == 0:
        return 0.0, 0.0, 0.0
    mean = sum(xs) / n
    if n < 2:
        return mean, mean, mean
    var = sum((x - mean) ** 2 for x in xs) / (n - 1)
    half = 1.96 * math.sqrt(var / n)
    return mean, mean - half, mean + half


def _pct(xs: list[float], q: float) -> float:
    if not xs:
        return 0.0
    s = sorted(xs)
    i = min(len(s) - 1, max(0, math.ceil(q * len(s)) - 1))
    return s[i]


def summarize(names: Sequence[str], results: Sequence[list[RoundOutcome]]) -> dict[str, Any]:
    """The per-bot statistics and the paired difference of the first two names."""
    distinct = list(dict.fromkeys(names))
    per_deal: dict[str, list[float]] = {n: [] for n in distinct}
    stats: dict[str, dict[str, Any]] = {
        n: {"seats": 0, "wins": 0, "draws": 0, "huxi": 0, "times": []} for n in distinct
    }
    rounds = 0
    draws = 0
    for deal in results:
        acc: dict[str, list[float]] = {n: [] for n in distinct}
        for ro in deal:
            rounds += 1
            draws += ro.winner is None
            for n in distinct:
                seats = [s for s in range(3) if ro.names[s] == n]
                if not seats:
                    continue
                acc[n].append(sum(ro.deltas[s] for s in seats) / len(seats))
                st = stats[n]
                st["seats"] += len(seats)
                st["draws"] += len(seats) * (ro.winner is None)
                if ro.winner in seats:
                    st["wins"] += 1
                    st["huxi"] += ro.huxi
                for s in seats:
                    if s < len(ro.times):
                        st["times"].extend(ro.times[s])
        for n in distinct:
            if acc[n]:
                per_deal[n].append(sum(acc[n]) / len(acc[n]))
    bots: dict[str, Any] = {}
    for n in distinct:
        st = stats[n]
        mean, lo, hi = mean_ci95(per_deal[n])
        n_seats = max(1, int(st["seats"]))
        bots[n] = {
            "mean_score": round(mean, 4),
            "ci95": [round(lo, 4), round(hi, 4)],
            "win_rate": round(st["wins"] / n_seats, 4),
            "draw_rate": round(st["draws"] / n_seats, 4),
            "mean_win_huxi": round(st["huxi"] / st["wins"], 2) if st["wins"] else 0.0,
            "decision_ms_p50": round(1000 * _pct(st["times"], 0.5), 3),
            "decision_ms_p95": round(1000 * _pct(st["times"], 0.95), 3),
            "decisions": len(st["times"]),
        }
    out: dict[str, Any] = {
        "deals": len(results),
        "rounds": rounds,
        "draw_rate": round(draws / rounds, 4) if rounds else 0.0,
        "bots": bots,
    }
    if len(distinct) >= 2:
        a, b = distinct[0], distinct[1]
        diffs = [x - y for x, y in zip(per_deal[a], per_deal[b], strict=True)]
        mean, lo, hi = mean_ci95(diffs)
        out["diff"] = {"a": a, "b": b, "mean": round(mean, 4), "ci95": [round(lo, 4), round(hi, 4)]}
    return out


def run_arena(
    names: Sequence[str],
    deals: int,
    seed: int = 0,
    rules: RuleSet = ARENA_RULES,
    records: Path | None = None,
    workers: int = 1,
    backend: str = "process",
    weights: str | None = None,
) -> dict[str, Any]:
    """Play ``deals`` duplicate deals and summarise them (a JSON-ready dict).

    ``backend`` runs the deals in a local process pool (``"process"``) or on Ray
    (``"ray"``, see :mod:`paohuzi.parallel`); ``weights``, a ``.npz`` from ``paohuzi
    train``, is the network the learned and guided bots play (:func:`arena_bot`).
    """
    for n in names:
        make_bot(n, 0)  # fail early on an unknown name
    if deals < 1:
        raise ValueError("an arena needs at least one deal")
    if weights is not None:
        load_weights(weights)  # fail early on a file that is not a network
    t0 = time.perf_counter()
    results = list(_deals(names, deals, seed, rules, records, workers, backend, weights))
    out = summarize(names, results)
    out["seed"] = seed
    out["seatings"] = len(seatings(names))
    out["caps"] = "on" if (rules.cap_winner_gain or rules.cap_loser_payment) else "off"
    out["seconds"] = round(time.perf_counter() - t0, 2)
    if weights is not None:
        out["weights"] = weights
    return out
