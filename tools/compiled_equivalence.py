"""Check that the pure and the compiled build play the same games, round for round.

Usage::

    python tools/compiled_equivalence.py --pure .venv/bin/python \\
        --compiled .venv-compiled/bin/python --random 10000 --heuristic 300

Each interpreter runs this script with ``--dump`` in its own process (a compiled and
a pure ``paohuzi`` cannot share one) and prints a JSON line per seeded round: a
SHA-256 over every legal action set offered, every event and the round's record
(which replays it), plus the outcome. Random rounds pick uniformly among the legal
ids (``apply_fast``); heuristic rounds seat three heuristic bots that see only their
views (``apply``, the checked path). The parent compares the two streams line by
line, prints a JSON summary and exits 1 at the first difference, or when the two
interpreters do not run one pure and one compiled build (``--same-build-ok`` allows
that). A differing round is shown in full with ``--dump --only N --full``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import shlex
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any


def _rounds(random_n: int, heuristic_n: int, seed: int) -> Iterator[tuple[int, str, int]]:
    """(index, bot, seed) of each round, the same on both sides."""
    rng = random.Random(seed)
    for i in range(random_n + heuristic_n):
        yield i, "random" if i < random_n else "heuristic", rng.randrange(2**63)


def _play(bot: str, seed: int, dealer: int, full: bool) -> dict[str, Any]:
    """Play one round; return its digest (and, with ``full``, everything hashed)."""
    from paohuzi.bots.heuristic import HeuristicBot
    from paohuzi.core.engine import new_game
    from paohuzi.core.record import round_record
    from paohuzi.core.views import view

    st = new_game(seed=seed, dealer=dealer)
    h = hashlib.sha256()
    trail: list[Any] = []
    pick = random.Random(seed ^ 0x5A5A).random
    bots = [HeuristicBot(seed + s) for s in range(3)] if bot == "heuristic" else []
    while not st.over:
        seat = st.to_act()[0]
        ids = st.legal_actions(seat)
        h.update(repr((seat, ids)).encode())
        if full:
            trail.append([seat, list(ids)])
        if bots:
            st.apply(seat, bots[seat].act(view(st, seat)))
        else:
            st.apply_fast(seat, ids[int(pick() * len(ids))])
    events = [e.to_dict() for e in st.log]
    record = round_record(st).to_dict()
    blob = json.dumps([events, record], ensure_ascii=False, sort_keys=True)
    h.update(blob.encode())
    res = st.result
    assert res is not None
    out: dict[str, Any] = {
        "winner": res.winner,
        "deltas": list(res.deltas),
        "decisions": len(st.decisions),
        "sha256": h.hexdigest(),
    }
    if full:
        out.update(legal=trail, events=events, record=record)
    return out


def dump(args: argparse.Namespace) -> None:
    """The child: a header line saying which build runs, then a line per round."""
    import paohuzi.core

    print(json.dumps({"compiled": paohuzi.core.COMPILED, "python": sys.version.split()[0]}))
    for i, bot, seed in _rounds(args.random, args.heuristic, args.seed):
        if args.only is not None and i != args.only:
            continue
        line = {"round": i, "bot": bot, "seed": seed, **_play(bot, seed, i % 3, args.full)}
        print(json.dumps(line, ensure_ascii=False), flush=args.only is not None)


def _child(python: str, args: argparse.Namespace) -> subprocess.Popen[str]:
    cmd = [*shlex.split(python), __file__, "--dump", "--seed", str(args.seed)]
    cmd += ["--random", str(args.random), "--heuristic", str(args.heuristic)]
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)


def compare(args: argparse.Namespace) -> int:
    """The parent: run both children side by side and compare their lines."""
    t0 = time.perf_counter()
    pure, compiled = _child(args.pure, args), _child(args.compiled, args)
    assert pure.stdout is not None and compiled.stdout is not None
    heads = [json.loads(pure.stdout.readline()), json.loads(compiled.stdout.readline())]
    summary: dict[str, Any] = {
        "check": "compiled_equivalence",
        "builds": {"pure": heads[0], "compiled": heads[1]},
        "seed": args.seed,
    }
    ok = True
    if heads[0]["compiled"] or not heads[1]["compiled"]:
        summary["build_mismatch"] = "expected --pure to run pure and --compiled compiled"
        ok = args.same_build_ok
    rounds = {"random": 0, "heuristic": 0}
    decisions = 0
    for a, b in zip(pure.stdout, compiled.stdout, strict=True):
        if not ok:
            break
        if a != b:
            summary["first_difference"] = {"pure": json.loads(a), "compiled": json.loads(b)}
            ok = False
            break
        line = json.loads(a)
        rounds[line["bot"]] += 1
        decisions += line["decisions"]
    for p in (pure, compiled):
        p.kill() if not ok else p.wait()
    if ok and (pure.returncode or compiled.returncode):
        summary["child_failed"] = [pure.returncode, compiled.returncode]
        ok = False
    summary.update(
        rounds=rounds,
        decisions=decisions,
        identical=ok,
        seconds=round(time.perf_counter() - t0, 1),
    )
    print(json.dumps(summary, ensure_ascii=False, indent=2))
    return 0 if ok else 1


def main() -> int:
    """Run the comparison, or (``--dump``) one side of it."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pure", default=sys.executable, help="a Python with the pure build")
    ap.add_argument("--compiled", help="a Python with the compiled build")
    # Either may be a command line, e.g. "env PYTHONPATH=/abs/src python3".
    ap.add_argument("--random", type=int, default=10000, help="random-play rounds")
    ap.add_argument("--heuristic", type=int, default=300, help="heuristic-bot rounds")
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--same-build-ok", action="store_true", help="allow two equal builds")
    ap.add_argument("--dump", action="store_true", help="be one side: print the rounds")
    ap.add_argument("--only", type=int, help="with --dump: just this round")
    ap.add_argument("--full", action="store_true", help="with --dump: print all it hashes")
    args = ap.parse_args()
    if args.dump:
        dump(args)
        return 0
    if not args.compiled:
        ap.error("--compiled is required (a Python with the compiled build)")
    return compare(args)


if __name__ == "__main__":
    sys.exit(main())
