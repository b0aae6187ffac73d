"""The engine's cheap win filters never hide a win (RULES.md §10).

``State._win`` skips the full evaluation when a seat's cached facts say a card
cannot win (stranded singles, the 胡息 bound, card counts). These tests compare it
with the unfiltered :func:`evaluate_counts` for every seat and every card, on hands
built to be one card from complete and in games of bots that play to win.
"""

from __future__ import annotations

import random
from dataclasses import replace

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from paohuzi.bots.heuristic import HeuristicBot
from paohuzi.core.cards import NUM_FACES
from paohuzi.core.engine import State, TableGroup, new_game
from paohuzi.core.groups import Group, GroupKind
from paohuzi.core.hand import evaluate_counts
from paohuzi.core.rules import HONG_GUAI_WAN
from paohuzi.core.views import view


def _check_all(state: State, seats: range = range(3)) -> int:
    """Assert filter == evaluation for every seat, card and draw flag; count wins."""
    wins = 0
    for s in seats:
        if state.dead[s]:
            continue
        state.touch(s, table=True)
        for x in range(NUM_FACES):
            if state.hands[s][x] + sum(g.faces.count(x) for g in state.table_groups(s)) >= 4:
                continue
            for self_drawn in (False, True):
                for last in (False, True):
                    want = evaluate_counts(
                        state.table_groups(s), state.hands[s], x, self_drawn, last, state.rules
                    )
                    got = state._win(s, x, self_drawn, last)
                    assert (got is None) == (want is None), (s, x, self_drawn, state.hands[s])
                    wins += want is not None
    return wins


def test_filter_agrees_in_games_played_to_win() -> None:
    wins = 0
    for g in range(6):
        bots = [HeuristicBot(seed=10 * g + s) for s in range(3)]
        state = new_game(seed=1000 + g, dealer=g % 3)
        while not state.over:
            wins += _check_all(state)
            seat = state.to_act()[0]
            state.apply_fast(seat, bots[seat].act(view(state, seat)).id)
    assert wins > 0  # the test saw winning cards, so it could catch a hidden one


# Groups a complete free hand is made of (no 坎: those are added apart).
_HAND_GROUPS = (
    [(f, f + 1, f + 2) for f in range(NUM_FACES) if f % 10 <= 7]
    + [(1, 6, 9), (11, 16, 19)]
    + [(n, n, n + 10) for n in range(10)]
    + [(n, n + 10, n + 10) for n in range(10)]
)


@st.composite
def near_wins(draw: st.DrawFn) -> tuple[list[int], list[Group], int]:
    """A hand that one card ``x`` completes, with a table of 0–2 提/跑 and 碰."""
    counts = [0] * NUM_FACES
    table: list[Group] = []
    quads = draw(st.integers(0, 2))
    for _ in range(quads):
        f = draw(st.sampled_from([f for f in range(NUM_FACES) if counts[f] == 0]))
        counts[f] = 4
        table.append(Group(draw(st.sampled_from([GroupKind.TI, GroupKind.PAO])), (f,) * 4))
    if draw(st.booleans()):
        f = draw(st.sampled_from([f for f in range(NUM_FACES) if counts[f] == 0]))
        counts[f] = 3
        table.append(Group(GroupKind.PENG, (f,) * 3))
    in_table = sum(counts)
    hand = [0] * NUM_FACES
    need = 21 + quads - in_table  # cards the hand holds once x is in
    if quads:  # the one pair
        f = draw(st.sampled_from([f for f in range(NUM_FACES) if counts[f] <= 2]))
        counts[f] += 2
        hand[f] += 2
        need -= 2
    while need:
        if draw(st.integers(0, 4)) == 0:
            choices = [(f, f, f) for f in range(NUM_FACES) if counts[f] == 0]
        else:
            choices = [
                g
                for g in _HAND_GROUPS
                if all(counts[f] + g.count(f) <= 4 and hand[f] + g.count(f) <= 3 for f in g)
            ]
        assume(choices)
        g = draw(st.sampled_from(choices))
        for f in g:
            counts[f] += 1
            hand[f] += 1
        need -= 3
    x = draw(st.sampled_from([f for f in range(NUM_FACES) if hand[f]]))
    hand[x] -= 1
    return hand, table, x


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow],
)
@given(near_wins(), st.integers(0, 2), st.booleans())
def test_filter_agrees_on_near_complete_hands(
    near: tuple[list[int], list[Group], int], seat: int, low_bar: bool
) -> None:
    hand, table, _x = near
    # A low bar on 胡息 makes every decomposition a win, so the search-free
    # filters alone decide; the normal bar also exercises the 胡息 bound.
    rules = replace(HONG_GUAI_WAN, min_huxi=0, min_huxi_with_mingtang=0) if low_bar else None
    state = new_game(rules or HONG_GUAI_WAN, seed=random.Random(seat).randrange(2**32))
    state.hands[seat] = hand
    state.tables[seat] = [TableGroup(g) for g in table]
    state.dead[seat] = False
    _check_all(state, range(seat, seat + 1))
