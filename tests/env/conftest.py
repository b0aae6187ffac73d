"""Positions from seeded random rounds, shared by the environment tests."""

from __future__ import annotations

import random
from collections.abc import Iterator

from paohuzi.core.engine import State, new_game


def random_walk(games: int, rng: random.Random) -> Iterator[State]:
    """Every position of ``games`` random-play rounds, the final ones included: the live
    state itself, moved on when the next is asked for (clone it to keep it)."""
    for g in range(games):
        st = new_game(seed=rng.randrange(2**32), dealer=g % 3)
        while True:
            yield st
            if st.over:
                break
            seat = st.to_act()[0]
            ids = st.legal_actions(seat)
            st.apply_fast(seat, ids[rng.randrange(len(ids))])


def random_positions(games: int, seed: int = 0) -> list[State]:
    """Every position (a clone) of ``games`` random-play rounds, the final ones included."""
    return [st.clone() for st in random_walk(games, random.Random(seed))]
