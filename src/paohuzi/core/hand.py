"""Win evaluation and waiting cards (RULES.md §10, §11).

Hands are count vectors (length 20). Everything here is on the hot path of the
engine and the bots, so the representation is chosen for speed:

* A count vector is packed into one int, a lane of bits a face; the low half is
  the small faces, the high half the big faces. Interpreted, a lane is eight bits
  (``int.from_bytes`` packs a vector, and byte sums are big-int remainders);
  compiled, three (a count never exceeds 4), so that a key fits a native int.
* The cards that are free to arrange (the hand without its 坎, which stay whole)
  decompose into runs, 二七十/一二三, 大小三搭 and at most one pair. Only 大小三搭 mix
  the sizes, so after choosing the (few) 大小三搭 each size is looked up on its own
  in two precomputed tables of every decomposable ten-face vector (without and with
  the pair), which give its most 胡息 directly. The tables are built once, on first
  use (about 76,000 entries), not at import.
* The best 胡息 of a free vector is memoised on the packed key.
* Group objects are built only for the winning arrangement, from pre-built
  constants.

Every way the winning card can be used (跑 onto a 坎/偎/碰, 碰 with a pair, forced
偎/提 on an own draw, any hand group) is tried, and the best score wins, ties to
the higher 胡息 (§10).
"""

from __future__ import annotations

import itertools
import time
import types
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from .cards import (
    NUM_FACES,
    RED_FACES,
    check_counts,
    counts_of,
    faces_of_counts,
    format_faces,
    glyph,
    parse_faces,
)
from .errors import HandError
from .groups import ERQISHI, HUXI, SCORING_SHAPES, Group, GroupKind, huxi_of, parse_groups
from .groups import _parsed as _parsed_groups
from .rules import HONG_GUAI_WAN, RuleSet
from .scoring import WinFacts, combine_fan, mingtang_of, tun_of

__all__ = [
    "Wait",
    "WinResult",
    "build_tables",
    "cache_info",
    "clear_cache",
    "complete_size",
    "decompose",
    "discard_waits",
    "evaluate_counts",
    "evaluate_win",
    "validate",
    "waits",
    "waits_counts",
]

TableInput = str | Iterable[str | Group]
HandInput = str | Iterable[int]

# Module constants are Final: a compiled build reads them as natives, not from a dict.
_TI: Final = GroupKind.TI
_PAO: Final = GroupKind.PAO
_WEI: Final = GroupKind.WEI
_CHOUWEI: Final = GroupKind.CHOUWEI
_KAN: Final = GroupKind.KAN
_PENG: Final = GroupKind.PENG
_JU: Final = GroupKind.JU
_DUI: Final = GroupKind.DUI


def complete_size(k: int) -> int:
    """W(k): cards in a complete hand with k 提/跑 (§9), the duty a discard keeps.

    The one place the formula is written; the hot paths index :data:`_W`.

    >>> [complete_size(k) for k in range(4)]
    [21, 21, 22, 23]
    """
    return 21 if k == 0 else 20 + k


_W: Final = tuple(complete_size(k) for k in range(4 * NUM_FACES))  # W(k) by k, for the hot paths


@dataclass(frozen=True, slots=True, init=False)
class WinResult:
    """The best arrangement of a win and its score, itemised."""

    huxi: int
    tun: int
    fan: int
    score: int
    mingtang: Mapping[str, int]
    groups: tuple[Group, ...]
    card: int
    self_drawn: bool
    last_card: bool
    how: str  # 跑胡 / 提胡 / 偎胡 / 碰 / "" (X into a hand group)

    def __init__(
        self,
        huxi: int,
        tun: int,
        fan: int,
        score: int,
        mingtang: Mapping[str, int],
        groups: tuple[Group, ...],
        card: int,
        self_drawn: bool,
        last_card: bool,
        how: str = "",
    ) -> None:
        """The fields in order.

        Written out: a compiled build compiles it, where the frozen dataclass's own
        ``__init__`` stays interpreted and costs ten times as much.
        """
        object.__setattr__(self, "huxi", huxi)
        object.__setattr__(self, "tun", tun)
        object.__setattr__(self, "fan", fan)
        object.__setattr__(self, "score", score)
        object.__setattr__(self, "mingtang", mingtang)
        object.__setattr__(self, "groups", groups)
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "self_drawn", self_drawn)
        object.__setattr__(self, "last_card", last_card)
        object.__setattr__(self, "how", how)

    @property
    def zimo(self) -> bool:
        """自摸: the winner drew the card himself (+囤, not a 名堂)."""
        return self.self_drawn

    def __repr__(self) -> str:
        """Show the score and the groups on one line (a result is computed, not rebuilt).

        ``<WinResult 伍: 18 胡息, 2 囤 × 1 番 = 2 | 碰:贰贰贰 吃:壹贰叁 坎:捌捌捌 ...>``
        """
        how = f" {self.how}" if self.how else ""
        drawn = " 自摸" if self.self_drawn else ""
        last = " 海底" if self.last_card else ""
        mt = "".join(f", {k} {v}" for k, v in self.mingtang.items())
        return (
            f"<WinResult {glyph(self.card)}{how}{drawn}{last}: {self.huxi} 胡息{mt}, "
            f"{self.tun} 囤 × {self.fan} 番 = {self.score} | "
            f"{' '.join(g.notation() for g in self.groups)}>"
        )

    def explain(self) -> str:
        """Itemise the win for people: groups with 胡息, 囤, 名堂, 囤 × 番 = score."""
        how = f" ({self.how})" if self.how else ""
        drawn = "自摸 (own draw)" if self.self_drawn else "drawn by another player"
        lines = [f"胡 on {glyph(self.card)}{how}, {drawn}" + (", 海底" if self.last_card else "")]
        for g in self.groups:
            lines.append(f"  {g.notation():<10} {g.huxi:>2} 胡息")
        lines.append(f"胡息 {self.huxi}")
        base = tun_of(self.huxi, self_drawn=False)
        bonus = self.tun - base
        lines.append(
            f"囤 {self.tun} = ⌊({self.huxi} − 12) / 3⌋" + (f" + {bonus} 自摸" if bonus else "")
        )
        if self.mingtang:
            lines.append("名堂 " + ", ".join(f"{k} {v} 番" for k, v in self.mingtang.items()))
        else:
            lines.append("名堂 none (平胡, 1 番)")
        lines.append(f"{self.tun} 囤 × {self.fan} 番 = {self.score}")
        return "\n".join(lines)

    def to_dict(self) -> dict[str, object]:
        """Return a JSON-ready dict (the keys of the ``paohuzi score --json`` object)."""
        return {
            "win": True,
            "huxi": self.huxi,
            "tun": self.tun,
            "fan": self.fan,
            "score": self.score,
            "mingtang": dict(self.mingtang),
            "groups": [g.notation() for g in self.groups],
            "group_huxi": [g.huxi for g in self.groups],
            "card": glyph(self.card),
            "self_drawn": self.self_drawn,
            "last_card": self.last_card,
            "how": self.how,
        }


