"""The round as a pure, seeded, replayable state machine (RULES.md §3–§13).

``new_game`` deals (chance is the seed, or a fixed :class:`~.deal.Deal`), then the
engine runs every forced step itself — dealt 提, draws, forced 提/偎/跑, cards nobody
claims — and stops only where a seat must decide: a discard, or a claim window
(§5, §6) in which every eligible seat answers at once and the highest claim is
applied. Each transition returns its events and appends them to ``state.log``.

The rules themselves live one function each in :mod:`.claims` (windows, priority,
forced 跑, 臭 marks), :mod:`.chi` (吃 and 比), :mod:`.facts` (八块, win candidates)
and :mod:`.hand` (winning); this module applies them in the order of §4–§6.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cache
from typing import Final

from .actions import (
    CHI_BASE,
    HU_ID,
    NUM_ACTIONS,
    PASS_ID,
    PENG_ID,
    Action,
    ActionKind,
    canonical_id,
    parse_action,
)
from .cards import NUM_FACES, faces_of_counts, glyph
from .chi import TABLES as CHI_TABLES
from .chi import chi_action
from .claims import (
    SEATS_FOR,
    Window,
    chou_marks,
    claim_rank,
    forced_pao_on_discard,
    forced_pao_on_draw,
)
from .deal import Deal, check_seat, check_seed, deal_from_seed
from .errors import IllegalActionError, NotationError, RecordError
from .events import Event, EventDetail, EventKind
from .facts import SeatFacts, TableFacts, owes_discard, related_mask, seat_facts, table_facts
from .groups import Group, GroupKind, TableGroup, same_face_groups
from .hand import WinResult, complete_size, evaluate_counts
from .kernels import discard_faces, hand_size, has_four
from .rules import HONG_GUAI_WAN, RuleSet
from .scoring import settle

__all__ = ["Phase", "RoundResult", "State", "new_game"]

_T = GroupKind
_NO_CHI: Final[dict[int, Action]] = {}


# Pre-built same-face groups by kind and face: immutable, so tables share them.
_TI_G: Final = same_face_groups(_T.TI)
_PAO_G: Final = same_face_groups(_T.PAO)
_WEI_G: Final = same_face_groups(_T.WEI)
_CHOUWEI_G: Final = same_face_groups(_T.CHOUWEI)
_PENG_G: Final = same_face_groups(_T.PENG)
_PENG_TG: Final = tuple(TableGroup(g) for g in _PENG_G)


# The commonest events, built once: immutable, so the logs can share them.
def _events(kind: EventKind) -> list[list[Event]]:
    return [[Event(kind, s, face=f) for f in range(NUM_FACES)] for s in range(3)]


_EV_DRAW: Final = _events(EventKind.DRAW)
_EV_DISCARD: Final = _events(EventKind.DISCARD)
_EV_PILE: Final = _events(EventKind.PILE)


# Private: a pass tells the others the seat had an option (§14); so are 臭 marks.
def _chou_events(kind: EventDetail) -> list[list[Event]]:
    return [
        [Event(EventKind.CHOU, s, face=f, detail=kind, private=True) for f in range(NUM_FACES)]
        for s in range(3)
    ]


_EV_CHOU_PENG: Final = _chou_events(EventDetail.PENG)
_EV_CHOU_CHI: Final = _chou_events(EventDetail.CHI)
_CHOU_PENG: Final = EventDetail.PENG
_EV_PASS: Final = [
    [Event(EventKind.PASS, s, face=f, private=True) for f in range(NUM_FACES)] for s in range(3)
]


def _event(
    kind: EventKind,
    seat: int = -1,
    face: int | None = None,
    groups: tuple[Group, ...] = (),
    source: int = -1,
    detail: EventDetail = EventDetail.NONE,
    hidden: bool = False,
    hands: tuple[tuple[int, ...] | None, ...] = (),
    numbers: tuple[int, ...] = (),
    private: bool = False,
) -> Event:
    """``Event(...)``, built as the tuple it is.

    The named tuple's ``__new__`` is an interpreted function, which compiled code
    would call through the interpreter.
    """
    fields = (kind, seat, face, groups, source, detail, hidden, hands, numbers, private)
    return _TUPLE_NEW(Event, fields)


_TUPLE_NEW: Final = tuple.__new__


@cache
def _chi_parts(aid: int, x: int) -> tuple[tuple[int, ...], tuple[TableGroup, ...], int]:
    """The hand cards a 吃 takes, the table groups it lays down and their 胡息."""
    act = chi_action(aid, x)
    groups = tuple(TableGroup(g) for g in act.groups)
    return act.hand_cards(), groups, sum(g.huxi for g in act.groups)


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


# Why an action is refused, with the rule it breaks (for :meth:`State.verify`).
_WHY_NOT: Final = {
    ActionKind.DISCARD: "only a free card may be discarded, never one of a 坎 (§3, §9)",
    ActionKind.PENG: "碰 needs a pair of the card, not a 臭碰 face, no dead hand, "
    "and a free card left to discard (§5 step 4, §6 step 2, §7, §8)",
    ActionKind.CHI: "that 吃 is not offered: 比 is compulsory — every copy of the card left "
    "in hand must go into a 比 group — 坎 cards are never used, a 臭吃 face cannot be "
    "taken, and only the 下家 may 吃 a discard (§5 step 5, §6 step 3, §7, §8)",
    ActionKind.HU: "the card does not complete the hand with enough 胡息 (§10)",
    ActionKind.PASS: "there is no claim to pass on",
}


def _counts(faces: tuple[int, ...]) -> list[int]:
    """:func:`~.cards.counts_of` of a checked deal's hand (its faces are known good)."""
    c = [0] * NUM_FACES
    for f in faces:
        c[f] = c[f] + 1  # not +=: compiled, an augmented item assignment is generic
    return c


