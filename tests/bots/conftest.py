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


def reshuffle_hidden(st: State, seat: int, rng: random.Random) -> State:
    """The same state for ``seat`` with the others' hands and the stock dealt anew."""
    s2 = st.clone()
    others = [s for s in range(3) if s != seat]
    cards = [f for s in others for f in range(20) for _ in range(s2.hands[s][f])] + s2.stock
    rng.shuffle(cards)
    pos = 0
    for s in others:
        n = sum(s2.hands[s])
        h = [0] * 20
        for f in cards[pos : pos + n]:
            h[f] += 1
        s2.hands[s] = h
        pos += n
    s2.stock = cards[pos:]
    for seat in range(3):
        s2.touch(seat, table=True)
    return s2
