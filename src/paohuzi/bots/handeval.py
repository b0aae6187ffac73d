"""Hand potential for bots: how close a hand is to a win, and with how much 胡息.

Cards never enter a hand after the deal (RULES.md §4): a hand only loses cards,
to discards and to the groups it claims. So every free card (not a 坎) must end in
a three-card set formed in the hand, or in a *block* of two hand cards completed
by one outside card (碰, 吃, 偎, or the winning draw); a lone card can only be
discarded. The evaluation therefore decomposes the free cards into sets, blocks
(pairs and two-card partial sets) and singles, and scores:

* the blocks still to complete (each needs one card from outside; the last one is
  the winning draw) and how live their completing faces are (unseen copies);
* blocks that cannot be found at all (the hand has too few), heavily;
* the 胡息 the hand can reach (table groups, 坎, sets, likely 碰/偎 and
  一二三/二七十 completions) against the minimum of 15/18;
* a hand one card from a win is scored exactly with the rules library's
  :func:`~paohuzi.core.hand.waits_counts` (live waits times their score).

The structural decomposition depends only on the free cards and is memoised, so
the search bot's playouts reuse it across decisions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields

from ..core.cards import COPIES, NUM_FACES, RED_FACES
from ..core.groups import Group, GroupKind
from ..core.hand import complete_size, waits_counts
from ..core.rules import HONG_GUAI_WAN, RuleSet

__all__ = [
    "DEFAULT_WEIGHTS",
    "PENGPENG_SINGLES",
    "Block",
    "Decomposition",
    "HandEval",
    "Weights",
    "decompose_free",
    "evaluate_hand",
    "free_counts",
    "lean_ranges",
    "mingtang_lean",
    "unseen_counts",
]

# Element kinds of a decomposition.
SET, PAIR, PART = 0, 1, 2

_QUAD_KINDS = (GroupKind.TI, GroupKind.PAO)


@dataclass(frozen=True, slots=True)
class Block:
    """A set, pair or partial set of the free cards.

    ``outs`` are the faces that would complete a pair/partial, ``huxi`` the 胡息 of
    the finished group (for a pair: as a 碰; a 偎 would score more).
    """

    kind: int
    faces: tuple[int, ...]
    outs: tuple[int, ...]
    huxi: int


@dataclass(frozen=True, slots=True)
class Decomposition:
    """The best structural decomposition of free cards."""

    value: float
    sets: tuple[Block, ...]
    blocks: tuple[Block, ...]  # pairs and partial sets
    singles: tuple[int, ...]


def _set_huxi(a: int, b: int, c: int) -> int:
    """胡息 of a hand set (sorted faces)."""
    if a // 10 == b // 10 == c // 10:
        nums = (a % 10, b % 10, c % 10)
        if nums == (0, 1, 2) or nums == (1, 6, 9):
            return 6 if a >= 10 else 3
    return 0


def _other(f: int) -> int:
    return f + 10 if f < 10 else f - 10


def _partial_outs(a: int, b: int) -> tuple[int, ...]:
    """Faces completing the two-card partial (a < b) into a set."""
    if a == b:
        return (a, _other(a))  # 碰/偎, or a 大小三搭 with the other size
    if b == a + 10:
        return (a, b)  # 大小三搭 either way
    base = a - a % 10
    na, nb = a % 10, b % 10
    out: list[int] = []
    if nb == na + 1:
        if na >= 1:
            out.append(a - 1)
        if nb <= 8:
            out.append(b + 1)
    elif nb == na + 2:
        out.append(a + 1)
    if {na, nb} <= {1, 6, 9}:
        out.append(base + ({1, 6, 9} - {na, nb}).pop())
    return tuple(sorted(set(out)))


def _partial_huxi(a: int, b: int) -> int:
    """Best 胡息 the partial can still turn into (一二三/二七十; a pair as 碰)."""
    big = a >= 10
    if a == b:
        return 3 if big else 1
    na, nb = a % 10, b % 10
    if a // 10 == b // 10 and ({na, nb} <= {0, 1, 2} or {na, nb} <= {1, 6, 9}):
        return 6 if big else 3
    return 0


# Values used to pick the decomposition (independent of what has been seen, so
# the memo is shared by every caller).
_V_SET = 10.0
_V_PAIR = 5.5
_V_PART2 = 4.5  # two completing faces
_V_PART1 = 3.5  # one completing face
_V_HUXI = 0.4  # per 胡息 of a set / potential 胡息 of a block


# A move takes one element whose lowest card is face i: (key delta, required
# (shift, copies), value, block or None for a single).
_Move = tuple[int, tuple[tuple[int, int], ...], float, "Block | None"]


def _build_moves(i: int) -> list[_Move]:
    """Every element with face ``i`` as its lowest card, best-valued kinds first."""
    n = i % 10
    cand: list[tuple[tuple[int, ...], int]] = []  # faces, kind
    if n <= 7:
        cand.append(((i, i + 1, i + 2), SET))
    if n == 1:
        cand.append(((i, i + 5, i + 8), SET))
    if i < 10:
        cand.append(((i, i, i + 10), SET))
        cand.append(((i, i + 10, i + 10), SET))
    cand.append(((i, i), PAIR))
    if i < 10:
        cand.append(((i, i + 10), PART))
    if n <= 8:
        cand.append(((i, i + 1), PART))
    if n <= 7:
        cand.append(((i, i + 2), PART))
    if n == 1:
        cand.append(((i, i + 5), PART))
        cand.append(((i, i + 8), PART))
    if n == 6:
        cand.append(((i, i + 3), PART))
    out: list[_Move] = []
    for faces, kind in cand:
        need: dict[int, int] = {}
        for f in faces:
            need[f] = need.get(f, 0) + 1
        delta = sum(1 << (8 * f) for f in faces)
        reqs = tuple((8 * f, c) for f, c in need.items())
        if kind == SET:
            hx = _set_huxi(*faces)
            block = Block(SET, faces, (), hx)
            value = _V_SET + _V_HUXI * hx
        else:
            outs = _partial_outs(faces[0], faces[1])
            hx = _partial_huxi(faces[0], faces[1])
            block = Block(kind, faces, outs, hx)
            if kind == PAIR:
                value = _V_PAIR + _V_HUXI * hx
            else:
                value = (_V_PART2 if len(outs) >= 2 else _V_PART1) + _V_HUXI * hx
        out.append((delta, reqs, value, block))
    out.append((1 << (8 * i), ((8 * i, 1),), 0.0, None))
    return out


_ALL_MOVES = tuple(_build_moves(i) for i in range(NUM_FACES))
# One-size moves (no 大小三搭): each size is solved on its own, memoised by half.
_MOVES = tuple(
    [m for m in moves if m[3] is None or m[3].faces[-1] // 10 == m[3].faces[0] // 10]
    for moves in _ALL_MOVES
)
# 大小三搭 elements of number n: (small copies, big copies, value, blocks).
_MIXED: tuple[tuple[tuple[int, int, float, tuple[Block, ...]], ...], ...] = tuple(
    tuple(
        (
            sum(1 for f in faces if f < 10) * (1 if rep == 1 else 2),
            sum(1 for f in faces if f >= 10) * (1 if rep == 1 else 2),
            value * rep,
            (block,) * rep,
        )
        for _delta, _reqs, value, block in _ALL_MOVES[n]
        if block is not None
        and block.faces[-1] - block.faces[0] == 10
        and len(set(block.faces)) == 2
        for faces in (block.faces,)
        for rep in ((1, 2) if block.kind == PART else (1,))
    )
    for n in range(10)
)
_Solved = tuple[float, tuple[Block, ...], tuple[int, ...]]
_EMPTY: _Solved = (0.0, (), ())
_memo: dict[int, _Solved] = {}
_half_memo: dict[int, _Solved] = {0: _EMPTY}
_MEMO_LIMIT = 400_000
_HALF = (1 << 80) - 1
_LANES = sum(1 << (8 * i) for i in range(10))


def _solve_half(key: int) -> _Solved:
    """Best (value, elements, singles) of one size's free cards (memoised)."""
    hit = _half_memo.get(key)
    if hit is not None:
        return hit
    i = ((key & -key).bit_length() - 1) >> 3
    best_v = -1.0
    best: _Solved = _EMPTY
    for delta, reqs, value, block in _MOVES[i]:
        ok = True
        for sh, c in reqs:
            if (key >> sh) & 0xFF < c:
                ok = False
                break
        if not ok:
            continue
        rest = key - delta
        sub = _half_memo.get(rest)
        if sub is None:
            sub = _solve_half(rest)
        v = sub[0] + value
        if v > best_v:
            best_v = v
            best = (v, sub[1], (i, *sub[2])) if block is None else (v, (block, *sub[1]), sub[2])
    if len(_half_memo) >= _MEMO_LIMIT:
        _half_memo.clear()
        _half_memo[0] = _EMPTY
    _half_memo[key] = best
    return best


