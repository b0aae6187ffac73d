"""§7 ruling (no 吃/碰 that leaves only 坎 while owing a discard) and §9 dead hand."""

from __future__ import annotations

from paohuzi.core.actions import CHI_BASE, PENG_ID
from paohuzi.core.engine import Phase, State
from paohuzi.core.events import EventKind
from paohuzi.core.rules import HONG_GUAI_WAN
from paohuzi.core.views import view

from .scripted import F, discard, events_of, game, last_event, mask, pass_until

SIX_KAN = "一一一三三三八八八壹壹壹叁叁叁捌捌捌"


def _first_window_seats(st: State) -> set[int]:
    d = last_event(st, EventKind.DISCARD)
    nxt = st.log[st.log.index(d) + 1]
    if nxt.kind is EventKind.PILE:
        return set()
    assert st.window is not None and st.window.card == d.face
    return set(st.window.options)


# ---------------------------------------------------------------- §7 ruling


def test_peng_that_would_leave_only_kan_is_not_offered() -> None:
    st = game(0, {0: "五", 1: SIX_KAN + "五五"})
    st.apply(st.to_act()[0], "打:五")
    assert 1 not in _first_window_seats(st)
    assert not st.chou_peng[1] & mask("五")  # no offer, no mark
    # control: with a free card left over, the same 碰 is offered
    st = game(0, {0: "五", 1: "一一一三三三八八八壹壹壹叁叁叁捌五五"})
    st.apply(st.to_act()[0], "打:五")
    assert PENG_ID in st.legal_actions(1)


def test_chi_that_would_leave_only_kan_is_not_offered() -> None:
    st = game(0, {0: "五", 1: SIX_KAN + "四六"})
    st.apply(st.to_act()[0], "打:五")
    assert 1 not in _first_window_seats(st)
    assert not st.chou_chi[1] & mask("五")
    st = game(0, {0: "五", 1: "一一一三三三八八八壹壹壹叁叁叁捌四六"})
    st.apply(st.to_act()[0], "打:五")
    assert any(a >= CHI_BASE for a in st.legal_actions(1))


# ---------------------------------------------------------------- §9 dead hand

# seat 1: four 坎 (3 red 二: no 名堂 possible), a pair 五五 and cards for two 吃.
FOUR_KAN = "二二二一一一三三三八八八五五肆伍柒捌九十"


def _cannot_hu_dead(stock_tail: str = "") -> State:
    """Seat 1 吃s 陆 (discard) and 玖 (own draw), then draws 五: a forced 偎 leaves
    four 坎 while he owes a discard, and 15 胡息 without 名堂 does not win."""
    st = game(
        0,
        {0: "陆", 1: FOUR_KAN},
        stock="??玖??五" + stock_tail,
        exclude={0: "玖五", 2: "陆玖五"},
    )
    st.apply(st.to_act()[0], "打:陆")
    st.apply(1, "吃:肆伍陆")
    discard(st, "九", 1)
    pass_until(
        st, lambda s: s.window is not None and (s.window.card, s.window.source) == (F("玖"), 1)
    )
    for s in st.to_act():
        if s != 1:
            st.apply(s, "过")
    st.apply(1, "吃:柒捌玖")
    discard(st, "十", 1)
    pass_until(st, lambda s: bool(events_of(s, EventKind.WEI)))
    return st


def test_forced_wei_leaving_only_kan_makes_a_dead_hand() -> None:
    st = _cannot_hu_dead()
    wei = last_event(st, EventKind.WEI)
    assert (wei.seat, wei.face) == (1, F("五"))
    dead = last_event(st, EventKind.DEAD)
    assert dead.seat == 1 and st.dead == [False, True, False]
    assert view(st, 2).dead == (False, True, False)
    assert st.log.index(dead) == st.log.index(wei) + 1  # no 偎胡 offered: he cannot win
    i = st.log.index(dead)
    # no discard: his 下家 draws
    assert st.log[i + 1].kind is EventKind.DRAW and st.log[i + 1].seat == 2
    assert [e.seat for e in events_of(st, EventKind.DISCARD)] == [0, 1, 1]


def test_dead_hand_still_makes_forced_pao_and_ti_and_never_discards() -> None:
    # after his death: seat 2 draws 三 (seat 1's 坎 跑s; he owes nothing, seat 2 draws
    # again), seat 2 ?, seat 0 ?, seat 1 draws 一 (提 of his 坎, again no discard).
    st = _cannot_hu_dead("三??一")
    windows: list[set[int]] = []

    def stop(s: State) -> bool:
        if s.window is not None and s.phase is Phase.CLAIM:
            windows.append(set(s.window.options))
        return s.over or any(e.face == F("一") for e in events_of(s, EventKind.TI))

    pass_until(st, stop)
    pao = last_event(st, EventKind.PAO)
    assert (pao.seat, pao.face, pao.source, pao.detail) == (1, F("三"), 2, "kan")
    i = st.log.index(pao)
    assert st.log[i + 1].kind is EventKind.DRAW and st.log[i + 1].seat == 2
    ti = last_event(st, EventKind.TI)
    assert (ti.seat, ti.face, ti.detail) == (1, F("一"), "kan")
    j = st.log.index(ti)
    assert st.log[j + 1].kind is EventKind.DRAW and st.log[j + 1].seat == 2
    assert [e.seat for e in events_of(st, EventKind.DISCARD)] == [0, 1, 1]
    # never offered 胡, 吃 or 碰 again
    assert all(1 not in seats for seats in windows)
    assert st.dead[1]


def test_declining_a_wei_hu_with_only_kan_left_makes_a_dead_hand() -> None:
    # six 坎 and a pair: his own 五 is a 偎 and a 偎胡 (碰碰胡); he does not 胡.
    st = game(0, {0: "拾", 1: SIX_KAN + "五五"}, stock="五")
    discard(st, "拾")
    assert st.to_act() == (1,) and st.window is not None and st.window.after_own
    st.apply(1, "过")
    dead = last_event(st, EventKind.DEAD)
    assert dead.seat == 1 and st.dead[1]
    i = st.log.index(dead)
    assert st.log[i + 1].kind is EventKind.DRAW and st.log[i + 1].seat == 2


def test_dead_hand_rule_off_keeps_the_player_alive() -> None:
    rules = HONG_GUAI_WAN.with_(dead_hand=False)
    st = game(0, {0: "拾", 1: SIX_KAN + "五五"}, stock="五", rules=rules)
    discard(st, "拾")
    st.apply(1, "过")  # decline the 偎胡
    assert not events_of(st, EventKind.DEAD)
    # he must break a 坎 instead
    assert st.phase is Phase.DISCARD and st.turn == 1
    assert set(st.legal_actions(1)) == {F(c) for c in "一三八壹叁捌"}


def test_dealer_dealt_only_kan_starts_dead() -> None:
    st = game(0, {0: "一一一三三三八八八壹壹壹叁叁叁捌捌捌五五"}, liang="五")
    assert st.log[1].kind is EventKind.DEAD and st.log[1].seat == 0
    assert st.dead[0]
    assert st.log[2].kind is EventKind.DRAW and st.log[2].seat == 1
    assert not events_of(st, EventKind.DISCARD)
