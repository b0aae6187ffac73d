"""Shared helpers for the bot tests: decision points from seeded rounds, hidden cards reshuffled."""

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


def hidden_twin(st: State, v: SeatView, rng: random.Random) -> tuple[State, SeatView]:
    """``st`` with the cards hidden from ``v``'s seat dealt anew, and that seat's view of it.

    The view is checked to equal ``v`` and the hidden cards to have moved (where any are
    hidden), so a bot that decides differently on the twin has peeked at hidden cards.
    """
    seat = v.seat
    assert seat is not None
    other = reshuffle_hidden(st, seat, rng)
    v2 = view(other, seat)
    assert v2 == v
    assert other.hands != st.hands or other.stock != st.stock or sum(v.hand_sizes) == sum(v.hand)
    return other, v2
