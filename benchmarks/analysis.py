"""复盘 speed and stability: an 8-round bot match analysed for one seat.

Prints one JSON object: decisions analysed, seconds, decisions per second; with
``--stability`` the match is analysed again with another sampling seed and the
share of decisions judged worse than an inaccuracy (in either run) that get the
same verdict both times is printed too. ``--quick`` runs a short version (used
by the smoke test).
"""

from __future__ import annotations

import argparse
import json
import os
import time

from paohuzi.analysis import Budget, DecisionReview, Verdict, review_match
from paohuzi.analysis.games import bot_match


def _said(d: DecisionReview) -> str:
    """One decision's verdict with its loss, error bar and worlds, for the comparison."""
    worlds = d.values.worlds + d.values.refined
    return f"{d.verdict.value} {d.loss:.1f}±{d.loss_se:.1f} ({worlds} worlds)"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--rounds", type=int, default=8)
    ap.add_argument("--seat", type=int, default=0)
    ap.add_argument("--budget", type=int, default=16, help="sampled worlds per decision")
    ap.add_argument("--options", type=int, default=6)
    ap.add_argument(
        "--refine", type=int, default=Budget().refine, help="batches an unsettled verdict may take"
    )
    ap.add_argument("--seed", type=int, default=0, help="the match's seed")
    ap.add_argument("--bots", default="heuristic,heuristic,heuristic")
    ap.add_argument("--stability", action="store_true")
    ap.add_argument("--sampling", default="0,1", help="the two sampling seeds --stability compares")
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    if args.quick:
        args.rounds, args.budget = 1, 4
    names = args.bots.split(",")
    rec = bot_match(names, args.seed, args.rounds)
    budget = Budget(args.budget, args.options, args.refine)
    t0 = time.perf_counter()
    cpu0 = time.process_time()
    first, second = (int(x) for x in args.sampling.split(","))
    a = review_match(rec, (args.seat,), budget, first)
    seconds = time.perf_counter() - t0
    n = len(a.decisions())
    out: dict[str, object] = {
        "bots": names,
        "rounds": args.rounds,
        "seat": args.seat,
        "budget": args.budget,
        "options": args.options,
        "refine": args.refine,
        "sampling": [first, second] if args.stability else [first],
        "decisions": n,
        "seconds": round(seconds, 2),
        "cpu_seconds": round(time.process_time() - cpu0, 2),
        "decisions_per_second": round(n / seconds, 3),
        "load_average": os.getloadavg()[0],
    }
    if args.stability:
        b = review_match(rec, (args.seat,), budget, second)
        bad = {Verdict.MISTAKE, Verdict.BLUNDER}
        both = [
            (x, y)
            for x, y in zip(a.decisions(), b.decisions(), strict=True)
            if x.verdict in bad or y.verdict in bad
        ]
        pairs = [(x.verdict, y.verdict) for x, y in both]
        same = sum(x == y for x, y in pairs)
        out["stability"] = {
            "judged_worse_than_inaccuracy": len(pairs),
            "same_verdict": same,
            "share": round(same / len(pairs), 4) if pairs else None,
            "pairs": [f"{_said(x)} / {_said(y)}" for x, y in both],
        }
    print(json.dumps(out, ensure_ascii=False))


if __name__ == "__main__":
    main()
