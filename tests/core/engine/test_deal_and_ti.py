"""§3 (deal, dealt 提, 亮张), §5 step 1 (forced 提/偎 on an own draw), §9 (八块),
§14 (偎 hidden)."""

from __future__ import annotations

import random

from paohuzi.core.actions import HU_ID
from paohuzi.core.cards import full_deck
from paohuzi.core.engine import Deal, Phase, random_deal
from paohuzi.core.events import EventKind
from paohuzi.core.groups import GroupKind
from paohuzi.core.views import censored_log, view

from .scripted import F, autoplay, discard, events_of, game, last_event, pass_until

# Seat 1's waiting hand used below: 18 胡息, wins on 陆 (or 叁).
WAIT_LU = "壹贰叁贰柒拾一二三二七十四五六七八九肆伍"


# ---------------------------------------------------------------- §3 the deal


def test_a_seed_deals_the_cards_of_random_shuffle() -> None:
    """Seeds keep their deals: the engine's own shuffle draws what Random.shuffle does."""
    for seed in (0, 1, 2**40 + 7, 2**63 - 1):
        deck = list(full_deck())
        random.Random(seed).shuffle(deck)
        deal = random_deal(seed, 1)
        assert deal.hands == (tuple(deck[:20]), tuple(deck[20:41]), tuple(deck[41:61]))
        assert deal.stock == tuple(deck[61:])
        assert Deal(deal.dealer, deal.hands, deal.stock) == deal  # well formed


# ---------------------------------------------------------------- §3 dealt 提


def test_dealt_ti_declared_face_down_in_seat_order_before_the_opening_discard() -> None:
    st = game(1, {1: "五五五五", 2: "六六六六", 0: "七七七七"})
    kinds = [e.kind for e in st.log]
    assert kinds[:4] == [EventKind.DEAL, EventKind.TI, EventKind.TI, EventKind.TI]
    tis = st.log[1:4]
    assert [e.seat for e in tis] == [1, 2, 0]  # from the dealer, in seat order
    assert [e.face for e in tis] == [F("五"), F("六"), F("七")]
    assert all(e.detail == "dealt" and e.hidden for e in tis)
    # dealer: 21 cards, one 提 -> T = W(1) = 21, owes the opening discard
    assert st.phase is Phase.DISCARD and st.turn == 1
    assert not events_of(st, EventKind.DISCARD)
    # face down to the others: view and censored events
    for seat, owner in ((0, 1), (2, 1), (1, 2), (None, 0)):
        g = view(st, seat).tables[owner][0]
        assert g.kind is GroupKind.TI and g.faces is None and g.hidden
        ti = next(e for e in censored_log(st, seat) if e.kind is EventKind.TI and e.seat == owner)
        assert ti.face is None and ti.groups == ()
    assert view(st, 1).tables[1][0].faces == (F("五"),) * 4
    # revealed when the round is over
    autoplay(st, win=False)
    assert view(st, 0).tables[1][0].faces == (F("五"),) * 4


def test_dealer_with_two_dealt_ti_makes_no_opening_discard() -> None:
    st = game(0, {0: "五五五五六六六六"})
    assert [e.kind for e in st.log[:3]] == [EventKind.DEAL, EventKind.TI, EventKind.TI]
    # T = 21, k = 2, W = 22: no discard, his 下家 draws first
    assert st.log[3].kind is EventKind.DRAW and st.log[3].seat == 1
    assert not events_of(st, EventKind.DISCARD)


def test_dealer_with_one_dealt_ti_discards() -> None:
    st = game(0, {0: "五五五五"})
    assert st.phase is Phase.DISCARD and st.turn == 0
    assert not events_of(st, EventKind.DRAW)


