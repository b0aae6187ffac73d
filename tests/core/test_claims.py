"""Claim windows (RULES.md §5, §6, §8): the rule functions and the tables built from them."""

from __future__ import annotations

from paohuzi.core.actions import CHI_BASE, HU_ID, PASS_ID, PENG_ID
from paohuzi.core.claims import (
    RANK_CHI,
    RANK_PENG,
    SEATS_FOR,
    Window,
    chi_seats,
    chou_marks,
    claim_order,
    claim_rank,
    peng_seats,
)
from paohuzi.core.events import EventDetail
from paohuzi.core.facts import _W, owes_discard
from paohuzi.core.hand import complete_size


def test_claim_order() -> None:
    assert claim_order(1, from_draw=True) == (1, 2, 0)  # drawer, 下家, 上家 (§5 step 2)
    assert claim_order(1, from_draw=False) == (2, 0, 1)  # 下家, 上家; the discarder last (§6)


def test_only_the_xiajia_may_chi_a_discard() -> None:
    """§6 step 3: 下家可吃可碰，上家可碰不能吃; §5 step 5: the drawer, then his 下家."""
    for src in range(3):
        d = claim_order(src, from_draw=False)
        assert chi_seats(d, from_draw=False) == ((src + 1) % 3,)
        assert set(peng_seats(d, from_draw=False)) == {(src + 1) % 3, (src + 2) % 3}
        o = claim_order(src, from_draw=True)
        assert chi_seats(o, from_draw=True) == (src, (src + 1) % 3)
        assert src not in peng_seats(o, from_draw=True)


def test_seat_tables_equal_the_functions() -> None:
    for draw_index, draw in enumerate((True, False)):
        for src in range(3):
            order = claim_order(src, from_draw=draw)
            assert SEATS_FOR[draw_index][src] == (
                order,
                peng_seats(order, from_draw=draw),
                chi_seats(order, from_draw=draw),
            )


def test_priority() -> None:
    order = (2, 0, 1)
    assert claim_rank(order, 1, HU_ID) < claim_rank(order, 2, PENG_ID) == RANK_PENG
    assert RANK_PENG < claim_rank(order, 2, CHI_BASE) == RANK_CHI
    assert claim_rank(order, 2, CHI_BASE) < claim_rank(order, 0, CHI_BASE)
    assert claim_rank(order, 2, PASS_ID) > claim_rank(order, 1, CHI_BASE)


def test_w_table_equals_complete_size() -> None:
    assert tuple(complete_size(k) for k in range(len(_W))) == _W
    assert owes_discard(21, 0) and owes_discard(21, 1) and not owes_discard(20, 1)
    assert owes_discard(22, 2) and not owes_discard(21, 2)  # 八块: no discard after the 2nd 提/跑
    # Six and more 提/跑 happen (a search bot's playouts met seven): the table covers them.
    for k in range(21):
        assert owes_discard(complete_size(k), k) and not owes_discard(complete_size(k) - 1, k)


def _window(options: dict[int, tuple[int, ...]], chi: set[int], answers: dict[int, int]) -> Window:
    w = Window(5, 0, False, False, options, order=(1, 2, 0))
    w.chi = {s: {CHI_BASE: None} for s in chi}  # type: ignore[dict-item]
    w.answers = answers
    return w


def test_chou_marks_for_refused_offers_only() -> None:
    """§8: a pass marks 臭碰/臭吃; a claim overtaken by a higher one leaves no mark."""
    w = _window({1: (PENG_ID, CHI_BASE, PASS_ID)}, {1}, {1: PASS_ID})
    assert chou_marks(w, PASS_ID, 99) == [(1, EventDetail.PENG), (1, EventDetail.CHI)]
    w = _window({1: (PENG_ID, CHI_BASE, PASS_ID)}, {1}, {1: CHI_BASE})
    assert chou_marks(w, CHI_BASE, RANK_CHI) == [(1, EventDetail.PENG)]  # took 吃 over 碰
    # Seat 2 碰s: seat 1's 吃 was overtaken, not refused.
    w = _window({1: (CHI_BASE, PASS_ID), 2: (PENG_ID, PASS_ID)}, {1}, {1: CHI_BASE, 2: PENG_ID})
    assert chou_marks(w, PENG_ID, RANK_PENG) == []
    # A 胡 or a forced 跑 takes the card before any 碰/吃 is reached.
    assert chou_marks(w, HU_ID, 0) == []
