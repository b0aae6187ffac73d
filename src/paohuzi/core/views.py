"""What one seat (or a spectator) may know (RULES.md §14).

A view is built from the state by one function and holds only information the
seat is entitled to: its own hand and 臭 sets, the others' hand sizes, face-up
groups, piles, the stock count, the 亮张 and the card on offer. Face-down groups
(偎, dealt 提) show only their kind to the others. When the round is over,
everything is revealed.
"""

from __future__ import annotations

from dataclasses import dataclass

from .actions import Action
from .cards import NUM_FACES, faces_of_counts, format_faces, glyph
from .errors import PaohuziError
from .events import Event
from .groups import Group, GroupKind
from .state import Phase, RoundResult, State

__all__ = ["SeatView", "ViewGroup", "censored_log", "format_view", "offer_hidden", "view"]


@dataclass(frozen=True, slots=True)
class ViewGroup:
    """A table group as one seat sees it; ``faces`` is None when face down to it."""

    kind: GroupKind
    faces: tuple[int, ...] | None
    hidden: bool  # lies face down on the table (to the others)

    def __repr__(self) -> str:
        """Show the group as it reads on the table."""
        return f"<ViewGroup {self.text()}{' (hidden)' if self.hidden else ''}>"

    @property
    def size(self) -> int:
        """How many cards the group holds (also when they lie face down)."""
        return self.kind.size

    def text(self) -> str:
        """Return the group in notation, ``▢`` for each card face down to this seat."""
        if self.faces is None:
            return f"{self.kind.value}:" + "▢" * self.kind.size
        return f"{self.kind.value}:" + format_faces(self.faces)

    def group(self) -> Group | None:
        """Return the :class:`Group`, or None if its faces are hidden from this seat."""
        return None if self.faces is None else Group(self.kind, self.faces)


@dataclass(frozen=True, slots=True)
class SeatView:
    """Everything ``seat`` may know now (``seat`` None: a spectator)."""

    seat: int | None
    version: int
    phase: Phase
    dealer: int
    liangzhang: int
    hands: tuple[tuple[int, ...] | None, tuple[int, ...] | None, tuple[int, ...] | None]
    hand_sizes: tuple[int, int, int]
    tables: tuple[tuple[ViewGroup, ...], tuple[ViewGroup, ...], tuple[ViewGroup, ...]]
    piles: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
    discards: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]  # public, in order
    stock_count: int
    chou_chi: frozenset[int] | None
    chou_peng: frozenset[int] | None
    dead: tuple[bool, bool, bool]
    to_act: tuple[int, ...]  # in a claim window only this seat itself, if it may claim
    turn: int
    offer: int | None  # the card on offer in a claim window, if this seat may see it
    offer_placed: bool  # the offered card already lies in the drawer's new 提/偎 (提胡/偎胡)
    offer_source: int | None
    offer_from_draw: bool
    legal: tuple[Action, ...]
    balances: tuple[int, int, int]
    result: RoundResult | None

    @property
    def hand(self) -> tuple[int, ...]:
        """This seat's own hand (empty for a spectator)."""
        if self.seat is None:
            return ()
        h = self.hands[self.seat]
        return h if h is not None else ()

    def __repr__(self) -> str:
        """Summarise: whose view, version, phase and who is to act (format_view has it all)."""
        who = "spectator" if self.seat is None else f"seat {self.seat}"
        return (
            f"<SeatView {who}, version {self.version}, {self.phase.value}, "
            f"to act {list(self.to_act)}>"
        )

    @property
    def over(self) -> bool:
        """Whether the round has ended (everything is then revealed)."""
        return self.phase is Phase.OVER

    def hand_counts(self) -> list[int]:
        """Return this seat's hand as copies per face index."""
        c = [0] * NUM_FACES
        for f in self.hand:
            c[f] += 1
        return c

    def seen_counts(self) -> list[int]:
        """Count the copies of each face this seat can see (hand, groups, piles, offer)."""
        c = self.hand_counts()
        for t in self.tables:
            for g in t:
                if g.faces is not None:
                    for f in g.faces:
                        c[f] += 1
        for p in self.piles:
            for f in p:
                c[f] += 1
        if self.offer is not None and not self.offer_placed:
            c[self.offer] += 1
        return c


def offer_hidden(state: State, seat: int | None) -> bool:
    """Whether the card on offer is face down to ``seat`` (None: a spectator), RULES.md §14.

    Only a 偎胡's card is: drawn into its drawer's face-down 偎 (a 提胡/偎胡 prompt), it
    stays the drawer's secret. The view and the observation encoders (Python and C) all
    read it from here.
    """
    w = state.window
    return (
        w is not None
        and w.after_own
        and seat != w.source
        and any(t.hidden and t.group.faces[0] == w.card for t in state.tables[w.source])
    )


