"""Views: readable reprs and a clear error for a seat that does not exist."""

from __future__ import annotations

import pytest

from paohuzi.core.engine import new_game
from paohuzi.core.errors import PaohuziError
from paohuzi.core.groups import GroupKind
from paohuzi.core.views import ViewGroup, view


def test_reprs_read_like_the_table() -> None:
    assert repr(ViewGroup(GroupKind.WEI, None, True)) == "<ViewGroup 偎:▢▢▢ (hidden)>"
    assert repr(ViewGroup(GroupKind.PENG, (4, 4, 4), False)) == "<ViewGroup 碰:五五五>"
    state = new_game(seed=1)
    assert repr(view(state, None)) == (
        f"<SeatView spectator, version 0, discard, to act [{state.dealer}]>"
    )
    assert repr(view(state, 2)).startswith("<SeatView seat 2, version 0, discard")


@pytest.mark.parametrize("seat", [3, -1, True, "0"])
def test_no_such_seat(seat: object) -> None:
    with pytest.raises(PaohuziError, match=f"no seat {seat!r}"):
        view(new_game(seed=1), seat)  # type: ignore[arg-type]


def test_a_view_numbered_by_its_caller_is_the_same_view_with_that_number() -> None:
    # The server numbers each audience by its own steps (no dataclasses.replace per view).
    from dataclasses import replace

    state = new_game(seed=3)
    for seat in (None, 0, 1, 2):
        assert view(state, seat, 7) == replace(view(state, seat), version=7)
        assert view(state, seat, 7).version == 7


def test_a_card_on_offer_is_hidden_only_in_a_wei_hu_window_and_only_from_the_others() -> None:
    # RULES.md §14: a 偎胡's card, drawn into the drawer's face-down 偎, stays its secret.
    import random

    from paohuzi.core.views import offer_hidden

    hidden = 0
    for seed in range(2000):
        if hidden >= 6:
            break
        st = new_game(seed=seed)
        rng = random.Random(seed)
        while not st.over:
            w = st.window
            for seat in (None, 0, 1, 2):
                v = view(st, seat)
                if offer_hidden(st, seat):
                    hidden += 1
                    assert w is not None and w.after_own and seat != w.source
                    assert v.offer is None and v.offer_source == w.source
                elif v.offer_source is not None:
                    assert v.offer == w.card  # type: ignore[union-attr]
            s = st.to_act()[0]
            st.apply(s, rng.choice(st.legal_actions(s)))
    assert hidden > 0  # the case occurred (else this test could not fail)
