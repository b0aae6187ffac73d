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