def view(state: State, seat: int | None, version: int | None = None) -> SeatView:
    """Return the censored view of ``state`` for ``seat`` (None: a spectator).

    ``version`` numbers it (default: the state's); a server numbers each audience by its
    own steps.
    """
    if seat is not None and (seat not in (0, 1, 2) or isinstance(seat, bool)):
        raise PaohuziError(f"no seat {seat!r}: a view is for seat 0, 1, 2 or None (a spectator)")
    over = state.phase is Phase.OVER
    # Lists, not generators: a server builds a view for each audience after every decision.
    hands = [faces_of_counts(state.hands[s]) if over or s == seat else None for s in range(3)]
    tables = [
        tuple(
            [
                ViewGroup(
                    t.group.kind,
                    t.group.faces if (not t.hidden or s == seat or over) else None,
                    t.hidden,
                )
                for t in state.tables[s]
            ]
        )
        for s in range(3)
    ]
    w = state.window
    offer = src = None
    from_draw = placed = False
    if w is not None and state.phase is Phase.CLAIM:
        if not offer_hidden(state, seat):
            offer = w.card
        src = w.source
        from_draw = w.from_draw
        placed = w.after_own  # already in the drawer's 提/偎, or (天胡) in the hand
    legal = tuple(state.legal_moves(seat)) if seat is not None else ()
    # Who may claim a card is private: the others only see that a claim is pending.
    acting = state.to_act()
    to_act = acting if state.phase is not Phase.CLAIM else ((seat,) if seat in acting else ())
    return SeatView(
        seat=seat,
        version=state.version if version is None else version,
        phase=state.phase,
        dealer=state.dealer,
        liangzhang=state.liangzhang,
        hands=(hands[0], hands[1], hands[2]),
        hand_sizes=(sum(state.hands[0]), sum(state.hands[1]), sum(state.hands[2])),
        tables=(tables[0], tables[1], tables[2]),
        piles=(tuple(state.piles[0]), tuple(state.piles[1]), tuple(state.piles[2])),
        discards=(tuple(state.discards[0]), tuple(state.discards[1]), tuple(state.discards[2])),
        stock_count=len(state.stock),
        chou_chi=_faces_of_mask(state.chou_chi[seat]) if seat is not None else None,
        chou_peng=_faces_of_mask(state.chou_peng[seat]) if seat is not None else None,
        dead=(state.dead[0], state.dead[1], state.dead[2]),
        to_act=to_act,
        turn=state.turn,
        offer=offer,
        offer_source=src,
        offer_from_draw=from_draw,
        offer_placed=placed,
        legal=legal,
        balances=state.balances,
        result=state.result,
    )


_MASK_FACES: dict[int, frozenset[int]] = {0: frozenset()}


def _faces_of_mask(mask: int) -> frozenset[int]:
    """The faces whose bits are set in a 臭吃/臭碰 mask.

    A view asks for two each time and a round sees only a few masks, so each is worked out once.
    """
    found = _MASK_FACES.get(mask)
    if found is None:
        found = frozenset(f for f in range(NUM_FACES) if (mask >> f) & 1)
        if len(_MASK_FACES) < 4096:  # bounded: 2^20 masks exist, a server sees few
            _MASK_FACES[mask] = found
    return found


def censored_log(state: State, seat: int | None, start: int = 0) -> list[Event]:
    """Return the event log from ``start`` as ``seat`` may see it."""
    out = []
    for e in state.log[start:]:
        c = e.censor(seat)
        if c is not None:
            out.append(c)
    return out


def format_view(v: SeatView) -> str:
    """Render a view as plain text (golden files, logs, debugging)."""
    lines = [
        f"version {v.version} phase {v.phase.value} dealer {v.dealer} 亮张 {glyph(v.liangzhang)} "
        f"stock {v.stock_count} balances {list(v.balances)}"
    ]
    for s in range(3):
        h = v.hands[s]
        hand = "".join(glyph(f) for f in h) if h is not None else f"({v.hand_sizes[s]} cards)"
        table = " ".join(g.text() for g in v.tables[s]) or "-"
        pile = "".join(glyph(f) for f in v.piles[s]) or "-"
        flags = " dead" if v.dead[s] else ""
        lines.append(f"  seat {s}{flags}: hand {hand} | table {table} | pile {pile}")
    if v.offer is not None or v.offer_source is not None:
        card = glyph(v.offer) if v.offer is not None else "?"
        how = "drawn by" if v.offer_from_draw else "discarded by"
        lines.append(f"  on offer: {card} {how} seat {v.offer_source}")
    if v.chou_chi is not None:
        lines.append(
            "  臭吃 "
            + ("".join(glyph(f) for f in sorted(v.chou_chi)) or "-")
            + " 臭碰 "
            + ("".join(glyph(f) for f in sorted(v.chou_peng or ())) or "-")
        )
    lines.append(f"  to act: {list(v.to_act)}")
    if v.legal:
        lines.append("  legal: " + ", ".join(a.text() for a in v.legal))
    return "\n".join(lines)
