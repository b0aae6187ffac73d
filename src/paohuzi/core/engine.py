"""The round as a pure, seeded, replayable state machine (RULES.md §3–§13).

``new_game`` deals (chance is the seed, or a fixed :class:`Deal`), then the engine
runs every forced step itself — dealt 提, draws, forced 提/偎/跑, cards nobody claims —
and stops only where a seat must decide: a discard, or a claim window (§5, §6) in
which every eligible seat answers at once and the highest claim is applied. Each
transition returns its events and appends them to ``state.log``.
"""

from __future__ import annotations

import itertools
import operator
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from functools import cache

from .actions import (
    CHI_BASE,
    HU_ID,
    NUM_ACTIONS,
    PASS_ID,
    PENG_ID,
    Action,
    chi_id,
    parse_action,
    shape_faces,
)
from .cards import (
    COPIES,
    DECK_SIZE,
    NUM_FACES,
    counts_of,
    faces_of_counts,
    format_faces,
    full_deck,
    glyph,
)
from .errors import IllegalActionError, RecordError
from .events import Event, EventKind
from .groups import Group, GroupKind
from .hand import WinResult, complete_size, evaluate_counts
from .rules import HONG_GUAI_WAN, RuleSet
from .scoring import settle

__all__ = [
    "Deal",
    "Phase",
    "RoundResult",
    "State",
    "TableGroup",
    "Window",
    "new_game",
    "random_deal",
]

_T = GroupKind


# A seat's cached facts (see State._info).
_Info = tuple[int, int, int, int, int, int, bytes, int, int, int, int]
# Cached facts of a seat's table: cards, 提/跑 count, 胡息, 偎 faces, 碰 faces.
_TableInfo = tuple[int, int, int, int, int]
_NO_CHI: dict[int, Action] = {}

# Pre-built same-face groups: _SAME[kind][face].
_SAME: dict[GroupKind, tuple[Group, ...]] = {
    k: tuple(Group(k, (f,) * k.size) for f in range(NUM_FACES))
    for k in (_T.TI, _T.PAO, _T.WEI, _T.CHOUWEI, _T.PENG)
}

# The same by kind, looked up without hashing an Enum (slow) on the hot path.
_TI_G, _PAO_G, _WEI_G, _CHOUWEI_G, _PENG_G = (
    _SAME[k] for k in (_T.TI, _T.PAO, _T.WEI, _T.CHOUWEI, _T.PENG)
)

# Faces that can share a group with face x (same face, other size, ±2, 二七十).
_REL = [0] * NUM_FACES
for _x in range(NUM_FACES):
    for _s in range(6):
        _g = shape_faces(_x, _s)
        if _g is not None:
            for _f in _g:
                _REL[_x] |= 1 << _f
    _REL[_x] |= 1 << _x
_ALL_FACES = (1 << NUM_FACES) - 1


def _faces_where(pred: Callable[[int], bool]) -> int:
    """The faces (as a bit mask) whose number 0–9 satisfies ``pred``."""
    return sum(1 << f for f in range(NUM_FACES) if pred(f % 10))


# Faces that can be the third, middle or first card of a run; the 二七十 faces.
_RUN_END = _faces_where(lambda n: n >= 2)
_RUN_MID = _faces_where(lambda n: 1 <= n <= 8)
_RUN_START = _faces_where(lambda n: n <= 7)
_EQS = ((1 << 1 | 1 << 6 | 1 << 9), (1 << 11 | 1 << 16 | 1 << 19))
_EQS_ALL = _EQS[0] | _EQS[1]


def _eqs_partners(free: int) -> int:
    """Faces of 二七十/贰柒拾 whose other two cards are in ``free``."""
    got = 0
    for eqs in _EQS:
        for f in range(NUM_FACES):
            if eqs >> f & 1 and free & (eqs & ~(1 << f)) == eqs & ~(1 << f):
                got |= 1 << f
    return got


# By the free 二七十 faces of both sizes (64 cases).
_EQS_BITS = [1 << f for f in range(NUM_FACES) if _EQS_ALL >> f & 1]
_EQS_PARTNERS = {
    m: _eqs_partners(m)
    for m in (
        sum(b for i, b in enumerate(_EQS_BITS) if n >> i & 1) for n in range(1 << len(_EQS_BITS))
    )
}
_SMALL = (1 << 10) - 1


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
_BEST_GAIN = 6


def _huxi_bound(counts: tuple[int, ...], value: int) -> int:
    """The most 胡息 that 一二三/二七十 sets of one size's free cards can hold.

    With the 坎 and table 胡息 and :data:`_BEST_GAIN` this bounds every win a hand
    can make with one more card, so most hands far from 15 胡息 skip the search.
    ``counts`` are free counts of 一二三七十 (a 坎 stays whole, so it counts as 0).
    """
    one, two, three, seven, ten = counts
    # n123 + min(two - n123, min(seven, ten)) is largest at this closed form.
    return min(two, min(one, two, three) + min(seven, ten)) * value


