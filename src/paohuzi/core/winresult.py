"""The result of a win (RULES.md §9–§12): its score, itemised, and the size of a complete hand."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from .cards import NUM_FACES, glyph
from .groups import Group
from .scoring import tun_of

__all__ = ["W", "WinResult", "complete_size"]


def complete_size(k: int) -> int:
    """W(k): cards in a complete hand with k 提/跑 (§9), the duty a discard keeps.

    The one place the formula is written; the hot paths index :data:`_W`.

    >>> [complete_size(k) for k in range(4)]
    [21, 21, 22, 23]
    """
    return 21 if k == 0 else 20 + k


W: Final = tuple(complete_size(k) for k in range(4 * NUM_FACES))  # W(k) by k, for the hot paths


@dataclass(frozen=True, slots=True, init=False)
class WinResult:
    """The best arrangement of a win and its score, itemised."""

    huxi: int
    tun: int
    fan: int
    score: int
    mingtang: Mapping[str, int]
    groups: tuple[Group, ...]
    card: int
    self_drawn: bool
    last_card: bool
    how: str  # 跑胡 / 提胡 / 偎胡 / 碰 / "" (X into a hand group)

    def __init__(
        self,
        huxi: int,
        tun: int,
        fan: int,
        score: int,
        mingtang: Mapping[str, int],
        groups: tuple[Group, ...],
        card: int,
        self_drawn: bool,
        last_card: bool,
        how: str = "",
    ) -> None:
        """The fields in order.

        Written out: a compiled build compiles it, where the frozen dataclass's own
        ``__init__`` stays interpreted and costs ten times as much.
        """
        object.__setattr__(self, "huxi", huxi)
        object.__setattr__(self, "tun", tun)
        object.__setattr__(self, "fan", fan)
        object.__setattr__(self, "score", score)
        object.__setattr__(self, "mingtang", mingtang)
        object.__setattr__(self, "groups", groups)
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "self_drawn", self_drawn)
        object.__setattr__(self, "last_card", last_card)
        object.__setattr__(self, "how", how)

    @property
    def zimo(self) -> bool:
        """自摸: the winner drew the card himself (+囤, not a 名堂)."""
        return self.self_drawn

    def __repr__(self) -> str:
        """Show the score and the groups on one line (a result is computed, not rebuilt).

        ``<WinResult 伍: 18 胡息, 2 囤 × 1 番 = 2 | 碰:贰贰贰 吃:壹贰叁 坎:捌捌捌 ...>``
        """
        how = f" {self.how}" if self.how else ""
        drawn = " 自摸" if self.self_drawn else ""
        last = " 海底" if self.last_card else ""
        mt = "".join(f", {k} {v}" for k, v in self.mingtang.items())
        return (
            f"<WinResult {glyph(self.card)}{how}{drawn}{last}: {self.huxi} 胡息{mt}, "
            f"{self.tun} 囤 × {self.fan} 番 = {self.score} | "
            f"{' '.join(g.notation() for g in self.groups)}>"
        )

    def explain(self) -> str:
        """Itemise the win for people: groups with 胡息, 囤, 名堂, 囤 × 番 = score."""
        how = f" ({self.how})" if self.how else ""
        drawn = "自摸 (own draw)" if self.self_drawn else "drawn by another player"
        lines = [f"胡 on {glyph(self.card)}{how}, {drawn}" + (", 海底" if self.last_card else "")]
        for g in self.groups:
            lines.append(f"  {g.notation():<10} {g.huxi:>2} 胡息")
        lines.append(f"胡息 {self.huxi}")
        base = tun_of(self.huxi, self_drawn=False)
        bonus = self.tun - base
        lines.append(
            f"囤 {self.tun} = ⌊({self.huxi} − 12) / 3⌋" + (f" + {bonus} 自摸" if bonus else "")
        )
        if self.mingtang:
            lines.append("名堂 " + ", ".join(f"{k} {v} 番" for k, v in self.mingtang.items()))
        else:
            lines.append("名堂 none (平胡, 1 番)")
        lines.append(f"{self.tun} 囤 × {self.fan} 番 = {self.score}")
        return "\n".join(lines)

    def to_dict(self) -> dict[str, object]:
        """Return a JSON-ready dict (the keys of the ``paohuzi score --json`` object)."""
        return {
            "win": True,
            "huxi": self.huxi,
            "tun": self.tun,
            "fan": self.fan,
            "score": self.score,
            "mingtang": dict(self.mingtang),
            "groups": [g.notation() for g in self.groups],
            "group_huxi": [g.huxi for g in self.groups],
            "card": glyph(self.card),
            "self_drawn": self.self_drawn,
            "last_card": self.last_card,
            "how": self.how,
        }