def test_player_with_two_dealt_ti_skips_his_next_discard() -> None:
    # seat 1: two dealt 提 (T = 20, W(2) = 22); his 吃 brings T to 21 < 22: no discard.
    st = game(0, {0: "五", 1: "一一一一二二二二四六"}, exclude={1: "三五七伍"}, stock="?")
    st.apply(st.to_act()[0], "打:五")
    assert st.to_act() == (1,)
    st.apply(1, "吃:四五六")
    assert last_event(st, EventKind.CHI).seat == 1
    assert not st.owes_discard(1)
    assert st.phase is not Phase.DISCARD or st.turn != 1
    after_chi = st.log.index(last_event(st, EventKind.CHI))
    assert st.log[after_chi + 1].kind is EventKind.DRAW and st.log[after_chi + 1].seat == 2


def test_three_ti_or_five_kan_at_the_deal_win_nothing() -> None:
    # dealer: three dealt 提 (T = 21 < W(3) = 23: no opening discard); seat 2: five 坎.
    st = game(0, {0: "五五五五六六六六七七七七", 2: "一一一二二二三三三四四四八八八"})
    assert [e.kind for e in st.log[:4]] == [
        EventKind.DEAL,
        EventKind.TI,
        EventKind.TI,
        EventKind.TI,
    ]
    assert st.log[4].kind is EventKind.DRAW and st.log[4].seat == 1
    assert not events_of(st, EventKind.HU) and st.result is None


# ---------------------------------------------------------------- §3 亮张


def test_liangzhang_is_shown_kept_and_never_claimable() -> None:
    # seat 1 has a 坎 of the 亮张's face, seat 2 a hand that wins on it.
    st = game(0, {1: "伍伍伍", 2: WAIT_LU}, liang="陆")
    assert st.log[0].face == F("陆")
    assert all(view(st, s).liangzhang == F("陆") for s in (0, 1, 2, None))
    assert st.hands[0][F("陆")] == 1  # it stays in the dealer's hand
    # nothing happens on it: no 胡, no 跑 — the dealer simply discards first
    assert st.phase is Phase.DISCARD and st.turn == 0 and st.window is None
    assert len(st.log) == 1
    st2 = game(0, {1: "陆陆陆"}, liang="陆")
    assert st2.phase is Phase.DISCARD and st2.turn == 0 and len(st2.log) == 1
    assert st2.hands[1][F("陆")] == 3


# ------------------------------------------------- §5 step 1: forced 提 / 偎


def test_own_draw_onto_a_kan_is_a_forced_ti_then_a_discard() -> None:
    st = game(0, {0: "拾", 1: "五五五"}, stock="五")
    discard(st, "拾")
    e = last_event(st, EventKind.TI)
    assert (e.seat, e.face, e.detail, e.hidden) == (1, F("五"), "kan", False)
    assert st.hands[1][F("五")] == 0
    assert [t.group.kind for t in st.tables[1]] == [GroupKind.TI]
    assert not st.tables[1][0].hidden
    assert view(st, 2).tables[1][0].faces == (F("五"),) * 4  # a drawn 提 is face up
    # first 提: T = 21 = W(1), he discards
    assert st.phase is Phase.DISCARD and st.turn == 1
    assert not events_of(st, EventKind.PAO)
    assert [e.seat for e in events_of(st, EventKind.PILE)] == [0]  # only the 拾


def test_own_draw_onto_a_pair_is_a_hidden_wei() -> None:
    st = game(0, {0: "拾", 1: "五五"}, stock="五")
    discard(st, "拾")
    e = last_event(st, EventKind.WEI)
    assert (e.seat, e.face, e.detail, e.hidden) == (1, F("五"), "", True)
    draw = last_event(st, EventKind.DRAW)
    assert draw.seat == 1 and draw.hidden
    assert st.tables[1][-1].group.kind is GroupKind.WEI and st.tables[1][-1].hidden
    assert st.phase is Phase.DISCARD and st.turn == 1  # T = 21 = W(0)
    # §14: hidden from the others, in the view and in the censored events
    for seat in (0, 2, None):
        g = view(st, seat).tables[1][-1]
        assert g.kind is GroupKind.WEI and g.faces is None
        seen = [e for e in censored_log(st, seat) if e.seat == 1]
        assert [e.face for e in seen if e.kind in (EventKind.WEI, EventKind.DRAW)] == [None, None]
        assert all(F("五") not in g.faces for e in seen for g in e.groups)
    assert view(st, 1).tables[1][-1].faces == (F("五"),) * 3
    assert [e.face for e in censored_log(st, 1) if e.kind is EventKind.WEI] == [F("五")]


