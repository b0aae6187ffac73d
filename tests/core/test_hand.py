"""Win evaluation and waiting cards (RULES.md §10, §11): each rule a test that breaks with it."""

from __future__ import annotations

import re

import pytest

from paohuzi.core import COMPILED
from paohuzi.core.cards import counts_of, parse_face, parse_faces
from paohuzi.core.errors import HandError, NotationError, PaohuziError
from paohuzi.core.groups import GroupKind, parse_groups
from paohuzi.core.hand import (
    WinResult,
    build_tables,
    cache_info,
    clear_cache,
    complete_size,
    decompose,
    discard_waits,
    evaluate_counts,
    evaluate_win,
    waits,
    waits_counts,
)
from paohuzi.core.rules import HONG_GUAI_WAN

T1 = "碰:贰贰贰 吃:壹贰叁"
H1 = "捌捌捌二七十四五六一一壹陆柒"
# six table groups (18 cards, no 提/跑): a hand of two waits for one card
T6 = "偎:拾拾拾 偎:柒柒柒 碰:贰贰贰 吃:壹贰叁 碰:叁叁叁 偎:玖玖玖"
# six table groups with a 跑 (19 cards): a hand of one waits for its pair
T6K = "跑:捌捌捌捌 偎:拾拾拾 碰:贰贰贰 吃:壹贰叁 偎:玖玖玖 碰:叁叁叁"
T5 = "偎:拾拾拾 偎:柒柒柒 碰:贰贰贰 吃:壹贰叁 碰:叁叁叁"


def win(table: str, hand: str, card: str, self_drawn: bool = False, **kw: object) -> WinResult:
    r = evaluate_win(table=table, hand=hand, card=card, self_drawn=self_drawn, **kw)  # type: ignore[arg-type]
    assert r is not None, f"{table} | {hand} + {card} should win"
    return r


def names(r: WinResult) -> list[str]:
    return [str(g) for g in r.groups]


def test_complete_size() -> None:
    assert [complete_size(k) for k in range(4)] == [21, 21, 22, 23]


# --- §10: every way X can be used ---------------------------------------------------------


def test_pao_on_table_wei_by_another_draw_ti_on_own_draw() -> None:
    table, hand = "偎:玖玖玖 吃:壹贰叁", "捌捌捌二七十四五六伍陆柒一一"
    other = win(table, hand, "玖")
    assert other.how == "跑胡" and "跑:玖玖玖玖" in names(other)
    assert (other.huxi, other.tun, other.score) == (24, 4, 4)
    own = win(table, hand, "玖", self_drawn=True)  # forced 提 (§5.1), 12 胡息 not 9
    assert own.how == "提胡" and "提:玖玖玖玖" in names(own)
    assert (own.huxi, own.tun, own.score) == (27, 6, 6)


def test_pao_on_table_peng_by_anyone_own_draw_is_zimo() -> None:
    table, hand = "碰:玖玖玖 吃:壹贰叁", "捌捌捌二七十四五六伍陆柒一一"
    other = win(table, hand, "玖")
    own = win(table, hand, "玖", self_drawn=True)
    for r in (other, own):
        assert r.how == "跑胡" and "跑:玖玖玖玖" in names(r) and r.huxi == 24
    assert (other.tun, own.tun) == (4, 5)  # 自摸 +1 囤


def test_pao_on_kan_by_another_draw_ti_on_own_draw() -> None:
    table, hand = "吃:壹贰叁 吃:二七十", "捌捌捌四五六七八九一一伍陆柒"
    other = win(table, hand, "捌")
    assert other.how == "跑胡" and (other.huxi, other.score) == (18, 2)
    own = win(table, hand, "捌", self_drawn=True)
    assert own.how == "提胡" and "提:捌捌捌捌" in names(own)
    assert (own.huxi, own.tun) == (21, 4)


def test_kan_stays_whole_while_x_goes_elsewhere() -> None:
    # 跑 would need a pair (陆柒 is none); X joins 陆柒 and the 坎 stays a 坎
    r = win(T5, "捌捌捌陆柒", "捌")
    assert r.how == "" and "坎:捌捌捌" in names(r) and "句:陆柒捌" in names(r)
    # on an own draw the 提 is forced, and then the hand is not complete
    assert evaluate_win(table=T5, hand="捌捌捌陆柒", card="捌", self_drawn=True) is None


def test_table_wei_stays_while_x_goes_elsewhere() -> None:
    table = "偎:拾拾拾 偎:柒柒柒 碰:贰贰贰 吃:壹贰叁 偎:捌捌捌"
    r = win(table, "陆柒一二三", "捌")
    assert r.how == "" and "偎:捌捌捌" in names(r) and "句:陆柒捌" in names(r)
    assert (
        evaluate_win(table=table, hand="陆柒一二三", card="捌", self_drawn=True) is None
    )  # forced 提