def _solve(key: int) -> _Solved:
    """Best decomposition of packed free cards: each choice of 大小三搭, then each size."""
    hit = _memo.get(key)
    if hit is not None:
        return hit
    small = key & _HALF
    big = key >> 80
    both = (small | small >> 1) & (big | big >> 1) & _LANES
    # (small part, big part, value, blocks) after choosing the mixed elements
    combos: list[tuple[int, int, float, tuple[Block, ...]]] = [(small, big, 0.0, ())]
    while both:
        low = both & -both
        both ^= low
        sh = low.bit_length() - 1
        n = sh >> 3
        grown: list[tuple[int, int, float, tuple[Block, ...]]] = []
        for cs, cb, v, bl in combos:
            a = (cs >> sh) & 0xFF
            b = (cb >> sh) & 0xFF
            for us, ub, mv, mb in _MIXED[n]:
                if us <= a and ub <= b:
                    grown.append((cs - us * low, cb - ub * low, v + mv, bl + mb))
        combos += grown
    best: _Solved = _EMPTY
    best_v = -1.0
    for cs, cb, v, bl in combos:
        s_hit = _half_memo.get(cs)
        if s_hit is None:
            s_hit = _solve_half(cs)
        b_key = cb << 80
        b_hit = _half_memo.get(b_key)
        if b_hit is None:
            b_hit = _solve_half(b_key)
        total = v + s_hit[0] + b_hit[0]
        if total > best_v:
            best_v = total
            best = (total, bl + s_hit[1] + b_hit[1], s_hit[2] + b_hit[2])
    if len(_memo) >= _MEMO_LIMIT:
        _memo.clear()
    _memo[key] = best
    return best


