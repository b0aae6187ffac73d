"""§4 (the turn) and §5 (what happens to a drawn card): piles, claim priority, 胡 order."""

from __future__ import annotations

from paohuzi.core.actions import CHI_BASE, HU_ID, PASS_ID, PENG_ID
from paohuzi.core.engine import Phase, State
from paohuzi.core.events import EventKind
from paohuzi.core.groups import GroupKind

from .scripted import F, discard, events_of, game, last_event, mask, pass_until, pass_window

WAIT_LU = "壹贰叁贰柒拾一二三二七十四五六七八九肆伍"  # 18 胡息, wins on 陆 or 叁


def _chi_ids(st: State, seat: int) -> set[int]:
    return {a for a in st.legal_actions(seat) if a >= CHI_BASE}


# ---------------------------------------------------------------- §4


def test_unclaimed_discard_goes_to_the_discarders_pile_then_his_xiajia_draws() -> None:
    st = game(0, {0: "拾"}, stock="?")
    discard(st, "拾")
    pile = events_of(st, EventKind.PILE)[0]
    assert (pile.seat, pile.face) == (0, F("拾"))
    assert st.piles[0] == [F("拾")]
    i = st.log.index(pile)
    assert st.log[i + 1].kind is EventKind.DRAW and st.log[i + 1].seat == 1


def test_unclaimed_draw_goes_to_the_drawers_pile_then_his_xiajia_draws() -> None:
    st = game(0, {0: "拾"}, stock="??")
    discard(st, "拾")
    hands_before = [h[:] for h in st.hands]
    pass_until(st, lambda s: len(events_of(s, EventKind.PILE)) >= 2)
    draw = events_of(st, EventKind.DRAW)[0]
    pile = events_of(st, EventKind.PILE)[1]
    assert draw.seat == 1 and (pile.seat, pile.face) == (1, draw.face)
    assert st.piles[1] == [draw.face]
    assert st.hands == hands_before  # a drawn card never goes into a hand
    i = st.log.index(pile)
    assert st.log[i + 1].kind is EventKind.DRAW and st.log[i + 1].seat == 2


def test_after_a_claim_the_claimant_discards_and_play_goes_on_from_him() -> None:
    # the dealer's 上家 (seat 2) 碰s the opening discard: seat 1 is skipped.
    st = game(0, {0: "五", 2: "五五拾"}, stock="?")
    st.apply(st.to_act()[0], "打:五")
    assert st.legal_actions(2) == (PENG_ID, PASS_ID)
    st.apply(2, "碰:五")
    assert st.phase is Phase.DISCARD and st.turn == 2
    discard(st, "拾")
    draws = events_of(st, EventKind.DRAW)
    assert draws[0].seat == 0
    assert st.piles[2] == [F("拾")]


# ---------------------------------------------------------------- §5 step 2: 胡 priority


def _two_winners(stock: str) -> State:
    # seats 1 and 2 both wait on 陆; the dealer discards 玖 (nobody can use it).
    st = game(0, {0: "玖", 1: WAIT_LU, 2: WAIT_LU}, stock=stock)
    discard(st, "玖")
    pass_until(st, lambda s: s.window is not None and s.window.card == F("陆"))
    return st


def test_hu_drawer_wins_over_his_xiajia() -> None:
    st = _two_winners("陆")
    assert st.window is not None and st.window.source == 1
    assert st.to_act() == (1, 2)
    assert HU_ID in st.legal_actions(1) and HU_ID in st.legal_actions(2)
    st.apply(2, "胡")  # the 下家 answers first: the drawer may still win
    assert st.result is None and st.to_act() == (1,)
    st.apply(1, "胡")
    assert st.result is not None and st.result.winner == 1
    assert st.result.win is not None and st.result.win.self_drawn
    assert len(events_of(st, EventKind.HU)) == 1  # exactly one winner
    assert st.result.deltas == (-3, 6, -3)
    assert st.result.next_dealer == 1  # the winner deals next


def test_hu_xiajia_wins_when_the_drawer_passes() -> None:
    st = _two_winners("陆")
    st.apply(2, "胡")
    st.apply(1, "过")
    assert st.result is not None and st.result.winner == 2
    assert st.result.win is not None and not st.result.win.self_drawn
    assert st.result.deltas == (-2, -2, 4)
    assert len(events_of(st, EventKind.HU)) == 1


def test_hu_xiajia_before_shangjia() -> None:
    # the dealer draws 陆 (third draw): seat 1 is his 下家, seat 2 his 上家.
    st = _two_winners("玖玖陆")
    assert st.window is not None and st.window.source == 0
    assert HU_ID in st.legal_actions(1) and HU_ID in st.legal_actions(2)
    st.apply(2, "胡")
    assert st.result is None
    st.apply(1, "胡")
    assert st.result is not None and st.result.winner == 1
    assert len(events_of(st, EventKind.HU)) == 1


