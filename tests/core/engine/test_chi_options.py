"""The engine's memoised 吃 options equal a brute-force enumeration (RULES.md §7).

The engine looks 吃 + 比 options up in tables keyed by a digest of the hand. This
compares them, for random hands and every card, with every combination of a 吃
shape and up to two 比 shapes that the hand's free cards (not its 坎) can pay for
and that leaves no copy of the card in hand.
"""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from paohuzi.core.actions import NO_SHAPE, chi_id, shape_faces
from paohuzi.core.cards import NUM_FACES
from paohuzi.core.engine import new_game
from paohuzi.core.hand import complete_size


def reference(hand: list[int], x: int, owes: bool) -> set[int]:
    free = [c if c < 3 else 0 for c in hand]
    shapes = [s for s in range(6) if shape_faces(x, s) is not None]
    out = set()
    for s0 in shapes:
        for n in range(3):
            for bi in itertools.combinations_with_replacement(shapes, n):
                rest = free[:]
                faces = list(shape_faces(x, s0) or ())
                faces.remove(x)  # the claimed card
                for b in bi:
                    faces += shape_faces(x, b) or ()
                for f in faces:
                    rest[f] -= 1
                if min(rest) < 0 or rest[x] != 0:
                    continue
                if owes and sum(rest) == 0:  # §7 ruling: a card besides the 坎 must stay
                    continue
                out.add(chi_id(s0, *bi, *(NO_SHAPE,) * (2 - n)))
    return out


def _counts(faces: list[int], cap: int) -> list[int]:
    c = [0] * NUM_FACES
    for f in faces:
        c[f] = min(cap, c[f] + 1)
    return c


# Any hand of 6–20 cards (坎 included), and full 20-card hands without 坎, which
# owe a discard after a 吃 (so the §7 ruling on the cards left applies).
hands = st.lists(st.integers(0, NUM_FACES - 1), min_size=6, max_size=20).map(
    lambda fs: _counts(fs, 3)
) | st.permutations([f for f in range(NUM_FACES) for _ in range(2)]).map(
    lambda p: _counts(p[:20], 2)
)


@settings(max_examples=200, deadline=None)
@given(hands)
def test_chi_options_match_brute_force(hand: list[int]) -> None:
    state = new_game(seed=7)
    state.hands[0] = hand
    state.tables[0] = []
    state.touch(0, table=True)
    owes = sum(hand) + 1 == complete_size(0)  # a 20-card hand owes a discard after a 吃
    for x in range(NUM_FACES):
        if hand[x] == 3:
            continue  # a 坎 of the card forces a 跑 instead
        got = state._chi_options(0, x)
        assert list(got) == sorted(got)
        assert set(got) == reference(hand, x, owes), (x, hand)


def test_chi_options_in_played_states() -> None:
    rng = random.Random(3)
    checked = 0
    for g in range(8):
        state = new_game(seed=g)
        while not state.over:
            for s in range(3):
                f = state.seat_facts(s)
                owes = f.owned + 1 == complete_size(f.quads)
                for x in range(NUM_FACES):
                    if state.hands[s][x] < 3:
                        assert set(state._chi_options(s, x)) == reference(
                            state.hands[s], x, owes
                        ), (s, x, state.hands[s])
                        checked += 1
            seat = state.to_act()[0]
            ids = state.legal_actions(seat)
            state.apply_fast(seat, ids[rng.randrange(len(ids))])
    assert checked > 2_000
