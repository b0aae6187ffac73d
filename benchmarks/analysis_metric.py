"""Does 复盘's loss per decision order the bots as the arena does?

Each bot plays seat 0 of the same arena deals (seats 1 and 2: the heuristic), and
every decision of seat 0 is analysed; the mean points lost per decision is printed
per bot with a 95 % interval (rounds are the units: per-round means of the losses,
so decisions of one round are not counted as independent). Prints one JSON object;
``--paired BOT`` judges every bot at the same decisions instead (those of BOT's games):
see :func:`measure_paired`. ``--quick`` runs a short version of both (used by the
smoke test).
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import time

from paohuzi.analysis import Budget, review_match
from paohuzi.analysis.values import choice_losses
from paohuzi.arena import ARENA_RULES, deal_seed, mean_ci95
from paohuzi.bots import make_bot
from paohuzi.bots.handeval import DEFAULT_WEIGHTS
from paohuzi.core.engine import new_game
from paohuzi.core.record import RoundRecord, round_record
from paohuzi.core.views import view
from paohuzi.parallel import map_jobs

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
    mean = sum(losses) / len(losses) if losses else 0.0
    rm, lo, hi = mean_ci95(per_round)
    return {
        "decisions": len(losses),
        "rounds": len(per_round),
        "loss_per_decision": round(mean, 4),
        "round_mean_loss": round(rm, 4),
        "ci95": [round(lo, 4), round(hi, 4)],
        "agreement": round(agree / len(losses), 4) if losses else None,
    }


_Job = tuple[tuple[str, ...], str, int, int, int, int, tuple[str, ...], tuple[int, ...], bool]


def _paired_deal(job: _Job) -> tuple[dict[str, list[float]], int]:
    """One deal of :func:`measure_paired`: each bot's loss at every judged decision."""
    names, play, seed, i, samples, more, sharpen, seats, tuned = job
    weights = DEFAULT_WEIGHTS
    if tuned:
        from paohuzi.bots.learned import LearnedBot

        weights = LearnedBot(0, rules=ARENA_RULES).policy.weights
    dseed, dealer = deal_seed(seed, i)
    players = [make_bot(play if s == 0 else "heuristic", 3 * i + s, ARENA_RULES) for s in range(3)]
    judges = {s: {n: make_bot(n, 3 * i + s, ARENA_RULES) for n in names} for s in seats}
    st = new_game(ARENA_RULES, seed=dseed, dealer=dealer)
    acc: dict[str, list[float]] = {n: [] for n in names}
    sharpened = 0
    k = 0
    while not st.over:
        seat = st.to_act()[0]
        v = view(st, seat)
        if seat not in seats or len(v.legal) < 2:
            st.apply(seat, players[seat].act(v).id)
            continue
        choice = {n: judges[seat][n].act(v).id for n in names}
        rng = random.Random(f"paired:{seed}:{i}:{k}")
        k += 1
        lo, worlds = choice_losses(
            v,
            ARENA_RULES,
            rng,
            list(choice.values()),
            samples,
            sharpen=[choice[n] for n in sharpen],
            more=more,
            weights=weights,
        )
        if worlds:
            sharpened += len({choice[n] for n in sharpen}) > 1
            for n in names:
                acc[n].append(lo[choice[n]])
        st.apply(seat, choice[play] if seat == 0 else players[seat].act(v).id)
    return acc, sharpened


def measure_paired(
    names: list[str],
    play: str,
    deals: int,
    seed: int,
    samples: int,
    more: int,
    sharpen: list[str],
    seats: tuple[int, ...] = (0,),
    workers: int = 1,
    tuned: bool = False,
) -> dict[str, object]:
    """Every bot of ``names`` judged at the same decisions: those of ``seats`` in the
    games where ``play`` holds seat 0 (seats 1 and 2: the heuristic).

    At each decision with a choice, every bot is asked what it would play there, and
    every bot's choice is valued on the same worlds (:func:`choice_losses`); where the
    bots of ``sharpen`` disagree, ``more`` further worlds compare their choices. A pair
    of bots' difference in loss is paired decision by decision, exactly 0 wherever
    they agree, so it is far sharper than two bots' separate games; per-deal means
    are the units of the intervals.
    """
    jobs: list[_Job] = [
        (tuple(names), play, seed, i, samples, more, tuple(sharpen), seats, tuned)
        for i in range(deals)
    ]
    per_round: dict[str, list[float]] = {n: [] for n in names}
    losses: dict[str, list[float]] = {n: [] for n in names}
    sharpened = 0
    for acc, sh in map_jobs(_paired_deal, jobs, workers=workers):
        sharpened += sh
        for n in names:
            if acc[n]:
                per_round[n].append(sum(acc[n]) / len(acc[n]))
                losses[n] += acc[n]
    bots = {}
    for n in names:
        m, lo95, hi95 = mean_ci95(per_round[n])
        bots[n] = {
            "loss_per_decision": round(sum(losses[n]) / max(1, len(losses[n])), 4),
            "round_mean_loss": round(m, 4),
            "ci95": [round(lo95, 4), round(hi95, 4)],
        }
    pairs = {}
    for a, b in itertools.pairwise(names):
        diff = [x - y for x, y in zip(per_round[a], per_round[b], strict=True)]
        m, lo95, hi95 = mean_ci95(diff)
        same = sum(x == y for x, y in zip(losses[a], losses[b], strict=True))
        pairs[f"{a} - {b}"] = {
            "round_mean": round(m, 4),
            "ci95": [round(lo95, 4), round(hi95, 4)],
            "same_loss_share": round(same / max(1, len(losses[a])), 4),
        }
    return {
        "play": play,
        "seats": list(seats),
        "rounds": len(per_round[names[0]]),
        "decisions": len(losses[names[0]]),
        "sharpened": sharpened,
        "more": more,
        "sharpen": sharpen,
        "bots": bots,
        "pairs": pairs,
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
    ap.add_argument(
        "--paired",
        metavar="BOT",
        help="judge every bot at the decisions of BOT's games (paired), not each in its own",
    )
    ap.add_argument("--more", type=int, default=112, help="--paired: worlds where --sharpen differ")
    ap.add_argument("--sharpen", default="heuristic,learned,guided")
    ap.add_argument("--seats", default="0", help="--paired: the seats whose decisions are judged")
    ap.add_argument(
        "--tuned", action="store_true", help="--paired: rollouts weigh as the learned bot's prior"
    )
    ap.add_argument("--workers", type=int, default=1, help="--paired: processes")
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
    if args.paired:
        sharpen = [n for n in args.sharpen.split(",") if n in names]
        out["paired"] = measure_paired(
            names,
            args.paired,
            args.deals,
            args.seed,
            args.budget,
            args.more,
            sharpen,
            tuple(int(x) for x in args.seats.split(",")),
            args.workers,
            args.tuned,
        )
        out["seconds"] = round(time.perf_counter() - t0, 1)
        print(json.dumps(out, ensure_ascii=False))
        return
    out["flat"] = args.flat
    out["bots"] = {n: measure(n, args.deals, args.seed, budget) for n in names}
    if args.quick:  # and the paired design, in little
        out["paired"] = measure_paired(names, "heuristic", 1, args.seed, 3, 4, names)
    out["seconds"] = round(time.perf_counter() - t0, 1)
    print(json.dumps(out, ensure_ascii=False))


if __name__ == "__main__":
    main()
