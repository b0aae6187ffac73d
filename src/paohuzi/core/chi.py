"""吃 and 比 (RULES.md §7): the plain rule, and the fast tables built from it.

The rule, as the engine applies it: the card X on offer plus two free hand cards
form a group (a run, 二七十/贰柒拾 or 大小三搭); afterwards no copy of X may stay in
the hand, so every remaining copy goes into a further 比 group of hand cards that
holds it. Cards of a 坎 are never used. The options are the distinct sets of
groups this can lay down; the player picks one.

:func:`chi_options` states that directly. The engine asks the same question about
a dozen times a round, so :class:`ChiTables` answers it from memo tables keyed by
the few counts that matter; ``tests/core/test_chi.py`` checks the tables against
:func:`chi_options` on every hand that can occur.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from functools import cache
from typing import Final

from .actions import NO_SHAPE, Action, chi_id, shape_faces
from .cards import NUM_FACES

__all__ = [
    "ChiShape",
    "chi_options",
    "chi_shapes",
    "related_faces",
]

# (shape, the group's faces, the two hand cards it needs besides the card on offer).
ChiShape = tuple[int, tuple[int, int, int], tuple[int, ...]]


@cache
def chi_shapes(x: int) -> tuple[ChiShape, ...]:
    """The groups a card ``x`` can join (§7), in shape order (see actions.py)."""
    out: list[ChiShape] = []
    for s in range(NO_SHAPE):
        g = shape_faces(x, s)
        if g is not None:
            need = list(g)
            need.remove(x)
            out.append((s, g, tuple(need)))
    return tuple(out)


@cache
def related_faces(x: int) -> tuple[int, ...]:
    """Faces that can share a group with ``x`` (``x`` included), ascending."""
    return tuple(sorted({f for _s, g, _n in chi_shapes(x) for f in g} | {x}))


def _take(free: list[int], faces: Sequence[int]) -> bool:
    """Remove ``faces`` from the counts if all are there (else leave them as they were)."""
    for i, f in enumerate(faces):
        if free[f] == 0:
            for g in faces[:i]:
                free[g] += 1
            return False
        free[f] -= 1
    return True


def _bi_completions(
    free: list[int], x: int, shapes: tuple[int, ...], out: set[tuple[int, ...]]
) -> None:
    """Add to ``out`` every way to lay the hand's remaining copies of ``x`` in 比 groups."""
    if free[x] == 0:
        out.add(tuple(sorted(shapes)))
        return
    for s, g, _need in chi_shapes(x):
        if shapes[1:] and s < shapes[-1]:
            continue  # 比 groups in shape order: each set of groups once
        if _take(free, g):
            _bi_completions(free, x, (*shapes, s), out)
            for f in g:
                free[f] += 1


def chi_options(free: Sequence[int], x: int) -> list[tuple[int, ...]]:
    """Every complete 吃 + 比 on ``x`` (§7), as the sorted shapes of its groups.

    ``free`` counts the hand's free cards by face (a 坎 counts 0: it is never used).
    A 吃 whose remaining copies of ``x`` cannot all be laid in 比 groups is no option
    (有比的情况下不比，吃取消). Sorted; empty when there is no 吃.

    >>> chi_options([0, 1, 1] + [0] * 17, 0)   # 一 on offer, 二三 in hand
    [(2,)]
    """
    out: set[tuple[int, ...]] = set()
    counts = list(free)
    for s0, _g, need in chi_shapes(x):
        if _take(counts, need):
            _bi_completions(counts, x, (s0,), out)
            for f in need:
                counts[f] += 1
    return sorted(out)


def option_id(shapes: Sequence[int]) -> int:
    """The action id of the 吃 laying down groups of these shapes."""
    padded = [*shapes, NO_SHAPE, NO_SHAPE]
    return chi_id(padded[0], padded[1], padded[2])


# ------------------------------------------------------------------------ fast tables

_Table = tuple[dict[int, Action], int]  # ({id: action} in id order, most hand cards used)


@cache
def chi_action(aid: int, x: int) -> Action:
    """The (shared, immutable) :class:`Action` of 吃 id ``aid`` on ``x``."""
    return Action.from_id(aid, x)


_OTHER: Final = [x + 10 if x < 10 else x - 10 for x in range(NUM_FACES)]
# Without a copy of x in hand only the faces its shapes need matter: which are free,
# and whether the other size's face (shape 大小三搭 x X X) is a pair.
_NEED_UNION: Final = [
    sum(1 << f for f in {f for _s, _g, need in chi_shapes(x) for f in need})
    for x in range(NUM_FACES)
]
_MEMO_LIMIT: Final = 50_000
_RELATED_GET: Final = [operator.itemgetter(*related_faces(x)) for x in range(NUM_FACES)]