# ---------------------------------------------------------------------------
# Packed keys and pre-built groups.


def _lane_bits() -> int:
    """Bits a face: 8 interpreted, 3 compiled (where a 60-bit key is a native int).

    Compiled by mypyc, a function is a native one, not a Python function object.
    """
    return 8 if isinstance(_lane_bits, types.FunctionType) else 3


_LANE: Final = _lane_bits()
_COMPILED: Final = _LANE == 3
_LANE_MASK: Final = (1 << _LANE) - 1
_ONE: Final = tuple(1 << (_LANE * f) for f in range(NUM_FACES))
_HALF_BITS: Final = 10 * _LANE
_HALF_MASK: Final = (1 << _HALF_BITS) - 1
_LANES: Final = sum(1 << (_LANE * i) for i in range(10))  # bit 0 of each of the ten lanes
_IS_RED: Final = tuple(int(f in RED_FACES) for f in range(NUM_FACES))
_SET_S: Final = HUXI[GroupKind.JU][0]  # 胡息 of a scoring set (一二三/二七十), small
_SET_B: Final = HUXI[GroupKind.JU][1]  # and big


def _pack(counts: Sequence[int]) -> int:
    """A lane a face; faces 0–9 (small) in the low half."""
    if _LANE == 8:
        return int.from_bytes(bytes(counts), "little")
    key = 0
    for f in range(NUM_FACES):
        key |= counts[f] << (_LANE * f)
    return key


def _same(kind: GroupKind) -> tuple[Group, ...]:
    """One same-face group of ``kind`` per face, built once and shared."""
    return tuple(Group(kind, (f,) * kind.size) for f in range(NUM_FACES))


_KAN_G: Final = _same(_KAN)
_PENG_G: Final = _same(_PENG)
_WEI_G: Final = _same(_WEI)
_PAO_G: Final = _same(_PAO)
_TI_G: Final = _same(_TI)
_DUI_G: Final = _same(_DUI)
_RUN_G: Final = {f: Group(_JU, (f, f + 1, f + 2)) for f in range(NUM_FACES) if f % 10 <= 7}
_EQS_G: Final = {
    off: Group(_JU, tuple(off + n for n in ERQISHI)) for off in (0, 10)
}  # 二七十 / 贰柒拾
_MIX_G: Final = {  # 大小三搭 at number n (0-9): (two small + big, small + two big)
    n: (Group(_JU, (n, n, n + 10)), Group(_JU, (n, n + 10, n + 10))) for n in range(10)
}
_KIND_RANK: Final = {id(kind): i for i, kind in enumerate(GroupKind)}  # by id: Enum hashing is slow


def _group_order(g: Group) -> tuple[int, tuple[int, ...]]:
    """Canonical order of result groups (kind as in GroupKind, then faces)."""
    return _KIND_RANK[id(g.kind)], g.faces


# ---------------------------------------------------------------------------
# Tables of the one-size decompositions (runs, 二七十/一二三, the pair).

_T0: Final[dict[int, int]] = {}  # ten-lane key -> most scoring sets (一二三/二七十), no pair
_T1: Final[dict[int, int]] = {}  # the same with exactly one pair
# Keys of both, for a quick reject. A dict, not a set: a dict of ints is untracked by
# the garbage collector, which would otherwise walk a set this size in every full pass.
_T01: Final[dict[int, None]] = {}
_TABLE_LIMIT: Final = 4  # copies a lane may hold
_table_stats: Final[dict[str, float]] = {"build_seconds": 0.0}


def _build_tables() -> None:
    """Every decomposable one-size vector with its best count of scoring sets."""
    start = time.perf_counter()
    lim = _TABLE_LIMIT  # a lane is full when its bit 2 is set (values never exceed 4)
    sets = [(i, i + 1, i + 2) for i in range(8)] + [ERQISHI]
    deltas = [
        (
            sum(1 << (_LANE * f) for f in s),
            sum(4 << (_LANE * f) for f in s),
            int(s in SCORING_SHAPES),
        )
        for s in sets
    ]
    t0: dict[int, int] = {}
    stack = [(0, 0, 0)]  # key, scoring sets, next set type (each multiset once)
    while stack:
        key, score, nxt = stack.pop()
        if t0.get(key, -1) < score:
            t0[key] = score
        for j in range(nxt, len(deltas)):
            d, full, gain = deltas[j]
            if not key & full:
                stack.append((key + d, score + gain, j))
    t1: dict[int, int] = {}
    for key, score in t0.items():
        for f in range(10):
            if (key >> (_LANE * f)) & _LANE_MASK <= lim - 2:
                k2 = key + (2 << (_LANE * f))
                if t1.get(k2, -1) < score:
                    t1[k2] = score
    # _T0 last: a non-empty _T0 means the tables are ready.
    _T1.update(t1)
    _T01.update(dict.fromkeys(t0))
    _T01.update(dict.fromkeys(t1))
    _T0.update(t0)
    _table_stats["build_seconds"] = time.perf_counter() - start


def _mix_options() -> dict[tuple[int, int], tuple[tuple[int, int, int, int], ...]]:
    """(small, big) copies of a number -> its 大小三搭 choices (m1, m2, small used, big used)."""
    out: dict[tuple[int, int], tuple[tuple[int, int, int, int], ...]] = {}
    for s in range(_TABLE_LIMIT + 1):
        for b in range(_TABLE_LIMIT + 1):
            out[s, b] = tuple(
                (m1, m2, 2 * m1 + m2, m1 + 2 * m2)
                for m1 in range(3)
                for m2 in range(3)
                if (m1 or m2) and 2 * m1 + m2 <= s and m1 + 2 * m2 <= b
            )
    return out


