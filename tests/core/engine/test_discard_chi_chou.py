"""§6 (a discard), §7 (吃 and 比), §8 (臭吃 / 臭碰 / 臭偎)."""

from __future__ import annotations

import pytest

from paohuzi.core.actions import CHI_BASE, HU_ID, PASS_ID, PENG_ID, chi_id
from paohuzi.core.engine import Phase, State
from paohuzi.core.errors import IllegalActionError
from paohuzi.core.events import EventKind
from paohuzi.core.groups import GroupKind
from paohuzi.core.views import censored_log, view

from .scripted import F, discard, events_of, game, last_event, mask, pass_until, pass_window

WAIT_LU = "壹贰叁贰柒拾一二三二七十四五六七八九肆伍"  # 18 胡息, wins on 陆 or 叁

# shapes around X (actions.py): 0 X-2..X, 1 X-1..X+1, 2 X..X+2, 3 二七十, 4 XXx', 5 Xx'x'
S_LOW, S_MID, S_HIGH, S_EQS, S_XXB, S_XBB = range(6)


def _chi_ids(st: State, seat: int) -> set[int]:
    return {a for a in st.legal_actions(seat) if a >= CHI_BASE}


def _unclaimed(st: State) -> bool:
    """The last discard went straight to the discarder's pile (no claim window)."""
    d = last_event(st, EventKind.DISCARD)
    nxt = st.log[st.log.index(d) + 1]
    return nxt.kind is EventKind.PILE and (nxt.seat, nxt.face) == (d.seat, d.face)


# ---------------------------------------------------------------- §6


def test_only_the_xiajia_may_chi_a_discard_the_shangjia_only_peng() -> None:
    st = game(0, {0: "五", 1: "四六", 2: "五五三四六七"}, exclude={1: "三五七伍"})
    st.apply(st.to_act()[0], "打:五")
    assert _chi_ids(st, 1) == {chi_id(S_MID)}
    assert st.legal_actions(2) == (PENG_ID, PASS_ID)  # 三四 / 四六 / 六七 but no 吃 for the 上家
    assert 0 not in st.to_act()


def test_the_xiajia_may_peng_a_discard() -> None:
    st = game(0, {0: "五", 1: "五五拾"})
    st.apply(st.to_act()[0], "打:五")
    assert PENG_ID in st.legal_actions(1)
    st.apply(1, "碰:五")
    e = last_event(st, EventKind.PENG)
    assert (e.seat, e.face, e.source) == (1, F("五"), 0)
    assert st.phase is Phase.DISCARD and st.turn == 1


def test_a_kan_paos_a_discard() -> None:
    st = game(0, {0: "五", 2: "五五五"})
    st.apply(st.to_act()[0], "打:五")
    pao = last_event(st, EventKind.PAO)
    assert (pao.seat, pao.face, pao.source, pao.detail) == (2, F("五"), 0, "kan")
    assert st.phase is Phase.DISCARD and st.turn == 2


def test_a_table_wei_paos_a_discard() -> None:
    # seat 1 偎s 五, discards 拾; seat 2 吃s it and discards 五 -> seat 1's 偎 跑s.
    st = game(0, {0: "玖", 1: "五五拾", 2: "捌玖五"}, exclude={2: "柒拾十贰"}, stock="五")
    discard(st, "玖")
    assert last_event(st, EventKind.WEI).seat == 1
    st.apply(1, "打:拾")
    pass_until(st, lambda s: 2 in s.to_act() and chi_id(S_LOW) in s.legal_actions(2))
    for s in st.to_act():
        if s != 2:
            st.apply(s, "过")
    st.apply(2, "吃:捌玖拾")
    assert st.phase is Phase.DISCARD and st.turn == 2
    st.apply(2, "打:五")
    pao = last_event(st, EventKind.PAO)
    assert (pao.seat, pao.face, pao.source, pao.detail) == (1, F("五"), 2, "wei")
    assert st.phase is Phase.DISCARD and st.turn == 1  # his first 跑: a discard


def test_a_table_peng_never_paos_a_discard() -> None:
    # seat 1 碰s the dealer's 五 and discards 四; seat 2 吃s 四 and discards the last 五.
    st = game(0, {0: "五", 1: "五五四", 2: "五二三"}, exclude={2: "四"})
    st.apply(st.to_act()[0], "打:五")
    st.apply(1, "碰:五")
    st.apply(1, "打:四")
    st.apply(2, "吃:二三四")
    assert st.phase is Phase.DISCARD and st.turn == 2
    discard(st, "五")
    assert not events_of(st, EventKind.PAO)
    assert [t.group.kind for t in st.tables[1]] == [GroupKind.PENG]
    pile = last_event(st, EventKind.PILE)
    assert (pile.seat, pile.face) == (2, F("五"))


