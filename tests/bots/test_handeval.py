"""The hand-potential helper: decompositions are exact and scores rank hands sensibly."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from paohuzi.bots.handeval import (
    DEFAULT_WEIGHTS,
    PAIR,
    PART,
    PENGPENG_SINGLES,
    decompose_free,
    evaluate_hand,
    free_counts,
    lean_ranges,
    mingtang_lean,
    unseen_counts,
)
from paohuzi.core.cards import counts_of, parse_faces
from paohuzi.core.groups import parse_groups
from paohuzi.core.rules import HONG_GUAI_WAN


def _brute(counts: list[int]) -> float:
    """Reference: every decomposition of the whole hand at once (no size split)."""
    from paohuzi.bots import handeval as h

    memo: dict[int, float] = {}

    def rec(key: int) -> float:
        if key == 0:
            return 0.0
        if key in memo:
            return memo[key]
        i = ((key & -key).bit_length() - 1) >> 3
        best = -1.0
        for delta, reqs, value, _block in h._ALL_MOVES[i]:
            if all((key >> sh) & 0xFF >= c for sh, c in reqs):
                best = max(best, value + rec(key - delta))
        memo[key] = best
        return best

    return rec(int.from_bytes(bytes(counts), "little"))


def test_decomposition_matches_brute_force() -> None:
    rng = random.Random(3)
    for _ in range(400):
        deck = [f for f in range(20) for _ in range(2)]
        rng.shuffle(deck)
        c = counts_of(deck[: rng.randint(4, 20)])
        d = decompose_free(c)
        assert abs(d.value - _brute(c)) < 1e-9
        back = [0] * 20
        for b in (*d.sets, *d.blocks):
            for f in b.faces:
                back[f] += 1
        for f in d.singles:
            back[f] += 1
        assert back == c


def test_decomposition_finds_sets_and_blocks() -> None:
    d = decompose_free(counts_of(parse_faces("一二三 二七十 壹壹 伍陆 九")))
    assert sorted(b.huxi for b in d.sets) == [3, 3]
    kinds = sorted(b.kind for b in d.blocks)
    assert kinds == [PAIR, PART]
    assert d.singles == (8,)


def test_free_counts_drop_kan() -> None:
    assert free_counts(counts_of(parse_faces("三三三四"))) == counts_of(parse_faces("四"))


def test_ready_hand_beats_scattered_hand() -> None:
    unseen = unseen_counts([0] * 20)
    table = parse_groups("碰:贰贰贰 吃:壹贰叁")
    # 14 cards in hand, 6 on the table: a waiting position (20 cards, k = 0).
    ready = counts_of(parse_faces("二七十 拾拾拾 四五六 陆柒捌 九十"))
    scattered = counts_of(parse_faces("一三五七九 壹叁伍柒玖 二四 捌拾"))
    e1 = evaluate_hand(ready, table, unseen)
    e2 = evaluate_hand(scattered, table, unseen)
    assert e1.steps <= 1 and e1.waits > 0
    assert e1.value > e2.value


def test_dead_blocks_are_worth_less() -> None:
    table = parse_groups("吃:壹贰叁 吃:肆伍陆")
    hand = counts_of(parse_faces("一二三 四五六 七八九 二七十 伍陆"))
    live = evaluate_hand(hand, table, unseen_counts([0] * 20), exact=False)
    seen = [0] * 20
    for f in parse_faces("肆柒柒柒柒肆肆"):
        seen[f] += 1
    dead = evaluate_hand(hand, table, unseen_counts(seen), exact=False)
    assert live.value > dead.value


def test_the_heuristic_bots_weights_stay_as_they_were_tuned_by_hand() -> None:
    """The ``heuristic`` bot is the reference opponent of every strength figure: its
    weights must not move (a tuned copy belongs to the learned bot)."""
    assert DEFAULT_WEIGHTS.to_dict() == {
        "step": 12.0,
        "missing": 30.0,
        "outs": 3.0,
        "huxi": 0.8,
        "huxi_cap": 30.0,
        "short": 2.5,
        "tenpai": 14.0,
        "wait": 4.0,
        "wait_score": 0.6,
        "risk_pao": 5.0,
        "risk_peng": 1.5,
        "risk_chi": 1.2,
        "margin_chi": 0.5,
        "margin_peng": 0.5,
        "red": 0.0,
        "size": 0.0,
        "few_red": 0.0,
        "pengpeng": 0.0,
    }


def test_weights_weigh_the_evaluation() -> None:
    """Each part of the value moves with its weight (a hand with 胡息 and live blocks)."""
    unseen = unseen_counts([0] * 20)
    table = parse_groups("碰:贰贰贰")
    hand = counts_of(parse_faces("二七十 拾拾拾 四五 陆柒 九十 一三 伍"))
    base = evaluate_hand(hand, table, unseen, exact=False)
    more_huxi = evaluate_hand(
        hand, table, unseen, exact=False, w=replace(DEFAULT_WEIGHTS, huxi=1.8)
    )
    assert more_huxi.value == pytest.approx(base.value + min(base.huxi, 30.0))
    capped = evaluate_hand(hand, table, unseen, exact=False, w=replace(DEFAULT_WEIGHTS, huxi_cap=5))
    assert capped.value == pytest.approx(base.value - 0.8 * (min(base.huxi, 30.0) - 5))
    steps = evaluate_hand(hand, table, unseen, exact=False, w=replace(DEFAULT_WEIGHTS, step=13.0))
    assert steps.value == pytest.approx(base.value - base.steps)


def test_mingtang_lean_credits_red_cards_and_one_size() -> None:
    """Red cards owned beyond 7 (up to 12) and cards of one size beyond 13 (up to 19), §11."""
    w = replace(DEFAULT_WEIGHTS, red=2.0, size=0.5)
    table = parse_groups("碰:贰贰贰 吃:壹贰叁")  # red: 贰 ×4; big: 6
    hand = counts_of(parse_faces("二七十 七七 二二 四五六 一"))  # red: 二 ×3, 七 ×3, 十; small: 11
    assert mingtang_lean(hand, table, w) == 2.0 * (11 - 7)  # one size: 11, below 13
    assert mingtang_lean(hand, table, DEFAULT_WEIGHTS) == 0.0  # the heuristic's: no lean
    many = counts_of(parse_faces("二二二 七七七 十十十 四五六 一一 三"))  # 9 red + 4 = 13: capped
    assert mingtang_lean(many, table, replace(DEFAULT_WEIGHTS, red=1.0)) == 12 - 7
    small = counts_of(parse_faces("一一一 二二 三三 四四 五五 六六 八八 九九 十十"))  # 19 small
    assert mingtang_lean(small, (), replace(DEFAULT_WEIGHTS, size=1.0)) == 19 - 13
    assert mingtang_lean(small, table, replace(DEFAULT_WEIGHTS, size=1.0)) == 19 - 13  # capped
    ti = parse_groups("提:拾拾拾拾 碰:玖玖玖")  # a 提 counts its four cards: 4 red, 7 big
    big = counts_of(parse_faces("壹壹壹 叁叁 肆肆 伍伍 陆陆"))
    assert mingtang_lean(big, ti, replace(DEFAULT_WEIGHTS, red=1.0, size=1.0)) == 0 + (18 - 13)


def test_mingtang_lean_credits_few_red_cards() -> None:
    """乌胡 (no red card) and 点胡 (exactly one) multiply a win (§11): credit per red card
    short of 2, counted over the hand and the table; none from 2 red cards up."""
    w = replace(DEFAULT_WEIGHTS, few_red=3.0)
    black = counts_of(parse_faces("一一一 三四五 六八九 壹壹 叁肆伍"))  # no red card
    assert mingtang_lean(black, (), w) == 3.0 * 2
    assert mingtang_lean(black, parse_groups("碰:玖玖玖"), w) == 3.0 * 2
    assert mingtang_lean(black, parse_groups("吃:壹贰叁"), w) == 3.0 * 1  # 贰: one red
    assert mingtang_lean(black, parse_groups("碰:贰贰贰"), w) == 0.0  # three red
    one = counts_of(parse_faces("一一一 三四五 六八九 壹壹 叁肆伍 七"))
    assert mingtang_lean(one, (), w) == 3.0 * 1
    assert mingtang_lean(black, (), DEFAULT_WEIGHTS) == 0.0  # the heuristic's: no lean
    # A rule set that scores neither 名堂 gives it nothing; one that scores either does.
    neither = replace(HONG_GUAI_WAN, wuhu=0, dianhu=0)
    assert mingtang_lean(black, (), w, neither) == 0.0
    assert mingtang_lean(black, (), w, replace(neither, dianhu=3)) == 3.0 * 2


def test_mingtang_lean_credits_few_singles_while_no_chi_is_on_the_table() -> None:
    """碰碰胡 takes same-face groups only (§11): with no 吃 on the table, credit per single
    (a face held once) short of PENGPENG_SINGLES; a 吃 on the table ends it."""
    w = replace(DEFAULT_WEIGHTS, pengpeng=2.0)
    hand = counts_of(parse_faces("一一一 三三 四 六六 九 壹壹 叁 伍"))  # singles: 四 九 叁 伍
    assert PENGPENG_SINGLES == 8
    assert mingtang_lean(hand, (), w) == 2.0 * (8 - 4)
    assert mingtang_lean(hand, parse_groups("碰:玖玖玖 偎:陆陆陆"), w) == 2.0 * (8 - 4)
    assert mingtang_lean(hand, parse_groups("碰:玖玖玖 吃:陆柒捌"), w) == 0.0
    loose = counts_of(parse_faces("一二三四五六七八九十 壹"))  # 11 singles: none to credit
    assert mingtang_lean(loose, (), w) == 0.0
    assert mingtang_lean(hand, (), DEFAULT_WEIGHTS) == 0.0
    assert mingtang_lean(hand, (), w, replace(HONG_GUAI_WAN, pengpenghu=0)) == 0.0
    assert not DEFAULT_WEIGHTS.leans and w.leans and replace(DEFAULT_WEIGHTS, few_red=1).leans


def test_the_lean_follows_the_rule_sets_thresholds() -> None:
    """The ranges come from the 名堂 thresholds of the rule set (§11, §15)."""
    assert lean_ranges() == ((7, 12), (13, 19))
    rules = replace(HONG_GUAI_WAN, honghu_min_red=13, xiaozi_min_small=15, dazi_min_big=16)
    assert lean_ranges(rules) == ((10, 15), (12, 17))
    hand = counts_of(parse_faces("二二二 七七七 十十十 四五六 一一 三"))  # 9 red
    w = replace(DEFAULT_WEIGHTS, red=1.0)
    assert mingtang_lean(hand, (), w) == 2 and mingtang_lean(hand, (), w, rules) == 0


def test_the_lean_moves_the_heuristics_value() -> None:
    """Context.value adds :func:`mingtang_lean` to the evaluation when its weights are set."""
    from paohuzi.bots.heuristic import Context

    table = parse_groups("碰:贰贰贰")
    hand = counts_of(parse_faces("二七十 七七 二二 四五六 一"))
    w = replace(DEFAULT_WEIGHTS, red=3.0)
    args = (0, hand, table, [0] * 20, ((), (), ()), (False,) * 3, HONG_GUAI_WAN)
    plain = Context(*args).value(hand, table)
    assert plain == evaluate_hand(hand, table, unseen_counts([0] * 20)).value
    leaning = Context(*args, weights=w).value(hand, table)
    assert leaning == pytest.approx(plain + 3.0 * (10 - 7))
    # Each lean alone is enough for the value to take it in (singles here: 十 四 五 六 一).
    w = replace(DEFAULT_WEIGHTS, pengpeng=1.0)
    assert Context(*args, weights=w).value(hand, table) == pytest.approx(plain + (8 - 5))