def test_pair_plus_x_scores_as_peng_not_kan() -> None:
    table, hand = "跑:柒柒柒柒 碰:叁叁叁 偎:九九九", "捌捌捌贰贰贰一一五五"
    r = win(table, hand, "五")
    assert r.how == "碰" and "碰:五五五" in names(r) and "坎:五五五" not in names(r)
    assert r.huxi == 28  # a 坎 would make it 30
    own = win(table, hand, "五", self_drawn=True)  # forced 偎: 3 胡息
    assert own.how == "偎胡" and "偎:五五五" in names(own)
    assert (own.huxi, own.tun, own.score) == (30, 7, 28)


def test_forced_wei_on_own_draw_can_cost_the_win() -> None:
    table = "偎:拾拾拾 碰:贰贰贰 吃:壹贰叁 偎:柒柒柒 吃:二七十"
    r = win(table, "三三叁四五", "三")  # another's draw: 三三叁 + 三四五
    assert "句:三三叁" in names(r) and "句:三四五" in names(r)
    assert (r.huxi, r.score) == (24, 20)
    assert evaluate_win(table=table, hand="三三叁四五", card="三", self_drawn=True) is None


def test_x_never_makes_a_kan_with_a_pair() -> None:
    # 三三 + 三 from another player is a 碰 or joins sets, never a 坎 (3 胡息)
    r = win("跑:柒柒柒柒 碰:叁叁叁 偎:九九九", "捌捌捌贰贰贰一一五五", "五")
    assert all(not (g.kind is GroupKind.KAN and g.face == parse_face("五")) for g in r.groups)


# --- §2 shapes inside a hand ----------------------------------------------------------------


def test_nine_ten_one_is_not_a_run() -> None:
    assert evaluate_win(table=T6, hand="九十", card="一") is None
    assert win(T6, "八九", "十").groups[-1].faces == parse_faces("八九十")


def test_mixed_sizes_never_in_runs() -> None:
    assert evaluate_win(table=T6, hand="二三", card="肆") is None
    assert "句:二三四" in names(win(T6, "二三", "四"))


def test_qi_and_big_qi_are_not_a_pair() -> None:
    assert evaluate_win(table=T6K, hand="七", card="柒") is None
    r = win(T6K, "七", "七")
    assert "对:七七" in names(r) and r.mingtang["耍猴"] == 4


def test_kan_is_never_split() -> None:
    table, hand = "吃:壹贰叁 吃:二七十 偎:贰贰贰", "捌捌捌陆柒玖拾八一二三"
    assert evaluate_win(table=table, hand=hand, card="八") is None
    # the same cards win when split, so the 坎 rule is what refuses it
    assert decompose(counts_of(parse_faces(hand + "八")), need_pair=False) is not None


# --- minimum, 囤, 名堂 at evaluation ------------------------------------------------------------


def test_minimum_15_with_mingtang_18_without() -> None:
    assert (
        evaluate_win(table=T1, hand="捌捌捌三四五四五六一一壹陆柒", card="伍") is None
    )  # 15, no 名堂
    low = HONG_GUAI_WAN.with_(min_huxi=15)
    r = win(T1, "捌捌捌三四五四五六一一壹陆柒", "伍", rules=low)
    assert (r.huxi, r.tun, r.score) == (15, 1, 1)
    dt, dh, dc = "偎:叁叁叁 碰:玖玖玖", "捌捌捌三四五四五六八九十一一", "壹"
    assert win(dt, dh, dc).huxi == 15  # 15 with 点胡 wins
    stricter = HONG_GUAI_WAN.with_(min_huxi_with_mingtang=16)
    assert evaluate_win(table=dt, hand=dh, card=dc, rules=stricter) is None
    no_dianhu = HONG_GUAI_WAN.with_(dianhu=0)
    assert evaluate_win(table=dt, hand=dh, card=dc, rules=no_dianhu) is None  # 名堂 off


def test_zimo_adds_one_tun_and_is_no_mingtang() -> None:
    other, own = win(T1, H1, "伍"), win(T1, H1, "伍", self_drawn=True)
    assert own.tun == other.tun + 1 and own.mingtang == other.mingtang == {}
    assert own.zimo and not other.zimo
    no_bonus = win(T1, H1, "伍", self_drawn=True, rules=HONG_GUAI_WAN.with_(zimo_bonus_tun=0))
    assert no_bonus.tun == other.tun