# The bound by the free counts (0–2) of 一二三七十 of each size, read with
# _SMALL_FACES/_BIG_FACES from a hand's free counts.
_BOUND_SMALL = {c: _huxi_bound(c, 3) for c in itertools.product(range(3), repeat=5)}
_BOUND_BIG = {c: _huxi_bound(c, 6) for c in _BOUND_SMALL}
_SMALL_FACES = operator.itemgetter(0, 1, 2, 6, 9)
_BIG_FACES = operator.itemgetter(10, 11, 12, 16, 19)
# bytes.translate maps that turn a hand's counts into a face bit mask via int(_, 2).
_FREE_CH = bytes(49 if 0 < c < 3 else 48 for c in range(256))
_SINGLE_CH = bytes(49 if c == 1 else 48 for c in range(256))
_PAIR_CH = bytes(49 if c == 2 else 48 for c in range(256))
_KAN_CH = bytes(49 if c >= 3 else 48 for c in range(256))
# Seats in claim order from a drawer or discarder: itself, its 下家, its 上家.
_ORDER = ((0, 1, 2), (1, 2, 0), (2, 0, 1))
# Claim order on a discard: the 下家, the 上家, then the discarder (who cannot claim).
_DISCARD_ORDER = ((1, 2, 0), (2, 0, 1), (0, 1, 2))
_FREE_COUNT = bytes(c if c < 3 else 0 for c in range(256))  # a 坎 is not free
# Legal discards by the _FREE_CH string of a hand's small and big halves.
_DISCARDS_SMALL = {
    bytes(p): tuple(f for f in range(10) if p[f] == 49) for p in itertools.product(b"01", repeat=10)
}
_DISCARDS_BIG = {k: tuple(f + 10 for f in v) for k, v in _DISCARDS_SMALL.items()}


# For each face x: (shape, its faces, the hand cards a 吃 of that shape needs).
_SHAPES: list[list[tuple[int, tuple[int, int, int], tuple[int, ...]]]] = []
for _x in range(NUM_FACES):
    _lst = []
    for _s in range(6):
        _g = shape_faces(_x, _s)
        if _g is not None:
            _need = list(_g)
            _need.remove(_x)
            _lst.append((_s, _g, tuple(_need)))
    _SHAPES.append(_lst)


# The commonest events, built once: immutable, so the logs can share them.
_EV_DRAW, _EV_DISCARD, _EV_PILE = (
    [[Event(kind, s, face=f) for f in range(NUM_FACES)] for s in range(3)]
    for kind in (EventKind.DRAW, EventKind.DISCARD, EventKind.PILE)
)
# Private: a pass tells the others the seat had an option (§14); so are 臭 marks.
_EV_CHOU_PENG, _EV_CHOU_CHI = (
    [
        [Event(EventKind.CHOU, s, face=f, detail=detail, private=True) for f in range(NUM_FACES)]
        for s in range(3)
    ]
    for detail in ("peng", "chi")
)
_EV_PASS = [
    [Event(EventKind.PASS, s, face=f, private=True) for f in range(NUM_FACES)] for s in range(3)
]


@cache
def _chi_action(aid: int, x: int) -> Action:
    return Action.from_id(aid, x)


# The related faces of x, read from a hand's bytes: what its 吃 options depend on.
_REL_FACES = [[f for f in range(NUM_FACES) if (_REL[x] >> f) & 1] for x in range(NUM_FACES)]
_REL_GET = [operator.itemgetter(*faces) for faces in _REL_FACES]
# 吃 options by card and related counts: ({id: action} in id order, most cards used).
_ChiTable = tuple[dict[int, Action], int]
_chi_memo: list[dict[tuple[int, ...], _ChiTable]] = [{} for _ in range(NUM_FACES)]
# Without a copy of x in hand only the faces its shapes need matter: which are free,
# and whether the other size's face (shape 大小三搭 x X X) is a pair. Small and bounded.
_NEED_UNION = [
    sum(1 << f for f in {f for _s, _g, need in _SHAPES[x] for f in need}) for x in range(NUM_FACES)
]
_OTHER_BIT = [1 << (x + 10 if x < 10 else x - 10) for x in range(NUM_FACES)]
_chi_plain: list[dict[int, _ChiTable]] = [{} for _ in range(NUM_FACES)]
_CHI_MEMO_LIMIT = 50_000


@cache
def _bi_combos(
    x: int,
) -> list[list[tuple[int, list[tuple[int, int, int]]]]]:
    """Every 吃 of x with its 比, as requirements on the hand, by copies of x in hand.

    ``[c]`` lists, per 吃 shape s0 (in id order), the packed counts its own two
    cards need and its options (id, packed counts needed, hand cards used)
    that use exactly c copies of x from the hand: 比 must use them all (§7). Counts
    are packed four bits a lane over the faces related to x (see :func:`_chi_bi`).
    """
    lane = {f: 4 * i for i, f in enumerate(_REL_FACES[x])}

    def packed(faces: Sequence[int]) -> int:
        return sum(1 << lane[f] for f in faces)

    shapes = _SHAPES[x]
    out: list[list[tuple[int, list[tuple[int, int, int]]]]] = [[], [], []]
    for c in (1, 2):
        for s0, _g0, need in shapes:
            found: list[tuple[int, int, int]] = []
            x0 = need.count(x)
            if x0 == c:
                found.append((chi_id(s0), packed(need), 2))
            for b1, gb, _n in shapes:
                x1 = x0 + gb.count(x)
                if x1 == c:
                    aid = chi_id(s0, b1)
                    found.append((aid, packed(need + gb), 5))
                    continue
                for b2, gc, _n2 in shapes:
                    if b2 < b1 or b2 == 4 or x1 + gc.count(x) != c:
                        continue
                    aid = chi_id(s0, b1, b2)
                    found.append((aid, packed(need + gb + gc), 8))
            if found:
                out[c].append((packed(need), sorted(found)))
    return out


_X_LANE = [_REL_FACES[x].index(x) for x in range(NUM_FACES)]