def free_counts(hand: Sequence[int]) -> list[int]:
    """The free cards of a hand: everything but its 坎 (three of a face)."""
    return [x if x < 3 else 0 for x in hand]


_dec_memo: dict[bytes, Decomposition] = {}


def decompose_free(free: Sequence[int]) -> Decomposition:
    """The best structural decomposition of free cards into sets, blocks and singles."""
    raw = bytes(free)
    hit = _dec_memo.get(raw)
    if hit is not None:
        return hit
    value, els, singles = _solve(int.from_bytes(raw, "little"))
    d = Decomposition(
        value,
        tuple(b for b in els if b.kind == SET),
        tuple(b for b in els if b.kind != SET),
        singles,
    )
    if len(_dec_memo) >= _MEMO_LIMIT:
        _dec_memo.clear()
    _dec_memo[raw] = d
    return d


def lean_ranges(rules: RuleSet = HONG_GUAI_WAN) -> tuple[tuple[int, int], tuple[int, int]]:
    """What :func:`mingtang_lean` credits: the red cards owned from the first to the second
    number, and the cards of one size likewise. For 红拐弯, (7, 12) and (13, 19).

    红胡 needs ``honghu_min_red`` (10) red cards among everything the winner owns, and each
    one more adds a 番 (RULES.md §11); three short is where a hand starts to have a chance
    of it, two beyond where the credit stops. 小字 needs 16 small cards, 大字 18 big ones.
    """
    red = rules.honghu_min_red
    lo = min(rules.xiaozi_min_small, rules.dazi_min_big)
    hi = max(rules.xiaozi_min_small, rules.dazi_min_big)
    return (red - 3, red + 2), (lo - 3, hi + 1)


_RED_LIST = tuple(sorted(RED_FACES))
_CHI = GroupKind.CHI

PENGPENG_SINGLES = 8
"""The ``pengpeng`` lean credits each single (a face held once) the hand has fewer than this."""