def test_haidi_on_last_card() -> None:
    assert win(T1, H1, "伍", last_card=True).mingtang == {"海底胡": 2}


def test_fan_combine_multiply() -> None:
    args = ("碰:七七七 吃:一二三 偎:十十十", "八八八九九九二七十三四", "五")
    r = win(*args, rules=HONG_GUAI_WAN.with_(fan_combine="multiply"))
    assert (r.fan, r.score) == (2 * 9, 18)


def test_pengpeng_needs_only_same_face_groups() -> None:
    r = win("跑:柒柒柒柒 碰:叁叁叁 偎:九九九", "捌捌捌贰贰贰一一五五", "五")
    assert "碰碰胡" in r.mingtang
    r = win(T6K, "七", "七")  # a 吃 on the table: no 碰碰胡
    assert "碰碰胡" not in r.mingtang


def test_shuahou_needs_a_single_card() -> None:
    table = "跑:捌捌捌捌 偎:拾拾拾 碰:贰贰贰 吃:壹贰叁 偎:玖玖玖"
    r = win(table, "七七六五", "四")  # four cards: no 耍猴
    assert "耍猴" not in r.mingtang


def test_best_arrangement_is_chosen() -> None:
    # 一二三 (3) beats 一一壹 + ... when both complete the hand
    r = win(T1, H1, "伍")
    assert r.huxi == sum(g.huxi for g in r.groups) == 18


# --- input handling ------------------------------------------------------------------------------


def test_inputs_in_any_notation_and_order() -> None:
    base = evaluate_win(table=T1, hand=H1, card="伍")
    ascii_table = "chi:b1,b2,b3 peng:b2,b2,b2"
    ascii_hand = "s1 s1 b1 b6 b7 b8 b8 b8 s2 s7 s10 s4 s5 s6"
    assert evaluate_win(table=ascii_table, hand=ascii_hand, card="b5") == base
    assert (
        evaluate_win(
            table=parse_groups(T1), hand=list(parse_faces(H1))[::-1], card=parse_face("伍")
        )
        == base
    )
    r = evaluate_counts(parse_groups(T1), counts_of(parse_faces(H1)), parse_face("伍"))
    assert r == base


@pytest.mark.parametrize(
    ("table", "hand", "card", "error", "message"),
    [
        (T1, H1[:-1] + "x", "伍", NotationError, "'x'"),
        (T1, H1, "伍伍", HandError, "one card"),
        (T1, H1, 3.5, HandError, "not a card"),
        (T1, "捌捌捌捌二七十四五六一一壹", "伍", HandError, "提"),
        ("碰:捌捌捌 吃:壹贰叁", "捌捌二七十四五六一一壹陆柒", "伍", HandError, "5 copies of 捌"),
        ("吃:捌玖拾 吃:壹贰叁", "二二二七十四五六一捌捌捌", "伍", HandError, "坎 捌捌捌"),
        ("坎:捌捌捌 吃:壹贰叁", "二七十四五六一一壹陆柒", "伍", HandError, "not a table group"),
        (T1, H1[:-2], "伍", HandError, "needs 20 cards"),
        (T1, H1 + "九", "伍", HandError, "got 21"),
    ],
)
def test_bad_input(
    table: str, hand: str, card: object, error: type[PaohuziError], message: str
) -> None:
    with pytest.raises(error, match=message):
        evaluate_win(table=table, hand=hand, card=card)  # type: ignore[arg-type]


def test_errors_are_value_errors() -> None:
    with pytest.raises(ValueError):
        evaluate_win(table=T1, hand="壹贰叁x", card="伍")


# --- waiting cards ------------------------------------------------------------------------------


def test_waits_other_and_zimo() -> None:
    ws = waits(table=T1, hand=H1)
    assert [w.face for w in ws] == [parse_face("伍"), parse_face("捌")]
    wu, ba = ws
    assert wu.other is not None and wu.self_drawn is not None
    assert (wu.other.score, wu.self_drawn.score, wu.best_score) == (2, 3, 3)
    # 捌 from another joins 陆柒 (the 坎 stays); on an own draw the 提 is forced and fails
    assert ba.other is not None and ba.self_drawn is None
    assert waits_counts(parse_groups(T1), counts_of(parse_faces(H1))) == ws
    d = wu.to_dict()
    assert d["card"] == "伍" and isinstance(d["other"], dict) and d["other"]["score"] == 2


