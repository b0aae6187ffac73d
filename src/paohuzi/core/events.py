"""Frozen events: the single log of everything that happens in a round.

The engine returns the events of every transition and appends them to the state's
log. The log is the replay check, the server's broadcast and the UI's animation
script; :meth:`Event.censor` gives what one seat (or a spectator) may see (§14).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from enum import Enum, StrEnum
from types import MappingProxyType
from typing import NamedTuple

from ._wire import (
    check_keys,
    quote,
    read_bool,
    read_dict,
    read_ints,
    read_list,
    read_seat,
    read_str,
    require,
    reraise,
)
from .cards import format_faces, glyph, parse_faces
from .errors import PaohuziError, RecordError
from .groups import Group, format_groups, parse_groups

__all__ = ["DETAILS", "Event", "EventDetail", "EventKind"]


class EventKind(Enum):
    """What happened; the value is the wire form (``Event.to_dict()["kind"]``)."""

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


class EventDetail(StrEnum):
    """How a 提, 跑, 偎, 臭 mark or 胡 came about; the value is the wire form.

    A ``StrEnum``, so ``event.detail == EventDetail.KAN`` holds whether the
    event stores the member or its plain string. :data:`DETAILS` lists which
    kinds carry which details.
    """

    NONE = ""
    DEALT = "dealt"  # 提: four copies in the dealt hand
    KAN = "kan"  # 提 or 跑 made from a 坎 in the hand
    WEI = "wei"  # 提 or 跑 made on the seat's 偎 on the table
    PENG = "peng"  # 跑 made on a 碰 on the table; a 臭碰 mark
    CHI = "chi"  # a 臭吃 mark
    CHOU = "chou"  # 臭偎: shown, since the seat had passed on that face
    HU_PENG = "碰"  # 胡 taking the card as a 碰
    PAOHU = "跑胡"  # 胡 whose card made a 跑
    TIHU = "提胡"  # 胡 whose card made a 提
    WEIHU = "偎胡"  # 胡 whose card made a 偎


_D = EventDetail
#: The details each kind may carry (every other kind: only ``NONE``).
DETAILS: Mapping[EventKind, frozenset[EventDetail]] = MappingProxyType(
    {
        EventKind.TI: frozenset({_D.DEALT, _D.KAN, _D.WEI}),
        EventKind.WEI: frozenset({_D.NONE, _D.CHOU}),
        EventKind.PAO: frozenset({_D.KAN, _D.WEI, _D.PENG}),
        EventKind.CHOU: frozenset({_D.CHI, _D.PENG}),
        EventKind.HU: frozenset({_D.NONE, _D.HU_PENG, _D.PAOHU, _D.TIHU, _D.WEIHU}),
    }
)
_NO_DETAIL = frozenset({_D.NONE})
# How many ``numbers`` and ``hands`` each kind holds (every other kind: none).
_NUMBERS = {EventKind.DEAL: 3, EventKind.SETTLE: 3, EventKind.HU: 4}
_HANDS = {EventKind.DEAL: 3, EventKind.REVEAL: 1}
_KEYS = frozenset(
    ("kind", "seat", "face", "groups", "source", "detail", "hidden", "hands", "numbers", "private")
)
_KINDS = {k.value: k for k in EventKind}
_MELDS = frozenset((EventKind.TI, EventKind.WEI, EventKind.PAO, EventKind.PENG, EventKind.CHI))


class Event(NamedTuple):
    """One thing that happened. ``hidden`` events show their cards to ``seat`` only.

    A named tuple rather than a frozen dataclass: just as immutable, and a round
    makes about seventy of them, so construction cost is on the hot path. The
    ``numbers`` have names by kind: :attr:`hand_sizes` (deal), :attr:`deltas`
    (settle), :attr:`huxi`, :attr:`tun`, :attr:`fan` and :attr:`score` (hu).
    """

    kind: EventKind
    seat: int = -1
    face: int | None = None
    groups: tuple[Group, ...] = ()
    source: int = -1
    detail: EventDetail = EventDetail.NONE  # see DETAILS
    hidden: bool = False
    hands: tuple[tuple[int, ...] | None, ...] = ()  # DEAL: dealt hands; REVEAL: (hand,)
    numbers: tuple[int, ...] = ()  # read them by name: hand_sizes, deltas, huxi...
    private: bool = False  # the whole event is for ``seat`` only (臭 marks)

    def __repr__(self) -> str:
        """Show the readable text form and the visibility flags."""
        flags = " (hidden)" if self.hidden else " (private)" if self.private else ""
        try:
            return f"<Event {self.text().strip()}{flags}>"
        except (ValueError, TypeError, IndexError, KeyError):  # built by hand, malformed
            fields = ", ".join(f"{n}={getattr(self, n)!r}" for n in self._fields)
            return f"Event({fields})"

    # ------------------------------------------------------------ named numbers

    def _numbers(self, kind: EventKind, name: str) -> tuple[int, ...]:
        if self.kind is not kind:
            raise AttributeError(
                f"{name} belongs to {kind.value} events, not to {self.kind.value}: {self!r}"
            )
        return self.numbers

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """DEAL: each seat's dealt hand size (also after censoring hides the hands)."""
        return self._numbers(EventKind.DEAL, "hand_sizes")

    @property
    def deltas(self) -> tuple[int, ...]:
        """SETTLE: each seat's balance change."""
        return self._numbers(EventKind.SETTLE, "deltas")

    @property
    def huxi(self) -> int:
        """HU: the winner's 胡息."""
        return self._numbers(EventKind.HU, "huxi")[0]

    @property
    def tun(self) -> int:
        """HU: the 囤 the 胡息 make."""
        return self._numbers(EventKind.HU, "tun")[1]

    @property
    def fan(self) -> int:
        """HU: the 番 multiplier."""
        return self._numbers(EventKind.HU, "fan")[2]

    @property
    def score(self) -> int:
        """HU: 囤 × 番, what each other seat pays before the caps."""
        return self._numbers(EventKind.HU, "score")[3]

    # ----------------------------------------------------------------- views

    def censor(self, seat: int | None) -> Event | None:
        """Return this event as ``seat`` sees it (``None``: a spectator); None if unseen."""
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
        """Return a one-line readable form, used by golden files and the terminal log."""
        return _TEXTS.get(self.kind, Event._card_text)(self)

    def _who(self) -> str:
        return f"seat {self.seat}" if self.seat >= 0 else ""

    def _card(self) -> str:
        return glyph(self.face) if self.face is not None else "?"

    def _deal_text(self) -> str:
        hands = " | ".join(
            format_faces(h) if h is not None else f"({n} cards)"
            for h, n in zip(self.hands, self.numbers, strict=True)
        )
        return f"deal: dealer seat {self.seat}, 亮张 {self._card()}; {hands}"

    def _meld_text(self) -> str:
        gs = format_groups(self.groups) if self.groups else "(face down)"
        extra = f" from seat {self.source}" if self.source >= 0 and self.source != self.seat else ""
        det = f" [{self.detail}]" if self.detail else ""
        return f"{self._who()} {self.kind.value} {gs}{extra}{det}"

    def _hu_text(self) -> str:
        hx, tun, fan, score = self.numbers
        return (
            f"{self._who()} hu on {self._card()} ({self.detail or 'hand'}): "
            f"{format_groups(self.groups)}; 胡息 {hx}, {tun} 囤 × {fan} 番 = {score}"
        )

    def _reveal_text(self) -> str:
        hand = format_faces(self.hands[0]) if self.hands and self.hands[0] is not None else ""
        return f"{self._who()} shows hand {hand or '-'} | table {format_groups(self.groups) or '-'}"

    def _settle_text(self) -> str:
        return "settle: " + ", ".join(f"{d:+d}" for d in self.numbers)

    def _chou_text(self) -> str:
        return f"{self._who()} 臭{'吃' if self.detail == _D.CHI else '碰'} {self._card()}"

    def _dead_text(self) -> str:
        return f"{self._who()} dead hand"

    def _pass_text(self) -> str:
        return f"{self._who()} pass"

    def _huangzhuang_text(self) -> str:
        return "荒庄: the stock is empty"

    def _card_text(self) -> str:
        det = f" [{self.detail}]" if self.detail else ""
        return f"{self._who()} {self.kind.value} {self._card()}{det}"

    # ------------------------------------------------------------- wire form

    def to_dict(self) -> dict[str, object]:
        """Return the JSON form: only the fields that differ from their defaults."""
        d: dict[str, object] = {"kind": self.kind.value}
        if self.seat >= 0:
            d["seat"] = self.seat
        if self.face is not None:
            d["face"] = glyph(self.face)
        if self.groups:
            d["groups"] = [g.notation() for g in self.groups]
        if self.source >= 0:
            d["source"] = self.source
        if self.detail:
            d["detail"] = str(self.detail)
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
    def from_dict(data: object) -> Event:
        """Load the JSON form; anything malformed is a RecordError quoting it."""
        d = read_dict(data, "an event")
        check_keys(d, _KEYS, "an event")
        kind_text = require(d, "kind", "an event")
        kind = _KINDS.get(kind_text) if isinstance(kind_text, str) else None
        if kind is None:
            raise RecordError(f"unknown event kind {quote(kind_text)}")
        what = f"a {kind.value} event"
        try:
            return Event(
                kind=kind,
                seat=_read_opt_seat(d.get("seat"), f"{what}'s seat"),
                face=_read_face(d.get("face"), f"{what}'s face"),
                groups=parse_groups(_read_strs(d.get("groups", []), f"{what}'s groups")),
                source=_read_opt_seat(d.get("source"), f"{what}'s source"),
                detail=_read_detail(kind, d.get("detail", "")),
                hidden=read_bool(d.get("hidden", False), f"{what}'s hidden"),
                hands=_read_hands(kind, d.get("hands", [])),
                numbers=read_ints(d.get("numbers", []), f"{what}'s numbers", _NUMBERS.get(kind, 0)),
                private=read_bool(d.get("private", False), f"{what}'s private"),
            )
        except RecordError:
            raise
        except PaohuziError as e:
            raise reraise(e, what) from None