def test_own_draw_onto_a_table_wei_is_a_ti() -> None:
    # seat 1 偎 五 (draw 1), discards 拾; seats 2 and 0 draw fillers; seat 1 draws 五 again.
    st = game(0, {0: "玖", 1: "五五拾"}, stock="五??五")
    discard(st, "玖")
    assert last_event(st, EventKind.WEI).seat == 1
    discard(st, "拾")
    pass_until(st, lambda s: bool(events_of(s, EventKind.TI)))
    e = last_event(st, EventKind.TI)
    assert (e.seat, e.face, e.detail) == (1, F("五"), "wei")
    assert [t.group.kind for t in st.tables[1]] == [GroupKind.TI]
    assert not st.tables[1][0].hidden
    # his first 提: T = 21 = W(1), a discard is owed
    assert st.phase is Phase.DISCARD and st.turn == 1


def test_forced_ti_comes_before_hu_and_a_ti_hu_is_offered() -> None:
    # seat 1 holds a 坎 捌 and a hand complete with it: his own 捌 is a 提, then 提胡.
    st = game(0, {0: "拾", 1: "捌捌捌壹贰叁贰柒拾一二三二七十四五六九九"}, stock="捌")
    discard(st, "拾")
    assert last_event(st, EventKind.TI).seat == 1
    assert st.to_act() == (1,) and HU_ID in st.legal_actions(1)
    st.apply(1, "胡")
    assert st.result is not None and st.result.winner == 1
    assert st.result.win is not None and st.result.win.how == "提胡"


# ---------------------------------------------------------------- §9 八块


def test_discard_after_the_first_ti_but_not_after_the_second() -> None:
    st = game(0, {0: "玖", 1: "五五五六六六拾"}, stock="五??六")
    discard(st, "玖")
    assert last_event(st, EventKind.TI).face == F("五")
    assert st.phase is Phase.DISCARD and st.turn == 1  # first 提: discard
    discard(st, "拾")
    pass_until(st, lambda s: len(events_of(s, EventKind.TI)) == 2)
    ti = last_event(st, EventKind.TI)
    assert ti.face == F("六") and ti.seat == 1
    i = st.log.index(ti)
    # second 提 (八块): T = 21 after his discard and the 提, W(2) = 22: he owes nothing
    assert not st.owes_discard(1)
    assert st.log[i + 1].kind is EventKind.DRAW and st.log[i + 1].seat == 2
    assert [e.seat for e in events_of(st, EventKind.DISCARD)] == [0, 1]


def test_discard_after_the_first_pao_but_not_after_the_second() -> None:
    # seat 2 has two 坎; cards drawn by others 跑 them.
    st = game(0, {0: "玖", 2: "五五五六六六拾"}, stock="五?六")
    discard(st, "玖")
    pao = last_event(st, EventKind.PAO)
    assert (pao.seat, pao.face, pao.source, pao.detail) == (2, F("五"), 1, "kan")
    assert st.phase is Phase.DISCARD and st.turn == 2
    discard(st, "拾")
    pass_until(st, lambda s: len(events_of(s, EventKind.PAO)) == 2)
    pao = last_event(st, EventKind.PAO)
    assert (pao.seat, pao.face) == (2, F("六"))
    i = st.log.index(pao)
    assert st.log[i + 1].kind is EventKind.DRAW and st.log[i + 1].seat == 0
    assert [e.seat for e in events_of(st, EventKind.DISCARD)] == [0, 2]