_MIX_OPTS: Final = _mix_options()


def _solve(key: int, need_pair: bool) -> int:
    """Most 胡息 of arranging the free cards ``key`` (with one pair if needed), or -1 (§10)."""
    if not _T0:
        _build_tables()
    small = key & _HALF_MASK
    big = key >> _HALF_BITS
    both = ((small | small >> 1 | small >> 2) & (big | big >> 1 | big >> 2)) & _LANES
    if not both:  # no 大小三搭 possible: the sizes are independent
        return _solve_sizes(small, big, need_pair)
    smalls, bigs = _mix_halves(small, big, both)
    if len(smalls) == 1:
        return _solve_sizes(small, big, need_pair)
    return _solve_mixed(smalls, bigs, need_pair)


def _mix_halves(small: int, big: int, both: int) -> tuple[list[int], list[int]]:
    """Each way to take 大小三搭 (§2) out: the two halves left, as parallel lists."""
    smalls = [small]
    bigs = [big]
    while both:
        low = both & -both
        both ^= low
        sh = low.bit_length() - 1
        s = (small >> sh) & _LANE_MASK
        b = (big >> sh) & _LANE_MASK
        if s + b >= 3:
            n = len(smalls)
            for _m1, _m2, us, ub in _MIX_OPTS.get((s, b), ()):
                ds = us * low
                db = ub * low
                smalls += [v - ds for v in smalls[:n]]
                bigs += [v - db for v in bigs[:n]]
    return smalls, bigs


def _solve_sizes(small: int, big: int, need_pair: bool) -> int:
    """Most 胡息 when each size is arranged on its own (runs, 一二三/二七十, the pair)."""
    t0 = _T0
    if not need_pair:
        cs = t0.get(small)
        cb = t0.get(big)
        return -1 if cs is None or cb is None else _SET_S * cs + _SET_B * cb
    best = -1
    cs = _T1.get(small)  # the pair among the small cards
    if cs is not None:
        cb = t0.get(big)
        if cb is not None:
            best = _SET_S * cs + _SET_B * cb
    cs = t0.get(small)  # or among the big ones
    if cs is not None:
        cb = _T1.get(big)
        if cb is not None and _SET_S * cs + _SET_B * cb > best:
            best = _SET_S * cs + _SET_B * cb
    return best


def _solve_mixed(smalls: list[int], bigs: list[int], need_pair: bool) -> int:
    """Most 胡息 over the halves each 大小三搭 choice leaves, or -1."""
    t0 = _T0
    # Most hands fail here, in C: no half left is decomposable at all.
    halves = _T01.keys() if need_pair else t0.keys()
    if halves.isdisjoint(smalls) or halves.isdisjoint(bigs):
        return -1
    t1 = _T1
    pairs = ((t1, t0), (t0, t1)) if need_pair else ((t0, t0),)
    best = -1
    big_of = dict(zip(smalls, bigs, strict=True))
    if len(big_of) == len(smalls):  # each choice leaves its own small half (always, ≤ 3 copies)
        for stable, btable in pairs:
            for s in stable.keys() & big_of.keys():
                cb = btable.get(big_of[s])
                if cb is not None and _SET_S * stable[s] + _SET_B * cb > best:
                    best = _SET_S * stable[s] + _SET_B * cb
        return best
    for stable, btable in pairs:
        for cs, cb in zip(map(stable.get, smalls), map(btable.get, bigs), strict=True):
            if cs is not None and cb is not None and _SET_S * cs + _SET_B * cb > best:
                best = _SET_S * cs + _SET_B * cb
    return best


_memo: Final[dict[int, int]] = {}
_MEMO_LIMIT: Final = 300_000


def _best(key: int, need_pair: bool) -> int:
    """Memoised :func:`_solve`."""
    mkey = key + key + need_pair
    hit = _memo.get(mkey)
    if hit is not None:
        return hit
    best = _solve(key, need_pair)
    if len(_memo) >= _MEMO_LIMIT:
        _memo.clear()
    _memo[mkey] = best
    return best


def build_tables() -> float:
    """Build the decomposition tables now (they are otherwise built on first use).

    Returns the seconds the build took (0.0 when they were already built).
    """
    if _T0:
        return 0.0
    _build_tables()
    return _table_stats["build_seconds"]


def cache_info() -> dict[str, float]:
    """Report the memo sizes and limits, and the decomposition tables' size and build time."""
    return {
        "entries": len(_memo),
        "limit": _MEMO_LIMIT,
        "input_entries": len(_inputs),
        "input_limit": _INPUTS_LIMIT,
        "table_entries": len(_T0) + len(_T1),
        "table_build_seconds": _table_stats["build_seconds"],
    }


def clear_cache(*, tables: bool = False) -> None:
    """Forget the memos (with ``tables``, the decomposition tables too), for timing or memory."""
    _memo.clear()
    _inputs.clear()
    _parsed_groups.clear()
    _arrangements.clear()
    _table_cache.clear()
    _tuple_cache.clear()
    _rule_cache.clear()
    if tables:
        _T0.clear()
        _T1.clear()
        _T01.clear()


def _lane(half: int, lane: int) -> int:
    """The count in a lane of a packed half."""
    return (half >> (_LANE * lane)) & _LANE_MASK


def _walk(half: int, off: int, pair: bool, target: int) -> list[Group]:
    """Walk one size half back into the groups that reach ``target`` scoring sets."""
    out: list[Group] = []
    while half:
        low = half & -half
        lane = (low.bit_length() - 1) // _LANE
        one = 1 << (lane * _LANE)
        table = _T1 if pair else _T0
        if pair and _lane(half, lane) >= 2 and _T0.get(half - 2 * one) == target:
            out.append(_DUI_G[lane + off])
            half -= 2 * one
            pair = False
            continue
        if lane <= 7 and _lane(half, lane + 1) and _lane(half, lane + 2):
            gain = 1 if lane == 0 else 0
            rest = half - one - _ONE[lane + 1] - _ONE[lane + 2]
            if table.get(rest) == target - gain:
                out.append(_RUN_G[lane + off])
                half = rest
                target -= gain
                continue
        if lane == 1 and _lane(half, 6) and _lane(half, 9):
            rest = half - _ONE[1] - _ONE[6] - _ONE[9]  # 二七十: lanes 1, 6 and 9
            if table.get(rest) == target - 1:
                out.append(_EQS_G[off])
                half = rest
                target -= 1
                continue
        raise AssertionError("decomposition walk failed")  # pragma: no cover
    return out