# ---------------------------------------------------------------- §7 吃 and 比


def test_bi_is_compulsory_and_every_complete_option_is_offered() -> None:
    st = game(0, {0: "五", 1: "四五六六七"}, exclude={1: "三八伍"})
    st.apply(st.to_act()[0], "打:五")
    # The same two groups, whichever takes the card on offer: one option (§7).
    assert chi_id(S_MID, S_HIGH) == chi_id(S_HIGH, S_MID)
    assert _chi_ids(st, 1) == {chi_id(S_MID, S_HIGH)}
    texts = sorted(a.text() for a in st.legal_moves(1) if a.id >= CHI_BASE)
    assert texts == ["吃:四五六 比:五六七"]
    assert st.verify(1, "吃:五六七 比:四五六") == st.verify(1, "吃:四五六 比:五六七")
    with pytest.raises(IllegalActionError):
        st.apply(1, "吃:四五六")  # would leave a 五 in hand
    st.apply(1, "吃:五六七 比:四五六")
    assert st.hands[1][F("五")] == 0
    assert [t.group.faces for t in st.tables[1]] == [
        (F("四"), F("五"), F("六")),
        (F("五"), F("六"), F("七")),
    ]
    assert all(t.group.kind is GroupKind.CHI for t in st.tables[1])
    assert st.phase is Phase.DISCARD and st.turn == 1


def test_one_bi_group_may_hold_two_copies() -> None:
    st = game(0, {0: "五", 1: "四六五五伍"}, exclude={1: "三七"})
    st.apply(st.to_act()[0], "打:五")
    assert _chi_ids(st, 1) == {chi_id(S_MID, S_XXB), chi_id(S_XXB, S_MID)}
    st.apply(1, "吃:四五六 比:五五伍")
    assert st.hands[1][F("五")] == 0 and st.hands[1][F("伍")] == 0


def test_chi_is_not_offered_when_no_complete_bi_exists() -> None:
    st = game(0, {0: "五", 1: "四五六"}, exclude={1: "三七伍"})
    st.apply(st.to_act()[0], "打:五")
    assert _unclaimed(st)  # nobody was offered anything
    assert not st.chou_chi[1] & mask("五")  # no offer, no 臭 mark


def test_kan_cards_are_never_used_in_chi_or_bi() -> None:
    st = game(0, {0: "五", 1: "四四四六"}, exclude={1: "三七伍"})
    st.apply(st.to_act()[0], "打:五")
    assert _unclaimed(st)
    # the 比 五六七 would need the 坎 七
    st = game(0, {0: "五", 1: "四五六六七七七"}, exclude={1: "三八伍"})
    st.apply(st.to_act()[0], "打:五")
    assert _unclaimed(st)


# ---------------------------------------------------------------- §8 臭


def test_passing_an_offered_chi_marks_chou_chi_privately() -> None:
    st = game(0, {0: "五", 1: "四六"}, exclude={1: "三五七伍"})
    st.apply(st.to_act()[0], "打:五")
    st.apply(1, "过")
    assert st.chou_chi[1] & mask("五") and not st.chou_peng[1] & mask("五")
    e = last_event(st, EventKind.CHOU)
    assert (e.seat, e.face, e.detail, e.private) == (1, F("五"), "chi", True)
    assert e not in censored_log(st, 0) and e not in censored_log(st, 2)
    assert e in censored_log(st, 1)
    v1 = view(st, 1)
    assert v1.chou_chi is not None and F("五") in v1.chou_chi
    # the others see only their own 臭 sets (a spectator none)
    v2 = view(st, 2)
    assert v2.chou_chi is not None and F("五") not in v2.chou_chi
    assert view(st, None).chou_chi is None


def test_passing_an_offered_peng_marks_chou_peng() -> None:
    st = game(0, {0: "五", 2: "五五"})
    st.apply(st.to_act()[0], "打:五")
    assert PENG_ID in st.legal_actions(2)
    pass_window(st)
    assert st.chou_peng[2] & mask("五") and not st.chou_chi[2] & mask("五")
    assert [(e.face, e.detail) for e in events_of(st, EventKind.CHOU) if e.seat == 2] == [
        (F("五"), "peng")
    ]


