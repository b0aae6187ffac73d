"""Does 复盘's loss per decision order the bots as the arena does?

Each bot plays seat 0 of the same arena deals (seats 1 and 2: the heuristic), and
every decision of seat 0 is analysed; the mean points lost per decision is printed
per bot with a 95 % interval (rounds are the units: per-round means of the losses,
so decisions of one round are not counted as independent). Prints one JSON object;
``--quick`` runs a short version (used by the smoke test).
"""

from __future__ import annotations

import argparse
import json
import math
import time

from paohuzi.analysis import Budget, review_match
from paohuzi.arena import ARENA_RULES, deal_seed
from paohuzi.bots import make_bot
from paohuzi.core.engine import new_game
from paohuzi.core.record import RoundRecord, round_record
from paohuzi.core.views import view

LADDER = ("random", "入门", "heuristic", "learned", "guided")


def _round(name: str, seed: int, dealer: int, bot_seed: int) -> RoundRecord:
    """One round with ``name`` in seat 0 and the heuristic in seats 1 and 2."""
    bots = [make_bot(name if s == 0 else "heuristic", bot_seed + s, ARENA_RULES) for s in range(3)]
    st = new_game(ARENA_RULES, seed=seed, dealer=dealer)
    while not st.over:
        seat = st.to_act()[0]
        st.apply(seat, bots[seat].act(view(st, seat)).id)
    return round_record(st)


def measure(name: str, deals: int, seed: int, budget: Budget) -> dict[str, object]:
    """``name``'s loss per decision over ``deals`` deals in seat 0 (mean, 95 % interval)."""
    losses: list[float] = []
    per_round: list[float] = []
    agree = 0
    for i in range(deals):
        dseed, dealer = deal_seed(seed, i)
        rec = _round(name, dseed, dealer, 3 * i)
        ds = review_match(rec, (0,), budget, i).decisions()
        losses += [d.loss for d in ds]
        agree += sum(d.matches_best for d in ds)
        if ds:
            per_round.append(sum(d.loss for d in ds) / len(ds))
    n = len(per_round)
    mean = sum(losses) / len(losses) if losses else 0.0
    rm = sum(per_round) / n if n else 0.0
    sd = math.sqrt(sum((x - rm) ** 2 for x in per_round) / max(1, n - 1))
    half = 1.96 * sd / math.sqrt(n) if n else 0.0
    return {
        "decisions": len(losses),
        "rounds": n,
        "loss_per_decision": round(mean, 4),
        "round_mean_loss": round(rm, 4),
        "ci95": [round(rm - half, 4), round(rm + half, 4)],
        "agreement": round(agree / len(losses), 4) if losses else None,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--seed", type=int, default=31100)
    ap.add_argument("--budget", type=int, default=12)
    ap.add_argument("--bots", default=",".join(LADDER))
    ap.add_argument(
        "--flat",
        action="store_true",
        help="every decision on --budget worlds, no refinement (the mean loss, not verdicts)",
    )
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    names = args.bots.split(",")
    if args.quick:
        args.deals, args.budget, names = 1, 3, ["random", "heuristic"]
    t0 = time.perf_counter()
    out: dict[str, object] = {"deals": args.deals, "seed": args.seed, "budget": args.budget}
    budget = Budget(args.budget, 6)
    if args.flat:
        budget = Budget(args.budget, 6, refine=1, confirm=1, shared=1, mild=1)
    out["flat"] = args.flat
    out["bots"] = {n: measure(n, args.deals, args.seed, budget) for n in names}
    out["seconds"] = round(time.perf_counter() - t0, 1)
    print(json.dumps(out, ensure_ascii=False))


if __name__ == "__main__":
    main()
