"""Positions from seeded random rounds, shared by the environment tests."""

from __future__ import annotations

import random

from paohuzi.core.engine import State, new_game


def random_positions(games: int, seed: int = 0) -> list[State]:
    """Every position (a clone) of ``games`` random-play rounds, the final ones included."""
    rng = random.Random(seed)
    out: list[State] = []
    for g in range(games):
        st = new_game(seed=rng.randrange(2**32), dealer=g % 3)
        while True:
            out.append(st.clone())
            if st.over:
                break
            seat = st.to_act()[0]
            ids = st.legal_actions(seat)
            st.apply_fast(seat, ids[rng.randrange(len(ids))])
    return out
