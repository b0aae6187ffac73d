"""The rule set (RULES.md §15): frozen, 红拐弯 defaults, checked fields."""

from __future__ import annotations

import dataclasses
import re

import pytest

from paohuzi.core.errors import NotationError
from paohuzi.core.rules import HONG_GUAI_WAN, MINGTANG_NAMES, RuleSet


def test_hong_guai_wan_defaults() -> None:
    r = HONG_GUAI_WAN
    assert r == RuleSet()
    assert (r.min_huxi, r.min_huxi_with_mingtang, r.zimo_bonus_tun) == (18, 15, 1)
    assert r.fan_combine == "add"
    assert not r.tianhu
    assert r.cap_winner_gain and r.cap_loser_payment and r.dead_hand
    assert r.rounds_per_match == 8


def test_mingtang_defaults_match_section_11() -> None:
    r = HONG_GUAI_WAN
    fan = {name: getattr(r, field) for field, name in MINGTANG_NAMES.items()}
    assert fan == {
        "点胡": 3,
        "红胡": 2,
        "乌胡": 5,
        "碰碰胡": 4,
        "大字": 4,
        "小字": 4,
        "海底胡": 2,
        "耍猴": 4,
    }
    assert (r.honghu_min_red, r.dazi_min_big, r.xiaozi_min_small) == (10, 18, 16)


def test_frozen_and_hashable() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        HONG_GUAI_WAN.min_huxi = 10  # type: ignore[misc]
    assert hash(HONG_GUAI_WAN) == hash(RuleSet())


def test_with_and_dict_round_trip() -> None:
    r = HONG_GUAI_WAN.with_(fan_combine="multiply", cap_winner_gain=False, shuahou=0)
    assert r.fan_combine == "multiply" and not r.cap_winner_gain and r.shuahou == 0
    assert HONG_GUAI_WAN.fan_combine == "add"
    assert RuleSet.from_dict(r.to_dict()) == r


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"fan_combine": "max"}, "fan_combine"),
        ({"min_huxi": -1}, "min_huxi"),
        ({"dianhu": 1.5}, "dianhu"),
        ({"tianhu": 1}, "tianhu"),
        ({"rounds_per_match": 0}, "rounds_per_match"),
    ],
)
def test_bad_values_rejected(change: dict[str, object], message: str) -> None:
    with pytest.raises(NotationError, match=message):
        RuleSet(**change)  # type: ignore[arg-type]


def test_unknown_field_rejected() -> None:
    with pytest.raises(NotationError, match="nonsense"):
        RuleSet.from_dict({"nonsense": 1})


@pytest.mark.parametrize("data", [None, [("dianhu", 0)], "dianhu=0"])
def test_from_dict_wants_a_dict(data: object) -> None:
    with pytest.raises(NotationError, match=re.escape(repr(data))):
        RuleSet.from_dict(data)  # type: ignore[arg-type]
