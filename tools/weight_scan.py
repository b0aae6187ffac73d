"""Scan changes to heuristic weights: their paired gain on the tuning's duplicate deals.

The base weights (a run's ``weights.json``, or a plain object of weights) and each
variant (a JSON object of the weights it sets, e.g. ``'{"red": 8, "size": 3}'``) take
one seat against two ``heuristic`` bots on the same deals, each deal in its three
rotations (:func:`paohuzi.train.tune.deal_scores`: deals ``tune:<seed>:<tag>:…``,
never the arena's). A variant's gain is its score minus the base's, deal by deal, so
the comparison is paired; the standard error is over the deals.

Prints one JSON line for the base and one per variant. ``--write FILE`` keeps the scan
there, with ``"weights"``: the base changed by the variant of the highest gain (the
form ``paohuzi train --weights`` reads). Picking the best of several on the same deals
flatters it: score the choice again on fresh deals (another ``--tag``), or in the arena.

    python tools/weight_scan.py --base docs/learned-weights.json --deals 3000 --tag lean \\
        '{"red": 8, "size": 3}'
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from pathlib import Path
from typing import Any

from paohuzi.bots.handeval import Weights
from paohuzi.train.tune import _mean_se, deal_scores, read_weights


def variant(text: str, base: Weights) -> tuple[dict[str, float], Weights]:
    """The variant ``text`` (a JSON object of weights) and the base with it applied."""
    try:
        changes = json.loads(text)
    except json.JSONDecodeError as e:
        raise ValueError(f"a variant is a JSON object of weights, got {text!r}: {e}") from None
    if not isinstance(changes, dict) or not changes:
        raise ValueError(f"a variant is a non-empty JSON object of weights, got {text!r}")
    w = Weights.from_dict({**base.to_dict(), **changes})
    return {k: float(v) for k, v in changes.items()}, w


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("variants", nargs="+", help="JSON objects of the weights to change")
    ap.add_argument("--base", required=True, help="the base weights (a JSON file)")
    ap.add_argument("--deals", type=int, default=3000)
    ap.add_argument("--tag", required=True, help="which tuning deals (tune:<seed>:<tag>:…)")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--write", type=Path, help="keep the scan (and the best weights) here")
    args = ap.parse_args(argv)
    problem = None
    if args.deals < 2:
        problem = f"--deals must be at least 2 (a standard error needs two), got {args.deals}"
    elif args.workers < 1:
        problem = f"--workers must be at least 1, got {args.workers}"
    elif args.write is not None and not args.write.parent.is_dir():
        problem = f"--write {str(args.write)!r}: no such folder {str(args.write.parent)!r}"
    if problem is not None:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    try:
        base = read_weights(args.base)
        variants = [variant(v, base) for v in args.variants]
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2

    def scores(w: Weights) -> tuple[list[float], float]:
        t0 = time.perf_counter()
        xs = deal_scores(w, args.seed, args.tag, args.deals, workers=args.workers)
        return xs, time.perf_counter() - t0

    base_xs, sec = scores(base)
    mean, se = _mean_se(base_xs)
    head = {"variant": "base", "mean": round(mean, 4), "se": round(se, 4), "seconds": round(sec)}
    print(json.dumps(head), flush=True)
    results: list[dict[str, Any]] = []
    for changes, w in variants:
        xs, sec = scores(w)
        gain, gse = _mean_se([a - b for a, b in zip(xs, base_xs, strict=True)])
        line = {
            "variant": changes,
            "mean": round(_mean_se(xs)[0], 4),
            "gain": round(gain, 4),
            "se": round(gse, 4),
            "seconds": round(sec),
        }
        print(json.dumps(line), flush=True)
        results.append({**line, "weights": w.to_dict()})
    if args.write is not None:
        best = max(results, key=lambda r: r["gain"])
        record = {
            "command": shlex.join(
                ["python", "tools/weight_scan.py", *(sys.argv[1:] if argv is None else argv)]
            ),
            "deals": args.deals,
            "seed": args.seed,
            "tag": args.tag,
            "base": {**head, "weights": base.to_dict()},
            "variants": results,
            "weights": best["weights"],
        }
        args.write.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
