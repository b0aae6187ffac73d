"""The ``tianhu`` rule-set field (off in 红拐弯, RULES.md §3 and §15)."""

from __future__ import annotations

from paohuzi.core.engine import Phase
from paohuzi.core.events import EventKind
from paohuzi.core.rules import HONG_GUAI_WAN

from .scripted import game

# 壹贰叁 贰柒拾 一二三 二七十 肆伍陆 四五六 七八 + 亮张 九: 18 胡息 with the 亮张.
DEALER = "壹贰叁贰柒拾一二三二七十肆伍陆四五六七八"
TIANHU = HONG_GUAI_WAN.with_(tianhu=True)


def test_no_tianhu_by_default() -> None:
    st = game(dealer=0, hands={0: DEALER}, liang="九")
    assert st.phase is Phase.DISCARD and st.turn == 0


def test_tianhu_on_the_dealer_may_win_on_the_liangzhang() -> None:
    st = game(dealer=0, hands={0: DEALER}, liang="九", rules=TIANHU)
    assert st.to_act() == (0,)
    assert [a.text() for a in st.legal_moves(0)] == ["胡", "过"]
    st.apply(0, "胡")
    assert st.result is not None and st.result.winner == 0
    assert st.result.win is not None and st.result.win.huxi == 18
    assert st.card_counts() == [4] * 20


def test_declined_tianhu_leaves_the_dealer_to_discard() -> None:
    st = game(dealer=0, hands={0: DEALER}, liang="九", rules=TIANHU)
    st.apply(0, "过")
    assert st.phase is Phase.DISCARD and st.turn == 0
    assert not [e for e in st.log if e.kind is EventKind.DEAD]
    assert st.card_counts() == [4] * 20
