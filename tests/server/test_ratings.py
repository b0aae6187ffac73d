"""Ratings from real games: 200 matches of bots of known strength (random, 入门, heuristic,
learned: the arena's order, docs/bot-levels.md and docs/strength.md), each a whole match
played by the bots on the standard rules (ratingsim.py), rated from the prior by the
server's rating code on a migrated database, order the bots as the arena does. The bots'
published ratings are what the run kept in docs/bot-ratings.json gives (its matches replay
to the same points, and rated again to the same ratings); they never move; a match rates
people only; a level name rates as the bot it is."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from sqlalchemy import insert, select

from paohuzi.server.clubdb import Rating
from paohuzi.server.db import Account, sync_engine, upgrade
from paohuzi.server.ratings import BOT_RATINGS, PRIOR, Player, bot_rating, rate
from paohuzi.server.ratingsim import (
    KINDS,
    MatchOutcome,
    draw_matches,
    main,
    match_seed,
    placed,
    play_match,
    play_run,
    published,
    rate_matches,
)

RUN = Path(__file__).resolve().parents[2] / "docs" / "bot-ratings.json"
SEED = 32201  # written down before the run (docs/clubs.md)


@pytest.mark.slow
def test_200_real_matches_order_the_bots_as_the_arena(tmp_path: Path) -> None:
    """Each bot's rating averaged over the last 100 of the 200 matches (the estimator of the
    published ratings: ratingsim.published) orders them as the arena. On this seed, chosen
    before it ran, the ratings right after the 200th match did not: heuristic 36.5 over
    learned 33.1 (docs/clubs.md); they are printed, not asserted."""
    outcomes = play_run(KINDS, 200, SEED)
    assert all(sum(o.points) == 0 for o in outcomes)  # zero-sum matches
    history = rate_matches(KINDS, outcomes, folder=tmp_path)
    got = published(KINDS, history)
    print("last:", dict(zip(KINDS, history[-1], strict=True)), "mean of the last 100:", got)
    for weaker, stronger in itertools.pairwise(KINDS):
        assert got[weaker] < got[stronger], got


def _run() -> dict[str, object]:
    out: dict[str, object] = json.loads(RUN.read_text(encoding="utf-8"))
    return out


def test_published_ratings_are_the_kept_runs() -> None:
    run = _run()
    assert run["kinds"] == list(KINDS) and run["seed"] == 32001 and run["rounds"] == 8
    assert {k: BOT_RATINGS[k].mu for k in run["published"]} == run["published"]  # type: ignore[union-attr]
    assert placed(run["measured"]) == run["published"]  # type: ignore[arg-type]
    rows: list[list[int]] = run["outcomes"]  # type: ignore[assignment]
    assert len(rows) == run["matches"]
    assert [tuple(r[:3]) for r in rows] == draw_matches(len(KINDS), len(rows), 32001)
    for i in (0, 1, len(rows) - 1):  # the matches replay to the points kept
        kinds = [KINDS[a] for a in rows[i][:3]]
        assert list(play_match(kinds, match_seed(32001, i))) == rows[i][3:], i


@pytest.mark.slow
def test_the_kept_matches_rate_to_the_published_ratings(tmp_path: Path) -> None:
    run = _run()
    rows: list[list[int]] = run["outcomes"]  # type: ignore[assignment]
    outcomes = [MatchOutcome((r[0], r[1], r[2]), (r[3], r[4], r[5])) for r in rows]
    history = rate_matches(KINDS, outcomes, folder=tmp_path)
    assert published(KINDS, history) == run["measured"]
    final = {k: round(mu, 3) for k, mu in zip(KINDS, history[-1], strict=True)}
    assert final == run["final"]


def test_published_ratings_follow_the_arena() -> None:
    order = ["random", "rumen", "heuristic", "search", "learned", "guided"]
    assert sorted(BOT_RATINGS, key=lambda k: BOT_RATINGS[k].mu) == order
    assert BOT_RATINGS["heuristic"].mu == PRIOR.mu


def test_a_level_rates_as_the_bot_it_is() -> None:
    assert bot_rating("入门") == bot_rating("rumen") == BOT_RATINGS["rumen"]
    assert bot_rating("putong") == BOT_RATINGS["heuristic"]
    assert bot_rating("高手") == BOT_RATINGS["learned"]
    assert bot_rating("dashi") == BOT_RATINGS["guided"]
    assert bot_rating("nobody") is None


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


def test_a_person_beaten_by_rumen_loses_more_than_by_random(tmp_path: Path) -> None:
    """The level's own rating is used (not the prior): losing to the weaker bot costs more."""
    url = f"sqlite:///{tmp_path / 'r.db'}"
    upgrade(url)
    engine = sync_engine(url)
    got = []
    with engine.begin() as db:
        for bot in ("random", "入门"):
            me = db.execute(insert(Account).values(nickname="p", kind="user", balance=0)
                            .returning(Account.id)).scalar_one()  # fmt: skip
            rate(db, [Player(me, None), Player(me + 1000, bot), Player(me + 2000, bot)],
                 [-10, 5, 5])  # fmt: skip
            got.append(db.scalar(select(Rating.mu).where(Rating.account_id == me)))
    engine.dispose()
    assert got[0] < got[1] < PRIOR.mu


def test_the_run_command_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run.json"
    main(["--matches", "3", "--rounds", "1", "--seed", "3", "--out", str(out)])
    printed = json.loads(capsys.readouterr().out)
    kept = json.loads(out.read_text(encoding="utf-8"))
    assert printed == kept["published"] and printed["heuristic"] == 25.0
    assert set(printed) == set(BOT_RATINGS) and len(kept["outcomes"]) == 3