def test_discarding_x_marks_both_chou_sets() -> None:
    st = game(0, {0: "五"})
    assert not st.chou_chi[0] & mask("五")
    discard(st, "五")
    assert st.chou_chi[0] & mask("五") and st.chou_peng[0] & mask("五")


def test_an_overtaken_chi_leaves_no_mark() -> None:
    for first in ("吃:四五六", "过"):
        st = game(0, {0: "五", 1: "四六", 2: "五五"}, exclude={1: "三五七伍"})
        st.apply(st.to_act()[0], "打:五")
        assert _chi_ids(st, 1) and PENG_ID in st.legal_actions(2)
        st.apply(1, first)
        st.apply(2, "碰:五")
        assert last_event(st, EventKind.PENG).seat == 2
        assert not st.chou_chi[1] & mask("五")
        assert not [e for e in events_of(st, EventKind.CHOU) if e.seat == 1]


def test_chou_chi_blocks_a_later_chi_of_that_face() -> None:
    # without the mark, seat 1 may 吃 his own drawn 五 ...
    st = game(0, {0: "玖五", 1: "四六"}, exclude={1: "三五七伍"}, stock="五")
    discard(st, "玖")
    assert st.window is not None and st.window.card == F("五")
    assert _chi_ids(st, 1)
    # ... after passing the 吃 of the dealer's 五 he may not
    st = game(0, {0: "五", 1: "四六"}, exclude={1: "三五七伍"}, stock="五")
    st.apply(st.to_act()[0], "打:五")
    st.apply(1, "过")
    assert events_of(st, EventKind.DRAW)[0].face == F("五")
    assert not _chi_ids(st, 1)


def test_chou_peng_blocks_a_later_peng_of_that_face() -> None:
    st = game(0, {0: "玖五", 2: "五五"}, stock="五")
    discard(st, "玖")
    assert st.window is not None and st.window.card == F("五")
    assert PENG_ID in st.legal_actions(2)
    st = game(0, {0: "五", 2: "五五"}, stock="五")
    st.apply(st.to_act()[0], "打:五")
    pass_window(st)
    assert events_of(st, EventKind.DRAW)[0].face == F("五")
    assert PENG_ID not in st.legal_actions(2)


def test_chou_wei_is_shown_face_up() -> None:
    # seat 2 passes the 碰 of 五, then draws 五 himself while holding the pair.
    st = game(0, {0: "五", 2: "五五"}, stock="?五")
    st.apply(st.to_act()[0], "打:五")
    pass_window(st)
    assert st.chou_peng[2] & mask("五")
    pass_until(st, lambda s: bool(events_of(s, EventKind.WEI)))
    e = last_event(st, EventKind.WEI)
    assert (e.seat, e.face, e.detail, e.hidden) == (2, F("五"), "chou", False)
    draw = events_of(st, EventKind.DRAW)[-1]
    assert draw.face == F("五") and not draw.hidden
    t = st.tables[2][-1]
    assert t.group.kind is GroupKind.CHOUWEI and not t.hidden
    for seat in (0, 1, None):
        g = view(st, seat).tables[2][-1]
        assert g.kind is GroupKind.CHOUWEI and g.faces == (F("五"),) * 3
    assert st.phase is Phase.DISCARD and st.turn == 2


def test_chou_never_blocks_hu_and_passing_hu_leaves_no_mark() -> None:
    # seat 1 passes the 吃 of the dealer's 陆 (a discard: no 胡 offered), then draws 陆.
    st = game(0, {0: "陆", 1: WAIT_LU}, stock="陆")
    st.apply(st.to_act()[0], "打:陆")
    assert HU_ID not in st.legal_actions(1) and _chi_ids(st, 1)
    st.apply(1, "过")
    assert st.chou_chi[1] & mask("陆")
    assert st.window is not None and st.window.card == F("陆") and st.window.from_draw
    assert HU_ID in st.legal_actions(1) and not _chi_ids(st, 1)
    n_chou = len([e for e in events_of(st, EventKind.CHOU) if e.seat == 1])
    marks = (st.chou_chi[1], st.chou_peng[1])
    pass_window(st)
    assert len([e for e in events_of(st, EventKind.CHOU) if e.seat == 1]) == n_chou
    assert (st.chou_chi[1], st.chou_peng[1]) == marks
    # the same again, but this time he wins on the 臭 face
    st = game(0, {0: "陆", 1: WAIT_LU}, stock="陆")
    st.apply(st.to_act()[0], "打:陆")
    st.apply(1, "过")
    st.apply(1, "胡")
    assert st.result is not None and st.result.winner == 1
