"""Ratings: every account's skill from its standard-rule matches, an openskill
Plackett-Luce rating (``mu`` and its uncertainty ``sigma``), updated in the transaction that
settles a match's last round (persist.py). A match ranks its three seats by the points each
gained over the match; a match 解散 (dissolved) before its end rates nobody.

Bots are never updated: each kind has a fixed, published rating (``BOT_RATINGS``), so a
person's first matches against bots already mean something. They were measured by real
matches (ratingsim.py: one account per kind, 8-round matches on the standard rules played
by the bots, rated in order by :func:`rate` from the prior; the mean over the run's second
half, shifted so the heuristic sits at the prior's 25), the run kept in
``docs/bot-ratings.json`` (docs/clubs.md has its command and seed). The two slow bots were
not in that run: search and guided sit on the run's own scale by their arena gaps
(ratingsim.placed). A level name rates as the bot it is (:func:`bot_rating`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import Connection as SqlConnection
from sqlalchemy import select, update
from sqlalchemy.dialects import postgresql, sqlite

from ..bots.levels import level_of
from .clubdb import Rating
from .db import now

__all__ = ["BOT_RATINGS", "MODEL", "Player", "SkillRating", "bot_rating", "rate", "rating_json"]

MODEL = PlackettLuce()


@dataclass(frozen=True)
class SkillRating:
    """A rating: the estimate ``mu``, its uncertainty ``sigma``, and matches rated."""

    mu: float
    sigma: float
    matches: int = 0

    @property
    def ordinal(self) -> float:
        """A conservative skill, ``mu - 3·sigma``: what a leaderboard sorts by."""
        return self.mu - 3 * self.sigma


PRIOR = SkillRating(MODEL.mu, MODEL.sigma)

# Fixed ratings of the server's bots (the module's docstring says how they were measured).
BOT_RATINGS: dict[str, SkillRating] = {
    "random": SkillRating(4.7, 1.0),
    "rumen": SkillRating(14.6, 1.0),
    "heuristic": SkillRating(25.0, 1.0),
    "search": SkillRating(27.2, 1.0),
    "learned": SkillRating(28.4, 1.0),
    "guided": SkillRating(29.2, 1.0),
}

# Each level (bots/levels.py) is rated as the bot it plays.
_LEVEL_BOT = {"入门": "rumen", "普通": "heuristic", "高手": "learned", "大师": "guided"}


def bot_rating(kind: str) -> SkillRating | None:
    """The published rating of a bot named by kind or by level (入门/rumen …), or None."""
    level = level_of(kind)
    return BOT_RATINGS.get(_LEVEL_BOT[level] if level is not None else kind)


@dataclass(frozen=True)
class Player:
    """A seat to rate: its account, and the bot kind playing it (None: a person)."""

    account_id: int
    bot: str | None


def _ensure_rows(db: SqlConnection, ids: list[int]) -> None:
    """A rating row for each id (the prior where there was none), racing nobody."""
    rows = [{"account_id": i, "mu": PRIOR.mu, "sigma": PRIOR.sigma, "matches": 0,
             "updated_at": now()} for i in ids]  # fmt: skip
    dialect = postgresql if db.dialect.name == "postgresql" else sqlite
    db.execute(dialect.insert(Rating).values(rows).on_conflict_do_nothing())


def _current(db: SqlConnection, players: Sequence[Player]) -> list[SkillRating]:
    """Each seat's rating now: a bot's published one, a person's row (locked)."""
    people = sorted({p.account_id for p in players if p.bot is None})
    _ensure_rows(db, people)
    stored = {
        r.account_id: SkillRating(r.mu, r.sigma, r.matches)
        for r in db.execute(
            select(Rating.account_id, Rating.mu, Rating.sigma, Rating.matches)
            .where(Rating.account_id.in_(people))
            .with_for_update()
        )
    }
    return [
        (bot_rating(p.bot) or PRIOR) if p.bot is not None else stored[p.account_id] for p in players
    ]


def rates(players: Sequence[Player]) -> bool:
    """Whether a match of these seats changes a rating: a person plays (bots keep theirs)."""
    return any(p.bot is None for p in players)


def rate(db: SqlConnection, players: Sequence[Player], points: Sequence[int]) -> None:
    """Update the people's ratings from one match: ``points`` is what each seat gained
    over it (more is better, equal is a tie). Bots keep their published ratings."""
    if not rates(players):
        return
    now_ = _current(db, players)
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in now_]
    new = MODEL.rate(teams, scores=[float(x) for x in points])
    for p, old, (r,) in zip(players, now_, new, strict=True):
        if p.bot is None:
            db.execute(
                update(Rating)
                .where(Rating.account_id == p.account_id)
                .values(mu=r.mu, sigma=r.sigma, matches=old.matches + 1, updated_at=now())
            )


def rating_json(r: SkillRating, *, bot: str | None = None) -> dict[str, Any]:
    """A rating as the API shows it."""
    return {
        "mu": round(r.mu, 3),
        "sigma": round(r.sigma, 3),
        "ordinal": round(r.ordinal, 3),
        "matches": r.matches,
        "bot": bot,
        "fixed": bot is not None,
    }