def test_waits_match_evaluate_win_for_every_face() -> None:
    table, hand = "偎:玖玖玖 吃:壹贰叁", "捌捌捌二七十四五六伍陆柒一一"
    found = {w.face: w for w in waits(table=table, hand=hand)}
    for x in range(20):
        try:
            other = evaluate_win(table=table, hand=hand, card=x)
            own = evaluate_win(table=table, hand=hand, card=x, self_drawn=True)
        except HandError:  # a fifth copy
            other = own = None
        if other is None and own is None:
            assert x not in found
        else:
            assert found[x].other == other and found[x].self_drawn == own


def test_not_waiting() -> None:
    assert waits(table=T1, hand="捌捌捌三四五七八九一一壹陆肆") == []


def test_waits_size_check() -> None:
    with pytest.raises(HandError, match="waiting hand needs 20"):
        waits(table=T1, hand=H1 + "伍")
    with pytest.raises(HandError, match="owes a discard needs 21"):
        discard_waits(table=T1, hand=H1)


def test_discard_waits_which_card_to_throw() -> None:
    hand = H1 + "伍"
    out = discard_waits(table=T1, hand=hand)
    assert parse_face("捌") not in out  # a 坎 card is never discarded
    assert set(out) == {f for f in set(parse_faces(hand)) if f != parse_face("捌")}
    for f, ws in out.items():
        rest = list(parse_faces(hand))
        rest.remove(f)
        assert ws == waits(table=T1, hand=rest)
    assert [w.face for w in out[parse_face("壹")]] == list(parse_faces("一壹捌"))


# --- decomposition and caches ------------------------------------------------------------------


def test_decompose() -> None:
    assert decompose(counts_of(parse_faces("一二三")), need_pair=False) == (
        3,
        list(parse_groups("句:一二三")),
    )
    four_runs = decompose(counts_of(parse_faces("一一一一二二二二三三三三")), need_pair=False)
    assert four_runs is not None and four_runs[0] == 12
    assert decompose(counts_of(parse_faces("一二三四四")), need_pair=True) is not None
    assert decompose(counts_of(parse_faces("一二三四四")), need_pair=False) is None
    assert decompose([0] * 20, need_pair=False) == (0, [])
    assert decompose([0] * 20, need_pair=True) is None
    r = decompose(counts_of(parse_faces("贰柒拾捌捌八十十拾")), need_pair=False)
    assert r is not None and r[0] == 6


def test_caches() -> None:
    build_tables()
    assert build_tables() == 0.0
    info = cache_info()
    assert info["table_entries"] > 70_000
    clear_cache()
    assert cache_info()["entries"] == 0
    before = evaluate_win(table=T1, hand=H1, card="伍")
    clear_cache(tables=True)
    assert cache_info()["table_entries"] == 0
    assert evaluate_win(table=T1, hand=H1, card="伍") == before  # rebuilt on use


def test_result_explain_and_dict() -> None:
    r = win(T1, H1, "伍", self_drawn=True, last_card=True)
    text = r.explain()
    for part in ("碰:贰贰贰", " 3 胡息", "胡息 18", "+ 1 自摸", "海底胡 2 番", "3 囤 × 2 番 = 6"):
        assert part in text
    d = r.to_dict()
    assert d["win"] is True and d["score"] == 6 and d["mingtang"] == {"海底胡": 2}
    groups, group_huxi = d["groups"], d["group_huxi"]
    assert isinstance(groups, list) and isinstance(group_huxi, list)
    assert groups[0] == "碰:贰贰贰" and sum(group_huxi) == 18


# --- the public API: keyword-only, card required, checked inputs remembered ---------------------


def test_card_is_required_and_arguments_are_keywords() -> None:
    with pytest.raises(TypeError, match="card"):
        evaluate_win(table=T1, hand=H1)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        evaluate_win(T1, H1, "伍")  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        waits(T1, H1)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        discard_waits(T1, H1 + "伍")  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        waits_counts(parse_groups(T1), counts_of(parse_faces(H1)), HONG_GUAI_WAN, True)  # type: ignore[call-arg]


@pytest.mark.parametrize("card", [3.5, None, True, [14], 20, -1, b"\xe4"])
def test_a_card_of_the_wrong_type_is_a_hand_error_quoting_it(card: object) -> None:
    with pytest.raises(HandError, match=re.escape(repr(card))):
        evaluate_win(table=T1, hand=H1, card=card)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("table", "hand", "quoted"),
    [
        (None, H1, "None"),
        (5, H1, "5"),
        ([None], H1, "None"),
        (T1, None, "None"),
        (T1, 7, "7"),
        (T1, [1.5], "1.5"),
    ],
)
def test_inputs_of_the_wrong_type_are_notation_errors_quoting_them(
    table: object, hand: object, quoted: str
) -> None:
    with pytest.raises(NotationError, match=f"got {re.escape(quoted)}|: {re.escape(quoted)}$"):
        evaluate_win(table=table, hand=hand, card="伍")  # type: ignore[arg-type]


