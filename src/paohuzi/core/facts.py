"""Each seat's facts as bit masks of faces, so a card on offer is checked in one AND.

Every claim and win check of the engine first asks "could this seat do anything
with face x?" A :class:`SeatFacts` answers with masks (bit f set: maybe, clear:
certainly not), computed once from the seat's hand and table and dropped by
:meth:`paohuzi.core.state.State.touch` whenever a card of that seat moves.
:class:`TableFacts` does the same for the table groups alone, which change less.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Callable, Sequence
from typing import Final

from .actions import shape_faces
from .cards import NUM_FACES, RED_MASK
from .groups import Group, GroupKind, TableGroup, huxi_of
from .hand import complete_size
from .kernels import hand_masks
from .rules import RuleSet

__all__ = [
    "SeatFacts",
    "TableFacts",
    "owes_discard",
    "related_mask",
    "seat_facts",
    "table_facts",
]

_ALL_FACES: Final = (1 << NUM_FACES) - 1
_SMALL: Final = (1 << 10) - 1


def owes_discard(owned: int, quads: int) -> bool:
    """八块 (§9): a player discards exactly when the cards he owns T equal W(k).

    ``owned`` is T (hand, 坎 included, and every table card), ``quads`` is k (his
    提 and 跑). W(k) is :func:`~paohuzi.core.hand.complete_size`, read from a table.
    """
    return owned == _W[quads]


# W(k) for every k a seat can reach (a 提/跑 of each face at most; k + 1 is asked
# too), from complete_size.
_W: Final = tuple(complete_size(k) for k in range(NUM_FACES + 2))


def _related(x: int) -> int:
    """Faces that can share a group with face x (same face, other size, ±2, 二七十)."""
    mask = 1 << x
    for s in range(6):
        g = shape_faces(x, s)
        if g is not None:
            for f in g:
                mask |= 1 << f
    return mask


_REL: Final = tuple(_related(x) for x in range(NUM_FACES))


def related_mask(x: int) -> int:
    """:func:`_related` as a bit mask, precomputed."""
    return _REL[x]


def _faces_where(pred: Callable[[int], bool]) -> int:
    """The faces (as a bit mask) whose number 0–9 satisfies ``pred``."""
    return sum(1 << f for f in range(NUM_FACES) if pred(f % 10))


# Faces that can be the third, middle or first card of a run.
_RUN_END: Final = _faces_where(lambda n: n >= 2)
_RUN_MID: Final = _faces_where(lambda n: 1 <= n <= 8)
_RUN_START: Final = _faces_where(lambda n: n <= 7)
# 二七十 and 贰柒拾: the red faces, by size.
_EQS: Final = (RED_MASK & (1 << 10) - 1, RED_MASK >> 10 << 10)
_EQS_ALL: Final = RED_MASK


def _eqs_partners(free: int) -> int:
    """Faces of 二七十/贰柒拾 whose other two cards are in ``free``."""
    got = 0
    for eqs in _EQS:
        for f in range(NUM_FACES):
            if eqs >> f & 1 and free & (eqs & ~(1 << f)) == eqs & ~(1 << f):
                got |= 1 << f
    return got


# By the free 二七十 faces of both sizes (64 cases).
_EQS_BITS: Final = [1 << f for f in range(NUM_FACES) if _EQS_ALL >> f & 1]
_EQS_PARTNERS: Final = {
    m: _eqs_partners(m)
    for m in (
        sum(b for i, b in enumerate(_EQS_BITS) if n >> i & 1) for n in range(1 << len(_EQS_BITS))
    )
}


def _partners(free: int, pairs: int) -> int:
    """Faces x whose other two cards of some group (run, 二七十, x X X) are free.

    ``free`` holds the faces with one or two free copies, ``pairs`` those with two.
    A single free copy of such a face has a group without the winning card; a card
    x on offer has a 吃 when also x x X (shape 4, one x from hand) is counted.
    """
    return (
        (free << 1 & free << 2 & _RUN_END)
        | (free << 1 & free >> 1 & _RUN_MID)
        | (free >> 1 & free >> 2 & _RUN_START)
        | (pairs >> 10)
        | (pairs & _SMALL) << 10
        | _EQS_PARTNERS[free & _EQS_ALL]
    )


# The most one winning card can add to a hand's 胡息: a 提/跑 upgrade or one more scoring set.
_BEST_GAIN: Final = 6


def _huxi_bound(counts: tuple[int, ...], value: int) -> int:
    """The most 胡息 that 一二三/二七十 sets of one size's free cards can hold.

    With the 坎 and table 胡息 and :data:`_BEST_GAIN` this bounds every win a hand
    can make with one more card, so most hands far from 15 胡息 skip the search.
    ``counts`` are free counts of 一二三七十 (a 坎 stays whole, so it counts as 0).
    """
    one, two, three, seven, ten = counts
    # n123 + min(two - n123, min(seven, ten)) is largest at this closed form.
    n123 = one if one < two else two
    n123 = n123 if n123 < three else three
    n710 = seven if seven < ten else ten
    most = n123 + n710
    return (two if two < most else most) * value


# 胡息 of a 坎 and of a scoring set, small and big (§2), from the groups themselves.
_KAN_HUXI: Final = (huxi_of(GroupKind.KAN, big=False), huxi_of(GroupKind.KAN, big=True))
_SET_HUXI: Final = (
    Group(GroupKind.JU, (0, 1, 2)).huxi,
    Group(GroupKind.JU, (10, 11, 12)).huxi,
)
# The bound by the free counts (0–2) of 一二三七十 of each size.
_BOUND_SMALL: Final = {
    c: _huxi_bound(c, _SET_HUXI[0]) for c in itertools.product(range(3), repeat=5)
}
_BOUND_BIG: Final = {c: _huxi_bound(c, _SET_HUXI[1]) for c in _BOUND_SMALL}
_SMALL_FACES: Final = operator.itemgetter(0, 1, 2, 6, 9)
_BIG_FACES: Final = operator.itemgetter(10, 11, 12, 16, 19)


# Enum members as plain globals: a member lookup costs ten times a global's.
_PENG_K: Final = GroupKind.PENG
_WEI_K: Final = GroupKind.WEI
_CHOUWEI_K: Final = GroupKind.CHOUWEI


# The classes' slot names: their __slots__, and what _values and the repr read.
_TABLE_SLOTS: Final = ("cards", "huxi", "peng", "quads", "wei")
_SEAT_SLOTS: Final = (
    "chi",
    "free",
    "free_cards",
    "free_counts",
    "kan_wei",
    "owned",
    "pairs",
    "peng",
    "quads",
    "wei",
    "wins",
)


def _values(facts: TableFacts | SeatFacts) -> tuple[object, ...]:
    """A facts object's fields, in slot order (a compiled class has no ``__slots__``)."""
    names = _TABLE_SLOTS if isinstance(facts, TableFacts) else _SEAT_SLOTS
    return tuple(getattr(facts, k) for k in names)


