"""Claim windows: who may claim a card, in what priority, and what a window leaves.

A drawn or discarded card X opens a window (RULES.md §5, §6): every eligible seat
answers at once and the highest claim is applied. The rules of a window live here,
one function each: the priority of claims, who must 跑, who may 碰 or 吃, and the
臭 marks (§8) that the seats who let an offer pass collect.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from .actions import CHI_BASE, HU_ID, PASS_ID, PENG_ID, Action
from .events import EventDetail
from .facts import SeatFacts
from .hand import WinResult

__all__ = [
    "SEATS_FOR",
    "Window",
    "chi_seats",
    "chou_marks",
    "claim_order",
    "claim_rank",
    "forced_pao_on_discard",
    "forced_pao_on_draw",
    "peng_seats",
]


# Which 臭 set a mark goes into (§8): the 臭 event's detail, 臭碰 or 臭吃. Plain
# globals, since an enum member lookup costs ten times a global's.
_CHOU_PENG: Final = EventDetail.PENG
_CHOU_CHI: Final = EventDetail.CHI

# Seats in claim order from a drawer: itself, its 下家, its 上家 (§5 step 2).
_DRAW_ORDER: Final = ((0, 1, 2), (1, 2, 0), (2, 0, 1))
# On a discard: the 下家, the 上家, then the discarder, who cannot claim (§6).
_DISCARD_ORDER: Final = ((1, 2, 0), (2, 0, 1), (0, 1, 2))


def claim_order(source: int, *, from_draw: bool) -> tuple[int, int, int]:
    """The seats in priority order for a card from ``source`` (§5 step 2, §6).

    A drawn card goes to the drawer first, then his 下家, then his 上家; a discard to
    the discarder's 下家, then his 上家 (the discarder cannot claim his own card).
    """
    return (_DRAW_ORDER if from_draw else _DISCARD_ORDER)[source]


# Ranks of claims, lower first: 胡 0–2 by seat order, 碰 4, 吃 5–7 by seat order.
RANK_PENG: Final = 4
RANK_CHI: Final = 5
RANK_NONE: Final = 99


def claim_rank(order: tuple[int, ...], seat: int, aid: int) -> int:
    """Priority of a claim, lower first (§5 steps 2–5, §6 steps 2–3).

    胡 beats everything (by seat order: exactly one winner), then 碰, then 吃 (by
    seat order); a pass ranks last.
    """
    if aid == HU_ID:
        return order.index(seat)
    if aid == PENG_ID:
        return RANK_PENG
    if aid >= CHI_BASE:
        return RANK_CHI + order.index(seat)
    return RANK_NONE


def forced_pao_on_draw(order: tuple[int, int, int], facts: tuple[SeatFacts, ...], bit: int) -> int:
    """The seat that must 跑 a drawn card (§5 step 3), or -1.

    The drawer 跑s on a table 碰 of the card; another seat on a 坎, a 偎 or a 碰.
    ``facts`` are the seats' facts in ``order`` (drawer first); ``bit`` the card's.
    """
    if facts[0].peng & bit:
        return order[0]
    for s, f in zip(order[1:], facts[1:], strict=True):
        if (f.kan_wei | f.peng) & bit:
            return s
    return -1


def forced_pao_on_discard(order: tuple[int, ...], facts: tuple[SeatFacts, ...], bit: int) -> int:
    """The seat that must 跑 a discard (§6 step 1), or -1.

    Only a 坎 or a table 偎 跑s a discard: a 碰 on the table never does
    (桌面上碰的牌不能跑任何人手中打出的牌). ``order`` starts at the discarder's 下家.
    """
    for s, f in zip(order, facts, strict=False):
        if f.kan_wei & bit:
            return s
    return -1


def peng_seats(order: tuple[int, int, int], *, from_draw: bool) -> tuple[int, int]:
    """Seats that may 碰 (§5 step 4, §6 step 2): everyone but the drawer/discarder."""
    return (order[1], order[2]) if from_draw else (order[0], order[1])


def chi_seats(order: tuple[int, int, int], *, from_draw: bool) -> tuple[int, ...]:
    """Seats that may 吃 (§5 step 5, §6 step 3).

    A drawn card: the drawer, then his 下家. A discard: the discarder's 下家 only
    (下家可吃可碰，上家可碰不能吃).
    """
    return (order[0], order[1]) if from_draw else (order[0],)


# The functions above as tables by source seat, for the engine's hot path: for a
# drawn card [0] and a discard [1], the claim order, the 碰 seats and the 吃 seats.
SEATS_FOR: Final = tuple(
    tuple(
        (
            claim_order(src, from_draw=draw),
            peng_seats(claim_order(src, from_draw=draw), from_draw=draw),
            chi_seats(claim_order(src, from_draw=draw), from_draw=draw),
        )
        for src in range(3)
    )
    for draw in (True, False)
)


@dataclass(slots=True, init=False)
class Window:
    """A card on offer and what each seat may do with it (§5 steps 1–5, §6).

    ``__init__`` is written out: a compiled build then compiles it too (the one
    ``dataclass`` writes at run time stays interpreted), and a window opens on
    nearly every card.
    """

    card: int
    source: int  # drawer or discarder
    from_draw: bool
    last_card: bool
    options: dict[int, tuple[int, ...]]  # seat -> legal action ids (PASS included)
    answers: dict[int, int] = field(default_factory=dict)
    hu: dict[int, WinResult] = field(default_factory=dict)
    chi: dict[int, dict[int, Action]] = field(default_factory=dict)
    order: tuple[int, ...] = ()  # seat priority for 胡 / 吃
    forced_pao: int = -1  # seat that must 跑 if nobody wins
    after_own: bool = False  # 提胡/偎胡 window: on pass the drawer goes on (§5 step 1)

    def __init__(
        self,
        card: int,
        source: int,
        from_draw: bool,
        last_card: bool,
        options: dict[int, tuple[int, ...]],
        answers: dict[int, int] | None = None,
        hu: dict[int, WinResult] | None = None,
        chi: dict[int, dict[int, Action]] | None = None,
        order: tuple[int, ...] = (),
        forced_pao: int = -1,
        after_own: bool = False,
    ) -> None:
        """The fields in order; the answers, 胡 and 吃 offers default to empty."""
        self.card = card
        self.source = source
        self.from_draw = from_draw
        self.last_card = last_card
        self.options = options
        self.answers = {} if answers is None else answers
        self.hu = {} if hu is None else hu
        self.chi = {} if chi is None else chi
        self.order = order
        self.forced_pao = forced_pao
        self.after_own = after_own

    def copy(self) -> Window:
        """An independent copy: the answers change, the offers never do."""
        return Window(
            self.card,
            self.source,
            self.from_draw,
            self.last_card,
            self.options,
            dict(self.answers),
            self.hu,
            self.chi,
            self.order,
            self.forced_pao,
            self.after_own,
        )

    def best(self) -> tuple[int, int, int] | None:
        """The winning (seat, id, rank) once no pending seat could still beat it."""
        best_seat, best_aid, best_rank = -1, PASS_ID, RANK_NONE
        for s, a in self.answers.items():
            r = claim_rank(self.order, s, a)
            if r < best_rank:
                best_seat, best_aid, best_rank = s, a, r
        # The best rank a seat yet to answer could still claim (loops, not min() of a
        # generator: compiled, a generator is an object of its own).
        for s, ids in self.options.items():
            if s not in self.answers:
                for a in ids:
                    if claim_rank(self.order, s, a) < best_rank:
                        return None
        return best_seat, best_aid, best_rank


def chou_marks(w: Window, taken: int, rank: int) -> list[tuple[int, EventDetail]]:
    """The 臭 marks a resolved window leaves (§8), in seat-option order.

    A seat offered a 碰 or a 吃 whose turn in the priority order was reached (the
    claim taken ranks below its own) and that did not take it is marked; a claim
    overtaken by a higher one is no refusal. A 胡 or a forced 跑 takes the card
    before any 碰/吃 is reached, so they leave no mark.
    """
    if taken == HU_ID or w.forced_pao >= 0:
        return []
    marks: list[tuple[int, EventDetail]] = []
    chi = w.chi
    for s, ids in w.options.items():
        took = w.answers.get(s)
        if rank > RANK_PENG and took != PENG_ID and PENG_ID in ids:
            marks.append((s, _CHOU_PENG))
        if s in chi and (took is None or took < CHI_BASE) and rank > RANK_CHI + w.order.index(s):
            marks.append((s, _CHOU_CHI))
    return marks
