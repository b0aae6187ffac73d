"""Duplicate play's arithmetic, apart from the database: which player sits where at each
table of each deal and rotation, each deal's seed, and the duplicate scores and ranking from the
plays of each deal. services/tournaments.py runs it on the server's rooms;
tests/server/test_tournaments.py on deals played in-process."""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from ..core.rules import HONG_GUAI_WAN

__all__ = ["ROTATIONS", "RULES", "deal_seed", "rank", "slot_at", "slot_of"]

RULES = HONG_GUAI_WAN.with_(cap_winner_gain=False, cap_loser_payment=False, rounds_per_match=1)
"""A tournament room's rules: the arena's (caps off: a round pays its whole score), one round."""


def deal_seed(seed: int, deal: int) -> int:
    """The match seed of deal ``deal`` of the tournament seeded ``seed``: the same cards and
    dealer at every table and rotation."""
    return random.Random(f"tournament:{seed}:{deal}").randrange(2**63)


def slot_at(table: int, rotation: int, seat: int) -> int:
    """The slot of the player at ``seat`` of ``table`` in ``rotation`` (the arena's cyclic
    rotations: seat s holds the group's player (s + rotation) mod 3)."""
    return 3 * table + (seat + rotation) % 3


ROTATIONS = (1, 3)
"""How many times each player plays each deal: 3, in each seat rotation at the player's own
table (so from the second play on the player has seen the hands: all are shown at a
round's end), or 1, at mixed tables (two tables or more)."""


def slot_of(tables: int, rotations: int, table: int, deal: int, rotation: int, seat: int) -> int:
    """The slot of the player at ``seat`` of ``table`` when ``deal`` is played in ``rotation``.

    With three rotations, the groups of three stay at their tables (:func:`slot_at`). With
    one, every player plays each deal once: a player's place in its group, ``j`` (slot mod
    3), takes seat ``(j + deal) mod 3``, so the seats go round from deal to deal, at table
    ``(home + j·deal) mod tables``, so the tables mix; each table gets one player of each
    place, and each seat of a deal is held at the different tables by the players of one
    place, whose results the duplicate score compares.
    """
    if rotations == 3:
        return slot_at(table, rotation, seat)
    j = (seat - deal) % 3
    return 3 * ((table - j * deal) % tables) + j


def rank(
    tables: int, plays: Mapping[int, Sequence[dict[str, Any]]], rotations: int = 3
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Each deal's comparisons and the ranking from the plays of each deal (``plays[deal]``:
    ``{"seats": [{"account_id", "result"}, ...]}`` per table and rotation; each seat gets its
    ``vs_average``). A deal counts once all its ``rotations·tables`` plays have results; a
    player's score for it is the mean over its plays of it (one a rotation) of its result
    less the seat's average."""
    score: dict[int, float] = defaultdict(float)
    deals = []
    full = rotations * tables
    for deal in sorted(plays):
        ps = plays[deal]
        done = len(ps) == full and all(s["result"] is not None for p in ps for s in p["seats"])
        avg = [sum(p["seats"][s]["result"] for p in ps) / full for s in range(3)] if done else None
        per: dict[int, float] = defaultdict(float)
        for p in ps:
            for s, seat in enumerate(p["seats"]):
                seat["vs_average"] = None if avg is None else seat["result"] - avg[s]
                if avg is not None:
                    per[seat["account_id"]] += (seat["result"] - avg[s]) / rotations
        for acct, v in per.items():
            score[acct] += v
        deals.append({"deal": deal, "complete": done, "seat_average": avg, "plays": list(ps),
                      "scores": {str(a): round(v, 4) for a, v in per.items()}})  # fmt: skip
    ranking = [
        {"account_id": a, "score": round(score[a], 4)}
        for a in sorted(score, key=lambda a: (-score[a], a))
    ]
    return deals, ranking