# How each kind reads (every other kind: Event._card_text).
_TEXTS: dict[EventKind, Callable[[Event], str]] = {
    EventKind.DEAL: Event._deal_text,
    **dict.fromkeys(_MELDS, Event._meld_text),
    EventKind.HU: Event._hu_text,
    EventKind.SETTLE: Event._settle_text,
    EventKind.REVEAL: Event._reveal_text,
    EventKind.HUANGZHUANG: Event._huangzhuang_text,
    EventKind.CHOU: Event._chou_text,
    EventKind.DEAD: Event._dead_text,
    EventKind.PASS: Event._pass_text,
}


def _read_opt_seat(value: object, what: str) -> int:
    return -1 if value is None else read_seat(value, what)


def _read_face(value: object, what: str) -> int | None:
    if value is None:
        return None
    faces = parse_faces(read_str(value, what))
    if len(faces) != 1:
        raise RecordError(f"{what} must be one card, got {quote(value)}")
    return faces[0]


def _read_strs(value: object, what: str) -> list[str]:
    return [read_str(x, f"{what} item") for x in read_list(value, what)]


def _read_detail(kind: EventKind, value: object) -> EventDetail:
    text = read_str(value, f"a {kind.value} event's detail")
    allowed = DETAILS.get(kind, _NO_DETAIL)
    if text not in allowed:  # StrEnum members equal their values
        names = sorted(d.value for d in allowed)
        raise RecordError(f"a {kind.value} event's detail must be one of {names}, got {text!r}")
    return EventDetail(text)


def _read_hands(kind: EventKind, value: object) -> tuple[tuple[int, ...] | None, ...]:
    what = f"a {kind.value} event's hands"
    items = read_list(value, what, _HANDS.get(kind, 0))
    return tuple(None if h is None else parse_faces(read_str(h, f"{what} item")) for h in items)
