"""A full state consistent with one seat's view (OpenSpiel's "resample from information state").

A seat's view hides the other hands, the faces of face-down 偎/提, the stock order
and the others' 臭 sets. A search bot guesses them (an :class:`Assignment`) and asks
:func:`determinize` for the state those guesses make: every public fact of the view
kept, the window on offer opened again for the guessed hands. Sampling is the
caller's business; this module only builds and checks.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import COPIES, NUM_FACES, faces_of_counts, format_faces, glyph
from .deal import Deal
from .errors import HandError
from .groups import Group, GroupKind, TableGroup
from .rules import RuleSet
from .state import Phase, State
from .views import SeatView

__all__ = ["Assignment", "determinize"]


@dataclass(frozen=True, slots=True)
class Assignment:
    """Where the cards a seat cannot see are, and what it cannot know of the others.

    ``hands`` are the other seats' hands as faces (the viewer's own entry is
    ignored), ``hidden`` the face of each face-down table group by (seat, index in
    ``view.tables[seat]``), ``stock`` the stock from its top card. ``chou_chi`` and
    ``chou_peng`` guess the others' 臭 sets (§8); by default each holds the faces
    the seat discarded, the part of its 臭 sets that every seat sees.
    """

    hands: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
    hidden: dict[tuple[int, int], int]
    stock: tuple[int, ...]
    chou_chi: dict[int, frozenset[int]] = field(default_factory=dict)
    chou_peng: dict[int, frozenset[int]] = field(default_factory=dict)


def _tables(view: SeatView, a: Assignment) -> list[list[TableGroup]]:
    """The view's table groups with the assigned faces of the face-down ones."""
    tables: list[list[TableGroup]] = [[], [], []]
    for s in range(3):
        for i, vg in enumerate(view.tables[s]):
            if vg.faces is not None:
                tables[s].append(TableGroup(Group(vg.kind, vg.faces), vg.hidden))
                continue
            f = a.hidden.get((s, i))
            if f is None:
                raise HandError(f"no face assigned to seat {s}'s face-down group {i}")
            tables[s].append(TableGroup(Group(vg.kind, (f,) * vg.kind.size), True))
    return tables


def _counts(view: SeatView, hands: list[list[int]], tables: list[list[TableGroup]],
            stock: tuple[int, ...]) -> list[int]:  # fmt: skip
    """Every card the view and the assignment place, by face."""
    counts = [0] * NUM_FACES
    for s in range(3):
        for f in range(NUM_FACES):
            counts[f] += hands[s][f]
        for f in (*(f for t in tables[s] for f in t.group.faces), *view.piles[s]):
            counts[f] += 1
    for f in stock:
        counts[f] += 1
    if view.offer is not None and not view.offer_placed:
        counts[view.offer] += 1
    return counts


def _check_cards(view: SeatView, hands: list[list[int]], tables: list[list[TableGroup]],
                 a: Assignment) -> None:  # fmt: skip
    """Refuse an assignment that does not fit the view: sizes and all 80 cards once."""
    for s in range(3):
        if s != view.seat and len(a.hands[s]) != view.hand_sizes[s]:
            raise HandError(
                f"seat {s} holds {view.hand_sizes[s]} cards, assigned {format_faces(a.hands[s])!r}"
            )
    if len(a.stock) != view.stock_count:
        raise HandError(f"the stock holds {view.stock_count} cards, assigned {len(a.stock)}")
    counts = _counts(view, hands, tables, a.stock)
    bad = [f"{glyph(f)}×{c}" for f, c in enumerate(counts) if c != COPIES]
    if bad:
        raise HandError(f"the assignment does not use every card once: {' '.join(bad)}")


def _chou(view: SeatView, a: Assignment, s: int) -> tuple[int, int]:
    """Seat ``s``'s 臭吃 and 臭碰 masks: the viewer's own, the guess, or its discards."""
    if s == view.seat:
        return (
            sum(1 << f for f in view.chou_chi or ()),
            sum(1 << f for f in view.chou_peng or ()),
        )
    seen = sum(1 << f for f in set(view.discards[s]))
    chi = a.chou_chi.get(s)
    peng = a.chou_peng.get(s)
    return (
        seen if chi is None else sum(1 << f for f in chi),
        seen if peng is None else sum(1 << f for f in peng),
    )