def _seat(seat: object) -> int:
    """``seat`` as 0, 1 or 2, or an IllegalActionError quoting it."""
    if isinstance(seat, bool) or not isinstance(seat, int) or seat not in (0, 1, 2):
        raise IllegalActionError(f"no seat {seat!r}")
    return seat


class State:
    """One round. Mutate only through :meth:`apply` / :meth:`apply_fast`."""

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

    def __new__(cls, *args: object, **kwargs: object) -> State:
        """Allocate only; ``State.__new__(State)`` is how :meth:`clone` skips ``__init__``.

        Written out so that the compiled build, whose native classes otherwise
        run ``__init__`` inside ``__new__``, allows the same shortcut.
        """
        return super().__new__(cls)

    def __init__(
        self,
        rules: RuleSet,
        deal: Deal,
        *,
        seed: int | None = None,
        balances: tuple[int, int, int] | None = None,
    ) -> None:
        """A round dealt but not started; :func:`new_game` also plays the opening."""
        self.rules = rules
        self.seed = seed
        self.deal = deal
        self.dealer = deal.dealer
        self.hands = [_counts(deal.hands[0]), _counts(deal.hands[1]), _counts(deal.hands[2])]
        self.tables = [[], [], []]
        self.piles = [[], [], []]
        self.discards = [[], [], []]
        self.stock = list(reversed(deal.stock))
        self.chou_chi = [0, 0, 0]
        self.chou_peng = [0, 0, 0]
        self.dead = [False, False, False]
        self.phase = _DISCARD
        self.turn = deal.dealer
        self.window = None
        self.log = []
        self.decisions = []
        self.version = 0
        if balances is None:
            balances = (rules.starting_balance,) * 3
        self.balances = balances
        self.balances_at_start = balances
        self.result = None
        self.draws = 0
        self.win_card = -1
        self.facts = [None, None, None]
        self.tfacts = [None, None, None]
        self.tgroups = [None, None, None]

    def clone(self, history: bool = True) -> State:
        """A cheap independent copy.

        ``history=False`` starts an empty log and decision list (what a search
        playout needs; a few microseconds).
        """
        s = State.__new__(State)
        s.rules = self.rules
        s.seed = self.seed
        s.deal = self.deal
        s.dealer = self.dealer
        # Three seats, written out: a comprehension costs more than the copies.
        h, t, p, d = self.hands, self.tables, self.piles, self.discards
        s.hands = [h[0][:], h[1][:], h[2][:]]
        s.tables = [t[0][:], t[1][:], t[2][:]]
        s.piles = [p[0][:], p[1][:], p[2][:]]
        s.discards = [d[0][:], d[1][:], d[2][:]]
        s.stock = self.stock[:]
        s.chou_chi = self.chou_chi[:]
        s.chou_peng = self.chou_peng[:]
        s.dead = self.dead[:]
        s.phase = self.phase
        s.turn = self.turn
        s.window = self.window.copy() if self.window is not None else None
        s.log = self.log[:] if history else []
        s.decisions = self.decisions[:] if history else []
        s.version = self.version
        s.balances = self.balances
        s.result = self.result
        s.draws = self.draws
        s.win_card = self.win_card
        s.balances_at_start = self.balances_at_start
        s.facts = self.facts[:]
        s.tfacts = self.tfacts[:]
        s.tgroups = self.tgroups[:]
        return s

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

    def __repr__(self) -> str:
        """Where the round stands, in words."""
        who = ",".join(map(str, self.to_act()))
        return (
            f"<State seed={self.seed} dealer={self.dealer} {self.phase.value} "
            f"to_act=[{who}] stock={len(self.stock)} version={self.version}>"
        )

    # ------------------------------------------------------------ transitions

    def verify(self, seat: object, action: object, *, version: int | None = None) -> int:
        """The id of ``action`` if ``seat`` may take it now, else an IllegalActionError.

        The error says why, with the RULES.md section: out of turn, stale (``version``
        is not ``state.version``), or not among the legal actions, and which rule.
        """
        if version is not None and version != self.version:
            raise IllegalActionError(
                f"stale action {action!s}: state is at version {self.version}, not {version}"
            )
        if self.phase is _OVER:
            raise IllegalActionError(f"the round is over; cannot apply {action!s}")
        seat = _seat(seat)
        acting = self.to_act()
        if seat not in acting:
            raise IllegalActionError(
                f"seat {seat} is not to act now (waiting for {list(acting)}); got {action!s}"
            )
        aid = self._action_id(seat, action)
        legal = self.legal_actions(seat)
        if aid not in legal:
            txt = action if isinstance(action, str) else self._describe(seat, aid)
            raise IllegalActionError(
                f"illegal action {txt!r} for seat {seat}: {self._why_not(seat, aid)}; legal: "
                + ", ".join(self.action(seat, a).text() for a in legal)
            )
        return aid

    def can_apply(self, seat: object, action: object) -> bool:
        """Whether :meth:`verify` would accept ``action`` (bad notation included: False)."""
        try:
            self.verify(seat, action)
        except IllegalActionError:
            return False
        except NotationError:
            return False
        return True

    def apply(self, seat: object, action: object, *, version: int | None = None) -> list[Event]:
        """Checked apply: :meth:`verify`, then :meth:`apply_fast`; returns the new events.

        ``seat`` is an int and ``action`` an :class:`Action`, id or notation; they are
        typed ``object`` because they are checked here, so that a wrong type is an
        IllegalActionError on both builds (compiled code would raise TypeError first).
        """
        aid = self.verify(seat, action, version=version)
        return self.apply_fast(_seat(seat), aid)

    def _action_id(self, seat: int, action: object) -> int:
        """The id of an action given as an object, an id or text (§5–§7 notation)."""
        if isinstance(action, str):
            return parse_action(action, self.window.card if self.window is not None else None).id
        if isinstance(action, Action):
            return action.id
        if isinstance(action, int) and not isinstance(action, bool):
            return canonical_id(action)
        raise IllegalActionError(f"not an action: {action!r}")

    def _describe(self, seat: int, aid: int) -> str:
        try:
            return self.action(seat, aid).text()
        except NotationError:
            return f"id {aid}"

    def _why_not(self, seat: int, aid: int) -> str:
        """The rule an illegal id breaks, for the error message."""
        if not 0 <= aid < NUM_ACTIONS:
            return f"action ids are 0–{NUM_ACTIONS - 1}"
        if self.phase is _DISCARD:
            if aid >= NUM_FACES:
                return "it is a discard turn: discard a card (§4, §9)"
            if not self.hands[seat][aid]:
                return f"{glyph(aid)} is not in the hand"
            return _WHY_NOT[ActionKind.DISCARD]
        if aid < NUM_FACES:
            return "a claim is pending: answer it before discarding (§5, §6)"
        kind = (
            ActionKind.PASS
            if aid == PASS_ID
            else ActionKind.HU
            if aid == HU_ID
            else ActionKind.PENG
            if aid == PENG_ID
            else ActionKind.CHI
        )
        return _WHY_NOT[kind]

    def apply_fast(self, seat: int, aid: int) -> list[Event]:
        """Unchecked apply for simulations: ``aid`` must be in ``legal_actions(seat)``."""
        start = len(self.log)
        self.decisions.append((seat, aid))
        self.version += 1
        if self.phase is _DISCARD:
            self._discard(seat, aid)
        else:
            w = self.window
            assert w is not None
            w.answers[seat] = aid
            if aid == PASS_ID:
                # Private: a pass tells the others the seat had an option (§14).
                self.log.append(_EV_PASS[seat][w.card])
            if len(w.options) == 1:  # one seat decides alone (the common case)
                self._resolve(w, seat, aid, claim_rank(w.order, seat, aid))
            else:
                best = w.best()
                if best is not None:  # unpacked by name: a starred call is a generic one
                    by, best_aid, rank = best
                    self._resolve(w, by, best_aid, rank)
        return self.log[start:]

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

    # ----------------------------------------------------------------- phases

    def _start(self) -> None:
        """Deal event, dealt 提 (§3), then 天胡 or the dealer's opening (§4)."""
        d = self.deal
        self.log.append(
            _event(
                EventKind.DEAL,
                d.dealer,
                face=d.liangzhang,
                hands=(
                    faces_of_counts(self.hands[0]),
                    faces_of_counts(self.hands[1]),
                    faces_of_counts(self.hands[2]),
                ),
                numbers=tuple(len(h) for h in d.hands),
            )
        )
        for i in range(3):
            s = (d.dealer + i) % 3
            if has_four(self.hands[s]):
                self._dealt_ti(s)
        if self.rules.tianhu and self._offer_tianhu():
            return
        self._after_own(d.dealer)

    def _dealt_ti(self, s: int) -> None:
        """Dealt 提 (§3): four of a face in a dealt hand go face down on the table."""
        h = self.hands[s]
        for f in range(NUM_FACES):
            if h[f] == 4:
                h[f] = 0
                g = _TI_G[f]
                self._lay(s, TableGroup(g, hidden=True))
                self.log.append(
                    _event(
                        EventKind.TI, s, face=f, groups=(g,), detail=EventDetail.DEALT, hidden=True
                    )
                )

    def _offer_tianhu(self) -> bool:
        """天胡 (rule-set field): the dealer may win on his 亮张 before the opening."""
        dealer = self.dealer
        x = self.deal.liangzhang
        h = self.hands[dealer]
        h[x] = h[x] - 1
        res = evaluate_counts(self.table_groups(dealer), h, x, False, False, self.rules)
        h[x] = h[x] + 1
        if res is None or h[x] >= 3:
            return False
        self._open_own(x, dealer, False, False, res)
        return True

    def _open_own(self, x: int, seat: int, from_draw: bool, last: bool, res: WinResult) -> None:
        """The 提胡/偎胡 (or 天胡) window: the seat alone may 胡 or pass."""
        self.phase = _CLAIM
        self.window = Window(
            x,
            seat,
            from_draw,
            last,
            {seat: (HU_ID, PASS_ID)},
            hu={seat: res},
            order=(seat,),
            after_own=True,
        )

    def _after_own(self, seat: int) -> None:
        """After a seat's own action: discard if §9 says so, else its 下家 draws."""
        if self.owes_discard(seat) and not self.dead[seat]:
            h = self.hands[seat]
            if 1 in h or 2 in h or (not self.rules.dead_hand and sum(h) > 0):
                self.phase = _DISCARD
                self.turn = seat
                self.window = None
                return
            if self.rules.dead_hand:  # §9 ruling: only 坎 cards left
                self.dead[seat] = True
                self.log.append(_event(EventKind.DEAD, seat))
        self._draw((seat + 1) % 3)

    def _open_claims(
        self,
        x: int,
        source: int,
        from_draw: bool,
        last: bool,
        options: dict[int, list[int]],
        chi: dict[int, dict[int, Action]],
        hu: dict[int, WinResult] | None = None,
        forced_pao: int = -1,
    ) -> None:
        """Open the claim window on a drawn or discarded card; every seat may pass."""
        offers: dict[int, tuple[int, ...]] = {}
        for s, a in options.items():  # a loop, not a comprehension: no extra frame
            offers[s] = (*a, PASS_ID)
        self.phase = _CLAIM
        self.window = Window(
            x,
            source,
            from_draw,
            last,
            offers,
            {},
            hu if hu is not None else {},
            chi,
            SEATS_FOR[not from_draw][source][0],
            forced_pao,
        )

    def _draw(self, seat: int) -> None:
        """Draw and resolve cards until some seat must decide (§4, §5)."""
        while True:
            if not self.stock:
                self._huangzhuang()
                return
            x = self.stock.pop()
            self.draws += 1
            last = not self.stock
            # §5 step 1: a 坎 or a pair of x in hand, or a 偎 of x on the table.
            t = self.tfacts[seat] or self.table_facts(seat)
            if self.hands[seat][x] >= 2 or (t.wei >> x) & 1:
                self._drawer_ti_wei(seat, x, last)
                return
            self.log.append(_EV_DRAW[seat][x])
            if self._draw_claims(seat, x, last):  # steps 2–6
                return
            seat = (seat + 1) % 3

    def _drawer_ti_wei(self, d: int, x: int, last: bool) -> None:
        """§5 step 1: the drawer's forced 提 (坎, table 偎) or 偎/臭偎 (a pair), then 提胡/偎胡."""
        res = self._win(d, x, True, last)
        h = self.hands[d]
        if h[x] == 3 or h[x] < 2:
            g = _TI_G[x]
            self.log.append(_EV_DRAW[d][x])
            if h[x] == 3:
                h[x] = 0
                self._lay(d, TableGroup(g))
                detail = EventDetail.KAN
            else:
                self._upgrade(d, x, (_T.WEI, _T.CHOUWEI), g)
                detail = EventDetail.WEI
            self.log.append(_event(EventKind.TI, d, face=x, groups=(g,), detail=detail))
        else:
            h[x] = 0
            chou = bool((self.chou_peng[d] >> x) & 1)  # 臭偎: shown (§8)
            g = (_CHOUWEI_G if chou else _WEI_G)[x]
            self._lay(d, TableGroup(g, hidden=not chou))
            self.log.append(_event(EventKind.DRAW, d, face=x, hidden=not chou))
            self.log.append(
                _event(
                    EventKind.WEI,
                    d,
                    face=x,
                    groups=(g,),
                    detail=EventDetail.CHOU if chou else EventDetail.NONE,
                    hidden=not chou,
                )
            )
        if res is not None:
            self._open_own(x, d, True, last, res)
        else:
            self._after_own(d)

    def _draw_claims(self, d: int, x: int, last: bool) -> bool:
        """§5 steps 2–6 for a drawn card nobody was forced to take into a 提/偎."""
        order, peng_seats, chi_seats = SEATS_FOR[0][d]
        cached = self.facts
        f0 = cached[d] or self.seat_facts(d)
        f1 = cached[order[1]] or self.seat_facts(order[1])
        f2 = cached[order[2]] or self.seat_facts(order[2])
        bit = 1 << x
        options: dict[int, list[int]] = {}
        # Step 2: 胡 (the cached candidate masks reject most seats without a call).
        hu: dict[int, WinResult] = {}
        if (f0.wins | f1.wins | f2.wins) & bit:
            for s, f in zip(order, (f0, f1, f2), strict=True):
                if f.wins & bit:
                    r = self._win(s, x, s == d, last)
                    if r is not None:
                        hu[s] = r
                        options[s] = [HU_ID]
        # Step 3: forced 跑 (rare: one mask test first).
        pao = -1
        if (f0.peng | f1.kan_wei | f1.peng | f2.kan_wei | f2.peng) & bit:
            pao = forced_pao_on_draw(order, (f0, f1, f2), bit)
        chi: dict[int, dict[int, Action]] = {}
        # Step 4: 碰, step 5: 吃.
        if pao < 0 and ((f1.pairs | f2.pairs) & bit or (f0.chi | f1.chi) & bit):
            self._claims(x, peng_seats, chi_seats, options, chi)
        if options:
            self._open_claims(x, d, True, last, options, chi, hu, pao)
            return True
        if pao >= 0:
            self._pao(pao, x, d, True)
            return True
        # Step 6: nobody takes it.
        self.piles[d].append(x)
        self.log.append(_EV_PILE[d][x])
        return False

    def _claims(
        self,
        x: int,
        peng_seats: tuple[int, ...],
        chi_seats: tuple[int, ...],
        options: dict[int, list[int]],
        chi: dict[int, dict[int, Action]],
    ) -> None:
        """Add the optional 碰 and 吃 claims on ``x`` (§5 steps 4–5, §6 steps 2–3).

        ``peng_seats`` and ``chi_seats`` are :func:`~.claims.peng_seats` and
        :func:`~.claims.chi_seats` of the window.
        """
        hands = self.hands
        for s in peng_seats:
            if hands[s][x] == 2 and self._can_peng(s, x):
                options.setdefault(s, []).append(PENG_ID)
        for s in chi_seats:
            if (
                ((self.facts[s] or self.seat_facts(s)).chi >> x) & 1
                and not self.dead[s]
                and not (self.chou_chi[s] >> x) & 1
            ):
                c = self._chi_options(s, x)
                if c:
                    chi[s] = c
                    options.setdefault(s, []).extend(c)

    def _discard(self, p: int, x: int) -> None:
        """A discard (§6): 臭 to the discarder (§8), then forced 跑, 碰/吃, or his pile."""
        # Item assignments written out: compiled, ``a[i] -= 1`` is a generic operation.
        h = self.hands[p]
        h[x] = h[x] - 1
        self.touch(p)
        chou_chi, chou_peng = self.chou_chi, self.chou_peng
        chou_chi[p] = chou_chi[p] | 1 << x
        chou_peng[p] = chou_peng[p] | 1 << x
        self.discards[p].append(x)
        self.log.append(_EV_DISCARD[p][x])
        order, peng_seats, chi_seats = SEATS_FOR[1][p]
        n1, n2 = order[0], order[1]
        cached = self.facts
        f1 = cached[n1] or self.seat_facts(n1)
        f2 = cached[n2] or self.seat_facts(n2)
        bit = 1 << x
        if (f1.kan_wei | f2.kan_wei) & bit:
            self._pao(forced_pao_on_discard(order, (f1, f2), bit), x, p, False)
            return
        if (f1.pairs | f2.pairs) & bit or f1.chi & bit:
            options: dict[int, list[int]] = {}
            chi: dict[int, dict[int, Action]] = {}
            self._claims(x, peng_seats, chi_seats, options, chi)
            if options:
                self._open_claims(x, p, False, False, options, chi)
                return
        self.piles[p].append(x)
        self.log.append(_EV_PILE[p][x])
        self._draw(n1)

    def _pao(self, s: int, x: int, source: int, from_draw: bool) -> None:
        """Forced 跑 (§5 step 3, §6 step 1): 坎, 偎 or (drawn card only) 碰 plus the card."""
        g = _PAO_G[x]
        if self.hands[s][x] == 3:
            self.hands[s][x] = 0
            self._lay(s, TableGroup(g))
            detail = EventDetail.KAN
        else:
            was = self._upgrade(s, x, (_T.WEI, _T.CHOUWEI, _T.PENG), g)
            detail = EventDetail.PENG if was is _T.PENG else EventDetail.WEI
        self.log.append(_event(EventKind.PAO, s, face=x, groups=(g,), source=source, detail=detail))
        self._after_own(s)

    def _resolve(self, w: Window, seat: int, aid: int, rank: int) -> None:
        """Apply the winning answer of a window (or its forced 跑, or nobody's claim)."""
        x = w.card
        if w.after_own:
            self._resolve_own(w, seat, aid)
            return
        if aid != HU_ID and w.forced_pao < 0:
            for s, kind in chou_marks(w, aid, rank):
                if kind is _CHOU_PENG:
                    self.chou_peng[s] = self.chou_peng[s] | 1 << x
                    self.log.append(_EV_CHOU_PENG[s][x])
                else:
                    self.chou_chi[s] = self.chou_chi[s] | 1 << x
                    self.log.append(_EV_CHOU_CHI[s][x])
        self.window = None
        if aid == HU_ID:
            self.win_card = x
            self._hu(seat, w.hu[seat], x)
        elif w.forced_pao >= 0:
            self._pao(w.forced_pao, x, w.source, w.from_draw)
        elif aid == PENG_ID:
            self._claimed(seat, (x, x), (_PENG_TG[x],), _PENG_G[x].huxi, 1 << x)
            self.log.append(
                _event(EventKind.PENG, seat, face=x, groups=(_PENG_G[x],), source=w.source)
            )
            self._after_own(seat)
        elif aid >= CHI_BASE:
            taken, placed, huxi = _chi_parts(aid, x)
            self._claimed(seat, taken, placed, huxi, 0)
            groups = w.chi[seat][aid].groups
            self.log.append(_event(EventKind.CHI, seat, face=x, groups=groups, source=w.source))
            self._after_own(seat)
        else:  # nobody took it (§5 step 6, §6 step 4)
            self.piles[w.source].append(x)
            self.log.append(_EV_PILE[w.source][x])
            self._draw((w.source + 1) % 3)

    def _resolve_own(self, w: Window, seat: int, aid: int) -> None:
        """The answer to a 提胡/偎胡/天胡 window: the win, or play goes on (§5 step 1)."""
        x = w.card
        if aid == HU_ID:
            if w.source == self.deal.dealer and not w.from_draw:  # 天胡 on the 亮张, in hand
                self.hands[seat][x] = self.hands[seat][x] - 1
                self.touch(seat)
                self.win_card = x
            self._hu(seat, w.hu[seat], x)
        else:
            self.window = None
            self._after_own(w.source)

    # ---------------------------------------------------------------- the end

    def _hu(self, seat: int, res: WinResult, x: int) -> None:
        """胡 (§10): the winner's score settled against the others (§12)."""
        self.window = None
        self.log.append(
            _event(
                EventKind.HU,
                seat,
                face=x,
                groups=res.groups,
                detail=EventDetail(res.how),
                numbers=(res.huxi, res.tun, res.fan, res.score),
            )
        )
        deltas = settle(res.score, seat, self.balances, self.rules)
        self._finish(seat, res, deltas, seat)

    def _huangzhuang(self) -> None:
        """荒庄 (§13): the stock ran out; nobody pays and the dealer deals again."""
        self.log.append(_event(EventKind.HUANGZHUANG))
        self._finish(None, None, (0, 0, 0), self.deal.dealer)

    def _finish(
        self, winner: int | None, res: WinResult | None, deltas: tuple[int, int, int], nxt: int
    ) -> None:
        """Settle, show every hand, and end the round."""
        bal = (
            self.balances[0] + deltas[0],
            self.balances[1] + deltas[1],
            self.balances[2] + deltas[2],
        )
        self.log.append(_event(EventKind.SETTLE, numbers=deltas))
        for s in range(3):
            self.log.append(
                _event(
                    EventKind.REVEAL,
                    s,
                    groups=self.table_groups(s),
                    hands=(faces_of_counts(self.hands[s]),),
                )
            )
        self.result = RoundResult(winner, res, deltas, bal, nxt)
        self.balances = bal
        self.phase = _OVER
        self.window = None


