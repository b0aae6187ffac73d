"""Real bot matches rated by the server's own code (ratings.rate, on a migrated database):
how the bots' published ratings (ratings.py, ``docs/bot-ratings.json``) were measured, and
what the rating test plays (tests/server/test_ratings.py).

One account per bot kind; each match seats three distinct accounts drawn at random and
plays a whole match as the server's standard rooms do (:class:`~paohuzi.core.match.Match`
on the standard rules, 悟性 caps on, ``ROUNDS`` rounds, the winner dealing next), the bots
seeing their seat's view only; :func:`rate` then ranks the seats by the points each gained,
as persist.py does at a match's end. Matches are played in parallel (``--workers``) and
rated in order; every match's seed follows from the run's seed and its index, so any match
can be replayed alone.

    python -m paohuzi.server.ratingsim --matches 1200 --seed 32001 --workers 2 --out FILE
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from statistics import mean
from typing import Any

from sqlalchemy import insert, select

from ..bots import make_bot
from ..bots.base import finish_match
from ..core.match import Match
from ..core.rules import HONG_GUAI_WAN
from ..parallel import map_jobs
from .clubdb import Rating
from .db import Account, sync_engine, upgrade
from .ratings import Player, rate

__all__ = [
    "KINDS",
    "ROUNDS",
    "MatchOutcome",
    "draw_matches",
    "main",
    "placed",
    "play_match",
    "published",
    "rate_matches",
]

KINDS = ("random", "rumen", "heuristic", "learned")
"""The kinds a run measures, weakest first by the arena (docs/bot-levels.md, strength.md)."""
ROUNDS = 8  # a match, as a room's default

ARENA_GAP = {"search": 0.72, "learned": 1.11, "guided": 1.11 + 0.27}
"""Points a round over the heuristic in the arena (docs/strength.md: search +0.72 over 300
deals, learned +1.11 over 3,000, guided +0.27 over learned over 2,500)."""


@dataclass(frozen=True)
class MatchOutcome:
    """One played match: the account (index into the run's kinds) at each seat, and the
    points each seat gained over it."""

    seats: tuple[int, int, int]
    points: tuple[int, int, int]


def match_seed(seed: int, index: int) -> int:
    """The seed of match ``index`` of a run (its deals, dealer and bots' randomness)."""
    return random.Random(f"ratingsim:{seed}:{index}").randrange(2**62)


def draw_matches(accounts: int, matches: int, seed: int) -> list[tuple[int, int, int]]:
    """Who sits where in each match: three distinct accounts, drawn with ``seed``."""
    rng = random.Random(f"ratingsim-seats:{seed}")
    return [tuple(rng.sample(range(accounts), 3)) for _ in range(matches)]  # type: ignore[misc]


def play_match(kinds: Sequence[str], seed: int, rounds: int = ROUNDS) -> tuple[int, int, int]:
    """Play a whole match of these three bot kinds (seats 0–2) on the standard rules; the
    points each seat gained (its balance at the end less its balance at the start)."""
    rng = random.Random(seed)
    bots = [make_bot(k, rng.randrange(2**31), HONG_GUAI_WAN) for k in kinds]
    return finish_match(Match(HONG_GUAI_WAN, seed=seed, rounds=rounds), bots).totals()


_Job = tuple[tuple[str, str, str], int, int]


def _play(job: _Job) -> tuple[int, int, int]:
    return play_match(*job)


def play_run(
    kinds: Sequence[str], matches: int, seed: int, rounds: int = ROUNDS, workers: int = 1
) -> list[MatchOutcome]:
    """Play a run's matches (one account per kind), in match order."""
    seats = draw_matches(len(kinds), matches, seed)
    jobs: list[_Job] = [
        ((kinds[a], kinds[b], kinds[c]), match_seed(seed, i), rounds)
        for i, (a, b, c) in enumerate(seats)
    ]
    return [MatchOutcome(s, p) for s, p in zip(seats, map_jobs(_play, jobs, workers=workers),
                                                strict=True)]  # fmt: skip


def rate_matches(
    kinds: Sequence[str], outcomes: Sequence[MatchOutcome], folder: Path | None = None
) -> list[list[float]]:
    """Rate the matches in order from the prior through :func:`rate` (the accounts are
    people to it, one per kind); each account's ``mu`` after every match."""
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{(folder or Path(tmp)) / 'ratings.db'}"
        upgrade(url)
        engine = sync_engine(url)
        with engine.begin() as db:
            ids = [
                db.execute(insert(Account).values(nickname=k, kind="user", balance=0)
                           .returning(Account.id)).scalar_one()
                for k in kinds
            ]  # fmt: skip
        history: list[list[float]] = []
        mus = [25.0] * len(kinds)
        for o in outcomes:
            with engine.begin() as db:
                rate(db, [Player(ids[a], None) for a in o.seats], o.points)
                seated = Rating.account_id.in_([ids[a] for a in o.seats])
                for r in db.execute(select(Rating.account_id, Rating.mu).where(seated)):
                    mus[ids.index(r.account_id)] = r.mu
            history.append(list(mus))
        engine.dispose()
    return history


def published(kinds: Sequence[str], history: Sequence[Sequence[float]]) -> dict[str, float]:
    """The ratings to publish: each kind's ``mu`` averaged over the run's second half (a
    rating keeps moving a little after it has settled), shifted so the heuristic sits at
    the prior's 25, to one decimal."""
    half = history[len(history) // 2 :]
    mus = {k: mean(h[i] for h in half) for i, k in enumerate(kinds)}
    shift = 25.0 - mus["heuristic"]
    return {k: round(mu + shift, 1) for k, mu in mus.items()}


def placed(measured: dict[str, float]) -> dict[str, float]:
    """The measured ratings and the two bots too slow for a run (a search decision takes
    about 0.1 s, thousands of times a match), placed on the run's own scale by their arena
    gaps: the run's rating per point a round between heuristic and learned, times search's
    gap over the heuristic, and guided's over learned."""
    per_point = (measured["learned"] - measured["heuristic"]) / ARENA_GAP["learned"]
    search = measured["heuristic"] + per_point * ARENA_GAP["search"]
    guided = measured["learned"] + per_point * (ARENA_GAP["guided"] - ARENA_GAP["learned"])
    return {**measured, "search": round(search, 1), "guided": round(guided, 1)}


def run_json(args: argparse.Namespace) -> dict[str, Any]:
    """A run as ``docs/bot-ratings.json`` keeps it: the command's values, every match (its
    accounts by seat, then its points), the final ratings, the measured ones and the
    published ones (:func:`placed`)."""
    kinds = list(KINDS)
    outcomes = play_run(kinds, args.matches, args.seed, args.rounds, args.workers)
    history = rate_matches(kinds, outcomes)
    return {
        "kinds": kinds,
        "matches": args.matches,
        "rounds": args.rounds,
        "seed": args.seed,
        "final": {k: round(mu, 3) for k, mu in zip(kinds, history[-1], strict=True)},
        "measured": published(kinds, history),
        "published": placed(published(kinds, history)),
        "outcomes": [[*o.seats, *o.points] for o in outcomes],
    }


def main(argv: Sequence[str] | None = None) -> None:
    """Play and rate a run; print the published ratings, and write the run with ``--out``."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--matches", type=int, default=1200)
    ap.add_argument("--rounds", type=int, default=ROUNDS)
    ap.add_argument("--seed", type=int, default=32001)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args(argv)
    if args.matches < 2 or not 1 <= args.rounds <= 32:
        ap.error(f"--matches at least 2 and --rounds 1–32, got {args.matches}, {args.rounds}")
    out = run_json(args)
    if args.out is not None:
        args.out.write_text(json.dumps(out, separators=(",", ":")) + "\n", encoding="utf-8")
    print(json.dumps(out["published"]))


if __name__ == "__main__":
    main()