def determinize(view: SeatView, assignment: Assignment, rules: RuleSet) -> State:
    """The full :class:`State` the ``assignment`` of unseen cards makes of ``view``.

    Raises :class:`HandError` when the assignment does not fit the view (wrong
    sizes, a card used twice) or when the guessed hands would change what the
    viewer may do now (e.g. a guessed 坎 of the card on offer forcing a 跑).
    The state has no history: its log starts empty and ``seed`` is None. In a claim
    window the answers other seats already gave are private (§14), so the window
    opens again with none given.
    """
    me = view.seat
    if me is None:
        raise HandError("a spectator view cannot be determinized: it has no seat")
    hands = [[0] * NUM_FACES for _ in range(3)]
    for s in range(3):
        for f in view.hand if s == me else assignment.hands[s]:
            hands[s][f] += 1
    tables = _tables(view, assignment)
    _check_cards(view, hands, tables, assignment)
    st = _bare_state(view, rules, hands, tables, list(reversed(assignment.stock)))
    for s in range(3):
        st.chou_chi[s], st.chou_peng[s] = _chou(view, assignment, s)
    if view.phase is Phase.CLAIM:
        _reopen_window(st, view)
        if set(st.legal_actions(me)) != {a.id for a in view.legal}:
            raise HandError(
                f"the assigned hands change seat {me}'s options on {glyph(view.offer or 0)}: "
                f"{sorted(st.legal_actions(me))} instead of {sorted(a.id for a in view.legal)}"
            )
    return st


def _bare_state(
    view: SeatView,
    rules: RuleSet,
    hands: list[list[int]],
    tables: list[list[TableGroup]],
    stock: list[int],
) -> State:
    """A State with the view's public facts and the given cards, waiting for a discard."""
    # A stand-in deal (the real one is unknown): today's hands, the 亮张 last in the dealer's.
    dealt = [faces_of_counts(h) for h in hands]
    dealt[view.dealer] = (*dealt[view.dealer], view.liangzhang)
    deal = Deal._unchecked(view.dealer, tuple(dealt), tuple(reversed(stock)))
    st = State(rules, deal, balances=view.balances)
    st.hands = hands
    st.tables = tables
    st.piles = [list(p) for p in view.piles]
    st.discards = [list(d) for d in view.discards]
    st.stock = stock
    st.dead = list(view.dead)
    st.turn = view.turn
    st.version = view.version
    return st


def _reopen_window(st: State, view: SeatView) -> None:
    """Open the claim window on the view's offer again, for the assigned hands."""
    x, src = view.offer, view.offer_source
    if x is None or src is None:
        raise HandError("the view's claim window shows no card (a hidden 偎胡 of another seat)")
    if view.offer_placed:
        _reopen_own(st, x, src, view.offer_from_draw)
    elif view.offer_from_draw:
        st._draw_claims(src, x, not st.stock)
    else:  # the discard made again, from the discarder's hand
        st.hands[src][x] += 1
        st.discards[src].pop()
        st.touch(src)
        st._discard(src, x)


def _reopen_own(st: State, x: int, seat: int, from_draw: bool) -> None:
    """The 提胡/偎胡/天胡 window: the win evaluated as before the card was placed.

    A new 偎 was a pair in hand; a new 提 is taken as a 偎 on the table made whole
    (a 坎 in hand scores the same); 天胡's 亮张 is still in the hand.
    """
    table = st.tables[seat]
    if from_draw:
        i = max(i for i, t in enumerate(table) if t.group.faces[0] == x)
        placed = table[i]
        if placed.group.kind is GroupKind.TI:
            table[i] = TableGroup(Group(GroupKind.WEI, (x,) * 3), True)
        else:
            del table[i]
            st.hands[seat][x] += 2
        st.touch(seat, table=True)
        res = st._win(seat, x, True, not st.stock)
        if placed.group.kind is GroupKind.TI:
            table[i] = placed
        else:
            table.insert(i, placed)
            st.hands[seat][x] -= 2
        st.touch(seat, table=True)
    else:
        st.hands[seat][x] -= 1
        st.touch(seat)
        res = st._win(seat, x, False, False)
        st.hands[seat][x] += 1
        st.touch(seat)
    if res is None:
        raise HandError(f"seat {seat} cannot win on {glyph(x)} with the assigned cards")
    st._open_own(x, seat, from_draw, not st.stock, res)
