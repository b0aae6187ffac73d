"""Ratings: 200 synthetic matches of players of known strength (the arena's published
points a round: random, heuristic, learned; ratingsim.py says how a match is drawn), rated
from the prior by the server's rating code on a migrated database, order the players as the
arena does; bots' published ratings keep that order and never move; a match rates people
only."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from sqlalchemy import insert, select

from paohuzi.server.clubdb import Rating
from paohuzi.server.db import Account, sync_engine, upgrade
from paohuzi.server.ratings import BOT_RATINGS, PRIOR, Player, rate
from paohuzi.server.ratingsim import ARENA_PER_ROUND, main, simulate


@pytest.mark.parametrize("seed", [1, 2])
def test_200_matches_order_the_players_as_the_arena(tmp_path: Path, seed: int) -> None:
    kinds = ["random", "heuristic", "learned"]
    got = simulate(kinds, 200, seed, folder=tmp_path)
    assert sum(r.matches for rs in got.values() for r in rs) == 3 * 200
    for weaker, stronger in itertools.pairwise(kinds):
        assert max(r.mu for r in got[weaker]) < min(r.mu for r in got[stronger]), got
    for rs in got.values():
        assert all(r.sigma < PRIOR.sigma for r in rs)  # each match made them surer


def test_published_bot_ratings_follow_the_arena() -> None:
    by_arena = sorted(ARENA_PER_ROUND, key=ARENA_PER_ROUND.__getitem__)
    assert sorted(BOT_RATINGS, key=lambda k: BOT_RATINGS[k].mu) == by_arena
    assert BOT_RATINGS["heuristic"].mu == PRIOR.mu


def test_a_match_moves_people_not_bots(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'r.db'}"
    upgrade(url)
    engine = sync_engine(url)
    with engine.begin() as db:
        ids = [db.execute(insert(Account).values(nickname=f"p{i}", kind="user", balance=0)
                          .returning(Account.id)).scalar_one() for i in range(3)]  # fmt: skip
        rate(db, [Player(ids[0], None), Player(ids[1], "learned"), Player(ids[2], None)],
             [30, 0, -30])  # fmt: skip
        # only bots: nobody to rate
        rate(db, [Player(ids[1], "random"), Player(ids[2], "heuristic"), Player(ids[0], "x")],
             [1, 2, 3])  # fmt: skip
        rows = {r.account_id: r for r in db.execute(select(Rating.account_id, Rating.mu,
                                                           Rating.matches))}  # fmt: skip
    engine.dispose()
    assert set(rows) == {ids[0], ids[2]}
    assert rows[ids[0]].mu > PRIOR.mu > rows[ids[2]].mu
    assert rows[ids[0]].matches == rows[ids[2]].matches == 1


def test_the_derivation_command_runs(capsys: pytest.CaptureFixture[str]) -> None:
    main(["--matches", "30", "--seed", "3", "--per-kind", "1"])
    out = capsys.readouterr().out
    assert '"heuristic": 25.0' in out and '"guided"' in out