def test_remembered_inputs_give_the_same_results_as_parsed_ones() -> None:
    clear_cache()
    parsed = evaluate_win(
        table=parse_groups(T1), hand=list(parse_faces(H1)), card=parse_face("伍"), self_drawn=True
    )
    first = evaluate_win(table=T1, hand=H1, card="伍", self_drawn=True)
    again = evaluate_win(table=T1, hand=H1, card="伍", self_drawn=True)
    by_index = evaluate_win(table=T1, hand=H1, card=parse_face("伍"), self_drawn=True)
    assert parsed == first == again == by_index and parsed is not None
    assert evaluate_win(table=T1, hand=H1, card="伍") == evaluate_counts(
        parse_groups(T1), counts_of(parse_faces(H1)), parse_face("伍")
    )
    assert cache_info()["input_entries"] == 2


def test_bad_input_still_raises_after_good_input_was_remembered() -> None:
    clear_cache()
    assert evaluate_win(table=T1, hand=H1, card="伍") is not None
    for _ in range(2):  # a failure is never remembered as a success
        with pytest.raises(HandError, match="5 copies of 捌"):
            evaluate_win(table="碰:捌捌捌 吃:壹贰叁", hand="捌捌二七十四五六一一壹陆柒", card="伍")
        with pytest.raises(HandError, match="one card"):
            evaluate_win(table=T1, hand=H1, card="伍伍")
        with pytest.raises(HandError, match="needs 20 cards"):
            evaluate_win(table=T1, hand=H1[:-1], card="伍")
        with pytest.raises(HandError, match=re.escape("True")):
            evaluate_win(table=T1, hand=H1, card=True)  # equal to 1, but not a card
        with pytest.raises(HandError, match=re.escape("14.0")):
            evaluate_win(table=T1, hand=H1, card=14.0)  # type: ignore[arg-type]
    assert evaluate_win(table=T1, hand=H1, card=14) is not None
    assert cache_info()["input_entries"] == 2


def test_the_input_memo_is_bounded() -> None:
    clear_cache()
    limit = int(cache_info()["input_limit"])
    for i in range(limit + 5):
        evaluate_win(table=T1 + " " * (i % 7), hand=H1 + " " * (i // 7), card="伍")
    assert 0 < cache_info()["input_entries"] <= limit


def test_reprs() -> None:
    r = win(T1, H1, "伍")
    assert repr(r) == (
        "<WinResult 伍: 18 胡息, 2 囤 × 1 番 = 2 | 碰:贰贰贰 吃:壹贰叁 坎:捌捌捌 "
        "句:一一壹 句:二七十 句:四五六 句:伍陆柒>"
    )
    own = win(T1, H1, "伍", self_drawn=True, last_card=True)
    assert repr(own).startswith("<WinResult 伍 自摸 海底: 18 胡息, 海底胡 2, 3 囤 × 2 番 = 6 |")
    w = waits(table=T1, hand=H1)[0]
    assert repr(w) == "<Wait 伍: drawn by another 2, 自摸 3>"


@pytest.mark.skipif(COMPILED, reason="compiled, the call to mingtang_of is bound at build time")
def test_mingtang_read_the_win_facts_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    """The 名堂 cache key is the WinFacts values in field order: each fact reaches its name."""
    from paohuzi.core import evaluation
    from paohuzi.core.cards import RED_FACES
    from paohuzi.core.scoring import WinFacts

    seen: list[WinFacts] = []
    real = evaluation.mingtang_of
    monkeypatch.setattr(evaluation, "mingtang_of", lambda f, r: seen.append(f) or real(f, r))
    clear_cache()
    cases = (
        (T1, H1, "伍", True),
        (T6K, "七", "七", False),
        ("跑:柒柒柒柒 碰:叁叁叁 偎:九九九", "捌捌捌贰贰贰一一五五", "五", False),
    )
    for table, hand, card, last in cases:
        seen.clear()
        r = win(table, hand, card, last_card=last)
        faces = [f for g in r.groups for f in g.faces]
        big = sum(f >= 10 for f in faces)
        assert seen[-1] == WinFacts(
            red=sum(f in RED_FACES for f in faces),
            big=big,
            small=len(faces) - big,
            pengpeng=all(len(set(g.faces)) == 1 for g in r.groups),
            last_card=last,
            shuahou=len(parse_faces(hand)) == 1,
        ), r
