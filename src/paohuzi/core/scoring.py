"""名堂, 囤/番 and settlement (RULES.md §11, §12).

Each 名堂 is one small function of a :class:`WinFacts`; :func:`mingtang_of` collects
them in the fixed order of :data:`~paohuzi.core.rules.MINGTANG_NAMES`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .errors import PaohuziError
from .rules import HONG_GUAI_WAN, MINGTANG_NAMES, RuleSet

__all__ = [
    "MINGTANG_RULES",
    "WinFacts",
    "combine_fan",
    "mingtang_of",
    "settle",
    "tun_of",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class WinFacts:
    """What the 名堂 look at, counted over every card the winner owns at the win."""

    red: int
    big: int
    small: int
    pengpeng: bool
    last_card: bool
    shuahou: bool


def dianhu(f: WinFacts, r: RuleSet) -> int:
    """点胡: exactly one red card."""
    return r.dianhu if f.red == 1 else 0


def honghu(f: WinFacts, r: RuleSet) -> int:
    """红胡: at least ``honghu_min_red`` red cards, one more 番 for each extra."""
    if r.honghu and f.red >= r.honghu_min_red:
        return r.honghu + f.red - r.honghu_min_red
    return 0


def wuhu(f: WinFacts, r: RuleSet) -> int:
    """乌胡: no red card at all."""
    return r.wuhu if f.red == 0 else 0


def pengpenghu(f: WinFacts, r: RuleSet) -> int:
    """碰碰胡: every group a same-face group, plus at most the pair."""
    return r.pengpenghu if f.pengpeng else 0


def dazi(f: WinFacts, r: RuleSet) -> int:
    """大字: at least ``dazi_min_big`` big cards, one more 番 for each extra."""
    if r.dazi and f.big >= r.dazi_min_big:
        return r.dazi + f.big - r.dazi_min_big
    return 0


def xiaozi(f: WinFacts, r: RuleSet) -> int:
    """小字: at least ``xiaozi_min_small`` small cards, one more 番 for each extra."""
    if r.xiaozi and f.small >= r.xiaozi_min_small:
        return r.xiaozi + f.small - r.xiaozi_min_small
    return 0


def haidihu(f: WinFacts, r: RuleSet) -> int:
    """海底胡: the winning card was the last card of the stock."""
    return r.haidihu if f.last_card else 0


def shuahou(f: WinFacts, r: RuleSet) -> int:
    """耍猴: the hand was one single card and the winning card paired it."""
    return r.shuahou if f.shuahou else 0


MINGTANG_RULES: tuple[tuple[str, Callable[[WinFacts, RuleSet], int]], ...] = (
    (MINGTANG_NAMES["dianhu"], dianhu),
    (MINGTANG_NAMES["honghu"], honghu),
    (MINGTANG_NAMES["wuhu"], wuhu),
    (MINGTANG_NAMES["pengpenghu"], pengpenghu),
    (MINGTANG_NAMES["dazi"], dazi),
    (MINGTANG_NAMES["xiaozi"], xiaozi),
    (MINGTANG_NAMES["haidihu"], haidihu),
    (MINGTANG_NAMES["shuahou"], shuahou),
)


def mingtang_of(facts: WinFacts, rules: RuleSet = HONG_GUAI_WAN) -> dict[str, int]:
    """Collect every 名堂 that applies, hanzi name -> 番, in rule order (§11).

    >>> mingtang_of(WinFacts(red=1, big=5, small=16, pengpeng=False, last_card=True, shuahou=False))
    {'点胡': 3, '小字': 4, '海底胡': 2}
    """
    out: dict[str, int] = {}
    for name, rule in MINGTANG_RULES:
        fan = rule(facts, rules)
        if fan:
            out[name] = fan
    return out


def combine_fan(mingtang: dict[str, int], rules: RuleSet = HONG_GUAI_WAN) -> int:
    """番 of a win: the 名堂 added (or multiplied), 1 when none applies (平胡, §12).

    >>> combine_fan({"点胡": 3, "海底胡": 2}), combine_fan({})
    (5, 1)
    """
    if not mingtang:
        return 1
    if rules.fan_combine == "multiply":
        total = 1
        for v in mingtang.values():
            total *= v
        return total
    return sum(mingtang.values())


def tun_of(huxi: int, *, self_drawn: bool, rules: RuleSet = HONG_GUAI_WAN) -> int:
    """囤 = ⌊(胡息 − 12) / 3⌋, plus the 自摸 bonus (§12).

    >>> tun_of(21, self_drawn=False), tun_of(21, self_drawn=True)
    (3, 4)
    """
    return (huxi - 12) // 3 + (rules.zimo_bonus_tun if self_drawn else 0)


def settle(
    score: int, winner: int, balances: Sequence[int], rules: RuleSet = HONG_GUAI_WAN
) -> tuple[int, int, int]:
    """Balance changes of the three seats for a win worth ``score`` (§12).

    Losers pay at most their balance; if the payments exceed the winner's balance
    they are cut to it, the winner's 下家 paying ⌊C·p₁/(p₁+p₂)⌋ and the other the rest.

    >>> settle(10, 0, [100, 100, 100]), settle(10, 0, [100, 4, 100])
    ((20, -10, -10), (14, -4, -10))
    """
    if len(balances) != 3:
        raise PaohuziError(f"settlement needs three balances, got {list(balances)!r}")
    if winner not in (0, 1, 2):
        raise PaohuziError(f"winner must be seat 0, 1 or 2, got {winner!r}")
    if score < 0 or (rules.cap_loser_payment and any(b < 0 for b in balances)):
        raise PaohuziError(
            f"score and balances must not be negative: {score!r}, {list(balances)!r}"
        )
    xia = (winner + 1) % 3
    shang = (winner + 2) % 3
    p1 = min(score, balances[xia]) if rules.cap_loser_payment else score
    p2 = min(score, balances[shang]) if rules.cap_loser_payment else score
    cap = max(balances[winner], 0)  # a balance below zero (caps off earlier) gains nothing
    if rules.cap_winner_gain and p1 + p2 > cap:
        cut1 = cap * p1 // (p1 + p2)
        p1, p2 = cut1, cap - cut1
    out = [0, 0, 0]
    out[winner] = p1 + p2
    out[xia] = -p1
    out[shang] = -p2
    return out[0], out[1], out[2]
