"""Synthetic matches of players of known strength, rated by the server's own code
(ratings.rate, on a migrated database): how the bots' published ratings (ratings.py) were
derived, and what the rating test checks (tests/server/test_ratings.py).

A seat's strength is its bot kind's mean points a round over the heuristic in the arena's
published duplicate results (README "Bot strength"); a round scores each seat its strength
plus Gaussian noise of the arena's spread, less the round's mean (points are zero-sum), and a
match is ``ROUNDS`` of them. No game is played: real games through the server would take
hours for the thousands of matches a stable estimate needs.

    python -m paohuzi.server.ratingsim --matches 6000 --seed 1
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
from collections.abc import Sequence
from pathlib import Path
from statistics import mean

from sqlalchemy import insert, select

from .clubdb import Rating
from .db import Account, sync_engine, upgrade
from .ratings import Player, SkillRating, rate

__all__ = ["ARENA_PER_ROUND", "ROUNDS", "SPREAD", "main", "simulate"]

# Points a round over the heuristic (README "Bot strength"; guided: learned's +1.11 plus
# the guided search's +0.27 over learned).
ARENA_PER_ROUND = {"random": -5.12, "heuristic": 0.0, "search": 0.72, "learned": 1.11,
                   "guided": 1.38}  # fmt: skip
SPREAD = 7.0  # a seat's points a round: the arena's standard deviation, from its intervals
ROUNDS = 8  # a match


def _match_points(rng: random.Random, strengths: Sequence[float]) -> list[int]:
    """A synthetic match's points per seat: zero-sum rounds of strength plus noise."""
    totals = [0.0, 0.0, 0.0]
    for _ in range(ROUNDS):
        raw = [s + rng.gauss(0, SPREAD) for s in strengths]
        avg = sum(raw) / 3
        totals = [t + r - avg for t, r in zip(totals, raw, strict=True)]
    return [round(t) for t in totals]


def simulate(
    kinds: Sequence[str], matches: int, seed: int, per_kind: int = 2, folder: Path | None = None
) -> dict[str, list[SkillRating]]:
    """Rate ``per_kind`` accounts of each kind from the prior over ``matches`` matches of
    three distinct accounts drawn at random; each kind's accounts' ratings after them."""
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{(folder or Path(tmp)) / 'ratings.db'}"
        upgrade(url)
        engine = sync_engine(url)
        pool: list[tuple[int, str]] = []
        with engine.begin() as db:
            for kind in kinds:
                for i in range(per_kind):
                    row = {"nickname": f"{kind}{i}", "kind": "user", "balance": 0}
                    acct = db.execute(insert(Account).values(row).returning(Account.id))
                    pool.append((acct.scalar_one(), kind))
        rng = random.Random(seed)
        for _ in range(matches):
            seats = rng.sample(pool, 3)
            points = _match_points(rng, [ARENA_PER_ROUND[k] for _, k in seats])
            with engine.begin() as db:
                rate(db, [Player(a, None) for a, _ in seats], points)
        with engine.connect() as db:
            got = {
                r.account_id: SkillRating(r.mu, r.sigma, r.matches)
                for r in db.execute(
                    select(Rating.account_id, Rating.mu, Rating.sigma, Rating.matches)
                )
            }
        engine.dispose()
    return {kind: [got[a] for a, k in pool if k == kind and a in got] for kind in kinds}


def main(argv: Sequence[str] | None = None) -> None:
    """Print each kind's mean rating, shifted so the heuristic's is the prior's 25."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--matches", type=int, default=6000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--per-kind", type=int, default=2)
    args = ap.parse_args(argv)
    out = simulate(list(ARENA_PER_ROUND), args.matches, args.seed, args.per_kind)
    mus = {k: mean(r.mu for r in rs) for k, rs in out.items()}
    shift = 25.0 - mus["heuristic"]
    print(json.dumps({k: round(mu + shift, 1) for k, mu in mus.items()}))


if __name__ == "__main__":
    main()