def test_hu_beats_a_forced_pao() -> None:
    # seat 2 holds a 坎 of 陆; seat 1 draws the fourth 陆 and may win.
    st = game(0, {0: "玖", 1: WAIT_LU, 2: "陆陆陆"}, stock="陆")
    discard(st, "玖")
    assert st.to_act() == (1,) and HU_ID in st.legal_actions(1)
    st.apply(1, "胡")
    assert st.result is not None and st.result.winner == 1
    assert not events_of(st, EventKind.PAO)
    # passing the 胡 lets the forced 跑 happen
    st = game(0, {0: "玖", 1: WAIT_LU, 2: "陆陆陆"}, stock="陆")
    discard(st, "玖")
    chou = (st.chou_chi[:], st.chou_peng[:])
    st.apply(1, "过")
    pao = last_event(st, EventKind.PAO)
    assert (pao.seat, pao.face, pao.source, pao.detail) == (2, F("陆"), 1, "kan")
    assert (st.chou_chi, st.chou_peng) == chou  # passing a 胡 leaves no 臭 mark
    assert st.phase is Phase.DISCARD and st.turn == 2


def test_hu_of_the_shangjia_beats_peng_and_chi() -> None:
    # seat 2 draws 陆: seat 2 could 吃 (柒捌), seat 0 碰 (pair), seat 1 (上家) wins.
    st = game(0, {0: "玖陆陆", 1: WAIT_LU, 2: "柒捌"}, exclude={2: "肆伍陆"}, stock="?陆")
    discard(st, "玖")
    pass_until(st, lambda s: s.window is not None and s.window.card == F("陆"))
    assert st.window is not None and st.window.source == 2
    assert st.to_act() == (2, 0, 1)
    assert PENG_ID in st.legal_actions(0) and HU_ID in st.legal_actions(1) and _chi_ids(st, 2)
    st.apply(2, "吃:陆柒捌")
    st.apply(0, "碰:陆")
    assert st.result is None and st.to_act() == (1,)
    st.apply(1, "胡")
    assert st.result is not None and st.result.winner == 1
    assert not events_of(st, EventKind.PENG) and not events_of(st, EventKind.CHI)
    # overtaken claims leave no 臭 mark
    assert not st.chou_chi[2] & mask("陆") and not st.chou_peng[0] & mask("陆")


# ---------------------------------------------------------------- §5 steps 3–5


def test_a_table_peng_paos_a_card_drawn_by_another() -> None:
    st = game(0, {0: "五", 1: "五五拾"}, stock="五")
    st.apply(st.to_act()[0], "打:五")
    st.apply(1, "碰:五")
    discard(st, "拾")
    pao = last_event(st, EventKind.PAO)
    assert (pao.seat, pao.face, pao.source, pao.detail) == (1, F("五"), 2, "peng")
    assert [t.group.kind for t in st.tables[1]] == [GroupKind.PAO]
    assert st.phase is Phase.DISCARD and st.turn == 1  # first 跑: discard


def test_a_table_peng_paos_the_owners_own_draw() -> None:
    st = game(0, {0: "五", 1: "五五拾"}, stock="??五")
    st.apply(st.to_act()[0], "打:五")
    st.apply(1, "碰:五")
    discard(st, "拾")
    pass_until(st, lambda s: bool(events_of(s, EventKind.PAO)))
    pao = last_event(st, EventKind.PAO)
    assert (pao.seat, pao.face, pao.source, pao.detail) == (1, F("五"), 1, "peng")
    assert [t.group.kind for t in st.tables[1]] == [GroupKind.PAO]
    assert st.phase is Phase.DISCARD and st.turn == 1


def test_drawer_may_chi_first_then_his_xiajia_but_not_his_shangjia() -> None:
    def start() -> State:
        st = game(
            0,
            {0: "拾三四", 1: "四六", 2: "六七"},
            exclude={1: "三五七伍", 2: "四五伍"},
            stock="五",
        )
        discard(st, "拾")
        assert st.window is not None and st.window.card == F("五") and st.window.source == 1
        return st

    st = start()
    assert st.to_act() == (1, 2)  # the dealer (上家 of the drawer) is not offered a 吃
    assert _chi_ids(st, 1) and _chi_ids(st, 2) and not st.legal_actions(0)
    st.apply(2, "吃:五六七")
    assert st.result is None and st.to_act() == (1,)  # waits for the drawer
    st.apply(1, "吃:四五六")
    chi = last_event(st, EventKind.CHI)
    assert (chi.seat, chi.source) == (1, 1)
    assert st.phase is Phase.DISCARD and st.turn == 1
    assert not st.chou_chi[2] & mask("五")  # overtaken: no mark

    st = start()
    st.apply(2, "吃:五六七")
    st.apply(1, "过")
    chi = last_event(st, EventKind.CHI)
    assert (chi.seat, chi.source) == (2, 1)
    assert st.phase is Phase.DISCARD and st.turn == 2
    assert st.chou_chi[1] & mask("五")  # the drawer passed his 吃: 臭吃
    # play goes on from the claimant: his 下家 (the dealer) draws after his discard
    st.apply(2, st.legal_actions(2)[0])
    if st.window is not None and not st.window.from_draw:
        pass_window(st)
    assert events_of(st, EventKind.DRAW)[1].seat == 0


def test_no_chi_or_peng_when_a_forced_pao_takes_the_card() -> None:
    # seat 2 has a 坎 of 五; seat 1 draws 五 and could otherwise 吃 it.
    st = game(0, {0: "拾", 1: "四六", 2: "五五五"}, exclude={1: "三五七伍"}, stock="五")
    discard(st, "拾")
    pao = last_event(st, EventKind.PAO)
    assert (pao.seat, pao.source) == (2, 1)
    assert not st.chou_chi[1] & mask("五")  # never offered: no mark