class TableFacts:
    """What a seat's table groups decide: card count, 提/跑, 胡息, 偎 and 碰 faces."""

    __slots__ = _TABLE_SLOTS

    def __init__(self, cards: int, quads: int, huxi: int, wei: int, peng: int) -> None:
        """Store the facts (see :func:`table_facts`)."""
        self.cards = cards  # cards on the table (a 提/跑 counts 4)
        self.quads = quads  # k of §9: 提 and 跑
        self.huxi = huxi
        self.wei = wei  # faces of face-down 偎 and shown 臭偎
        self.peng = peng  # faces of open 碰

    def __eq__(self, other: object) -> bool:
        """Equal facts (the caches' tests compare a cached entry with a fresh one)."""
        return isinstance(other, TableFacts) and _values(self) == _values(other)

    def __repr__(self) -> str:
        """The constructor call."""
        return f"TableFacts{_values(self)!r}"


def table_facts(table: Sequence[TableGroup]) -> TableFacts:
    """Count a table's groups into :class:`TableFacts`."""
    n = k = huxi = wei = peng = 0
    for tg in table:
        g = tg.group
        huxi += g.huxi
        c = len(g.faces)
        n += c
        if c == 4:
            k += 1
        elif g.kind is _PENG_K:
            peng |= 1 << g.faces[0]
        elif g.kind is _WEI_K or g.kind is _CHOUWEI_K:
            wei |= 1 << g.faces[0]
    return TableFacts(n, k, huxi, wei, peng)


