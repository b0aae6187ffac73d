"""A round's cards and what the engine caches about them (RULES.md §3, §9, §14).

:class:`RoundData` holds the state of a round (hands, tables, piles, stock, marks, the
claim window) and answers questions about it: who acts, what is legal, a seat's facts
(cached, dropped by :meth:`RoundData.touch`, the one invalidation point), a seat's best
win on a card. :class:`~.play.Play` adds the transitions, :class:`~.state.State` the
checked interface.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Final

from .actions import (
    CHI_BASE,
    Action,
)
from .cards import NUM_FACES, glyph
from .chi import TABLES as CHI_TABLES
from .claims import (
    Window,
)
from .deal import Deal
from .events import Event
from .facts import SeatFacts, TableFacts, owes_discard, related_mask, seat_facts, table_facts
from .groups import Group, GroupKind, TableGroup
from .hand import WinResult, complete_size, evaluate_counts
from .kernels import discard_faces, hand_size
from .rules import RuleSet

_T = GroupKind

__all__ = ["Phase", "RoundData", "RoundResult"]

_NO_CHI: Final[dict[int, Action]] = {}


class Phase(Enum):
    """What the round waits for."""

    DISCARD = "discard"
    CLAIM = "claim"
    OVER = "over"


# Enum members as plain globals: a member lookup costs ten times a global's.
_DISCARD: Final = Phase.DISCARD
_CLAIM: Final = Phase.CLAIM
_OVER: Final = Phase.OVER


@dataclass(frozen=True, slots=True, init=False)
class RoundResult:
    """How a round ended: the winner (None: 荒庄), the win, and the 悟性 changes."""

    winner: int | None
    win: WinResult | None
    deltas: tuple[int, int, int]
    balances: tuple[int, int, int]  # after settlement
    next_dealer: int

    def __init__(
        self,
        winner: int | None,
        win: WinResult | None,
        deltas: tuple[int, int, int],
        balances: tuple[int, int, int],
        next_dealer: int,
    ) -> None:
        """The fields in order (written out, so that a compiled build compiles it)."""
        object.__setattr__(self, "winner", winner)
        object.__setattr__(self, "win", win)
        object.__setattr__(self, "deltas", deltas)
        object.__setattr__(self, "balances", balances)
        object.__setattr__(self, "next_dealer", next_dealer)


class RoundData:
    """A round's state and the questions asked of it; :class:`~.state.State` is the round."""

    __slots__ = (
        "balances",
        "balances_at_start",
        "chou_chi",
        "chou_peng",
        "dead",
        "deal",
        "dealer",
        "decisions",
        "discards",
        "draws",
        "facts",
        "hands",
        "log",
        "phase",
        "piles",
        "result",
        "rules",
        "seed",
        "stock",
        "tables",
        "tfacts",
        "tgroups",
        "turn",
        "version",
        "win_card",
        "window",
    )

    rules: RuleSet
    seed: int | None
    deal: Deal
    dealer: int
    hands: list[list[int]]
    tables: list[list[TableGroup]]
    piles: list[list[int]]
    discards: list[list[int]]  # every card each seat discarded (public), in order
    stock: list[int]  # remaining stock, top card last (pop())
    chou_chi: list[int]  # bit masks of faces
    chou_peng: list[int]
    dead: list[bool]
    phase: Phase
    turn: int  # the seat that must discard (Phase.DISCARD)
    window: Window | None
    log: list[Event]
    decisions: list[tuple[int, int]]
    version: int
    balances: tuple[int, int, int]
    result: RoundResult | None
    draws: int
    balances_at_start: tuple[int, int, int]
    facts: list[SeatFacts | None]  # per seat, see seat_facts; None: recompute
    tfacts: list[TableFacts | None]  # per seat, see table_facts; None: recompute
    tgroups: list[tuple[Group, ...] | None]  # per seat, see table_groups; None: rebuild
    win_card: int  # the winning card when it was not yet in the winner's groups, else -1

    # ------------------------------------------------------------ inspection

    @property
    def over(self) -> bool:
        """Whether the round has ended (a win or 荒庄)."""
        return self.phase is _OVER

    @property
    def stock_count(self) -> int:
        """Cards left in the stock."""
        return len(self.stock)

    @property
    def liangzhang(self) -> int:
        """亮张: the dealer's shown 21st card (§3)."""
        return self.deal.liangzhang

    def to_act(self) -> tuple[int, ...]:
        """Seats that must decide now (several in a claim window, in priority order)."""
        if self.phase is _DISCARD:
            return (self.turn,)
        if self.phase is _CLAIM:
            w = self.window
            assert w is not None
            if not w.answers and len(w.options) == 1:
                return tuple(w.options)
            waiting = []  # a loop, not a generator: compiled, a generator is an object
            for s in w.order:
                if s in w.options and s not in w.answers:
                    waiting.append(s)
            return tuple(waiting)
        return ()

    def legal_actions(self, seat: int) -> tuple[int, ...]:
        """Legal action ids of ``seat`` now (empty if it has nothing to decide).

        Ascending, except that in a claim window 过 comes last, after the claims.

        Ids as in OpenSpiel: dense ints below ``NUM_ACTIONS`` (see actions.py);
        :meth:`action` turns one into an :class:`Action`.
        """
        if self.phase is _DISCARD:
            if seat != self.turn:
                return ()
            h = self.hands[seat]
            ids = discard_faces(h)
            if not ids:  # only with dead_hand off: a 坎 must be broken
                ids = tuple(f for f in range(NUM_FACES) if h[f])
            return ids
        if self.phase is _CLAIM:
            w = self.window
            assert w is not None
            if seat in w.answers:
                return ()
            return w.options.get(seat, ())
        return ()

    def legal_moves(self, seat: int) -> list[Action]:
        """:meth:`legal_actions` as :class:`Action` objects (text forms, groups)."""
        return [self.action(seat, a) for a in self.legal_actions(seat)]

    def action(self, seat: int, aid: int) -> Action:
        """The :class:`Action` of id ``aid`` for ``seat`` now."""
        w = self.window
        if aid >= CHI_BASE and w is not None and seat in w.chi and aid in w.chi[seat]:
            return w.chi[seat][aid]
        return Action.from_id(aid, w.card if w is not None and aid >= NUM_FACES else None)

    def table_groups(self, seat: int) -> tuple[Group, ...]:
        """A seat's table groups (face-down ones too: this is the full state).

        The same tuple until the table changes, so that win evaluation finds its
        summary of the table by the tuple's identity.
        """
        g = self.tgroups[seat]
        if g is None:
            g = self.tgroups[seat] = tuple([t.group for t in self.tables[seat]])
        return g

    def seat_facts(self, seat: int) -> SeatFacts:
        """A seat's :class:`SeatFacts`, cached until one of its cards moves."""
        f = self.facts[seat]
        if f is None:
            t = self.tfacts[seat]
            if t is None:
                t = self.tfacts[seat] = table_facts(self.tables[seat])
            f = self.facts[seat] = seat_facts(self.hands[seat], t, self.rules)
        return f

    def table_facts(self, seat: int) -> TableFacts:
        """A seat's :class:`TableFacts`, cached until its table changes."""
        t = self.tfacts[seat]
        if t is None:
            t = self.tfacts[seat] = table_facts(self.tables[seat])
        return t

    def owned(self, seat: int) -> int:
        """T of §9: hand plus every table card."""
        return self.seat_facts(seat).owned

    def quads(self, seat: int) -> int:
        """K of §9: 提 and 跑 owned."""
        return self.seat_facts(seat).quads

    def owes_discard(self, seat: int) -> bool:
        """§9 (八块): discard exactly when T = W(k)."""
        f = self.facts[seat]
        if f is not None:
            return f.owes_discard_after_claim(0)
        # Cheaper than the full seat facts, which the seat's next discard would drop.
        t = self.tfacts[seat] or self.table_facts(seat)
        h = self.hands[seat]
        return owes_discard(hand_size(h) + t.cards, t.quads)

    def card_counts(self) -> list[int]:
        """Every card accounted for, by face: hands, tables, piles, stock, card on offer."""
        c = [0] * NUM_FACES
        for s in range(3):
            for f in range(NUM_FACES):
                c[f] += self.hands[s][f]
            for t in self.tables[s]:
                for f in t.group.faces:
                    c[f] += 1
            for f in self.piles[s]:
                c[f] += 1
        for f in self.stock:
            c[f] += 1
        w = self.window
        if w is not None and self.phase is _CLAIM and not w.after_own:
            c[w.card] += 1
        if self.win_card >= 0:
            c[self.win_card] += 1
        return c

    # ------------------------------------------------------ moving cards

    def touch(self, seat: int, *, table: bool = False, tfacts: TableFacts | None = None) -> None:
        """Drop a seat's cached facts after its cards moved (and its table's, if ``table``).

        The one invalidation point: every transition that moves a seat's cards calls it.
        With ``table``, the table facts become ``tfacts``: None (worked out again when
        asked) or the caller's update of the old ones (an open group only adds to them).
        """
        self.facts[seat] = None
        if table:
            self.tfacts[seat] = tfacts
            self.tgroups[seat] = None

    def _lay(self, seat: int, tg: TableGroup) -> None:
        """Put a new same-face group (提/跑/偎) on a seat's table."""
        self.tables[seat].append(tg)
        self.touch(seat, table=True)

    def _upgrade(self, seat: int, face: int, kinds: tuple[GroupKind, ...], g: Group) -> GroupKind:
        """Turn the seat's table group of ``face`` (one of ``kinds``) into ``g``."""
        table = self.tables[seat]
        for i, t in enumerate(table):
            if t.group.faces[0] == face and t.group.kind in kinds:
                table[i] = TableGroup(g)
                self.touch(seat, table=True)
                return t.group.kind
        raise AssertionError(f"no {kinds} of {glyph(face)} on seat {seat}'s table")

    def _claimed(
        self, seat: int, taken: Sequence[int], placed: Sequence[TableGroup], huxi: int, peng: int
    ) -> None:
        """A 碰 or 吃: hand cards go with the card on offer into open groups.

        ``huxi`` is the groups' 胡息 and ``peng`` the faces of a 碰 among them: open
        groups never change again, so the table facts are updated in place.
        """
        h = self.hands[seat]
        for f in taken:
            h[f] = h[f] - 1
        self.tables[seat] += placed
        t = self.tfacts[seat]
        if t is not None:
            t = TableFacts(t.cards + 3 * len(placed), t.quads, t.huxi + huxi, t.wei, t.peng | peng)
        self.touch(seat, table=True, tfacts=t)

    # ------------------------------------------------------ helpers

    def _win(self, seat: int, x: int, self_drawn: bool, last: bool) -> WinResult | None:
        """The seat's best win on ``x`` (§10), or None; the masks reject most cards."""
        if self.dead[seat]:
            return None
        f = self.facts[seat] or self.seat_facts(seat)
        n = f.owned + 1
        if not (f.wins >> x) & 1 or (
            n != complete_size(f.quads) and n != complete_size(f.quads + 1)
        ):
            return None
        # The card must join a free hand card, or make a 跑/提 on a 坎 or a table 偎/碰.
        if (
            not self.hands[seat][x]
            and not f.free & related_mask(x)
            and not ((f.wei | f.peng) >> x) & 1
        ):
            return None
        return evaluate_counts(
            self.table_groups(seat), self.hands[seat], x, self_drawn, last, self.rules
        )

    def _chi_options(self, seat: int, x: int) -> dict[int, Action]:
        """Every complete 吃 + 比 option of ``seat`` on ``x`` (§7), in id order.

        The dict may be shared between calls: do not change it.
        """
        f = self.facts[seat] or self.seat_facts(seat)
        if not (f.chi >> x) & 1:
            return _NO_CHI
        if not f.free_counts[x]:  # no copy of x in hand (the common case): no 比
            out, most = CHI_TABLES.plain(x, f.free, f.pairs)
        else:
            out, most = CHI_TABLES.with_copy(x, f.free_counts)
        if most >= f.free_cards and f.owes_discard_after_claim(1):
            out = {aid: a for aid, a in out.items() if not _leaves_only_kan(f, a)}
        return out

    def _can_peng(self, seat: int, x: int) -> bool:
        """碰 (§5 step 4, §6 step 2): a pair of x, not 臭碰 (§8), no dead hand, §7 ruling."""
        if self.dead[seat] or self.hands[seat][x] != 2 or (self.chou_peng[seat] >> x) & 1:
            return False
        f = self.facts[seat] or self.seat_facts(seat)
        return not f.owes_discard_after_claim(1) or f.free & ~(1 << x) != 0


def _leaves_only_kan(f: SeatFacts, a: Action) -> bool:
    """§7 ruling: a 吃 that leaves a discard owed must leave a free card to discard."""
    return 3 * len(a.groups) - 1 >= f.free_cards
