"""名堂, 囤, 番 and settlement (RULES.md §11, §12), one rule at a time."""

from __future__ import annotations

import pytest

from paohuzi.core.errors import PaohuziError
from paohuzi.core.rules import HONG_GUAI_WAN, RuleSet
from paohuzi.core.scoring import WinFacts, combine_fan, mingtang_of, settle, tun_of


def facts(
    red: int = 5,
    big: int = 10,
    total: int = 21,
    pengpeng: bool = False,
    last_card: bool = False,
    shuahou: bool = False,
) -> WinFacts:
    return WinFacts(
        red=red, big=big, small=total - big, pengpeng=pengpeng, last_card=last_card, shuahou=shuahou
    )


@pytest.mark.parametrize(
    ("red", "expected"),
    [
        (0, {"乌胡": 5}),
        (1, {"点胡": 3}),
        *[(r, {}) for r in range(2, 10)],  # 2-9 red: none of 点胡/红胡/乌胡
        (10, {"红胡": 2}),
        (11, {"红胡": 3}),
        (14, {"红胡": 6}),
        (24, {"红胡": 16}),
    ],
)
def test_colour_mingtang(red: int, expected: dict[str, int]) -> None:
    assert mingtang_of(facts(red=red)) == expected


@pytest.mark.parametrize(("big", "fan"), [(17, 0), (18, 4), (19, 5), (24, 10)])
def test_dazi(big: int, fan: int) -> None:
    got = mingtang_of(facts(big=big, total=24))
    assert got.get("大字", 0) == fan
    assert "小字" not in got


@pytest.mark.parametrize(("small", "fan"), [(15, 0), (16, 4), (17, 5), (28, 16)])
def test_xiaozi(small: int, fan: int) -> None:
    got = mingtang_of(facts(big=0, total=small))
    assert got.get("小字", 0) == fan


def test_pengpeng_haidi_shuahou() -> None:
    assert mingtang_of(facts(pengpeng=True)) == {"碰碰胡": 4}
    assert mingtang_of(facts(last_card=True)) == {"海底胡": 2}
    assert mingtang_of(facts(shuahou=True)) == {"耍猴": 4}
    assert mingtang_of(facts()) == {}


def test_mingtang_order_and_switches() -> None:
    f = facts(red=1, pengpeng=True, last_card=True)
    assert list(mingtang_of(f)) == ["点胡", "碰碰胡", "海底胡"]
    off = HONG_GUAI_WAN.with_(dianhu=0, haidihu=7)
    assert mingtang_of(f, off) == {"碰碰胡": 4, "海底胡": 7}


def test_fan_combine() -> None:
    assert combine_fan({}) == 1  # 平胡
    assert combine_fan({"红胡": 2, "小字": 9}) == 11
    multiply = RuleSet(fan_combine="multiply")
    assert combine_fan({"红胡": 2, "小字": 9}, multiply) == 18
    assert combine_fan({}, multiply) == 1


@pytest.mark.parametrize(
    ("huxi", "tun"), [(15, 1), (16, 1), (17, 1), (18, 2), (20, 2), (21, 3), (27, 5), (28, 5)]
)
def test_tun(huxi: int, tun: int) -> None:
    assert tun_of(huxi, self_drawn=False) == tun
    assert tun_of(huxi, self_drawn=True) == tun + 1  # 自摸 +1 囤
    assert tun_of(huxi, self_drawn=True, rules=HONG_GUAI_WAN.with_(zimo_bonus_tun=2)) == tun + 2


@pytest.mark.parametrize("winner", [0, 1, 2])
def test_settle_winner_seats(winner: int) -> None:
    balances = [50, 50, 50]
    balances[(winner + 1) % 3] = 3  # the 下家 is short
    change = settle(10, winner, balances)
    assert change[winner] == 13
    assert change[(winner + 1) % 3] == -3
    assert change[(winner + 2) % 3] == -10


def test_winner_cap_floor_goes_to_xiajia() -> None:
    # C = 7 split over payments 20 and 20: the 下家 pays floor(3.5) = 3, the other 4.
    assert settle(20, 0, (7, 50, 50)) == (7, -3, -4)
    assert settle(20, 1, (50, 7, 50)) == (-4, 7, -3)
    # uneven: p1 = 5, p2 = 20, C = 10 -> the 下家 pays floor(10 * 5 / 25) = 2, the other 8
    assert settle(20, 0, (10, 5, 50)) == (10, -2, -8)
    # winner 2: his 下家 is seat 0 (p1 = 20), seat 1 pays p2 = 5; C = 10 -> 8 and 2
    assert settle(20, 2, (20, 5, 10)) == (-8, -2, 10)
    # floor, not round: C = 2 split over p1 = 2, p2 = 1 -> the 下家 pays floor(4 / 3) = 1
    assert settle(20, 0, (2, 2, 1)) == (2, -1, -1)


@pytest.mark.parametrize(
    ("winner_cap", "loser_cap", "expected"),
    [
        (True, True, (10, -2, -8)),
        (True, False, (10, -5, -5)),
        (False, True, (25, -5, -20)),
        (False, False, (40, -20, -20)),
    ],
)
def test_caps_each_switch(
    winner_cap: bool, loser_cap: bool, expected: tuple[int, int, int]
) -> None:
    rules = HONG_GUAI_WAN.with_(cap_winner_gain=winner_cap, cap_loser_payment=loser_cap)
    change = settle(20, 0, (10, 5, 50), rules)
    assert change == expected
    assert sum(change) == 0


def test_caps_keep_balances_non_negative() -> None:
    for score in (0, 1, 7, 20, 99):
        for balances in ((0, 0, 0), (5, 1, 0), (3, 100, 2), (100, 100, 100)):
            change = settle(score, 0, balances)
            after = [b + c for b, c in zip(balances, change, strict=True)]
            assert min(after) >= 0 and sum(change) == 0
            assert change[0] <= balances[0]


def test_negative_winner_balance_without_loser_cap() -> None:
    rules = HONG_GUAI_WAN.with_(cap_loser_payment=False)
    assert settle(0, 0, (-5, 10, 10), rules) == (0, 0, 0)
    assert settle(4, 0, (-5, 10, 10), rules) == (0, 0, 0)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((5, 0, (1, 2)), "three balances"),
        ((5, 3, (1, 2, 3)), "winner"),
        ((-1, 0, (1, 2, 3)), "negative"),
        ((1, 0, (1, -2, 3)), "negative"),
    ],
)
def test_settle_rejects(args: tuple[int, int, tuple[int, ...]], message: str) -> None:
    with pytest.raises(PaohuziError, match=message):
        settle(*args)
