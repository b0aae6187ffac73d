"""Every checked case of cases.md (RULES.md §10-§12), as written there."""

from __future__ import annotations

import pytest

from paohuzi.core.hand import evaluate_win
from paohuzi.core.rules import HONG_GUAI_WAN
from paohuzi.core.scoring import settle

T1 = "碰:贰贰贰 吃:壹贰叁"
H1 = "捌捌捌二七十四五六一一壹陆柒"
T9 = "跑:柒柒柒柒 碰:叁叁叁 偎:九九九 吃:二七十 吃:壹贰叁 碰:捌捌捌"

# (number, table, hand, X, self-drawn, last card, (胡息, 囤, {名堂: 番}, 番, score) or None)
CASES = [
    (1, T1, H1, "伍", False, False, (18, 2, {}, 1, 2)),
    (2, T1, H1, "伍", True, False, (18, 3, {}, 1, 3)),
    (3, T1, H1, "伍", False, True, (18, 2, {"海底胡": 2}, 2, 4)),
    (4, T1, "捌捌捌三四五四五六一一壹陆柒", "伍", False, False, None),
    (
        5,
        "偎:叁叁叁 碰:玖玖玖",
        "捌捌捌三四五四五六八九十一一",
        "壹",
        False,
        False,
        (15, 1, {"点胡": 3}, 3, 3),
    ),
    (
        6,
        "碰:贰贰贰 吃:二七十",
        "拾拾拾柒柒七一二三六七八九九",
        "玖",
        False,
        False,
        (15, 1, {"红胡": 6}, 6, 6),
    ),
    (
        7,
        "偎:叁叁叁 偎:九九九",
        "捌捌捌三四五四五六一一壹肆伍",
        "陆",
        False,
        False,
        (15, 1, {"乌胡": 5}, 5, 5),
    ),
    (
        8,
        "跑:柒柒柒柒 碰:叁叁叁 偎:九九九",
        "捌捌捌贰贰贰一一五五",
        "五",
        False,
        False,
        (28, 5, {"碰碰胡": 4}, 4, 20),
    ),
    (9, T9, "五", "五", False, False, (27, 5, {"耍猴": 4}, 4, 20)),
    (10, T9, "五", "五", True, False, (27, 6, {"耍猴": 4}, 4, 24)),
    (
        11,
        "吃:壹贰叁 吃:二七十",
        "捌捌捌四五六七八九一一伍陆柒",
        "捌",
        False,
        False,
        (18, 2, {}, 1, 2),
    ),
    (
        12,
        "碰:贰贰贰 吃:壹贰叁 偎:拾拾拾",
        "捌捌捌玖玖玖伍陆柒四五",
        "六",
        False,
        False,
        (27, 5, {"大字": 4}, 4, 20),
    ),
    (
        13,
        "碰:七七七 吃:一二三 偎:十十十",
        "八八八九九九二七十三四",
        "五",
        False,
        False,
        (16, 1, {"红胡": 2, "小字": 9}, 11, 11),
    ),
    (14, "吃:壹贰叁 吃:二七十 偎:贰贰贰", "捌捌捌陆柒玖拾八一二三", "八", False, False, None),
]


@pytest.mark.parametrize(
    ("number", "table", "hand", "card", "self_drawn", "last", "expected"), CASES
)
def test_case(
    number: int,
    table: str,
    hand: str,
    card: str,
    self_drawn: bool,
    last: bool,
    expected: tuple[int, int, dict[str, int], int, int] | None,
) -> None:
    r = evaluate_win(table=table, hand=hand, card=card, self_drawn=self_drawn, last_card=last)
    if expected is None:
        assert r is None, f"case {number} must not win, got {r}"
        return
    assert r is not None, f"case {number} must win"
    huxi, tun, mingtang, fan, score = expected
    assert (r.huxi, r.tun, dict(r.mingtang), r.fan, r.score) == (huxi, tun, mingtang, fan, score)
    assert sum(g.huxi for g in r.groups) == r.huxi
    assert r.self_drawn is self_drawn and r.last_card is last


def test_case_11_is_a_pao_on_the_kan_then_a_pair() -> None:
    r = evaluate_win(table="吃:壹贰叁 吃:二七十", hand="捌捌捌四五六七八九一一伍陆柒", card="捌")
    assert r is not None and r.how == "跑胡"
    assert "跑:捌捌捌捌" in [str(g) for g in r.groups]
    assert "对:一一" in [str(g) for g in r.groups]


def test_case_13_counts_14_red_and_21_small() -> None:
    r = evaluate_win(
        table="碰:七七七 吃:一二三 偎:十十十", hand="八八八九九九二七十三四", card="五"
    )
    assert r is not None and r.mingtang["小字"] == 4 + (21 - 16)


@pytest.mark.parametrize(
    ("score", "balances", "caps", "change"),
    [
        (20, (100, 5, 50), True, (25, -5, -20)),
        (20, (10, 50, 50), True, (10, -5, -5)),
        (20, (10, 50, 50), False, (40, -20, -20)),
    ],
)
def test_settlement_rows(
    score: int, balances: tuple[int, int, int], caps: bool, change: tuple[int, int, int]
) -> None:
    rules = HONG_GUAI_WAN.with_(cap_winner_gain=caps, cap_loser_payment=caps)
    assert settle(score, 0, balances, rules) == change
