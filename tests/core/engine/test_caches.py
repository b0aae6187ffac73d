"""The engine's per-seat caches always equal a fresh computation.

``State.facts`` and ``State.tfacts`` hold facts about each seat's hand and table that
the engine updates in place or drops when the cards move; a stale entry would
silently change which claims are offered. This recomputes both after every action
of random and bot games and compares.
"""

from __future__ import annotations

import random

from paohuzi.bots.heuristic import HeuristicBot
from paohuzi.core.engine import State, new_game
from paohuzi.core.facts import seat_facts, table_facts
from paohuzi.core.views import view


def _check(state: State) -> None:
    for s in range(3):
        cached_table = state.tfacts[s]
        cached = state.facts[s]
        fresh_table = table_facts(state.tables[s])
        if cached_table is not None:
            assert cached_table == fresh_table, (s, cached_table, fresh_table)
        if cached is not None:
            assert cached == seat_facts(state.hands[s], fresh_table, state.rules), s


def test_caches_match_in_random_games() -> None:
    rng = random.Random(11)
    for g in range(60):
        state = new_game(seed=g, dealer=g % 3)
        _check(state)
        while not state.over:
            seat = state.to_act()[0]
            ids = state.legal_actions(seat)
            state.apply_fast(seat, ids[rng.randrange(len(ids))])
            _check(state)


def test_caches_match_in_bot_games() -> None:
    for g in range(8):
        bots = [HeuristicBot(seed=5 * g + s) for s in range(3)]
        state = new_game(seed=500 + g, dealer=g % 3)
        while not state.over:
            seat = state.to_act()[0]
            state.apply_fast(seat, bots[seat].act(view(state, seat)).id)
            _check(state)