def _chi_bi(x: int, related: tuple[int, ...]) -> _ChiTable:
    """The 吃 + 比 options on ``x`` of a hand holding a copy of x (§7), from the free
    counts of the faces related to x, in the order of :data:`_REL_FACES`.

    Each count sits in a four-bit lane with its top bit set; subtracting what an
    option needs leaves every top bit set exactly when the hand has enough of each.
    """
    have = guard = 0
    shift = 0
    for c in related:
        have |= (c | 8) << shift
        guard |= 8 << shift
        shift += 4
    out: dict[int, Action] = {}
    most = 0
    for need0, options in _bi_combos(x)[related[_X_LANE[x]]]:
        if (have - need0) & guard != guard:
            continue
        for aid, need, used in options:
            if (have - need) & guard == guard:
                out[aid] = _chi_action(aid, x)
                if used > most:
                    most = used
    return out, most


def _chi_plain_table(x: int, key: int) -> _ChiTable:
    """The 吃 options on ``x`` of a hand without a copy of x (so no 比, §7): each
    shape whose two cards are free. ``key`` is the digest _chi_options makes."""
    found = []
    for s0, _g0, (a, b) in _SHAPES[x]:
        if (key >> (a + NUM_FACES)) & 1 if a == b else (key >> a) & 1 and (key >> b) & 1:
            found.append(chi_id(s0))
    return {aid: _chi_action(aid, x) for aid in found}, 2 if found else 0


class Phase(Enum):
    DISCARD = "discard"
    CLAIM = "claim"
    OVER = "over"


# Enum members as plain globals: a member lookup costs ten times a global's.
_DISCARD, _CLAIM, _OVER = Phase.DISCARD, Phase.CLAIM, Phase.OVER
_PENG_K, _WEI_K, _CHOUWEI_K = GroupKind.PENG, GroupKind.WEI, GroupKind.CHOUWEI


@dataclass(frozen=True, slots=True)
class Deal:
    """Who got what: each seat's dealt hand and the stock, top card first.

    The dealer's hand has 21 cards, the last of which is the 亮张; the others 20.
    """

    dealer: int
    hands: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
    stock: tuple[int, ...]

    def __post_init__(self) -> None:
        if self.dealer not in (0, 1, 2):
            raise RecordError(f"dealer must be seat 0, 1 or 2, got {self.dealer!r}")
        sizes = [len(h) for h in self.hands]
        want = [21 if s == self.dealer else 20 for s in range(3)]
        if len(self.hands) != 3 or sizes != want:
            raise RecordError(f"dealt hands must hold {want} cards, got {sizes}")
        if len(self.stock) != DECK_SIZE - 61:
            raise RecordError(f"the stock must hold 19 cards, got {len(self.stock)}")
        counts = counts_of([f for h in self.hands for f in h] + list(self.stock))
        if any(c != COPIES for c in counts):
            bad = [f"{glyph(f)}×{c}" for f, c in enumerate(counts) if c != COPIES]
            raise RecordError(f"a deal must use all 80 cards once: {' '.join(bad)}")

    @classmethod
    def _unchecked(
        cls, dealer: int, hands: tuple[tuple[int, ...], ...], stock: tuple[int, ...]
    ) -> Deal:
        """A deal known to be well formed (a shuffled full deck), without the checks."""
        d = object.__new__(cls)
        object.__setattr__(d, "dealer", dealer)
        object.__setattr__(d, "hands", hands)
        object.__setattr__(d, "stock", stock)
        return d

    @property
    def liangzhang(self) -> int:
        """亮张: the dealer's 21st card, shown to everyone (§3)."""
        return self.hands[self.dealer][-1]

    def to_dict(self) -> dict[str, object]:
        return {
            "dealer": self.dealer,
            "hands": [format_faces(h) for h in self.hands],
            "stock": format_faces(self.stock),
        }

    @staticmethod
    def from_dict(d: dict[str, object]) -> Deal:
        from .cards import parse_faces

        try:
            hands = d["hands"]
            assert isinstance(hands, list)
            h = tuple(parse_faces(str(x)) for x in hands)
            dealer = d["dealer"]
            assert isinstance(dealer, int)
            return Deal(dealer, (h[0], h[1], h[2]), parse_faces(str(d["stock"])))
        except (KeyError, AssertionError, IndexError) as e:
            raise RecordError(f"bad deal {d!r}: {e}") from None


def random_deal(seed: int, dealer: int) -> Deal:
    """Shuffle all 80 cards with ``random.Random(seed)`` and deal them."""
    if dealer not in (0, 1, 2):
        raise RecordError(f"dealer must be seat 0, 1 or 2, got {dealer!r}")
    deck = list(_DECK)
    _shuffle(deck, random.Random(seed))
    hands: list[tuple[int, ...]] = []
    pos = 0
    for s in range(3):
        n = 21 if s == dealer else 20
        hands.append(tuple(deck[pos : pos + n]))
        pos += n
    return Deal._unchecked(dealer, (hands[0], hands[1], hands[2]), tuple(deck[pos:]))


_DECK = tuple(full_deck())
# (i, bits of i + 1) for the Fisher-Yates steps over the 80 cards.
_STEPS = tuple((i, (i + 1).bit_length()) for i in range(DECK_SIZE - 1, 0, -1))


def _shuffle(deck: list[int], rng: random.Random) -> None:
    """``rng.shuffle(deck)``, step for step: the same draws of ``getrandbits`` as
    CPython's ``Random.shuffle`` (so seeds keep their deals), in a third of the time.

    Written out so that a seed's deal does not depend on the Python version either.
    """
    getrandbits = rng.getrandbits
    for i, k in _STEPS:
        n = i + 1
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        deck[i], deck[j] = deck[j], deck[i]