def _arrange(key: int, need_pair: bool) -> tuple[int, list[Group]] | None:
    """Find the best arrangement of free cards: 胡息 and groups (deterministic), or ``None``."""
    best = _solve(key, need_pair)
    if best < 0:
        return None
    small = key & _HALF_MASK
    big = key >> _HALF_BITS
    # per number with both sizes: its 大小三搭 choices (number, two-small ones, two-big ones)
    lanes: list[list[tuple[int, int, int]]] = []
    for n in range(10):
        s = _lane(small, n)
        b = _lane(big, n)
        if s and b and s + b >= 3:
            lanes.append([(n, 0, 0), *((n, m1, m2) for m1, m2, _, _ in _MIX_OPTS.get((s, b), ()))])
    for choice in itertools.product(*lanes):
        s, b = small, big
        for n, m1, m2 in choice:
            s -= (2 * m1 + m2) << (_LANE * n)
            b -= (m1 + 2 * m2) << (_LANE * n)
        for pair_small in (True, False) if need_pair else (False,):
            cs = (_T1 if pair_small else _T0).get(s)
            cb = (_T1 if need_pair and not pair_small else _T0).get(b)
            if cs is None or cb is None or _SET_S * cs + _SET_B * cb != best:
                continue
            groups: list[Group] = []
            for n, m1, m2 in choice:
                groups += [_MIX_G[n][0]] * m1 + [_MIX_G[n][1]] * m2
            groups += _walk(s, 0, pair_small, cs)
            groups += _walk(b, 10, need_pair and not pair_small, cb)
            groups.sort(key=lambda g: (g.kind is _DUI, g.faces))
            return best, groups
    raise AssertionError("no arrangement reaches the best 胡息")  # pragma: no cover


def decompose(counts: Sequence[int], *, need_pair: bool) -> tuple[int, list[Group]] | None:
    """Best 胡息 and groups for free cards (no 坎 locking), or ``None``."""
    return _arrange(_pack(counts), need_pair)


# ---------------------------------------------------------------------------
# Win evaluation.

# Table summary: 胡息, 提/跑 count, all same-face, red, big, cards, {face: 偎/碰 group},
# the groups, a box for them in canonical order (filled when a result needs it), and the
# copies of each face on the table.
_TableInfo = tuple[
    int,
    int,
    bool,
    int,
    int,
    int,
    dict[int, Group],
    tuple[Group, ...],
    list[tuple[Group, ...]],
    list[int],
]
_table_cache: Final[dict[tuple[int, ...], tuple[tuple[Group, ...], _TableInfo]]] = {}
_TABLE_CACHE_LIMIT: Final = 4096
# The same, by the identity of the tuple itself: the cheapest check when a caller
# passes one tuple again (the entry holds it, so its id cannot be reused either).
_tuple_cache: Final[dict[int, tuple[tuple[Group, ...], _TableInfo]]] = {}


def _table_info(table: Sequence[Group]) -> _TableInfo:
    """Summarise what evaluation needs from the table groups.

    Cached by the identity of the (immutable) groups: a seat's table changes only
    on a claim, while the engine and the bots evaluate it for every card. The entry
    holds the groups, so their ids cannot be reused while it exists. A tuple passed
    again is found by its own id first, without hashing the groups' ids.
    """
    if type(table) is tuple:  # a tuple the caller may pass again (a new one is not)
        same = _tuple_cache.get(id(table))
        if same is not None and same[0] is table:
            return same[1]
        groups, given = table, True
    else:
        groups, given = tuple(table), False
    ids = tuple(map(id, groups))
    hit = _table_cache.get(ids)
    if hit is not None:
        info = hit[1]
    else:
        info = _summarise_table(groups)
        if len(_table_cache) >= _TABLE_CACHE_LIMIT:
            _table_cache.clear()
        _table_cache[ids] = (groups, info)
    if given:
        if len(_tuple_cache) >= _TABLE_CACHE_LIMIT:
            _tuple_cache.clear()
        _tuple_cache[id(groups)] = (groups, info)
    return info


def _summarise_table(groups: tuple[Group, ...]) -> _TableInfo:
    """The sums and faces of :data:`_TableInfo`, worked out once per table."""
    huxi = k = red = big = n = 0
    pengpeng = True
    open_faces: dict[int, Group] = {}
    for g in groups:
        kind = g.kind
        huxi += g.huxi
        red += g.red
        big += g.big
        n += len(g.faces)
        if kind is _TI or kind is _PAO:
            k += 1
        elif kind is _WEI or kind is _CHOUWEI or kind is _PENG:
            open_faces[g.faces[0]] = g
        elif kind is not _KAN:
            pengpeng = False
    on_table = [0] * NUM_FACES
    for g in groups:
        for f in g.faces:
            on_table[f] = on_table[f] + 1  # not +=: generic when compiled
    return (huxi, k, pengpeng, red, big, n, open_faces, groups, [], on_table)


# Hand summary: counts (bytes when interpreted, the caller's list when compiled), cards,
# red, big, free key, free cards, 坎 faces, 坎 胡息.
_HandInfo = tuple[Sequence[int], int, int, int, int, int, tuple[int, ...], int]


def _hand_info(hand: Sequence[int]) -> _HandInfo:
    """Summarise a count vector: its sums, 坎 and the key of the cards free to arrange.

    Interpreted, bytes operations do the counting in C; compiled, a plain loop over
    native ints is faster (``tests/core/test_kernels.py`` checks that both agree).
    """
    if _COMPILED:
        return _hand_info_loop(hand if isinstance(hand, list) else list(hand))
    return _hand_info_bytes(hand)


