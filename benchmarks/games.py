"""Full random rounds per second, actions per second, and the cost of a state clone.

Prints one JSON object. ``--quick`` runs a short version (used by the smoke test).
Compare: RLCard's simplified mahjong plays about 90-100 rounds/s here, OpenSpiel's
gin rummy from Python about 430.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from paohuzi.core import COMPILED
from paohuzi.core.engine import new_game
from paohuzi.core.hand import build_tables


def random_rounds(games: int, rng: random.Random) -> tuple[int, float]:
    """Play ``games`` random rounds straight on the engine: (actions, seconds)."""
    uniform = rng.random  # a uniform pick costs a third of randrange's
    actions = 0
    t0 = time.perf_counter()
    for g in range(games):
        st = new_game(seed=rng.randrange(2**63), dealer=g % 3)
        while not st.over:
            seat = st.to_act()[0]
            ids = st.legal_actions(seat)
            st.apply_fast(seat, ids[int(uniform() * len(ids))])
            actions += 1
    return actions, time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    games = 50 if args.quick else args.games
    tables_seconds = build_tables()  # one-time, reported apart from play
    rng = random.Random(args.seed)
    actions, dt = random_rounds(games, rng)
    # Clone cost on mid-game states (a random state about 15 decisions in).
    snaps = []
    for i in range(200):
        st = new_game(seed=i)
        for _ in range(15):
            if st.over:
                break
            seat = st.to_act()[0]
            ids = st.legal_actions(seat)
            st.apply_fast(seat, ids[rng.randrange(len(ids))])
        snaps.append(st)
    n = 0
    t1 = time.perf_counter()
    for _ in range(5 if args.quick else 50):
        for s in snaps:
            s.clone(history=False)
            n += 1
    clone_us = (time.perf_counter() - t1) / n * 1e6
    t2 = time.perf_counter()
    for s in snaps:
        s.clone()
    clone_full_us = (time.perf_counter() - t2) / len(snaps) * 1e6
    print(
        json.dumps(
            {
                "benchmark": "games",
                "compiled": COMPILED,
                "games": games,
                "table_build_seconds": round(tables_seconds, 3),
                "seconds": round(dt, 3),
                "games_per_second": round(games / dt, 1),
                "actions_per_second": round(actions / dt, 1),
                "actions_per_game": round(actions / games, 2),
                "clone_microseconds": round(clone_us, 2),
                "clone_with_history_microseconds": round(clone_full_us, 2),
            }
        )
    )


if __name__ == "__main__":
    main()
