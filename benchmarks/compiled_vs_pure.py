"""The pure build against the compiled one (and OpenSpiel's C++ card games), alternating.

Prints one JSON object: per build the best of ``--reps`` runs of ``games.py`` (random
rounds/s, clone µs) and of ``evaluate_counts`` on the win_eval inputs, then the
ratios compiled/pure. Each run is a fresh subprocess, pure and compiled taking turns,
so a busy machine slows both alike. ``--compiled`` is a Python with the compiled
build (default: ``.venv-compiled/bin/python`` when it exists; else that half is
null). When a given Python imports ``pyspiel`` (``pip install open_spiel``),
OpenSpiel's hearts and dou dizhu play random rounds from Python in the same turns.
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
DEFAULT_COMPILED = HERE.parent / ".venv-compiled" / "bin" / "python"

# Random rounds of an OpenSpiel game from Python, as paohuzi's games.py plays them.
OPENSPIEL = r"""
import json, random, sys, time
import pyspiel
name, seconds = sys.argv[1], float(sys.argv[2])
game = pyspiel.load_game(name)
rng = random.Random(0)
rounds = 0
t0 = time.perf_counter()
while time.perf_counter() - t0 < seconds:
    st = game.new_initial_state()
    while not st.is_terminal():
        if st.is_chance_node():
            outcomes = st.chance_outcomes()
            st.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
        else:
            acts = st.legal_actions()
            st.apply_action(acts[int(rng.random() * len(acts))])
    rounds += 1
print(json.dumps({"rounds_per_second": rounds / (time.perf_counter() - t0)}))
"""

# evaluate_counts over win_eval's inputs: calls per second with the memo cleared (cold)
# and with it filled (warm), as win_eval measures them. A cold pass over these 600 inputs
# takes a few milliseconds, so it is the best of 9 such passes (win_eval's own cold passes
# are ten times longer, the best of 3).
EVAL = r"""
import json, random, sys, time
sys.path.insert(0, sys.argv[1])
import win_eval
from paohuzi.core import COMPILED, hand
rng = random.Random(20240611)
cases = [win_eval.complete_case(rng) for _ in range(300)]
cases += [win_eval.deal_case(rng) for _ in range(300)]
print(json.dumps({"compiled": COMPILED, **win_eval.cold_warm(win_eval.evals(cases), 0.3, 9)}))
"""


def _run(cmd: list[str]) -> dict[str, Any]:
    r = subprocess.run(cmd, capture_output=True, text=True, check=True)
    out: dict[str, Any] = json.loads(r.stdout)
    return out


def _paohuzi(python: list[str], games: int) -> dict[str, Any]:
    g = _run([*python, str(HERE / "games.py"), "--games", str(games)])
    e = _run([*python, "-c", EVAL, str(HERE)])
    return {
        "compiled": g["compiled"],
        "games_per_second": g["games_per_second"],
        "clone_microseconds": g["clone_microseconds"],
        "evaluate_counts_cold_per_s": e["cold"],
        "evaluate_counts_warm_per_s": e["warm"],
    }


def _best(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Best of the runs: the highest rate, the lowest time."""
    return {
        "compiled": runs[0]["compiled"],
        "games_per_second": max(r["games_per_second"] for r in runs),
        "clone_microseconds": min(r["clone_microseconds"] for r in runs),
        "evaluate_counts_cold_per_s": max(r["evaluate_counts_cold_per_s"] for r in runs),
        "evaluate_counts_warm_per_s": max(r["evaluate_counts_warm_per_s"] for r in runs),
        "runs": len(runs),
    }


def _has_pyspiel(python: list[str]) -> bool:
    r = subprocess.run([*python, "-c", "import pyspiel"], capture_output=True, check=False)
    return r.returncode == 0


def main() -> None:
    """Alternate the builds, take the best of each, print the ratios."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pure", default=sys.executable, help="a Python with the pure build")
    ap.add_argument("--compiled", default=None, help="a Python with the compiled build")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--quick", action="store_true", help="one short rep (smoke test)")
    args = ap.parse_args()
    reps, games, seconds = (1, 100, 0.2) if args.quick else (args.reps, args.games, 1.0)
    pure = shlex.split(args.pure)
    compiled_arg = args.compiled or (str(DEFAULT_COMPILED) if DEFAULT_COMPILED.exists() else "")
    compiled = shlex.split(compiled_arg) if compiled_arg else None
    spiel = next((p for p in (pure, compiled) if p and _has_pyspiel(p)), None)
    runs: dict[str, list[dict[str, Any]]] = {"pure": [], "compiled": []}
    os_runs: dict[str, list[float]] = {"hearts": [], "dou_dizhu": []}
    for _ in range(reps):
        runs["pure"].append(_paohuzi(pure, games))
        if compiled:
            runs["compiled"].append(_paohuzi(compiled, games))
        if spiel:
            for name in os_runs:
                r = _run([*spiel, "-c", OPENSPIEL, name, str(seconds)])
                os_runs[name].append(r["rounds_per_second"])
    p = _best(runs["pure"])
    c = _best(runs["compiled"]) if compiled else None
    out: dict[str, Any] = {"benchmark": "compiled_vs_pure", "reps": reps, "pure": p, "compiled": c}
    if c is not None:
        out["ratio"] = {
            "games_per_second": round(c["games_per_second"] / p["games_per_second"], 2),
            "clone_speedup": round(p["clone_microseconds"] / c["clone_microseconds"], 2),
            "evaluate_counts_cold_per_s": round(
                c["evaluate_counts_cold_per_s"] / p["evaluate_counts_cold_per_s"], 2
            ),
            "evaluate_counts_warm_per_s": round(
                c["evaluate_counts_warm_per_s"] / p["evaluate_counts_warm_per_s"], 2
            ),
        }
    if spiel:
        best = {name: round(max(v), 1) for name, v in os_runs.items()}
        fastest = c or p
        out["openspiel_rounds_per_second"] = best
        out["paohuzi_vs_openspiel"] = {
            name: round(fastest["games_per_second"] / v, 2) for name, v in best.items()
        }
    else:
        out["openspiel_rounds_per_second"] = None
    print(json.dumps(out))


if __name__ == "__main__":
    main()
