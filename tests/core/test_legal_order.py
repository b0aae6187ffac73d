"""The order of ``legal_actions`` is part of the API (docs/api/engine.md): seeded random
players pick by index, so a change of order changes their games."""

from __future__ import annotations

import random

from paohuzi.core.actions import PASS_ID
from paohuzi.core.engine import new_game
from paohuzi.core.state import Phase


def test_ascending_with_pass_last_in_claim_windows() -> None:
    rng = random.Random(11)
    windows = 0
    for g in range(60):
        st = new_game(seed=g)
        while not st.over:
            seat = st.to_act()[0]
            ids = st.legal_actions(seat)
            if st.phase is Phase.CLAIM:
                windows += 1
                assert ids[-1] == PASS_ID, ids
                assert list(ids[:-1]) == sorted(ids[:-1]) and PASS_ID not in ids[:-1], ids
            else:
                assert list(ids) == sorted(ids), ids
            st.apply(seat, ids[rng.randrange(len(ids))])
    assert windows > 100
