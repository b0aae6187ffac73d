"""The deal (RULES.md §3): a seeded shuffle of the 80 cards, the hands and the 亮张.

Chance is an actor with a seed, as in OpenSpiel: ``random_deal(seed, dealer)`` always
deals the same cards, on every Python version, so a record needs only the seed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Final

from .cards import (
    COPIES,
    DECK_SIZE,
    NUM_FACES,
    counts_of,
    format_faces,
    full_deck,
    glyph,
    parse_faces,
)
from .errors import NotationError, RecordError
from .kernels import shuffle

__all__ = ["Deal", "check_seat", "check_seed", "deal_from_seed", "random_deal"]

SEATS: Final = (0, 1, 2)


def check_seat(seat: object, what: str = "seat") -> int:
    """``seat`` as 0, 1 or 2, or a :class:`RecordError` quoting it."""
    if isinstance(seat, bool) or not isinstance(seat, int) or seat not in SEATS:
        raise RecordError(f"{what} must be seat 0, 1 or 2, got {seat!r}")
    return seat


# What Deal._unchecked passes to skip the checks (a compiled native class with its
# own __new__ cannot raise from __init__, so the shortcut goes through __init__).
_TRUSTED: Final = object()


@dataclass(frozen=True, slots=True, init=False)
class Deal:
    """Who got what: each seat's dealt hand and the stock, top card first.

    The dealer's hand has 21 cards, the last of which is the 亮张; the others 20.
    The repr is the notation, so ``eval(repr(deal))`` rebuilds it with ``Deal.parse``.
    """

    dealer: int
    hands: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
    stock: tuple[int, ...]

    def __init__(
        self, dealer: object, hands: object, stock: object, *, _trusted: object = None
    ) -> None:
        """Refuse a deal that is not all 80 cards once, 21/20/20 and 19 in the stock.

        The arguments are typed ``object`` and checked here, so that a wrong type is
        a RecordError on both builds (a compiled typed constructor would raise
        TypeError before these checks). :meth:`_unchecked` passes ``_trusted``.
        """
        if _trusted is _TRUSTED:  # a shuffled full deck: nothing to check
            object.__setattr__(self, "dealer", dealer)
            object.__setattr__(self, "hands", hands)
            object.__setattr__(self, "stock", stock)
            return
        seat = check_seat(dealer, "dealer")
        if not isinstance(hands, tuple) or len(hands) != 3:
            raise RecordError(f"a deal has three hands, got {hands!r}")
        parts: list[tuple[int, ...]] = []
        for h in (*hands, stock):
            if not isinstance(h, tuple):
                raise RecordError(f"a dealt hand or stock is a tuple of faces, got {h!r}")
            items: tuple[object, ...] = h  # as objects: a compiled build would read True as 1
            if any(isinstance(f, bool) or not isinstance(f, int) for f in items):
                raise RecordError(f"a dealt hand or stock is a tuple of faces, got {h!r}")
            faces: tuple[int, ...] = h
            if any(not 0 <= f < NUM_FACES for f in faces):
                raise RecordError(f"a deal holds a card that is no face 0–19: {list(h)!r}")
            parts.append(faces)
        sizes = [len(h) for h in parts[:3]]
        want = [21 if s == seat else 20 for s in SEATS]
        if sizes != want:
            raise RecordError(f"dealt hands must hold {want} cards, got {sizes}")
        if len(parts[3]) != DECK_SIZE - 61:
            raise RecordError(f"the stock must hold 19 cards, got {len(parts[3])}")
        counts = counts_of([f for h in parts for f in h])
        if any(c != COPIES for c in counts):
            bad = [f"{glyph(f)}×{c}" for f, c in enumerate(counts) if c != COPIES]
            raise RecordError(f"a deal must use all 80 cards once: {' '.join(bad)}")
        object.__setattr__(self, "dealer", seat)
        object.__setattr__(self, "hands", (parts[0], parts[1], parts[2]))
        object.__setattr__(self, "stock", parts[3])

    @staticmethod
    def _unchecked(dealer: int, hands: tuple[tuple[int, ...], ...], stock: tuple[int, ...]) -> Deal:
        """A deal known to be well formed (a shuffled full deck), without the checks."""
        return Deal(dealer, hands, stock, _trusted=_TRUSTED)

    @property
    def liangzhang(self) -> int:
        """亮张: the dealer's 21st card, shown to everyone (§3)."""
        return self.hands[self.dealer][-1]

    def to_dict(self) -> dict[str, object]:
        """The record form: hands and stock in notation."""
        return {
            "dealer": self.dealer,
            "hands": [format_faces(h) for h in self.hands],
            "stock": format_faces(self.stock),
        }

    @staticmethod
    def from_dict(d: object) -> Deal:
        """Read :meth:`to_dict`'s form; anything else is a :class:`RecordError` quoting it."""
        if not isinstance(d, dict):
            raise RecordError(f"a deal is an object with dealer, hands and stock, got {d!r}")
        hands, dealer, stock = d.get("hands"), d.get("dealer"), d.get("stock")
        if (
            not isinstance(hands, list)
            or len(hands) != 3
            or not all(isinstance(h, str) for h in (*hands, stock))
        ):
            raise RecordError(f"bad deal {d!r}: hands must be three strings and stock a string")
        check_seat(dealer, "dealer")
        assert isinstance(stock, str) and isinstance(dealer, int)
        try:
            h = tuple(parse_faces(x) for x in hands)
            return Deal(dealer, (h[0], h[1], h[2]), parse_faces(stock))
        except NotationError as e:
            raise RecordError(f"bad deal {d!r}: {e}") from None

    def __repr__(self) -> str:
        """The constructor call in notation, e.g. ``Deal.parse(0, ['一…', …], '…')``."""
        hands = [format_faces(h) for h in self.hands]
        return f"Deal.parse({self.dealer}, {hands!r}, {format_faces(self.stock)!r})"

    @staticmethod
    def parse(dealer: int, hands: list[str] | tuple[str, ...], stock: str) -> Deal:
        """A deal from notation: three hands (the dealer's 亮张 last) and the stock."""
        return Deal.from_dict({"dealer": dealer, "hands": list(hands), "stock": stock})


def random_deal(seed: int, dealer: int) -> Deal:
    """Shuffle all 80 cards with ``random.Random(seed)`` and deal them."""
    check_seed(seed)
    return deal_from_seed(seed, check_seat(dealer, "dealer"))


def deal_from_seed(seed: int, dealer: int) -> Deal:
    """:func:`random_deal` for a seed and dealer already checked (``new_game``'s path)."""
    deck = list(_DECK)
    shuffle(deck, random.Random(seed))
    hands: list[tuple[int, ...]] = []
    pos = 0
    for s in SEATS:
        n = 21 if s == dealer else 20
        hands.append(tuple(deck[pos : pos + n]))
        pos += n
    return Deal._unchecked(dealer, (hands[0], hands[1], hands[2]), tuple(deck[pos:]))


def check_seed(seed: object) -> int | None:
    """A round's seed is an int or None (no seed: a fixed deal), never a string."""
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise RecordError(f"a seed is an integer or null, got {seed!r}")
    return seed


_DECK: Final = tuple(full_deck())