def _hand_info_bytes(hand: Sequence[int]) -> _HandInfo:
    """:func:`_hand_info` in bytes operations: the byte sums as big-int remainders.

    The interpreter's way, for its eight-bit lanes (the key is the bytes themselves).
    """
    counts = bytes(hand)
    key = int.from_bytes(counts, "little")
    # Byte sums as one big-int remainder each: 256 ≡ 1 (mod 255), and sums stay < 255.
    n = key % 255
    red = (key & _RED_MASK) % 255
    big = (key >> _HALF_BITS) % 255
    if 3 not in counts:
        return counts, n, red, big, key, n, (), 0
    kans = []
    kan_huxi = 0
    f = counts.find(3)
    while f >= 0:
        kans.append(f)
        kan_huxi += _KAN_H[f]
        key -= 3 * _ONE[f]
        f = counts.find(3, f + 1)
    return counts, n, red, big, key, n - 3 * len(kans), tuple(kans), kan_huxi


def _hand_info_loop(h: list[int]) -> _HandInfo:
    """:func:`_hand_info` as a loop (the compiled build's: three-bit lanes, native ints)."""
    n = red = big = n_kan = kan_huxi = key = 0
    kans: list[int] = []
    for f in range(NUM_FACES):
        c = h[f]
        if not c:
            continue
        n += c
        if (_RED_FACES >> f) & 1:
            red += c
        if f >= 10:
            big += c
        if c == 3:  # a 坎 is not free to arrange
            kans.append(f)
            kan_huxi += _KAN_H[f]
            n_kan += 3
        else:
            key |= c << (_LANE * f)
    return h, n, red, big, key, n - n_kan, tuple(kans) if kans else (), kan_huxi


_RED_FACES: Final = sum(1 << f for f in RED_FACES)
_RED_MASK: Final = sum(0xFF << (8 * f) for f in RED_FACES)


# Per rule set: (rules, min_huxi, min_huxi_with_mingtang, zimo bonus, 名堂 cache).
_MingtangKey = tuple[int, int, int, bool, bool, bool]
_RuleInfo = tuple[RuleSet, int, int, int, dict[_MingtangKey, tuple[dict[str, int], int]]]
_rule_cache: Final[dict[int, _RuleInfo]] = {}


def _rule_info(rules: RuleSet) -> _RuleInfo:
    """Constants of a rule set, cached by identity (the entry keeps ``rules`` alive)."""
    info = _rule_cache.get(id(rules))
    if info is None or info[0] is not rules:
        if len(_rule_cache) >= 64:
            _rule_cache.clear()
        info = (rules, rules.min_huxi, rules.min_huxi_with_mingtang, rules.zimo_bonus_tun, {})
        _rule_cache[id(rules)] = info
    return info


def _huxi_by_face(kind: GroupKind) -> tuple[int, ...]:
    return tuple(huxi_of(kind, big=f >= 10) for f in range(NUM_FACES))


_TI_H: Final = _huxi_by_face(_TI)
_PAO_H: Final = _huxi_by_face(_PAO)
_WEI_H: Final = _huxi_by_face(_WEI)
_KAN_H: Final = _huxi_by_face(_KAN)
_PENG_H: Final = _huxi_by_face(_PENG)
_HOW: Final = ("", "碰", "跑胡", "跑胡", "提胡", "提胡", "偎胡")
# Option codes: 0 X into the hand, 1 碰 with a pair, 2 跑 on a 坎, 3 跑 on a table 偎/碰,
# 4 提 on a 坎, 5 提 on a table 偎, 6 偎 with a pair.
_Option = tuple[int, int, bool, int, int]  # free key, free cards, need pair, 胡息 change, code


def _options(
    hx: int,
    open_g: Group | None,
    x: int,
    self_drawn: bool,
    plain: bool,
    quad: bool,
    free: int,
    n_free: int,
    pair_plain: bool,
) -> list[_Option]:
    """Every use of X that §5 and §10 allow, as free cards left to arrange."""
    one = _ONE[x]
    if self_drawn and hx == 3:  # forced 提 of the 坎 (§5.1)
        return [(free, n_free, True, _TI_H[x] - _KAN_H[x], 4)] if quad else []
    if self_drawn and open_g is not None and open_g.kind is not _PENG:  # forced 提 of a 偎
        return [(free, n_free, True, _TI_H[x] - open_g.huxi, 5)] if quad else []
    if self_drawn and hx == 2:  # forced 偎
        return [(free - 2 * one, n_free - 2, pair_plain, _WEI_H[x], 6)] if plain else []
    opts: list[_Option] = []
    if quad:
        if open_g is not None:  # 跑 on a table 偎 (another's draw) or 碰 (anyone's)
            opts.append((free, n_free, True, _PAO_H[x] - open_g.huxi, 3))
        if hx == 3:  # 跑 on the 坎
            opts.append((free, n_free, True, _PAO_H[x] - _KAN_H[x], 2))
    if plain:
        if hx == 2:  # 碰 with the pair (scores as 碰, not 坎)
            opts.append((free - 2 * one, n_free - 2, pair_plain, _PENG_H[x], 1))
        opts.append((free + one, n_free + 1, pair_plain, 0, 0))
    return opts


def _evaluate(
    ti: _TableInfo,
    hi: _HandInfo,
    x: int,
    self_drawn: bool,
    last_card: bool,
    ri: _RuleInfo,
) -> WinResult | None:
    """Try every use of X (§10) and return the best-scoring arrangement."""
    _huxi, tk, _pengpeng, _red, _big, t_n, open_faces, _groups, _sorted, _on_table = ti
    counts, h_n, _red, _big, free, n_free, _kans, _kan_huxi = hi
    hx = counts[x]
    open_g = open_faces.get(x) if open_faces else None
    total = t_n + h_n + 1
    if hx < 2 and open_g is None:
        # The common case: X can only join a hand group; reject before any work.
        if total != _W[tk] or (n_free + 1) % 3 != (2 if tk else 0):
            return None
        key = free + _ONE[x]
        hit = _memo.get(key + key + (tk > 0))
        hit = _best(key, tk > 0) if hit is None else hit
        if hit < 0:
            return None
        found = [(key, n_free + 1, tk > 0, hit, 0)]
    else:
        # X the hand pairs or the table shows: 碰/偎/跑/提 (§5), or into the hand.
        plain = total == _W[tk]  # X joins without a 提/跑
        quad = total == _W[tk + 1]  # X makes a 提/跑
        if not (plain or quad):
            return None
        found = []
        for key, nf, need_pair, extra, code in _options(
            hx, open_g, x, self_drawn, plain, quad, free, n_free, tk > 0
        ):
            if nf % 3 == (2 if need_pair else 0):
                hit = _memo.get(key + key + need_pair)
                hit = _best(key, need_pair) if hit is None else hit
                if hit >= 0:
                    found.append((key, nf, need_pair, hit + extra, code))
        if not found:
            return None
    return _score_best(ti, hi, x, open_g, found, self_drawn, last_card, ri)


