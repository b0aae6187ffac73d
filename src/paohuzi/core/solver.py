"""The win solver: the most 胡息 of arranging free cards into groups (RULES.md §2, §10).

The cards that are free to arrange (a hand without its 坎, which stay whole) decompose
into runs, 二七十/一二三, 大小三搭 and at most one pair. This module answers "can they,
and for how many 胡息 at most" (:func:`best`, memoised) and, for a win, "how exactly"
(:func:`arrange`). It is on the hot path of the engine and the bots, so:

* A count vector is packed into one int, a lane of bits a face (:func:`.kernels.pack`;
  the lane width is the build's, :data:`.kernels.LANE`); the low half is the small
  faces, the high half the big faces.
* Only 大小三搭 mix the sizes, so after choosing the (few) 大小三搭 each size is looked
  up on its own in two precomputed tables of every decomposable ten-face vector
  (without and with the pair), which give its most 胡息 directly. The tables are built
  once, on first use (about 76,000 entries), not at import.
* The best 胡息 of a free vector is memoised on the packed key.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Sequence
from typing import Final

from .cards import NUM_FACES
from .groups import ERQISHI, HUXI, SCORING_SHAPES, Group, GroupKind, same_face_groups
from .kernels import LANE, pack

__all__ = [
    "MEMO_LIMIT",
    "ONE",
    "arrange",
    "best",
    "build_tables",
    "clear",
    "decompose",
    "memo",
    "stats",
]

_JU: Final = GroupKind.JU
_DUI: Final = GroupKind.DUI
_LANE: Final = LANE
_LANE_MASK: Final = (1 << _LANE) - 1
ONE: Final = tuple(1 << (_LANE * f) for f in range(NUM_FACES))  # one copy of a face, packed
_ONE: Final = ONE
_HALF_BITS: Final = 10 * _LANE
_HALF_MASK: Final = (1 << _HALF_BITS) - 1
_LANES: Final = sum(1 << (_LANE * i) for i in range(10))  # bit 0 of each of the ten lanes
_SET_S: Final = HUXI[GroupKind.JU][0]  # 胡息 of a scoring set (一二三/二七十), small
_SET_B: Final = HUXI[GroupKind.JU][1]  # and big

# Pre-built groups of an arrangement (immutable, shared by every result).
_DUI_G: Final = same_face_groups(_DUI)
_RUN_G: Final = {f: Group(_JU, (f, f + 1, f + 2)) for f in range(NUM_FACES) if f % 10 <= 7}
_EQS_G: Final = {
    off: Group(_JU, tuple(off + n for n in ERQISHI)) for off in (0, 10)
}  # 二七十 / 贰柒拾
_MIX_G: Final = {  # 大小三搭 at number n (0-9): (two small + big, small + two big)
    n: (Group(_JU, (n, n, n + 10)), Group(_JU, (n, n + 10, n + 10))) for n in range(10)
}


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
    most = -1
    cs = _T1.get(small)  # the pair among the small cards
    if cs is not None:
        cb = t0.get(big)
        if cb is not None:
            most = _SET_S * cs + _SET_B * cb
    cs = t0.get(small)  # or among the big ones
    if cs is not None:
        cb = _T1.get(big)
        if cb is not None and _SET_S * cs + _SET_B * cb > most:
            most = _SET_S * cs + _SET_B * cb
    return most


def _solve_mixed(smalls: list[int], bigs: list[int], need_pair: bool) -> int:
    """Most 胡息 over the halves each 大小三搭 choice leaves, or -1."""
    t0 = _T0
    # Most hands fail here, in C: no half left is decomposable at all.
    halves = _T01.keys() if need_pair else t0.keys()
    if halves.isdisjoint(smalls) or halves.isdisjoint(bigs):
        return -1
    t1 = _T1
    pairs = ((t1, t0), (t0, t1)) if need_pair else ((t0, t0),)
    most = -1
    big_of = dict(zip(smalls, bigs, strict=True))
    if len(big_of) == len(smalls):  # each choice leaves its own small half (always, ≤ 3 copies)
        for stable, btable in pairs:
            for s in stable.keys() & big_of.keys():
                cb = btable.get(big_of[s])
                if cb is not None and _SET_S * stable[s] + _SET_B * cb > most:
                    most = _SET_S * stable[s] + _SET_B * cb
        return most
    for stable, btable in pairs:
        for cs, cb in zip(map(stable.get, smalls), map(btable.get, bigs), strict=True):
            if cs is not None and cb is not None and _SET_S * cs + _SET_B * cb > most:
                most = _SET_S * cs + _SET_B * cb
    return most


# The memo of :func:`best`, by ``key + key + need_pair`` (the key, and whether a pair is
# due, in one int). Hot callers read it first, inline, and call :func:`best` on a miss.
memo: Final[dict[int, int]] = {}
MEMO_LIMIT: Final = 300_000


def best(key: int, need_pair: bool) -> int:
    """Most 胡息 of arranging the free cards ``key`` (one pair if needed), or -1; memoised."""
    mkey = key + key + need_pair
    hit = memo.get(mkey)
    if hit is not None:
        return hit
    most = _solve(key, need_pair)
    if len(memo) >= MEMO_LIMIT:
        memo.clear()
    memo[mkey] = most
    return most


def build_tables() -> float:
    """Build the decomposition tables now (they are otherwise built on first use).

    Returns the seconds the build took (0.0 when they were already built).
    """
    if _T0:
        return 0.0
    _build_tables()
    return _table_stats["build_seconds"]


def stats() -> dict[str, float]:
    """The memo's size and limit, and the tables' size and build time (for cache_info)."""
    return {
        "entries": len(memo),
        "limit": MEMO_LIMIT,
        "table_entries": len(_T0) + len(_T1),
        "table_build_seconds": _table_stats["build_seconds"],
    }


def clear(*, tables: bool = False) -> None:
    """Forget the memo (with ``tables``, the decomposition tables too)."""
    memo.clear()
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


def arrange(key: int, need_pair: bool) -> tuple[int, list[Group]] | None:
    """Find the best arrangement of free cards: 胡息 and groups (deterministic), or ``None``."""
    most = _solve(key, need_pair)
    if most < 0:
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
            if cs is None or cb is None or _SET_S * cs + _SET_B * cb != most:
                continue
            groups: list[Group] = []
            for n, m1, m2 in choice:
                groups += [_MIX_G[n][0]] * m1 + [_MIX_G[n][1]] * m2
            groups += _walk(s, 0, pair_small, cs)
            groups += _walk(b, 10, need_pair and not pair_small, cb)
            groups.sort(key=lambda g: (g.kind is _DUI, g.faces))
            return most, groups
    raise AssertionError("no arrangement reaches the best 胡息")  # pragma: no cover


def decompose(counts: Sequence[int], *, need_pair: bool) -> tuple[int, list[Group]] | None:
    """Best 胡息 and groups for free cards (no 坎 locking), or ``None``."""
    return arrange(pack(counts), need_pair)
