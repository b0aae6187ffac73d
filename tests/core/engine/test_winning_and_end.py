"""§4/§5 (胡 only on drawn cards), §10 (best arrangement), §11 (海底), §12 (settlement),
§13 (荒庄, next dealer, a match)."""

from __future__ import annotations

from typing import Any

from paohuzi.core.actions import HU_ID
from paohuzi.core.engine import Phase, State
from paohuzi.core.events import EventKind
from paohuzi.core.groups import parse_group
from paohuzi.core.match import Match, replay_match
from paohuzi.core.rules import HONG_GUAI_WAN

from .scripted import F, autoplay, discard, events_of, game, last_event, pass_until, pass_window

WAIT_LU = "壹贰叁贰柒拾一二三二七十四五六七八九肆伍"  # 18 胡息, wins on 陆 or 叁
# A 坎 捌 with a hand that is complete once the 坎 becomes a 跑/提.
KAN_BA = "捌捌捌壹贰叁贰柒拾一二三二七十四五六九九"


# ---------------------------------------------------------------- 胡 only on a drawn card


def test_a_discard_that_completes_a_hand_offers_no_hu() -> None:
    st = game(0, {0: "陆", 1: WAIT_LU})
    st.apply(st.to_act()[0], "打:陆")
    assert st.window is not None and st.window.card == F("陆") and not st.window.from_draw
    assert HU_ID not in st.legal_actions(1)
    assert any(a.text() == "吃:肆伍陆" for a in st.legal_moves(1))


def test_the_same_card_drawn_by_another_player_wins() -> None:
    st = game(0, {0: "玖", 1: WAIT_LU}, stock="?陆")
    discard(st, "玖")
    pass_until(st, lambda s: s.window is not None and s.window.card == F("陆"))
    assert st.window is not None and st.window.source == 2
    st.apply(1, "胡")
    assert st.result is not None and st.result.winner == 1
    win = st.result.win
    assert win is not None and not win.self_drawn
    assert (win.huxi, win.tun, win.fan, win.score) == (18, 2, 1, 2)
    assert st.result.deltas == (-2, 4, -2)


def test_no_hu_after_a_pao_made_on_a_discard() -> None:
    st = game(0, {0: "捌", 1: KAN_BA})
    st.apply(st.to_act()[0], "打:捌")
    pao = last_event(st, EventKind.PAO)
    assert (pao.seat, pao.source, pao.detail) == (1, 0, "kan")
    # his hand is now complete, but a discard never wins: he discards instead
    assert not events_of(st, EventKind.HU) and st.result is None
    assert st.phase is Phase.DISCARD and st.turn == 1


def test_pao_hu_on_a_card_drawn_by_another() -> None:
    st = game(0, {0: "玖", 1: KAN_BA}, stock="?捌")
    discard(st, "玖")
    pass_until(st, lambda s: s.window is not None and s.window.card == F("捌"))
    assert st.to_act() == (1,) and HU_ID in st.legal_actions(1)
    st.apply(1, "胡")
    assert st.result is not None and st.result.win is not None
    assert st.result.win.how == "跑胡" and st.result.win.huxi == 27
    assert parse_group("跑:捌捌捌捌") in st.result.win.groups


# ---------------------------------------------------------------- §10 best arrangement


def test_the_best_arrangement_is_picked() -> None:
    # seat 2: 坎 陆 + 六六 + five groups. On 陆 drawn by seat 1 the 坎 may stay whole
    # (陆六六, 18 胡息, 2 囤) or become a 跑 with 六六 as the pair (21 胡息, 3 囤).
    st = game(0, {0: "玖", 2: "陆陆陆壹贰叁贰柒拾三四五七八九二三四六六"}, stock="陆")
    discard(st, "玖")
    assert st.window is not None and st.window.card == F("陆")
    assert HU_ID in st.legal_actions(2)
    pass_until(st, lambda s: s.to_act() == (2,))
    st.apply(2, "胡")
    res = st.result
    assert res is not None and res.winner == 2 and res.win is not None
    assert (res.win.huxi, res.win.tun, res.win.fan, res.win.score, res.win.how) == (
        21,
        3,
        1,
        3,
        "跑胡",
    )
    assert parse_group("跑:陆陆陆陆") in res.win.groups
    assert parse_group("对:六六") in res.win.groups
    hu = last_event(st, EventKind.HU)
    assert hu.numbers == (21, 3, 1, 3) and hu.groups == res.win.groups and hu.face == F("陆")
    assert sum(len(g.faces) for g in res.win.groups) == 21
    assert res.deltas == (-3, -3, 6)


# ---------------------------------------------------------------- §11 海底胡 / §13 荒庄


