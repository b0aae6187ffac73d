"""Checked apply: out-of-turn, illegal, stale and garbage actions are refused with a
message quoting the input, and leave the state unchanged."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from paohuzi.core.engine import State
from paohuzi.core.errors import IllegalActionError, NotationError, PaohuziError

from .scripted import F, autoplay, game


def _snapshot(st: State) -> tuple[object, ...]:
    return (
        len(st.log),
        st.version,
        len(st.decisions),
        [h[:] for h in st.hands],
        [t[:] for t in st.tables],
        [p[:] for p in st.piles],
        st.stock[:],
        st.phase,
        st.turn,
        st.to_act(),
        st.chou_chi[:],
        st.chou_peng[:],
    )


def _refused(st: State, call: Callable[[], object], err: type[Exception], quote: str) -> None:
    before = _snapshot(st)
    with pytest.raises(err) as info:
        call()
    assert isinstance(info.value, ValueError) and isinstance(info.value, PaohuziError)
    assert quote in str(info.value), str(info.value)
    assert _snapshot(st) == before


def test_out_of_turn() -> None:
    st = game(0, {0: "五"})
    _refused(st, lambda: st.apply(1, "打:五"), IllegalActionError, "打:五")
    _refused(st, lambda: st.apply(2, "过"), IllegalActionError, "过")
    _refused(st, lambda: st.apply(7, "打:五"), IllegalActionError, "7")


def test_illegal_actions() -> None:
    st = game(0, {0: "五六六六", 1: "七"}, exclude={0: "七"})
    _refused(
        st, lambda: st.apply(st.to_act()[0], "打:七"), IllegalActionError, "打:七"
    )  # not in hand
    _refused(
        st, lambda: st.apply(st.to_act()[0], "打:六"), IllegalActionError, "打:六"
    )  # a 坎 card
    _refused(
        st, lambda: st.apply(st.to_act()[0], "过"), IllegalActionError, "过"
    )  # nothing to pass
    _refused(st, lambda: st.apply(st.to_act()[0], "碰:五"), IllegalActionError, "碰:五")
    _refused(st, lambda: st.apply(st.to_act()[0], "胡"), IllegalActionError, "胡")
    _refused(st, lambda: st.apply(st.to_act()[0], 999), IllegalActionError, "999")
    _refused(st, lambda: st.apply(st.to_act()[0], 3.5), IllegalActionError, "3.5")  # type: ignore[arg-type]
    st.apply(st.to_act()[0], "打:五")  # and the legal one goes through


def test_illegal_claim_in_a_window() -> None:
    st = game(0, {0: "五", 1: "四六"}, exclude={1: "三五七伍"})
    st.apply(st.to_act()[0], "打:五")
    assert 1 in st.to_act()
    _refused(st, lambda: st.apply(1, "碰:五"), IllegalActionError, "碰:五")
    _refused(st, lambda: st.apply(1, "吃:三四五"), IllegalActionError, "吃:三四五")
    _refused(st, lambda: st.apply(1, "打:四"), IllegalActionError, "打:四")
    _refused(st, lambda: st.apply(1, "胡"), IllegalActionError, "胡")


def test_several_seats_to_act_each_name_their_seat() -> None:
    st = game(0, {0: "五", 1: "四六", 2: "五五"}, exclude={1: "三五七伍"})
    st.apply(0, "打:五")
    assert set(st.to_act()) == {1, 2}
    _refused(st, lambda: st.apply(None, "过"), IllegalActionError, "None")  # type: ignore[arg-type]
    _refused(st, lambda: st.apply(True, "过"), IllegalActionError, "True")
    _refused(st, lambda: st.apply(0, "过"), IllegalActionError, "seat 0 is not to act")
    assert not st.can_apply(0, "过") and st.can_apply(2, "过") and st.can_apply(1, "过")
    st.apply(2, "过")
    assert st.to_act() == (1,)


def test_refusals_name_the_rule() -> None:
    """A refused action says why, with the RULES.md section (as PokerKit's verify)."""
    st = game(0, {0: "五六六六", 1: "七"}, exclude={0: "七"})
    with pytest.raises(IllegalActionError, match="never one of a 坎"):
        st.verify(0, "打:六")
    with pytest.raises(IllegalActionError, match="not in the hand"):
        st.verify(0, "打:七")
    with pytest.raises(IllegalActionError, match="discard a card"):
        st.verify(0, "过")
    assert st.verify(0, "打:五") == 4
    assert not st.can_apply(0, "xyz")  # bad notation is no legal action either


def test_stale_version() -> None:
    st = game(0, {0: "五"})
    v = st.version
    _refused(st, lambda: st.apply(0, "打:五", version=v + 1), IllegalActionError, "打:五")
    st.apply(0, "打:五", version=v)
    assert st.version == v + 1
    if st.to_act():
        s = st.to_act()[0]
        _refused(st, lambda: st.apply(s, "过", version=v), IllegalActionError, "过")


def test_garbage_text() -> None:
    st = game(0, {0: "五"})
    _refused(st, lambda: st.apply(st.to_act()[0], "xyz"), NotationError, "xyz")
    _refused(st, lambda: st.apply(st.to_act()[0], "打:鬼"), NotationError, "打:鬼")
    _refused(st, lambda: st.apply(st.to_act()[0], "打:五六"), NotationError, "打:五六")
    _refused(st, lambda: st.apply(st.to_act()[0], ""), NotationError, "empty")
    _refused(
        st, lambda: st.apply(st.to_act()[0], "吃:一二三"), NotationError, "吃:一二三"
    )  # no card on offer


def test_no_action_after_the_round_is_over() -> None:
    st = autoplay(game(0, {0: "五"}), win=False)
    assert st.over
    _refused(st, lambda: st.apply(0, "过"), IllegalActionError, "过")
    _refused(st, lambda: st.apply(0, F("五")), IllegalActionError, "over")


def test_a_chi_without_its_bi_says_bi_is_compulsory() -> None:
    """The README's example: the refusal names §7's compulsory 比 and lists the legal 吃."""
    st = game(0, {0: "五", 1: "四五六六七"}, exclude={1: "三八伍"})
    st.apply(0, "打:五")
    with pytest.raises(IllegalActionError) as info:
        st.verify(1, "吃:四五六")
    msg = str(info.value)
    assert "'吃:四五六' for seat 1" in msg and "比 is compulsory" in msg and "§7" in msg
    assert msg.endswith("legal: 吃:四五六 比:五六七, 过")
