"""Decisions per second of each bot, over the decision points of seeded rounds.

Prints one JSON object: for each bot its decisions/second, mean, p50 and p95
decision time (ms) by the clock, and p50/p95 of the deciding thread's CPU time (ms:
what one core spends, whatever else the machine runs), measured on views where the
bot has a real choice (two or more legal actions). ``--quick`` runs a short version
(used by the smoke test).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time

from paohuzi.bots import BOTS, make_bot
from paohuzi.core.engine import new_game
from paohuzi.core.views import SeatView, view


def _views(rounds: int, seed: int) -> list[SeatView]:
    """Decision views from rounds played by the heuristic (realistic positions)."""
    rng = random.Random(seed)
    out: list[SeatView] = []
    for g in range(rounds):
        st = new_game(seed=rng.randrange(2**32), dealer=g % 3)
        bots = [make_bot("heuristic", s) for s in range(3)]
        while not st.over:
            seat = st.to_act()[0]
            v = view(st, seat)
            if len(v.legal) > 1:
                out.append(v)
            st.apply_fast(seat, bots[seat].act(v).id)
    return out


def _quantile(xs: list[float], q: float) -> float:
    """The ``q`` quantile (nearest rank) of ``xs``."""
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, math.ceil(q * len(s)) - 1))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    rounds = 2 if args.quick else args.rounds
    views = _views(rounds, args.seed)
    out: dict[str, object] = {"views": len(views)}
    for name in sorted(BOTS):
        sample = views
        if name in ("search", "guided"):
            sample = views[:: 8 if args.quick else 2]
        bot = make_bot(name, 1)
        times = []
        cpu = []
        for v in sample:
            t0, c0 = time.perf_counter(), time.thread_time()
            bot.act(v)
            times.append(time.perf_counter() - t0)
            cpu.append(time.thread_time() - c0)
        total = sum(times)
        out[name] = {
            "decisions": len(times),
            "decisions_per_second": round(len(times) / total, 1) if total else None,
            "mean_ms": round(1000 * total / len(times), 3),
            "p50_ms": round(1000 * _quantile(times, 0.5), 3),
            "p95_ms": round(1000 * _quantile(times, 0.95), 3),
            "cpu_p50_ms": round(1000 * _quantile(cpu, 0.5), 3),
            "cpu_p95_ms": round(1000 * _quantile(cpu, 0.95), 3),
        }
    print(json.dumps(out))


if __name__ == "__main__":
    main()
