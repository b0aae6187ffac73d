"""Frozen events: the single log of everything that happens in a round.

The engine returns the events of every transition and appends them to the state's
log. The log is the replay check, the server's broadcast and the UI's animation
script; :meth:`Event.censor` gives what one seat (or a spectator) may see (§14).
"""

from __future__ import annotations

from enum import Enum
from typing import Any, NamedTuple

from .cards import format_faces, glyph
from .groups import Group, format_groups, parse_groups

__all__ = ["Event", "EventKind"]


class EventKind(Enum):
    DEAL = "deal"  # hands dealt; face = 亮张
    TI = "ti"  # 提 (detail: dealt / kan / wei)
    WEI = "wei"  # 偎 or 臭偎 (detail: chou)
    PAO = "pao"  # 跑 (detail: kan / wei / peng), source = seat the card came from
    DRAW = "draw"  # a card turned up from the stock
    DISCARD = "discard"
    PASS = "pass"
    PENG = "peng"
    CHI = "chi"
    PILE = "pile"  # unclaimed card laid in front of `seat`
    CHOU = "chou"  # 臭 mark (detail: chi / peng), private to the seat
    DEAD = "dead"  # dead hand (§9)
    HU = "hu"
    HUANGZHUANG = "huangzhuang"  # 荒庄: stock ran out
    SETTLE = "settle"  # balance changes
    REVEAL = "reveal"  # round over: a seat's hand and table groups, all face up


class Event(NamedTuple):
    """One thing that happened. ``hidden`` events show their cards to ``seat`` only.

    A named tuple rather than a frozen dataclass: just as immutable, and a round
    makes about seventy of them, so construction cost is on the hot path.
    """

    kind: EventKind
    seat: int = -1
    face: int | None = None
    groups: tuple[Group, ...] = ()
    source: int = -1
    detail: str = ""
    hidden: bool = False
    hands: tuple[tuple[int, ...] | None, ...] = ()  # DEAL: dealt hands; HU/荒庄: revealed hands
    numbers: tuple[
        int, ...
    ] = ()  # DEAL: hand sizes; SETTLE: balance changes; HU: huxi, tun, fan, score
    private: bool = False  # the whole event is for ``seat`` only (臭 marks)

    def censor(self, seat: int | None) -> Event | None:
        """This event as ``seat`` sees it (``None``: a spectator); None if unseen."""
        if self.private:
            return self if seat == self.seat else None
        if self.kind is EventKind.DEAL:
            return self._replace(
                hands=tuple(h if s == seat else None for s, h in enumerate(self.hands))
            )
        if self.hidden and seat != self.seat:
            return self._replace(face=None, groups=tuple(), hidden=True)
        return self

    def text(self) -> str:
        """A one-line readable form, used by golden files and the terminal log."""
        k = self.kind
        who = f"seat {self.seat}" if self.seat >= 0 else ""
        card = glyph(self.face) if self.face is not None else "?"
        if k is EventKind.DEAL:
            hands = " | ".join(
                format_faces(h) if h is not None else f"({n} cards)"
                for h, n in zip(self.hands, self.numbers, strict=True)
            )
            return f"deal: dealer seat {self.seat}, 亮张 {card}; {hands}"
        if k in (EventKind.TI, EventKind.WEI, EventKind.PAO, EventKind.PENG, EventKind.CHI):
            gs = format_groups(self.groups) if self.groups else "(face down)"
            extra = (
                f" from seat {self.source}" if self.source >= 0 and self.source != self.seat else ""
            )
            det = f" [{self.detail}]" if self.detail else ""
            return f"{who} {k.value} {gs}{extra}{det}"
        if k is EventKind.SETTLE:
            return "settle: " + ", ".join(f"{d:+d}" for d in self.numbers)
        if k is EventKind.HU:
            hx, tun, fan, score = self.numbers
            return (
                f"{who} hu on {card} ({self.detail or 'hand'}): {format_groups(self.groups)}; "
                f"胡息 {hx}, {tun} 囤 × {fan} 番 = {score}"
            )
        if k is EventKind.REVEAL:
            hand = format_faces(self.hands[0]) if self.hands and self.hands[0] is not None else ""
            return f"{who} shows hand {hand or '-'} | table {format_groups(self.groups) or '-'}"
        if k is EventKind.HUANGZHUANG:
            return "荒庄: the stock is empty"
        if k is EventKind.CHOU:
            return f"{who} 臭{'吃' if self.detail == 'chi' else '碰'} {card}"
        if k is EventKind.DEAD:
            return f"{who} dead hand"
        if k is EventKind.PASS:
            return f"{who} pass"
        det = f" [{self.detail}]" if self.detail else ""
        return f"{who} {k.value} {card}{det}"

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind.value}
        if self.seat >= 0:
            d["seat"] = self.seat
        if self.face is not None:
            d["face"] = glyph(self.face)
        if self.groups:
            d["groups"] = [g.notation() for g in self.groups]
        if self.source >= 0:
            d["source"] = self.source
        if self.detail:
            d["detail"] = self.detail
        if self.hidden:
            d["hidden"] = True
        if self.hands:
            d["hands"] = [format_faces(h) if h is not None else None for h in self.hands]
        if self.numbers:
            d["numbers"] = list(self.numbers)
        if self.private:
            d["private"] = True
        return d

    @staticmethod
    def from_dict(d: dict[str, Any]) -> Event:
        from .cards import parse_faces

        face = d.get("face")
        return Event(
            kind=EventKind(d["kind"]),
            seat=d.get("seat", -1),
            face=parse_faces(face)[0] if face else None,
            groups=parse_groups(d.get("groups", [])),
            source=d.get("source", -1),
            detail=d.get("detail", ""),
            hidden=d.get("hidden", False),
            hands=tuple(parse_faces(h) if h is not None else None for h in d.get("hands", [])),
            numbers=tuple(d.get("numbers", [])),
            private=d.get("private", False),
        )
