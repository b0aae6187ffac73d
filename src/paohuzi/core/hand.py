"""Winning and waiting (RULES.md §9–§12): the public face of win evaluation.

The work is split by job, and every name is importable from here:

* :mod:`.solver` — the most 胡息 of arranging free cards (tables, memo), and
  :func:`decompose`;
* :mod:`.evaluation` — every use of the winning card, scored; :func:`evaluate_counts`
  (the unchecked fast path);
* :mod:`.holdings` — parsing and checking inputs (:func:`validate`);
* :mod:`.waits` — waiting cards (:func:`waits`, :func:`waits_counts`, :func:`discard_waits`);
* :mod:`.winresult` — :class:`WinResult` and :func:`complete_size`.

This module adds :func:`evaluate_win` (checked, on notation or parsed values) and the
caches' reporting and clearing.
"""

from __future__ import annotations

from typing import Final

from . import evaluation, solver
from .cards import glyph
from .evaluation import TableInfo, evaluate, evaluate_counts, hand_summary, rule_info, table_info
from .groups import _parsed as _parsed_groups
from .groups import parse_groups
from .holdings import HandInput, TableInput, check_size, parse_card, parse_hand, validate
from .kernels import HandInfo
from .rules import HONG_GUAI_WAN, RuleSet
from .solver import build_tables, decompose
from .waits import Wait, discard_waits, waits, waits_counts
from .winresult import WinResult, complete_size

__all__ = [
    "HandInput",
    "TableInput",
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


def cache_info() -> dict[str, float]:
    """Report the memo sizes and limits, and the decomposition tables' size and build time."""
    info = solver.stats()
    return {
        "entries": info["entries"],
        "limit": info["limit"],
        "input_entries": len(_inputs),
        "input_limit": _INPUTS_LIMIT,
        "table_entries": info["table_entries"],
        "table_build_seconds": info["table_build_seconds"],
    }


def clear_cache(*, tables: bool = False) -> None:
    """Forget the memos (with ``tables``, the decomposition tables too), for timing or memory."""
    solver.clear(tables=tables)
    evaluation.clear()
    _inputs.clear()
    _parsed_groups.clear()


_Checked = tuple[TableInfo, HandInfo, int]
_inputs: Final[dict[tuple[str | tuple[()], str, object], _Checked]] = {}
_INPUTS_LIMIT: Final = 16384


def _checked_win(table: TableInput, hand: HandInput, card: object) -> _Checked:
    """Parse and check the inputs of a win (§3, §5, §9), summarised for evaluation."""
    groups = parse_groups(table)
    counts = parse_hand(hand)
    x = parse_card(card)
    validate(groups, counts, x)
    check_size(groups, counts, -1, f"a win on {glyph(x)}")
    return table_info(groups), hand_summary(counts), x


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
<<<<<<< HEAD
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
=======
    return evaluate(hit[0], hit[1], hit[2], self_drawn, last_card, rule_info(rules))
>>>>>>> h-a33
