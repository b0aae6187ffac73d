"""The rule set (RULES.md §15) as a frozen value; defaults are 红拐弯.

Every ruling a table might want otherwise is a field here, so a game record that
stores its rule set replays under exactly the rules it was played with.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from .errors import NotationError

__all__ = ["HONG_GUAI_WAN", "MINGTANG_NAMES", "RuleSet"]

# 名堂 field name -> hanzi, in the order results list them.
MINGTANG_NAMES: dict[str, str] = {
    "dianhu": "点胡",
    "honghu": "红胡",
    "wuhu": "乌胡",
    "pengpenghu": "碰碰胡",
    "dazi": "大字",
    "xiaozi": "小字",
    "haidihu": "海底胡",
    "shuahou": "耍猴",
}


@dataclass(frozen=True, slots=True, kw_only=True)
class RuleSet:
    """Rule options. A 名堂 field holds its 番 (0 switches it off).

    红胡, 大字 and 小字 grow by one 番 per card above their threshold; their field is
    the 番 at the threshold.
    """

    min_huxi: int = 18
    min_huxi_with_mingtang: int = 15
    zimo_bonus_tun: int = 1
    fan_combine: str = "add"
    # 名堂 (§11)
    dianhu: int = 3
    honghu: int = 2
    honghu_min_red: int = 10
    wuhu: int = 5
    pengpenghu: int = 4
    dazi: int = 4
    dazi_min_big: int = 18
    xiaozi: int = 4
    xiaozi_min_small: int = 16
    haidihu: int = 2
    shuahou: int = 4
    # table options
    tianhu: bool = False
    cap_winner_gain: bool = True
    cap_loser_payment: bool = True
    dead_hand: bool = True
    rounds_per_match: int = 8
    starting_balance: int = 100

    def __post_init__(self) -> None:
        """Reject values no table could play with, quoting them (a record must replay)."""
        if self.fan_combine not in ("add", "multiply"):
            raise NotationError(
                f"fan_combine must be 'add' or 'multiply', got {self.fan_combine!r}"
            )
        for f in fields(self):
            v = getattr(self, f.name)
            if f.type in ("int",) and (not isinstance(v, int) or isinstance(v, bool) or v < 0):
                raise NotationError(f"rule {f.name} must be a non-negative int, got {v!r}")
            if f.type in ("bool",) and not isinstance(v, bool):
                raise NotationError(f"rule {f.name} must be true or false, got {v!r}")
        if self.rounds_per_match < 1:
            raise NotationError(
                f"rounds_per_match must be at least 1, got {self.rounds_per_match!r}"
            )

    def to_dict(self) -> dict[str, Any]:
        """Return the fields as a JSON-ready dict, the form game records store."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RuleSet:
        """Rebuild a rule set from :meth:`to_dict`, refusing unknown fields.

        >>> RuleSet.from_dict({"dianhu": 0}) == HONG_GUAI_WAN.with_(dianhu=0)
        True
        """
        if not isinstance(data, dict):
            raise NotationError(f"a rule set is a dict of fields, got {data!r}")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise NotationError(f"unknown rule field(s) {unknown!r}")
        return cls(**data)

    def with_(self, **changes: Any) -> RuleSet:
        """Return a copy with some fields changed (the value is frozen).

        >>> HONG_GUAI_WAN.with_(min_huxi=15).min_huxi
        15
        """
        return replace(self, **changes)


HONG_GUAI_WAN = RuleSet()