def _leaves_only_kan(f: SeatFacts, a: Action) -> bool:
    """§7 ruling: a 吃 that leaves a discard owed must leave a free card to discard."""
    return 3 * len(a.groups) - 1 >= f.free_cards


def _check_balances(balances: object) -> tuple[int, int, int]:
    """Three integer 悟性 balances, or a :class:`RecordError` quoting what came instead."""
    if (
        not isinstance(balances, (tuple, list))
        or len(balances) != 3
        or any(isinstance(b, bool) or not isinstance(b, int) for b in balances)
    ):
        raise RecordError(f"three integer balances expected, got {balances!r}")
    return (balances[0], balances[1], balances[2])


def new_game(
    rules: object = HONG_GUAI_WAN,
    *,
    seed: object = None,
    dealer: object = None,
    deal: object = None,
    balances: object = None,
) -> State:
    """Start a round: a seeded deal (or a fixed ``deal``), dealt 提 and the opening.

    Without ``dealer`` the seed picks the dealer; without ``seed`` and ``deal`` the
    round is seeded from the system's randomness (and the seed stored).
    """
    if not isinstance(rules, RuleSet):
        raise RecordError(f"rules must be a RuleSet, got {rules!r}")
    the_seed = check_seed(seed)
    if deal is not None and not isinstance(deal, Deal):
        raise RecordError(f"deal must be a Deal, got {deal!r}")
    the_dealer = None if dealer is None else check_seat(dealer, "dealer")
    if deal is None:
        if the_seed is None:
            the_seed = random.SystemRandom().randrange(2**63)
        if the_dealer is None:
            the_dealer = random.Random(f"dealer:{the_seed}").randrange(3)
        deal = deal_from_seed(the_seed, the_dealer)
    elif the_dealer is not None and the_dealer != deal.dealer:
        raise RecordError(f"dealer {the_dealer} does not match the deal's dealer {deal.dealer}")
    start = None if balances is None else _check_balances(balances)
    s = State(rules, deal, seed=the_seed, balances=start)
    s._start()
    return s


assert NUM_ACTIONS == 317