# A use of X whose free cards decompose: free key, free cards, need pair, 胡息, option code.
_Found = tuple[int, int, bool, int, int]


def _score_best(
    ti: _TableInfo,
    hi: _HandInfo,
    x: int,
    open_g: Group | None,
    found: list[_Found],
    self_drawn: bool,
    last_card: bool,
    ri: _RuleInfo,
) -> WinResult | None:
    """Score each use (名堂 §11, 囤 and 番 §12) and keep the best; ties to more 胡息 (§10)."""
    t_huxi, _tk, t_pengpeng, t_red, t_big, t_n, _open, _groups, _sorted, _on_table = ti
    counts, h_n, h_red, h_big, _free, _n_free, kans, kan_huxi = hi
    total = t_n + h_n + 1
    red = t_red + h_red + _IS_RED[x]
    big = t_big + h_big + (x >= 10)
    shuahou = h_n == 1 and counts[x] == 1
    base_huxi = t_huxi + kan_huxi
    rules, min_huxi, min_mt_huxi, zimo, mt_cache = ri
    bonus = zimo if self_drawn else 0
    best: tuple[int, int, int, int, int, bool, int, dict[str, int]] | None = None
    for key, nf, need_pair, hand_huxi, code in found:
        huxi = base_huxi + hand_huxi
        mt_key = (red, big, total, t_pengpeng and nf == (2 if need_pair else 0), last_card, shuahou)
        mt_hit = mt_cache.get(mt_key)
        if mt_hit is None:
            mt_hit = mt_cache[mt_key] = _mingtang(mt_key, rules)
        mt, fan = mt_hit
        if huxi < (min_mt_huxi if mt else min_huxi):
            continue
        tun = (huxi - 12) // 3 + bonus  # tun_of, inline on the hot path
        if best is None or tun * fan > best[0] or (tun * fan == best[0] and huxi > best[1]):
            best = (tun * fan, huxi, tun, fan, key, need_pair, code, mt)
    if best is None:
        return None
    score, huxi, tun, fan, key, need_pair, code, mt = best
    groups = _result_groups(ti, open_g, kans, key, need_pair, code, x)
    return WinResult(huxi, tun, fan, score, dict(mt), groups, x, self_drawn, last_card, _HOW[code])


def _mingtang(mt_key: _MingtangKey, rules: RuleSet) -> tuple[dict[str, int], int]:
    """名堂 and 番 of a win's facts (red, big, cards, 碰碰, 海底, 耍猴), for the cache."""
    red, big, total, pengpeng, last_card, shuahou = mt_key
    mt = mingtang_of(
        WinFacts(
            red=red,
            big=big,
            small=total - big,
            pengpeng=pengpeng,
            last_card=last_card,
            shuahou=shuahou,
        ),
        rules,
    )
    return mt, combine_fan(mt, rules)


_arrangements: Final[dict[int, tuple[Group, ...]]] = {}


def _result_groups(
    ti: _TableInfo,
    open_g: Group | None,
    kans: tuple[int, ...],
    key: int,
    need_pair: bool,
    code: int,
    x: int,
) -> tuple[Group, ...]:
    """Build the winning groups in a canonical order: table, X's group, 坎, hand groups."""
    box = ti[8]
    if not box:
        box.append(tuple(sorted(ti[7], key=_group_order)))
    tgroups = box[0]
    mkey = key + key + need_pair
    hand = _arrangements.get(mkey)
    if hand is None:
        arranged = _arrange(key, need_pair)
        assert arranged is not None
        hand = tuple(arranged[1])
        if len(_arrangements) >= _MEMO_LIMIT // 4:
            _arrangements.clear()
        _arrangements[mkey] = hand
    if code == 0:
        return (*tgroups, *[_KAN_G[f] for f in kans], *hand) if kans else (*tgroups, *hand)
    table = tgroups
    extra: tuple[Group, ...] = ()
    if code == 3 or code == 5:
        assert open_g is not None
        new = _PAO_G[x] if code == 3 else _TI_G[x]
        table = tuple(sorted([*(g for g in tgroups if g is not open_g), new], key=_group_order))
    elif code == 2 or code == 4:
        kans = tuple(f for f in kans if f != x)
        extra = (_PAO_G[x] if code == 2 else _TI_G[x],)
    else:
        extra = (_PENG_G[x] if code == 1 else _WEI_G[x],)
    return (*table, *extra, *(_KAN_G[f] for f in kans), *hand)


def evaluate_counts(
    table: Sequence[Group],
    hand: Sequence[int],
    x: int,
    self_drawn: bool = False,
    last_card: bool = False,
    rules: RuleSet = HONG_GUAI_WAN,
) -> WinResult | None:
    """Unchecked fast path of :func:`evaluate_win` on parsed values.

    ``hand`` is a count vector of length 20 (坎 included), ``x`` the winning face.
    Returns ``None`` when ``x`` does not win (wrong card count included).
    """
    ri = _rule_cache.get(id(rules))
    if ri is None or ri[0] is not rules:
        ri = _rule_info(rules)
    return _evaluate(_table_info(table), _hand_info(hand), x, self_drawn, last_card, ri)


def _parse_hand(hand: HandInput) -> list[int]:
    """Count a hand given as notation or as faces."""
    if isinstance(hand, str):
        return counts_of(parse_faces(hand))
    return counts_of(hand)


def _parse_card(card: object) -> int:
    """Parse the winning card: one glyph or alias, or a face index 0–19."""
    if isinstance(card, str):
        faces = parse_faces(card)
        if len(faces) != 1:
            raise HandError(f"the winning card must be one card, got {card!r}")
        return faces[0]
    if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < NUM_FACES:
        raise HandError(f"not a card: {card!r} (give a glyph like '伍' or a face index 0-19)")
    return card