def _haidi_game(**kw: Any) -> State:
    # every draw unclaimed: the 19th (last) card is drawn by seat 1 (draws go 1, 2, 0, ...).
    # 拾拾 for the dealer and 拾 for seat 2 keep the dealer's filler pairs harmless.
    st = game(0, {0: "玖拾拾", 2: "拾", 1: WAIT_LU}, stock_tail="陆", **kw)
    discard(st, "玖")
    pass_until(st, lambda s: s.over or (s.window is not None and s.stock_count == 0))
    return st


def test_haidi_hu_on_the_last_stock_card() -> None:
    st = _haidi_game()
    w = st.window
    assert w is not None and w.last_card and w.card == F("陆") and w.source == 1
    assert st.draws == 19
    st.apply(1, "胡")
    win = st.result.win if st.result is not None else None
    assert win is not None and win.last_card and win.self_drawn
    assert win.mingtang == {"海底胡": 2}
    assert (win.huxi, win.tun, win.fan, win.score) == (18, 3, 2, 6)
    assert st.result is not None and st.result.deltas == (-6, 12, -6)
    assert st.result.next_dealer == 1


def test_settlement_caps_the_losers_payment_and_the_winners_gain() -> None:
    # loser cap: the dealer (seat 1's 上家) holds only 2
    st = _haidi_game(balances=(2, 100, 100))
    st.apply(1, "胡")
    assert st.result is not None
    assert st.result.deltas == (-2, 8, -6)
    assert st.result.balances == (0, 108, 94)
    settle = last_event(st, EventKind.SETTLE)
    assert settle.numbers == (-2, 8, -6)
    # winner cap: seat 1 may gain at most his 5; his 下家 (seat 2) pays ⌊5·6/12⌋ = 2
    st = _haidi_game(balances=(100, 5, 100))
    st.apply(1, "胡")
    assert st.result is not None
    assert st.result.deltas == (-3, 5, -2)
    assert sum(st.result.balances) == 205
    # caps off: full payments
    rules = HONG_GUAI_WAN.with_(cap_winner_gain=False, cap_loser_payment=False)
    st = _haidi_game(balances=(2, 5, 100), rules=rules)
    st.apply(1, "胡")
    assert st.result is not None and st.result.deltas == (-6, 12, -6)


def test_huangzhuang_when_the_stock_runs_out_keeps_the_dealer() -> None:
    st = _haidi_game(balances=(10, 20, 30))
    pass_window(st)  # the last card is played out normally: nobody takes it
    assert st.over and st.result is not None
    assert st.result.winner is None and st.result.win is None
    assert st.result.deltas == (0, 0, 0)
    assert st.result.balances == (10, 20, 30)
    assert st.result.next_dealer == 0
    kinds = [e.kind for e in st.log[-6:]]
    assert kinds == [
        EventKind.PILE,
        EventKind.HUANGZHUANG,
        EventKind.SETTLE,
        EventKind.REVEAL,
        EventKind.REVEAL,
        EventKind.REVEAL,
    ]
    assert st.stock_count == 0


def test_huangzhuang_for_another_dealer() -> None:
    st = autoplay(game(2, {}), win=False)
    assert st.result is not None and st.result.winner is None
    assert st.result.next_dealer == 2 and st.result.deltas == (0, 0, 0)
    assert events_of(st, EventKind.HUANGZHUANG)


# ---------------------------------------------------------------- §13 a match


def test_a_match_carries_balances_and_dealers() -> None:
    found_win = found_draw = False
    for seed in range(40):
        m = Match(seed=seed, rounds=3)
        prev = None
        while not m.over:
            st = m.start_round()
            if prev is not None:
                assert prev.result is not None
                assert st.balances_at_start == prev.result.balances
                assert st.dealer == prev.result.next_dealer
                if prev.result.winner is not None:
                    assert st.dealer == prev.result.winner
                else:
                    assert st.dealer == prev.dealer
            autoplay(st)
            m.end_round()
            assert st.result is not None
            found_win |= st.result.winner is not None and st.result.winner != st.dealer
            found_draw |= st.result.winner is None
            prev = st
        assert len(m.finished) == 3
        assert sum(m.totals()) == 0
        results = [r.result for r in m.finished if r.result is not None]
        assert len(results) == 3
        assert m.balances == results[-1].balances
        assert m.totals() == tuple(sum(r.deltas[i] for r in results) for i in range(3))
        replayed = [s.result for s in replay_match(m.record())]
        assert [r.deltas if r is not None else None for r in replayed] == [
            r.deltas for r in results
        ]
        if found_win and found_draw:
            break
    assert found_win and found_draw