class ChiTables:
    """:func:`chi_options` memoised for the engine's hot path, per card on offer.

    A hand without a copy of ``x`` (most hands) is keyed by a bit mask: the free
    faces the shapes need, plus one bit for a free pair of the other size. A hand
    with a copy is keyed by the free counts of the faces related to ``x``. Either
    key fixes the answer, so each entry is computed once by the rule itself.
    """

    __slots__ = ("_bi", "_plain")

    def __init__(self) -> None:
        """Empty memo tables; they fill on first use."""
        self._plain: list[dict[int, _Table]] = [{} for _ in range(NUM_FACES)]
        self._bi: list[dict[tuple[int, ...], _Table]] = [{} for _ in range(NUM_FACES)]

    def plain(self, x: int, mask: int, pairs: int) -> _Table:
        """Options on ``x`` of a hand without a copy of it.

        ``mask`` holds its free faces, ``pairs`` the faces it has two free copies of.
        """
        other = _OTHER[x]
        key = mask & _NEED_UNION[x] | ((pairs >> other) & 1) << NUM_FACES
        hit = self._plain[x].get(key)
        if hit is None:
            hit = self._plain[x][key] = _plain_options(x, key)
        return hit

    def with_copy(self, x: int, free: bytes) -> _Table:
        """Options on ``x`` of a hand holding a copy of it; ``free`` its free counts."""
        key = _RELATED_GET[x](free)
        memo = self._bi[x]
        hit = memo.get(key)
        if hit is None:
            if len(memo) >= _MEMO_LIMIT:
                memo.clear()
            hit = memo[key] = _packed_options(x, key)
        return hit


def _plain_options(x: int, key: int) -> _Table:
    """:func:`chi_options` for a hand without a copy of ``x``, so without 比.

    Every shape whose two cards are free (``key`` as :meth:`ChiTables.plain` makes it).
    """
    ids = []
    for s, _g, (a, b) in chi_shapes(x):
        if (key >> NUM_FACES) & 1 if a == b else (key >> a) & 1 and (key >> b) & 1:
            ids.append(option_id((s,)))
    return {aid: chi_action(aid, x) for aid in ids}, 2 if ids else 0


def _lanes(x: int, faces: Sequence[int]) -> int:
    """Counts of ``faces`` packed four bits a lane, lanes in :func:`related_faces` order."""
    rel = related_faces(x)
    return sum(1 << 4 * rel.index(f) for f in faces)


def _requirements(x: int, copies: int) -> tuple[tuple[int, int, int, Action], ...]:
    """Every option on ``x`` of a hand with ``copies`` free copies of it.

    As (id, packed hand cards it needs, cards used, its action), from
    :func:`chi_options` on the richest such hand.

    Any real hand with that many copies has a subset of these options: exactly those
    whose needs it can pay (a face never has more than two free copies).
    """
    rich = [2] * NUM_FACES
    rich[x] = copies
    out = []
    for shapes in chi_options(rich, x):
        groups = [f for s in shapes for f in (shape_faces(x, s) or ())]
        groups.remove(x)  # the card on offer
        aid = option_id(shapes)
        out.append((aid, _lanes(x, groups), len(groups), chi_action(aid, x)))
    return tuple(sorted(out, key=lambda r: r[0]))


# _requirements by card and copies, filled on first use (a list: no call on a hit).
_REQUIRED: Final[list[list[tuple[tuple[int, int, int, Action], ...] | None]]] = [
    [None, None, None] for _ in range(NUM_FACES)
]
# Per card: its lane among related_faces, and the top bit of every lane.
_X_LANE: Final = [related_faces(x).index(x) for x in range(NUM_FACES)]
_GUARD: Final = [sum(8 << 4 * i for i in range(len(related_faces(x)))) for x in range(NUM_FACES)]


def _packed_options(x: int, related: tuple[int, ...]) -> _Table:
    """:func:`chi_options` for a hand with these free counts of :func:`related_faces`.

    Each count sits in a four-bit lane with its top bit set; subtracting what an
    option needs leaves every top bit set exactly when the hand has enough of each.
    """
    have = 0
    shift = 0
    for c in related:
        have |= (c | 8) << shift
        shift += 4
    copies = related[_X_LANE[x]]
    required = _REQUIRED[x][copies]
    if required is None:
        required = _REQUIRED[x][copies] = _requirements(x, copies)
    guard = _GUARD[x]
    out: dict[int, Action] = {}
    most = 0
    for aid, need, used, act in required:
        if (have - need) & guard == guard:
            out[aid] = act
            if used > most:
                most = used
    return out, most


TABLES: Final = ChiTables()