@dataclass(frozen=True, slots=True)
class TableGroup:
    """A group on a seat's table; ``hidden`` ones (偎, dealt 提) lie face down."""

    group: Group
    hidden: bool = False


@cache
def _chi_parts(aid: int, x: int) -> tuple[tuple[int, ...], tuple[TableGroup, ...], int]:
    """The hand cards a 吃 takes, the (shared, immutable) table groups it lays down
    and their 胡息."""
    act = _chi_action(aid, x)
    groups = tuple(TableGroup(g) for g in act.groups)
    return act.hand_cards(), groups, sum(g.huxi for g in act.groups)


# Open 碰 groups on the table, shared (immutable).
_PENG_TG = tuple(TableGroup(g) for g in _PENG_G)


@dataclass(frozen=True, slots=True)
class RoundResult:
    winner: int | None  # None: 荒庄
    win: WinResult | None
    deltas: tuple[int, int, int]
    balances: tuple[int, int, int]  # after settlement
    next_dealer: int


@dataclass(slots=True)
class Window:
    """A card on offer and what each seat may do with it (§5 steps 1–5, §6)."""

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

    def copy(self) -> Window:
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


def _rank(w: Window, seat: int, aid: int) -> int:
    """Claim priority, lower first: 胡 by seat order, then 碰, then 吃 by seat order."""
    if aid == HU_ID:
        return w.order.index(seat)
    if aid == PENG_ID:
        return 4
    if aid >= CHI_BASE:
        return 5 + w.order.index(seat)
    return 99


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
        "draws",
        "hands",
        "info",
        "log",
        "phase",
        "piles",
        "result",
        "rules",
        "seed",
        "stock",
        "tables",
        "tinfo",
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
    info: list[_Info | None]  # per seat, see _info
    tinfo: list[_TableInfo | None]  # per seat, see _table_info
    win_card: int  # the winning card when it was not yet in the winner's groups, else -1

    # ------------------------------------------------------------------ setup

    def clone(self, history: bool = True) -> State:
        """A cheap independent copy. ``history=False`` starts an empty log and
        decision list (what a search playout needs; a few microseconds)."""
        s = State.__new__(State)
        s.rules = self.rules
        s.seed = self.seed
        s.deal = self.deal
        s.dealer = self.dealer
        s.hands = [h[:] for h in self.hands]
        s.tables = [t[:] for t in self.tables]
        s.piles = [p[:] for p in self.piles]
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
        s.info = self.info[:]
        s.tinfo = self.tinfo[:]
        return s

    # ------------------------------------------------------------ inspection

    @property
    def over(self) -> bool:
        return self.phase is _OVER

    @property
    def stock_count(self) -> int:
        return len(self.stock)

    @property
    def liangzhang(self) -> int:
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
            return tuple(s for s in w.order if s in w.options and s not in w.answers)
        return ()

    def legal_ids(self, seat: int) -> tuple[int, ...]:
        """Legal action ids of ``seat`` now (empty if it has nothing to decide)."""
        if self.phase is _DISCARD:
            if seat != self.turn:
                return ()
            h = self.hands[seat]
            key = bytes(h).translate(_FREE_CH)
            ids = _DISCARDS_SMALL[key[:10]] + _DISCARDS_BIG[key[10:]]
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

    def action(self, seat: int, aid: int) -> Action:
        """The :class:`Action` of id ``aid`` for ``seat`` now."""
        w = self.window
        if aid >= CHI_BASE and w is not None and seat in w.chi and aid in w.chi[seat]:
            return w.chi[seat][aid]
        return Action.from_id(aid, w.card if w is not None and aid >= NUM_FACES else None)

    def legal_actions(self, seat: int) -> list[Action]:
        return [self.action(seat, a) for a in self.legal_ids(seat)]

    def table_groups(self, seat: int) -> tuple[Group, ...]:
        return tuple(t.group for t in self.tables[seat])

    def _info(self, seat: int) -> _Info:
        """A seat's facts, cached until its hand or table changes, as bit masks of
        faces where a set means "maybe": (T, k, free faces, faces that might win,
        table 偎 faces, table 碰 faces, free counts as bytes, free cards, faces with
        a free pair, faces it might 吃, faces another's card makes it 跑 with).

        Every claim and win check reads these masks before doing any work."""
        inf = self.info[seat]
        if inf is None:
            inf = self.info[seat] = self._compute_info(seat)
        return inf

    def _compute_info(self, seat: int) -> _Info:
        """The uncached :meth:`_info` (hands hold at most 3 of a face after the deal)."""
        b = bytes(self.hands[seat])
        # Bit f of the reversed string of '0'/'1' is face f.
        singles = int(b.translate(_SINGLE_CH)[::-1], 2)
        pairs = int(b.translate(_PAIR_CH)[::-1], 2)
        mask = singles | pairs
        n_free = t = sum(b)
        tn, k, huxi, wei, peng = self.tinfo[seat] or self._table_info(seat)
        t += tn
        kan_wei = wei
        if 3 in b:  # 坎: 胡息, not free, and a forced 跑 on another's card
            kans_small = b.count(3, 0, 10)
            kans_big = b.count(3, 10)
            huxi += 3 * kans_small + 6 * kans_big
            n_free -= 3 * (kans_small + kans_big)
            kan_wei |= int(b.translate(_KAN_CH)[::-1], 2)
        fb = b.translate(_FREE_COUNT)
        # A free single with no group among the other free cards can only be saved
        # by the winning card itself, so the card joins it (and every such single)
        # in one group: three such singles and no card wins at all (§10).
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
        if wins:
            rules = self.rules
            bar = min(rules.min_huxi, rules.min_huxi_with_mingtang)
            if (
                huxi + _BOUND_SMALL[_SMALL_FACES(fb)] + _BOUND_BIG[_BIG_FACES(fb)] + _BEST_GAIN
                < bar
            ):
                wins = 0
        # 吃 is possible on x when a shape's two cards are free (shape 4 x x X included).
        chi = partners | (mask & (mask >> 10 | (mask & _SMALL) << 10))
        return (t, k, mask, wins, wei, peng, fb, n_free, pairs, chi, kan_wei)

    def _table_info(self, seat: int) -> _TableInfo:
        """(cards, 提/跑, 胡息, 偎 faces, 碰 faces) of a seat's table, cached until it changes."""
        n = k = huxi = wei = peng = 0
        for tg in self.tables[seat]:
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
        ti = self.tinfo[seat] = (n, k, huxi, wei, peng)
        return ti

    def owned(self, seat: int) -> int:
        """T of §9: hand plus every table card."""
        return self._info(seat)[0]

    def quads(self, seat: int) -> int:
        """k of §9: 提 and 跑 owned."""
        return self._info(seat)[1]

    def owes_discard(self, seat: int) -> bool:
        """§9 (八块): discard exactly when T = W(k)."""
        inf = self.info[seat]
        if inf is not None:
            return inf[0] == complete_size(inf[1])
        # Cheaper than the full seat info, which the seat's next discard would drop.
        ti = self.tinfo[seat] or self._table_info(seat)
        return sum(self.hands[seat]) + ti[0] == complete_size(ti[1])

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

    # ------------------------------------------------------------ transitions

    def apply(
        self, action: Action | int | str, seat: int | None = None, version: int | None = None
    ) -> list[Event]:
        """Checked apply: rejects out-of-turn, illegal and stale actions.

        ``seat`` defaults to the only seat to act; ``version`` (if given) must match
        ``state.version`` so a client acting on an old view is refused.
        """
        if version is not None and version != self.version:
            raise IllegalActionError(
                f"stale action {action!s}: state is at version {self.version}, not {version}"
            )
        if self.phase is _OVER:
            raise IllegalActionError(f"the round is over; cannot apply {action!s}")
        acting = self.to_act()
        if seat is None:
            if len(acting) != 1:
                raise IllegalActionError(
                    f"several seats {list(acting)} must act: name the seat for {action!s}"
                )
            seat = acting[0]
        if seat not in (0, 1, 2):
            raise IllegalActionError(f"no seat {seat!r}")
        if seat not in acting:
            raise IllegalActionError(
                f"seat {seat} is not to act now (waiting for {list(acting)}); got {action!s}"
            )
        card = self.window.card if self.window is not None else None
        if isinstance(action, str):
            aid = parse_action(action, card).id
        elif isinstance(action, Action):
            aid = action.id
        elif isinstance(action, int) and not isinstance(action, bool):
            aid = action
        else:
            raise IllegalActionError(f"not an action: {action!r}")
        legal = self.legal_ids(seat)
        if aid not in legal:
            txt = action if isinstance(action, str) else self._describe(seat, aid)
            raise IllegalActionError(
                f"illegal action {txt!r} for seat {seat}; legal: "
                + ", ".join(self.action(seat, a).text() for a in legal)
            )
        return self.apply_fast(seat, aid)

    def _describe(self, seat: int, aid: int) -> str:
        try:
            return self.action(seat, aid).text()
        except ValueError:
            return f"id {aid}"

    def apply_fast(self, seat: int, aid: int) -> list[Event]:
        """Unchecked apply for simulations: ``aid`` must be in ``legal_ids(seat)``."""
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
                self._resolve(w, seat, aid, _rank(w, seat, aid))
            else:
                self._maybe_resolve()
        return self.log[start:]

    # --------------------------------------------------------------- helpers

    def _free_left(self, hand: Sequence[int]) -> bool:
        """Does the hand hold a card that may be discarded (anything but a 坎)?"""
        return 1 in hand or 2 in hand

    def _win(self, seat: int, x: int, self_drawn: bool, last: bool) -> WinResult | None:
        if self.dead[seat]:
            return None
        n, k, free, wins, wei, peng = (self.info[seat] or self._info(seat))[:6]
        n += 1
        if not (wins >> x) & 1 or (n != complete_size(k) and n != complete_size(k + 1)):
            return None
        # The card must join a free hand card, or make a 跑/提 on a 坎 or a table 偎/碰.
        if not self.hands[seat][x] and not free & _REL[x] and not ((wei | peng) >> x) & 1:
            return None
        return evaluate_counts(
            self.table_groups(seat), self.hands[seat], x, self_drawn, last, self.rules
        )

    def _chi_options(self, seat: int, x: int) -> dict[int, Action]:
        """Every complete 吃 + 比 option of ``seat`` on ``x`` (§7), in id order.

        The dict may be shared between calls: do not change it.
        """
        inf = self.info[seat] or self._info(seat)
        if not (inf[9] >> x) & 1:
            return _NO_CHI
        mask = inf[2]
        if not inf[6][x]:  # no copy of x in hand (the common case): no 比
            key = mask & _NEED_UNION[x] | (inf[8] & _OTHER_BIT[x]) << NUM_FACES
            hit = _chi_plain[x].get(key)
            if hit is None:
                hit = _chi_plain[x][key] = _chi_plain_table(x, key)
        else:
            related = _REL_GET[x](inf[6])
            memo = _chi_memo[x]
            hit = memo.get(related)
            if hit is None:
                if len(memo) >= _CHI_MEMO_LIMIT:
                    memo.clear()
                hit = memo[related] = _chi_bi(x, related)
        out, most = hit
        # §7 ruling: owing a discard afterwards needs a card besides the 坎.
        if most >= inf[7] and inf[0] + 1 == complete_size(inf[1]):
            out = {aid: a for aid, a in out.items() if 3 * len(a.groups) - 1 < inf[7]}
        return out

    def _can_peng(self, seat: int, x: int) -> bool:
        if self.dead[seat] or self.hands[seat][x] != 2 or (self.chou_peng[seat] >> x) & 1:
            return False
        # §7 ruling: a 碰 may not leave the player owing a discard with only 坎 cards.
        inf = self.info[seat] or self._info(seat)
        return inf[0] + 1 != complete_size(inf[1]) or inf[2] & ~(1 << x) != 0

    # ----------------------------------------------------------------- phases

    def _start(self) -> None:
        d = self.deal
        self.log.append(
            Event(
                EventKind.DEAL,
                d.dealer,
                face=d.liangzhang,
                hands=tuple(tuple(sorted(h)) for h in d.hands),
                numbers=tuple(len(h) for h in d.hands),
            )
        )
        # Dealt 提, every seat in order from the dealer (§3).
        for i in range(3):
            s = (d.dealer + i) % 3
            h = self.hands[s]
            if 4 not in h:
                continue
            for f in range(NUM_FACES):
                if h[f] == 4:
                    h[f] = 0
                    g = _TI_G[f]
                    self.tables[s].append(TableGroup(g, hidden=True))
                    self.info[s] = self.tinfo[s] = None
                    self.log.append(
                        Event(EventKind.TI, s, face=f, groups=(g,), detail="dealt", hidden=True)
                    )
        dealer = d.dealer
        if self.rules.tianhu:
            x = d.liangzhang
            h = self.hands[dealer]
            h[x] -= 1
            res = evaluate_counts(self.table_groups(dealer), h, x, False, False, self.rules)
            h[x] += 1
            if res is not None and h[x] < 3:
                self._open(
                    Window(
                        x,
                        dealer,
                        False,
                        False,
                        {dealer: (HU_ID, PASS_ID)},
                        hu={dealer: res},
                        order=(dealer,),
                        after_own=True,
                    )
                )
                return
        self._after_own(dealer)

    def _after_own(self, seat: int) -> None:
        """After a seat's own action: discard if §9 says so, else its 下家 draws."""
        if self.owes_discard(seat) and not self.dead[seat]:
            if self._free_left(self.hands[seat]) or (
                not self.rules.dead_hand and sum(self.hands[seat]) > 0
            ):
                self.phase = _DISCARD
                self.turn = seat
                self.window = None
                return
            if self.rules.dead_hand:
                self.dead[seat] = True
                self.log.append(Event(EventKind.DEAD, seat))
        self._draw((seat + 1) % 3)

    def _open(self, w: Window) -> None:
        self.phase = _CLAIM
        self.window = w

    def _open_claims(
        self,
        x: int,
        source: int,
        from_draw: bool,
        last: bool,
        options: dict[int, list[int]],
        chi: dict[int, dict[int, Action]],
        order: tuple[int, ...],
        hu: dict[int, WinResult] | None = None,
        forced_pao: int = -1,
    ) -> None:
        """Open the claim window on a drawn or discarded card; every seat may pass."""
        self._open(
            Window(
                x,
                source,
                from_draw,
                last,
                {s: (*a, PASS_ID) for s, a in options.items()},
                {},
                hu if hu is not None else {},
                chi,
                order,
                forced_pao,
            )
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
            if self._resolve_draw(seat, x, last):
                return
            seat = (seat + 1) % 3

    def _resolve_draw(self, d: int, x: int, last: bool) -> bool:
        """Resolve a drawn card; True when a decision is pending or the round ended."""
        h = self.hands[d]
        tables = self.tables
        # Step 1: the drawer's forced 提 / 偎.
        wei_idx = -1
        if ((self.tinfo[d] or self._table_info(d))[3] >> x) & 1:
            for i, t in enumerate(tables[d]):
                if t.group.faces[0] == x and t.group.kind in (_T.WEI, _T.CHOUWEI):
                    wei_idx = i
                    break
        if h[x] >= 2 or wei_idx >= 0:
            res = self._win(d, x, True, last)
            self.info[d] = self.tinfo[d] = None
            if h[x] == 3 or wei_idx >= 0:
                g = _TI_G[x]
                self.log.append(_EV_DRAW[d][x])
                if h[x] == 3:
                    h[x] = 0
                    tables[d].append(TableGroup(g))
                    self.log.append(Event(EventKind.TI, d, face=x, groups=(g,), detail="kan"))
                else:
                    tables[d][wei_idx] = TableGroup(g)
                    self.log.append(Event(EventKind.TI, d, face=x, groups=(g,), detail="wei"))
            else:
                h[x] = 0
                chou = bool((self.chou_peng[d] >> x) & 1)
                g = (_CHOUWEI_G if chou else _WEI_G)[x]
                tables[d].append(TableGroup(g, hidden=not chou))
                self.log.append(Event(EventKind.DRAW, d, face=x, hidden=not chou))
                self.log.append(
                    Event(
                        EventKind.WEI,
                        d,
                        face=x,
                        groups=(g,),
                        detail="chou" if chou else "",
                        hidden=not chou,
                    )
                )
            if res is not None:
                self._open(
                    Window(
                        x,
                        d,
                        True,
                        last,
                        {d: (HU_ID, PASS_ID)},
                        hu={d: res},
                        order=(d,),
                        after_own=True,
                    )
                )
                return True
            self._after_own(d)
            return True
        self.log.append(_EV_DRAW[d][x])
        info = self.info
        _d, n1, n2 = order = _ORDER[d]
        i0 = info[d] or self._info(d)
        i1 = info[n1] or self._info(n1)
        i2 = info[n2] or self._info(n2)
        bit = 1 << x
        options: dict[int, list[int]] = {}
        # Step 2: 胡 (the cached candidate masks reject most seats without a call).
        hu: dict[int, WinResult] = {}
        if (i0[3] | i1[3] | i2[3]) & bit:
            for s, inf in zip(order, (i0, i1, i2), strict=True):
                if inf[3] & bit:
                    r = self._win(s, x, s == d, last)
                    if r is not None:
                        hu[s] = r
                        options[s] = [HU_ID]
        # Step 3: forced 跑: the drawer on a table 碰, another seat on a 坎/偎/碰 too.
        pao = (
            d
            if i0[5] & bit
            else n1
            if (i1[10] | i1[5]) & bit
            else n2
            if (i2[10] | i2[5]) & bit
            else -1
        )
        chi: dict[int, dict[int, Action]] = {}
        # Step 4: 碰 (not the drawer), step 5: 吃 (the drawer, then his 下家).
        if pao < 0 and ((i1[8] | i2[8]) & bit or (i0[9] | i1[9]) & bit):
            self._claims(x, order[1:], order[:2], options, chi)
        if options:
            self._open_claims(x, d, True, last, options, chi, order, hu, pao)
            return True
        if pao >= 0:
            self._pao(pao, x, d, True)
            return True
        self.piles[d].append(x)
        self.log.append(_EV_PILE[d][x])
        return False

    def _claims(
        self,
        x: int,
        peng_seats: Sequence[int],
        chi_seats: Sequence[int],
        options: dict[int, list[int]],
        chi: dict[int, dict[int, Action]],
    ) -> None:
        """Add the optional 碰 and 吃 claims on ``x`` (§5 steps 4–5, §6 steps 2–3)."""
        hands = self.hands
        for s in peng_seats:
            if hands[s][x] == 2 and self._can_peng(s, x):
                options.setdefault(s, []).append(PENG_ID)
        info = self.info
        for s in chi_seats:
            if (
                ((info[s] or self._info(s))[9] >> x) & 1
                and not self.dead[s]
                and not (self.chou_chi[s] >> x) & 1
            ):
                c = self._chi_options(s, x)
                if c:
                    chi[s] = c
                    options.setdefault(s, []).extend(c)

    def _discard(self, p: int, x: int) -> None:
        self.hands[p][x] -= 1
        self.info[p] = None
        self.chou_chi[p] |= 1 << x
        self.chou_peng[p] |= 1 << x
        self.log.append(_EV_DISCARD[p][x])
        info = self.info
        _p, n1, n2 = _ORDER[p]
        i1 = info[n1] or self._info(n1)
        i2 = info[n2] or self._info(n2)
        bit = 1 << x
        # Step 1: forced 跑 from a 坎 or a table 偎 (never a table 碰, §6).
        if i1[10] & bit:
            self._pao(n1, x, p, False)
            return
        if i2[10] & bit:
            self._pao(n2, x, p, False)
            return
        # Step 2: 碰 by either other seat, step 3: 吃 by the 下家 only.
        if (i1[8] | i2[8]) & bit or i1[9] & bit:
            options: dict[int, list[int]] = {}
            chi: dict[int, dict[int, Action]] = {}
            self._claims(x, (n1, n2), (n1,), options, chi)
            if options:
                self._open_claims(x, p, False, False, options, chi, _DISCARD_ORDER[p])
                return
        self.piles[p].append(x)
        self.log.append(_EV_PILE[p][x])
        self._draw(n1)

    def _pao(self, s: int, x: int, source: int, from_draw: bool) -> None:
        """Forced 跑 (§5 step 3, §6 step 1): 坎, 偎 or (drawn card only) 碰 plus the card."""
        g = _PAO_G[x]
        self.info[s] = self.tinfo[s] = None
        if self.hands[s][x] == 3:
            self.hands[s][x] = 0
            self.tables[s].append(TableGroup(g))
            detail = "kan"
        else:
            for i, t in enumerate(self.tables[s]):
                if t.group.faces[0] == x and t.group.kind in (_T.WEI, _T.CHOUWEI, _T.PENG):
                    detail = "peng" if t.group.kind is _T.PENG else "wei"
                    self.tables[s][i] = TableGroup(g)
                    break
            else:  # pragma: no cover
                raise AssertionError("跑 without 坎/偎/碰")
        self.log.append(Event(EventKind.PAO, s, face=x, groups=(g,), source=source, detail=detail))
        self._after_own(s)

    def _maybe_resolve(self) -> None:
        w = self.window
        assert w is not None
        best_seat, best_aid, best_rank = -1, PASS_ID, 99
        for s, a in w.answers.items():
            r = _rank(w, s, a)
            if r < best_rank:
                best_seat, best_aid, best_rank = s, a, r
        pending = [s for s in w.options if s not in w.answers]
        if pending:
            potential = min(_rank(w, s, a) for s in pending for a in w.options[s])
            if potential < best_rank:
                return
        self._resolve(w, best_seat, best_aid, best_rank)

    def _resolve(self, w: Window, seat: int, aid: int, rank: int) -> None:
        x = w.card
        if w.after_own:
            if aid == HU_ID:
                if w.source == self.deal.dealer and not w.from_draw:  # 天胡 on the 亮张, in hand
                    self.hands[seat][x] -= 1
                    self.info[seat] = None
                    self.win_card = x
                self._hu(seat, w.hu[seat], x)
            else:
                # Declined 提胡/偎胡 (or 天胡): the drawer goes on as after any own action.
                self.window = None
                self._after_own(w.source)
            return
        # 臭 marks: a seat offered 碰/吃 whose turn in the priority order was reached
        # and that did not take it (§8); overtaken claims leave no mark.
        no_higher = aid != HU_ID and w.forced_pao < 0
        if no_higher:
            for s, ids in w.options.items():
                took = w.answers.get(s)
                if rank > 4 and took != PENG_ID and PENG_ID in ids:
                    self.chou_peng[s] |= 1 << x
                    self.log.append(_EV_CHOU_PENG[s][x])
                if (
                    s in w.chi
                    and (took is None or took < CHI_BASE)
                    and rank > _rank(w, s, CHI_BASE)
                ):
                    self.chou_chi[s] |= 1 << x
                    self.log.append(_EV_CHOU_CHI[s][x])
        self.window = None
        if aid == HU_ID:
            self.win_card = x
            self._hu(seat, w.hu[seat], x)
            return
        if w.forced_pao >= 0:
            self._pao(w.forced_pao, x, w.source, w.from_draw)
            return
        if aid == PENG_ID:
            self.hands[seat][x] -= 2
            self.info[seat] = None
            g = _PENG_G[x]
            self.tables[seat].append(_PENG_TG[x])
            ti = self.tinfo[seat]
            if ti is not None:  # updated in place of a recount
                self.tinfo[seat] = (ti[0] + 3, ti[1], ti[2] + g.huxi, ti[3], ti[4] | 1 << x)
            self.log.append(Event(EventKind.PENG, seat, face=x, groups=(g,), source=w.source))
            self._after_own(seat)
            return
        if aid >= CHI_BASE:
            act = w.chi[seat][aid]
            h = self.hands[seat]
            self.info[seat] = None
            taken, placed, huxi = _chi_parts(aid, x)
            for f in taken:
                h[f] -= 1
            self.tables[seat] += placed
            ti = self.tinfo[seat]
            if ti is not None:  # updated in place of a recount
                self.tinfo[seat] = (ti[0] + 3 * len(placed), ti[1], ti[2] + huxi, ti[3], ti[4])
            self.log.append(Event(EventKind.CHI, seat, face=x, groups=act.groups, source=w.source))
            self._after_own(seat)
            return
        # Nobody took it.
        self.piles[w.source].append(x)
        self.log.append(_EV_PILE[w.source][x])
        self._draw((w.source + 1) % 3)

    # ---------------------------------------------------------------- the end

    def _hu(self, seat: int, res: WinResult, x: int) -> None:
        self.window = None
        self.log.append(
            Event(
                EventKind.HU,
                seat,
                face=x,
                groups=res.groups,
                detail=res.how,
                numbers=(res.huxi, res.tun, res.fan, res.score),
            )
        )
        deltas = settle(res.score, seat, self.balances, self.rules)
        self._finish(seat, res, deltas, seat)

    def _huangzhuang(self) -> None:
        self.log.append(Event(EventKind.HUANGZHUANG))
        self._finish(None, None, (0, 0, 0), self.deal.dealer)

    def _finish(
        self, winner: int | None, res: WinResult | None, deltas: tuple[int, int, int], nxt: int
    ) -> None:
        bal = (
            self.balances[0] + deltas[0],
            self.balances[1] + deltas[1],
            self.balances[2] + deltas[2],
        )
        self.log.append(Event(EventKind.SETTLE, numbers=deltas))
        for s in range(3):
            self.log.append(
                Event(
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


def new_game(
    rules: RuleSet = HONG_GUAI_WAN,
    seed: int | None = None,
    dealer: int | None = None,
    deal: Deal | None = None,
    balances: Sequence[int] | None = None,
) -> State:
    """Start a round: a seeded deal (or a fixed ``deal``), dealt 提 and the opening.

    Without ``dealer`` the seed picks the dealer; without ``seed`` and ``deal`` the
    round is seeded from the system's randomness (and the seed stored).
    """
    if deal is None:
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        if dealer is None:
            dealer = random.Random(f"dealer:{seed}").randrange(3)
        deal = random_deal(seed, dealer)
    elif dealer is not None and dealer != deal.dealer:
        raise RecordError(f"dealer {dealer} does not match the deal's dealer {deal.dealer}")
    if balances is None:
        balances = (rules.starting_balance,) * 3
    if len(balances) != 3:
        raise RecordError(f"three balances expected, got {list(balances)!r}")
    s = State.__new__(State)
    s.rules = rules
    s.seed = seed
    s.deal = deal
    s.dealer = deal.dealer
    s.hands = [counts_of(h) for h in deal.hands]
    s.tables = [[], [], []]
    s.piles = [[], [], []]
    s.stock = list(reversed(deal.stock))
    s.chou_chi = [0, 0, 0]
    s.chou_peng = [0, 0, 0]
    s.dead = [False, False, False]
    s.phase = _DISCARD
    s.turn = deal.dealer
    s.window = None
    s.log = []
    s.decisions = []
    s.version = 0
    s.balances = (int(balances[0]), int(balances[1]), int(balances[2]))
    s.result = None
    s.draws = 0
    s.win_card = -1
    s.balances_at_start = s.balances
    s.info = [None, None, None]
    s.tinfo = [None, None, None]
    s._start()
    return s


assert NUM_ACTIONS == 317