def mingtang_lean(
    hand: Sequence[int], table: Sequence[Group], w: Weights, rules: RuleSet = HONG_GUAI_WAN
) -> float:
    """Credit for owning cards that lead to a 名堂, which multiplies a win's score (RULES.md
    §11), where :func:`evaluate_hand` values 胡息, which only adds 囤.

    - ``w.red``: per red card in the first range of :func:`lean_ranges` (toward 红胡);
    - ``w.size``: per card of the more numerous size in the second range (小字/大字);
    - ``w.few_red``: per red card short of 2 (twice with none, for 乌胡; once with one,
      for 点胡), when the rule set scores either;
    - ``w.pengpeng``: while the table holds no 吃 (碰碰胡 takes same-face groups only), per
      single in the hand short of :data:`PENGPENG_SINGLES`, when the rule set scores 碰碰胡.

    All four are 0 for the ``heuristic`` bot.
    """
    red = sum(hand[f] for f in _RED_LIST)
    big = sum(hand[10:])
    owned = sum(hand)
    chi = False
    for g in table:  # a group's red and big cards are counted once, when it is made
        red += g.red
        big += g.big
        owned += len(g.faces)
        if g.kind is _CHI:
            chi = True
    one_size = max(big, owned - big)
    (rlo, rhi), (slo, shi) = lean_ranges(rules)
    credit = w.red * min(max(red - rlo, 0), rhi - rlo)
    credit += w.size * min(max(one_size - slo, 0), shi - slo)
    if w.few_red and red < 2 and (rules.wuhu or rules.dianhu):
        credit += w.few_red * (2 - red)
    if w.pengpeng and not chi and rules.pengpenghu:
        singles = hand.count(1)
        if singles < PENGPENG_SINGLES:
            credit += w.pengpeng * (PENGPENG_SINGLES - singles)
    return credit


def unseen_counts(seen: Sequence[int]) -> list[int]:
    """Copies of each face not yet seen (4 minus what is visible)."""
    return [max(0, COPIES - s) for s in seen]


@dataclass(frozen=True, slots=True)
class HandEval:
    """The potential of a hand that has no discard to make (a waiting position)."""

    value: float
    steps: int  # blocks still to complete (the last one by the winning draw)
    missing: int  # blocks the hand lacks altogether
    huxi: float  # 胡息 it can plausibly reach
    waits: int  # live winning cards, when one card from a win


@dataclass(frozen=True, slots=True)
class Weights:
    """The yardstick of the heuristic player: the evaluation's weights, its discard risks and
    its claim margins.

    The defaults are the hand-tuned ones of the ``heuristic`` bot, the reference
    opponent of every strength figure; ``paohuzi train`` can tune them
    (:mod:`paohuzi.train.tune`) for the learned bot, which keeps its own.
    """

    step: float = 12.0
    """Per block still to complete."""
    missing: float = 30.0
    """Per block the hand lacks altogether."""
    outs: float = 3.0
    """Per completing block, by how live its faces are (0–1)."""
    huxi: float = 0.8
    """Per 胡息 the hand can plausibly reach (up to ``huxi_cap``)."""
    huxi_cap: float = 30.0
    """胡息 beyond this count for nothing."""
    short: float = 2.5
    """Per 胡息 below the minimum to win."""
    tenpai: float = 14.0
    """A hand one card from a win (听牌)."""
    wait: float = 4.0
    """Per live winning card."""
    wait_score: float = 0.6
    """Per live winning card, times its score (up to 12)."""
    risk_pao: float = 5.0
    """A discard someone may 跑 (a hidden 坎 of the face may be out)."""
    risk_peng: float = 1.5
    """A discard someone may 碰 (a pair of it may be out)."""
    risk_chi: float = 1.2
    """A discard the 下家 may 吃."""
    margin_chi: float = 0.5
    """A 吃 must beat passing by this much."""
    margin_peng: float = 0.5
    """A 碰 must beat passing by this much."""
    red: float = 0.0
    """Per red card owned beyond 7, up to 12 (toward 红胡; :func:`lean_ranges`)."""
    size: float = 0.0
    """Per card of the more numerous size beyond 13, up to 19 (toward 小字/大字)."""
    few_red: float = 0.0
    """Per red card owned short of 2, at most one owned (toward 乌胡 and 点胡)."""
    pengpeng: float = 0.0
    """Per single held short of :data:`PENGPENG_SINGLES`, no 吃 on the table (toward 碰碰胡)."""

    @property
    def leans(self) -> bool:
        """Whether any 名堂 lean is on (:func:`mingtang_lean` has something to add)."""
        return bool(self.red or self.size or self.few_red or self.pengpeng)

    def to_dict(self) -> dict[str, float]:
        """The weights by name (the form ``paohuzi train`` writes)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, data: object) -> Weights:
        """Weights from :meth:`to_dict`'s form; a clear error for anything else."""
        names = {f.name for f in fields(cls)}
        if not isinstance(data, dict):
            raise ValueError(f"heuristic weights are an object of numbers, got {data!r}")
        unknown = sorted(set(data) - names)
        if unknown:
            raise ValueError(f"unknown heuristic weights {unknown!r} (known: {sorted(names)})")
        bad = {
            k: v for k, v in data.items() if isinstance(v, bool) or not isinstance(v, int | float)
        }
        if bad:
            raise ValueError(f"heuristic weights must be numbers, got {bad!r}")
        return cls(**{k: float(v) for k, v in data.items()})