def validate(table: Sequence[Group], hand: Sequence[int], card: int | None) -> None:
    """Reject holdings that cannot occur in play (RULES.md §3, §5, §7).

    Five copies of a face; four in the hand (a 提 is declared); a 坎 face also in a
    table group (坎 cards are never used elsewhere, §3); a table group that only
    exists in the hand (坎, 句, 对).
    """
    _check_table_kinds(table)
    total = list(hand)
    for g in table:
        for f in g.faces:
            total[f] += 1
    if card is not None:
        total[card] += 1
    check_counts(total, "hand, table and card together")
    _check_hand_copies(table, hand)


def _check_table_kinds(table: Sequence[Group]) -> None:
    """坎, 句 and 对 stay in the hand (§3, §10): they are never table groups."""
    for g in table:
        if g.kind in (_JU, _DUI, _KAN):
            raise HandError(f"{g.notation()} is not a table group (坎, 句 and 对 stay in the hand)")


def _check_hand_copies(table: Sequence[Group], hand: Sequence[int]) -> None:
    """Four in a hand are a declared 提 (§5); a 坎 face is in no table group (§3)."""
    for f in range(NUM_FACES):
        c = hand[f]
        if c >= 4:
            raise HandError(f"four {glyph(f)} in a hand must be declared as a 提")
        if c == 3:
            for g in table:
                if f in g.faces:
                    raise HandError(
                        f"the 坎 {glyph(f) * 3} cannot share its face with the table group "
                        f"{g.notation()}"
                    )


def _check_size(groups: Sequence[Group], counts: Sequence[int], want: int, what: str) -> None:
    """Raise unless table + hand hold W(k) + ``want`` cards (§9)."""
    k = sum(1 for g in groups if g.kind is _TI or g.kind is _PAO)
    n = sum(len(g.faces) for g in groups) + sum(counts)
    need = complete_size(k) + want
    if n != need:
        raise HandError(
            f"{what} needs {need} cards in table and hand with {k} 提/跑, got {n} "
            f"(table {' '.join(g.notation() for g in groups) or 'empty'}, "
            f"hand {format_faces(faces_of_counts(counts)) or 'empty'})"
        )


_Checked = tuple[_TableInfo, _HandInfo, int]
_inputs: Final[dict[tuple[str | tuple[()], str, object], _Checked]] = {}
_INPUTS_LIMIT: Final = 16384


def _checked_win(table: TableInput, hand: HandInput, card: object) -> _Checked:
    """Parse and check the inputs of a win (§3, §5, §9), summarised for evaluation."""
    groups = parse_groups(table)
    counts = _parse_hand(hand)
    x = _parse_card(card)
    validate(groups, counts, x)
    _check_size(groups, counts, -1, f"a win on {glyph(x)}")
    return _table_info(groups), _hand_info(counts), x


def evaluate_win(
    *,
    table: TableInput = (),
    hand: HandInput,
    card: object,  # int or notation, checked in _parse_card (the compiled build needs object)
    self_drawn: bool = False,
    last_card: bool = False,
    rules: RuleSet = HONG_GUAI_WAN,
) -> WinResult | None:
    """Tell whether ``card`` wins for this table and hand, and what it is worth.

    Accepts notation strings or parsed values. Returns ``None`` when the card does
    not win; raises a :class:`~paohuzi.core.errors.HandError` for holdings that
    cannot exist or a card count that is not one short of a complete hand (§9: a
    waiting hand holds W(k) − 1 cards, k the table's 提/跑). Notation inputs are
    parsed and checked once and remembered (bounded), so asking again costs about
    what :func:`evaluate_counts` does; inputs that fail are never remembered.

    >>> r = evaluate_win(
    ...     table="碰:贰贰贰 吃:壹贰叁", hand="捌捌捌二七十四五六一一壹陆柒", card="伍"
    ... )
    >>> r.huxi, r.tun, r.fan, r.score, dict(r.mingtang)
    (18, 2, 1, 2, {})
    """
    if (type(table) is str or table == ()) and type(hand) is str and type(card) in (str, int):
        key = (table, hand, card)
        hit = _inputs.get(key)
        if hit is None:
            hit = _checked_win(table, hand, card)
            if len(_inputs) >= _INPUTS_LIMIT:
                _inputs.clear()
            _inputs[key] = hit
    else:
        hit = _checked_win(table, hand, card)
    ri = _rule_cache.get(id(rules))
    if ri is None or ri[0] is not rules:
        ri = _rule_info(rules)
    return _evaluate(hit[0], hit[1], hit[2], self_drawn, last_card, ri)


# ---------------------------------------------------------------------------
# Waiting cards (听牌).


@dataclass(frozen=True, slots=True)
class Wait:
    """A face that wins, with what it scores if another player draws it and if drawn oneself."""

    face: int
    other: WinResult | None
    self_drawn: WinResult | None

    def __repr__(self) -> str:
        """Show the face and both scores on one line."""
        other = "—" if self.other is None else self.other.score
        own = "—" if self.self_drawn is None else self.self_drawn.score
        return f"<Wait {glyph(self.face)}: drawn by another {other}, 自摸 {own}>"

    @property
    def best_score(self) -> int:
        """The better of the two scores, to rank waits."""
        return max(r.score for r in (self.other, self.self_drawn) if r is not None)

    def to_dict(self) -> dict[str, object]:
        """Return a JSON-ready dict (the items of ``paohuzi waits --json``)."""
        return {
            "card": glyph(self.face),
            "other": None if self.other is None else self.other.to_dict(),
            "self_drawn": None if self.self_drawn is None else self.self_drawn.to_dict(),
        }


def _neighbours() -> tuple[int, ...]:
    """For each face, the bit mask of faces that can share a group with it."""
    out = []
    for f in range(NUM_FACES):
        n, off = f % 10, f - f % 10
        mask = 1 << f | 1 << (f + 10 if f < 10 else f - 10)
        for d in (-2, -1, 1, 2):
            if 0 <= n + d <= 9:
                mask |= 1 << (off + n + d)
        if n in ERQISHI:
            for m in ERQISHI:
                mask |= 1 << (off + m)
        out.append(mask)
    return tuple(out)


_NEIGHBOURS: Final = _neighbours()
_EQS_BITS: Final = sum(1 << n for n in ERQISHI)  # 二七十 within one size


