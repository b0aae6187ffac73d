"""Tuning the heuristic's yardstick against the heuristic: a pattern search on duplicate deals.

The ``heuristic`` bot weighs a position with a dozen hand-set numbers
(:class:`paohuzi.bots.handeval.Weights`). Here those numbers are *learned* by
playing: a candidate set of weights takes one seat against two ``heuristic`` bots
on duplicate deals (each deal in its three rotations, so the cards cancel out), and
its score is its balance change minus the mean of the other two, per round.

The search (Hooke–Jeeves' pattern search, one weight at a time):

- every *sweep* plays its own deals (``tune:<seed>:<sweep>:…``, never the arena's);
  the current weights are scored on them first;
- for each tunable weight, the two steps (×``factor`` and ÷``factor``; margins
  ±``shift``) are scored on the same deals; the better is taken when it beats the
  current by more than ``z`` paired standard errors (the deals are the same, so
  the comparison is paired, as the search bot's), and then the same step is tried
  again from there until it stops paying;
- the next sweep halves the step (the square root of the factor).

A last evaluation on deals of its own (``tune:<seed>:check:…``) gives the tuned
weights' score free of the search's selection. Everything follows from the seed.
Jobs run on :func:`paohuzi.parallel.map_jobs` (process pool or Ray).

The leans toward 名堂 (``red``, ``size``, ``few_red``, ``pengpeng``) are not stepped: they
start at 0, which no factor moves. ``tools/weight_scan.py`` scores chosen values of them on
the same kind of deals.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

from ..arena import ARENA_RULES, play_bots
from ..bots.handeval import DEFAULT_WEIGHTS, Weights
from ..bots.heuristic import HeuristicBot
from ..parallel import map_jobs

__all__ = [
    "MULTIPLIED",
    "SHIFTED",
    "TuneResult",
    "deal_scores",
    "read_weights",
    "score_job",
    "tune",
]

MULTIPLIED = ("huxi", "huxi_cap", "short", "step", "outs", "risk_pao", "risk_peng", "risk_chi")
"""Weights stepped by a factor (their scale matters, not their sign)."""
SHIFTED = ("margin_peng", "margin_chi")
"""Weights stepped by adding or subtracting (a margin may go below zero)."""

_PER_JOB = 25  # deals a job plays


def score_job(job: tuple[dict[str, float], int, str, int, int]) -> list[float]:
    """Deals ``start``…``start+count-1`` of ``tag``: per deal, the weights' mean score.

    The score of a round is the tuned seat's balance change minus the mean of the
    two ``heuristic`` seats'; a deal's is the mean over its three rotations.
    """
    weights, seed, tag, start, count = job
    w = Weights.from_dict(weights)
    out: list[float] = []
    for i in range(start, start + count):
        rng = random.Random(f"tune:{seed}:{tag}:{i}")
        dseed, dealer = rng.randrange(2**63), rng.randrange(3)
        total = 0.0
        for me in range(3):
            bots = [
                HeuristicBot(None, ARENA_RULES, w if s == me else DEFAULT_WEIGHTS) for s in range(3)
            ]
            d = play_bots(bots, ARENA_RULES, dseed, dealer).deltas
            total += d[me] - (sum(d) - d[me]) / 2
        out.append(total / 3)
    return out


def deal_scores(
    w: Weights, seed: int, tag: str, deals: int, *, workers: int = 1, backend: str = "process"
) -> list[float]:
    """:func:`score_job` over ``deals`` deals of ``tag``, in deal order."""
    jobs = [
        (w.to_dict(), seed, tag, s, min(_PER_JOB, deals - s)) for s in range(0, deals, _PER_JOB)
    ]
    return [x for part in map_jobs(score_job, jobs, backend=backend, workers=workers) for x in part]


def read_weights(path: str) -> Weights:
    """Heuristic weights from a JSON file: a run's ``weights.json``, a scan's, or a plain object."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise ValueError(f"cannot read heuristic weights {path!r}: {e}") from None
    if isinstance(data, dict) and isinstance(data.get("weights"), dict):
        data = data["weights"]
    try:
        return Weights.from_dict(data)
    except ValueError as e:
        raise ValueError(f"{path!r}: {e}") from None


def _mean_se(xs: Sequence[float]) -> tuple[float, float]:
    n = len(xs)
    m = sum(xs) / n
    if n < 2:
        return m, math.inf
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    return m, math.sqrt(var / n)


class TuneResult:
    """What :func:`tune` found: the weights, their check score and the search's log."""

    def __init__(self, weights: Weights, check: tuple[float, float], log: list[dict[str, object]]):
        self.weights = weights
        self.check = check  # mean score per round on the check deals, and its standard error
        self.log = log

    def to_dict(self) -> dict[str, object]:
        return {
            "weights": self.weights.to_dict(),
            "check_mean": round(self.check[0], 4),
            "check_se": round(self.check[1], 4),
            "log": self.log,
        }


def _step(w: Weights, name: str, up: bool, factor: float, shift: float) -> Weights:
    v = getattr(w, name)
    if name in SHIFTED:
        return replace(w, **{name: v + shift if up else v - shift})
    return replace(w, **{name: v * factor if up else v / factor})


def tune(
    seed: int,
    deals: int,
    sweeps: int = 2,
    *,
    start: Weights = DEFAULT_WEIGHTS,
    factor: float = 2.0,
    shift: float = 1.0,
    z: float = 1.0,
    check_deals: int | None = None,
    workers: int = 1,
    backend: str = "process",
    report: Callable[[dict[str, object]], None] | None = None,
) -> TuneResult:
    """Pattern-search the weights from ``start``; see the module's description."""
    log: list[dict[str, object]] = []

    def note(entry: dict[str, object]) -> None:
        log.append(entry)
        if report is not None:
            report(entry)

    cur = start
    for sweep in range(sweeps):
        tag = str(sweep)
        base = deal_scores(cur, seed, tag, deals, workers=workers, backend=backend)
        m, se = _mean_se(base)
        note({"sweep": sweep, "weights": "current", "mean": round(m, 4), "se": round(se, 4)})
        for name in (*MULTIPLIED, *SHIFTED):
            moved = False
            for up in (True, False):
                while True:
                    cand = _step(cur, name, up, factor, shift)
                    xs = deal_scores(cand, seed, tag, deals, workers=workers, backend=backend)
                    gain, gse = _mean_se([a - b for a, b in zip(xs, base, strict=True)])
                    better = gain > z * gse
                    note(
                        {
                            "sweep": sweep,
                            "weight": name,
                            "value": round(getattr(cand, name), 4),
                            "gain": round(gain, 4),
                            "se": round(gse, 4),
                            "taken": better,
                        }
                    )
                    if not better:
                        break
                    cur, base, moved = cand, xs, True
                if moved:
                    break  # it paid one way: no need to try the other
        factor = math.sqrt(factor)
        shift /= 2
    check = _mean_se(
        deal_scores(cur, seed, "check", check_deals or deals, workers=workers, backend=backend)
    )
    note({"check_mean": round(check[0], 4), "check_se": round(check[1], 4)})
    return TuneResult(cur, check, log)