DEFAULT_WEIGHTS = Weights()
"""The ``heuristic`` bot's weights."""


def _huxi_need(rules: RuleSet) -> int:
    return rules.min_huxi_with_mingtang


def evaluate_hand(
    hand: Sequence[int],
    table: Sequence[Group],
    unseen: Sequence[int],
    rules: RuleSet = HONG_GUAI_WAN,
    exact: bool = True,
    w: Weights = DEFAULT_WEIGHTS,
) -> HandEval:
    """Score a hand after its discard: structure, liveness and 胡息 (see module doc).

    ``hand`` is the count vector (坎 included), ``table`` the seat's groups,
    ``unseen`` the copies of each face the seat has not seen. With ``exact`` a hand
    one card from a win is scored by its actual waits; ``w`` weighs the parts.
    """
    k = 0
    table_huxi = 0
    n_table = 0
    for g in table:
        table_huxi += g.huxi
        n_table += len(g.faces)
        if g.kind in _QUAD_KINDS:
            k += 1
    kan_huxi = 0
    free = list(hand)
    for f in range(NUM_FACES):
        if free[f] >= 3:
            kan_huxi += 6 if f >= 10 else 3
            free[f] = 0
    n_free = sum(free)
    d = decompose_free(free)
    need_pair = k >= 1
    # Groups still to build from the free cards (plus the pair when k >= 1).
    groups = (n_free + 1 - (2 if need_pair else 0)) // 3
    m = len(d.sets)
    blocks = sorted(d.blocks, key=lambda b: -_block_worth(b, unseen))
    eye = 0
    if need_pair:
        # Keep the best pair as the eye: it needs no card.
        for j, b in enumerate(blocks):
            if b.kind == PAIR:
                blocks.pop(j)
                eye = 1
                break
    want = max(0, groups - m)
    used = blocks[:want]
    missing = want - len(used)
    if need_pair and not eye:
        # The eye must come from a single and the winning card.
        missing += 0 if d.singles else 1
    steps = want + (0 if eye or not need_pair else 1)
    outs_value = 0.0
    huxi = float(table_huxi + kan_huxi + sum(b.huxi for b in d.sets))
    for b in used:
        live = sum(unseen[f] for f in b.outs)
        outs_value += min(live, 4) / 4.0
        if b.kind == PAIR:
            huxi += (2.0 if b.faces[0] < 10 else 4.5) * min(1.0, unseen[b.faces[0]] / 2.0)
        elif b.huxi:
            huxi += b.huxi * min(1.0, live / 3.0) * 0.6
    need = _huxi_need(rules)
    reach = min(huxi, w.huxi_cap)
    value = -w.step * steps - w.missing * missing + w.outs * outs_value + w.huxi * reach
    if huxi < need:
        value -= w.short * (need - huxi)
    n_waits = 0
    if exact and steps <= 1 and missing == 0:
        total = n_table + sum(hand) + 1
        if total in (complete_size(k), complete_size(k + 1)):
            ws = _waits(tuple(table), hand, rules)
            if ws:
                live_score = 0.0
                for face, score in ws:
                    n_waits += unseen[face]
                    live_score += unseen[face] * min(score, 12)
                value = (
                    w.tenpai
                    + w.huxi * reach
                    + w.wait * n_waits
                    + w.wait_score * live_score
                    - w.step
                )
            else:
                # Complete in shape but not enough 胡息 (or no valid win).
                value -= w.short * 2
    return HandEval(value, steps, missing, huxi, n_waits)


_waits_memo: dict[tuple[tuple[Group, ...], bytes, RuleSet], tuple[tuple[int, int], ...]] = {}


def _waits(
    table: tuple[Group, ...], hand: Sequence[int], rules: RuleSet
) -> tuple[tuple[int, int], ...]:
    """(face, best score) of each winning card, memoised (tenpai hands recur)."""
    key = (table, bytes(hand), rules)
    hit = _waits_memo.get(key)
    if hit is None:
        hit = tuple((w.face, w.best_score) for w in waits_counts(table, hand, rules))
        if len(_waits_memo) >= 50_000:
            _waits_memo.clear()
        _waits_memo[key] = hit
    return hit


def _block_worth(b: Block, unseen: Sequence[int]) -> float:
    live = sum(unseen[f] for f in b.outs)
    return min(live, 4) + 0.3 * b.huxi + (1.0 if b.kind == PAIR else 0.0)
