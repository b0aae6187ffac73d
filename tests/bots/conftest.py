"""Shared helpers for the bot tests: decision points from seeded rounds."""

from __future__ import annotations

import random

from paohuzi.core.engine import State, new_game
from paohuzi.core.views import SeatView, view


def decision_views(games: int, seed: int = 0, per_game: int = 100) -> list[tuple[State, SeatView]]:
    """(state, view) at decision points of random-play rounds (states are clones)."""
    rng = random.Random(seed)
    out: list[tuple[State, SeatView]] = []
    for g in range(games):
        st = new_game(seed=rng.randrange(2**32), dealer=g % 3)
        n = 0
        while not st.over and n < per_game:
            seat = st.to_act()[0]
            v = view(st, seat)
            if len(v.legal) > 1:
                out.append((st.clone(), v))
                n += 1
            ids = st.legal_actions(seat)
            st.apply_fast(seat, ids[rng.randrange(len(ids))])
    return out
