"""Waiting cards (听牌): every face that would complete a hand, and what it would score.

RULES.md §9, §10. Only faces that can touch the hand are tried (:func:`_wait_masks`),
each evaluated by :mod:`evaluation`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from .cards import NUM_FACES, glyph
from .evaluation import TableInfo, evaluate, hand_summary, rule_info, table_info
from .groups import ERQISHI, Group, GroupKind, parse_groups
from .holdings import HandInput, TableInput, check_size, parse_hand, validate
from .kernels import HandInfo
from .rules import HONG_GUAI_WAN, RuleSet
from .solver import ONE, best, memo
from .winresult import W, WinResult

__all__ = ["Wait", "discard_waits", "waits", "waits_counts"]

_PENG: Final = GroupKind.PENG


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
    ti = table_info(table)
    hi = hand_summary(hand)
    tk = ti.quads
    total = ti.cards + hi[1] + 1
    plain = total == W[tk]
    quad = total == W[tk + 1]
    if not (plain or quad):
        return []
    ri = rule_info(rules)
    reach, special, lonely, lonely_quad = _wait_masks(ti, hi, plain)
    free, n_free, need_pair = hi[4], hi[5], tk > 0
    quad = quad and n_free % 3 == 2  # X makes a 提/跑 and the rest is all groups and a pair
    pair_ok = plain and (n_free - 2) % 3 == (2 if need_pair else 0)
    counts, open_faces = hi[0], ti.open_faces
    on_table = ti.on_table
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
            key = free + ONE[x]
            hit = memo.get(key + key + need_pair)
            if (hit if hit is not None else best(key, need_pair)) < 0:
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
        other = evaluate(ti, hi, x, False, last_card, ri)
        if other is None and not forced:
            continue  # same options on an own draw, and being a win does not depend on 囤
        own = evaluate(ti, hi, x, True, last_card, ri)
        if other is not None or own is not None:
            out.append(Wait(x, other, own))
    return out


def _wait_masks(ti: TableInfo, hi: HandInfo, plain: bool) -> tuple[int, int, int, int]:
    """Face masks that bound the waits: reach, special, lonely, lonely after a 提/跑.

    X that joins the hand must reach every lonely free card (one no group of the
    free cards can use); X that 碰/偎/跑/提 (special) needs the rest decomposable.
    """
    counts = hi[0]
    need_pair = ti.quads > 0
    special = 0
    for f in ti.open_faces:
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
    counts = parse_hand(hand)
    validate(groups, counts, None)
    check_size(groups, counts, -1, "a waiting hand")
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
    counts = parse_hand(hand)
    validate(groups, counts, None)
    check_size(groups, counts, 0, "a hand that owes a discard")
    out: dict[int, list[Wait]] = {}
    for f in range(NUM_FACES):
        if counts[f] in (1, 2):
            h = list(counts)
            h[f] -= 1
            out[f] = waits_counts(groups, h, rules, last_card=last_card)
    return out