def _runs_usable(q: int) -> int:
    """Faces of one size (10-bit mask) that some run or 二七十 of present faces can use."""
    r = (q >> 1 & q >> 2) | (q << 1 & q >> 1) | (q << 2 & q << 1)
    if q & _EQS_BITS == _EQS_BITS:
        r |= _EQS_BITS
    return r & q


def _usable(present: int, pairs: int, need_pair: bool) -> int:
    """Faces (20-bit mask) whose cards some group of the present cards could use."""
    small, big = present & 0x3FF, present >> 10
    mixed = (pairs & 0x3FF & big) | (small & pairs >> 10)
    usable = _runs_usable(small) | _runs_usable(big) << 10 | mixed | mixed << 10
    if need_pair:
        usable |= pairs
    return usable & present


def waits_counts(
    table: Sequence[Group],
    hand: Sequence[int],
    rules: RuleSet = HONG_GUAI_WAN,
    *,
    last_card: bool = False,
) -> list[Wait]:
    """Unchecked fast path of :func:`waits`.

    Only faces that can touch the hand are tried: X wins only by joining a free
    card in a group, or by a 碰/跑/提/偎 on a face the hand or table already holds.
    The own-draw result is computed only where it can differ in being a win.
    """
    ti = _table_info(table)
    hi = _hand_info(hand)
    tk = ti[1]
    total = ti[5] + hi[1] + 1
    plain = total == _W[tk]
    quad = total == _W[tk + 1]
    if not (plain or quad):
        return []
    ri = _rule_info(rules)
    reach, special, lonely, lonely_quad = _wait_masks(ti, hi, plain)
    free, n_free, need_pair = hi[4], hi[5], tk > 0
    quad = quad and n_free % 3 == 2  # X makes a 提/跑 and the rest is all groups and a pair
    pair_ok = plain and (n_free - 2) % 3 == (2 if need_pair else 0)
    counts, open_faces = hi[0], ti[6]
    on_table = ti[9]
    out: list[Wait] = []
    cand = reach | special
    while cand:
        low = cand & -cand
        cand ^= low
        x = low.bit_length() - 1
        if counts[x] + on_table[x] >= 4:  # no fifth copy (§1)
            continue
        open_g = open_faces.get(x)
        hx = counts[x]
        if open_g is None and hx < 2:  # X can only join a hand group: a cheap test first
            key = free + _ONE[x]
            hit = _memo.get(key + key + need_pair)
            if (hit if hit is not None else _best(key, need_pair)) < 0:
                continue
            forced = False
        elif not (
            reach & low
            or (hx == 2 and pair_ok and not lonely & ~low)
            or ((hx == 3 or open_g is not None) and quad and not lonely_quad)
        ):
            continue
        else:
            forced = hx >= 2 or (open_g is not None and open_g.kind is not _PENG)
        other = _evaluate(ti, hi, x, False, last_card, ri)
        if other is None and not forced:
            continue  # same options on an own draw, and being a win does not depend on 囤
        own = _evaluate(ti, hi, x, True, last_card, ri)
        if other is not None or own is not None:
            out.append(Wait(x, other, own))
    return out


def _wait_masks(ti: _TableInfo, hi: _HandInfo, plain: bool) -> tuple[int, int, int, int]:
    """Face masks that bound the waits: reach, special, lonely, lonely after a 提/跑.

    X that joins the hand must reach every lonely free card (one no group of the
    free cards can use); X that 碰/偎/跑/提 (special) needs the rest decomposable.
    """
    counts = hi[0]
    need_pair = ti[1] > 0
    special = 0
    for f in ti[6]:
        special |= 1 << f
    present = pairs = 0
    for f in range(NUM_FACES):
        c = counts[f]
        if c >= 2:
            special |= 1 << f
        if c and c != 3:  # a 坎 is not free
            present |= 1 << f
            if c >= 2:
                pairs |= 1 << f
    lonely = present & ~_usable(present, pairs, need_pair)
    lonely_quad = lonely if need_pair else present & ~_usable(present, pairs, True)
    into_hand = plain and (hi[5] + 1) % 3 == (2 if need_pair else 0)
    return _reach(present, lonely) if into_hand else 0, special, lonely, lonely_quad


def _reach(present: int, lonely: int) -> int:
    """Faces X may be to join the hand: next to every lonely card, else to any card."""
    if lonely:
        reach = (1 << NUM_FACES) - 1
        while lonely:
            low = lonely & -lonely
            lonely ^= low
            reach &= _NEIGHBOURS[low.bit_length() - 1]
        return reach
    reach = 0
    while present:
        low = present & -present
        present ^= low
        reach |= _NEIGHBOURS[low.bit_length() - 1]
    return reach


def waits(
    *,
    table: TableInput = (),
    hand: HandInput,
    last_card: bool = False,
    rules: RuleSet = HONG_GUAI_WAN,
) -> list[Wait]:
    """Every face that would complete this hand (听牌), and what it would score.

    The hand must hold W(k) − 1 cards with the table (it has discarded); use
    :func:`discard_waits` for a hand that still owes a discard.

    >>> ws = waits(table="碰:贰贰贰 吃:壹贰叁", hand="捌捌捌二七十四五六一一壹陆柒")
    >>> " ".join(glyph(w.face) for w in ws)
    '伍 捌'
    """
    groups = parse_groups(table)
    counts = _parse_hand(hand)
    validate(groups, counts, None)
    _check_size(groups, counts, -1, "a waiting hand")
    return waits_counts(groups, counts, rules, last_card=last_card)


def discard_waits(
    *,
    table: TableInput = (),
    hand: HandInput,
    last_card: bool = False,
    rules: RuleSet = HONG_GUAI_WAN,
) -> dict[int, list[Wait]]:
    """For each face the hand may discard (never a 坎 card), the waits it leaves (§9)."""
    groups = parse_groups(table)
    counts = _parse_hand(hand)
    validate(groups, counts, None)
    _check_size(groups, counts, 0, "a hand that owes a discard")
    out: dict[int, list[Wait]] = {}
    for f in range(NUM_FACES):
        if counts[f] in (1, 2):
            h = list(counts)
            h[f] -= 1
            out[f] = waits_counts(groups, h, rules, last_card=last_card)
    return out