class SeatFacts:
    """A seat's hand and table as masks of faces; a set bit means "maybe".

    Computed by :func:`seat_facts`, never changed: the state drops it when the
    seat's cards move and computes it again on the next question.
    """

    __slots__ = _SEAT_SLOTS

    def __init__(
        self,
        owned: int,
        quads: int,
        free: int,
        wins: int,
        wei: int,
        peng: int,
        free_counts: bytes,
        free_cards: int,
        pairs: int,
        chi: int,
        kan_wei: int,
    ) -> None:
        """Store the facts (see :func:`seat_facts` for their meaning)."""
        self.owned = owned  # T of §9: hand plus every table card
        self.quads = quads  # k of §9
        self.free = free  # faces with a free copy (not in a 坎)
        self.wins = wins  # faces that might complete the hand (§10)
        self.wei = wei  # table 偎/臭偎 faces: a drawn copy makes a 提
        self.peng = peng  # table 碰 faces: a drawn copy makes a 跑
        self.free_counts = free_counts  # free count by face (a 坎 counts 0)
        self.free_cards = free_cards  # how many free cards
        self.pairs = pairs  # faces with two free copies: may 碰
        self.chi = chi  # faces it might 吃
        self.kan_wei = kan_wei  # 坎 and table 偎 faces: another's copy forces a 跑

    def __eq__(self, other: object) -> bool:
        """Equal facts (the caches' tests compare a cached entry with a fresh one)."""
        return isinstance(other, SeatFacts) and _values(self) == _values(other)

    def __repr__(self) -> str:
        """The facts by name."""
        return "SeatFacts(" + ", ".join(f"{k}={getattr(self, k)!r}" for k in _SEAT_SLOTS) + ")"

    def owes_discard_after_claim(self, gained: int) -> bool:
        """Whether taking ``gained`` more cards leaves a discard owed (§9)."""
        return self.owned + gained == _W[self.quads]  # owes_discard, inlined


def seat_facts(hand: Sequence[int], t: TableFacts, rules: RuleSet) -> SeatFacts:
    """The :class:`SeatFacts` of a hand (counts, at most 3 of a face) and its table."""
    singles, pairs, kans, n_hand, kans_small, kans_big, fb = hand_masks(hand)
    kan_huxi = _KAN_HUXI[0] * kans_small + _KAN_HUXI[1] * kans_big  # 坎: 胡息, and not free
    n_free = n_hand - 3 * (kans_small + kans_big)
    mask = singles | pairs
    huxi = t.huxi + kan_huxi
    kan_wei = t.wei | kans
    # Win candidates (§10): a free single with no group among the other free cards
    # can only be saved by the winning card itself, so the card joins it (and every
    # such single) in one group: three such singles and no card wins at all.
    partners = _partners(mask, pairs)
    stranded = singles & ~partners
    if not stranded:
        wins = _ALL_FACES
    else:
        low = stranded & -stranded
        wins = _REL[low.bit_length() - 1]
        stranded ^= low
        if stranded:
            low = stranded & -stranded
            wins = 0 if stranded ^ low else wins & _REL[low.bit_length() - 1]
    if wins:  # and a bound on the 胡息 the hand can reach
        bar = rules.min_huxi  # the lower bar (a compiled min() is a generic call)
        if rules.min_huxi_with_mingtang < bar:
            bar = rules.min_huxi_with_mingtang
        bound = _BOUND_SMALL[_SMALL_FACES(fb)] + _BOUND_BIG[_BIG_FACES(fb)]
        if huxi + bound + _BEST_GAIN < bar:
            wins = 0
    # 吃 is possible on x when a shape's two cards are free (shape 4 x x X included).
    chi = partners | (mask & (mask >> 10 | (mask & _SMALL) << 10))
    return SeatFacts(
        t.cards + n_hand, t.quads, mask, wins, t.wei, t.peng, fb, n_free, pairs, chi, kan_wei
    )
