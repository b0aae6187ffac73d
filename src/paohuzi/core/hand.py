"""Win evaluation and waiting cards (RULES.md §10, §11).

Hands are count vectors. The hand part that is free to arrange (everything but
the 坎, which are locked whole) is packed into one int, three bits a face, and
decomposed by a memoised backtracking search that returns the best 胡息; the
winning groups are rebuilt afterwards by walking the memo. Every way the winning
card can be used (跑 onto a 坎/偎/碰, 碰 with a pair, forced 偎/提 on an own draw,
any hand group) is tried, and the best score wins, ties to the higher 胡息.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Union

from .cards import NUM_FACES, check_counts, counts_of, format_faces, glyph, parse_face, parse_faces
from .errors import HandError
from .groups import Group, GroupKind, parse_groups
from .rules import HONG_GUAI_WAN, RuleSet
from .scoring import WinFacts, combine_fan, mingtang_of, tun_of

__all__ = [
    "WinResult",
    "Wait",
    "evaluate_win",
    "evaluate_counts",
    "waits",
    "waits_counts",
    "discard_waits",
    "complete_size",
    "decompose",
    "cache_info",
    "clear_cache",
]

TableInput = Union[str, Iterable[Union[str, Group]]]
HandInput = Union[str, Iterable[int]]

_RED = tuple((f % 10) + 1 in (2, 7, 10) for f in range(NUM_FACES))
_QUAD_KINDS = (GroupKind.TI, GroupKind.PAO)


def complete_size(k: int) -> int:
    """W(k): cards in a complete hand with k 提/跑 (§9)."""
    return 21 if k == 0 else 20 + k


@dataclass(frozen=True, slots=True)
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
    how: str = field(default="")  # 跑胡 / 提胡 / 偎胡 / 碰 / "" (X into a hand group)

    @property
    def zimo(self) -> bool:
        """自摸: the winner drew the card himself (+1 囤, not a 名堂)."""
        return self.self_drawn

    def explain(self) -> str:
        """A readable itemised breakdown."""
        lines = []
        for g in self.groups:
            lines.append(f"  {g.notation():<12} {g.huxi:>2} 胡息")
        lines.append(f"胡息 {self.huxi}")
        lines.append(
            f"囤 {self.tun} = ⌊({self.huxi} − 12) / 3⌋"
            + (" + 1 自摸" if self.self_drawn and self.tun != (self.huxi - 12) // 3 else "")
        )
        if self.mingtang:
            lines.append("名堂 " + ", ".join(f"{k} {v}番" for k, v in self.mingtang.items()))
        else:
            lines.append("名堂 none (平胡, 1番)")
        lines.append(f"{self.tun} 囤 × {self.fan} 番 = {self.score}")
        return "\n".join(lines)

    def to_dict(self) -> dict[str, object]:
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
# Decomposition of the free hand part: memoised best 胡息.

_SHIFT = tuple(3 * f for f in range(NUM_FACES))
_ONE = tuple(1 << s for s in _SHIFT)
_NONE = -1  # memo value: no decomposition
_memo: dict[int, int] = {}
_MEMO_LIMIT = 2_000_000


def cache_info() -> dict[str, int]:
    """Size of the decomposition memo (entries)."""
    return {"entries": len(_memo), "limit": _MEMO_LIMIT}


def clear_cache() -> None:
    _memo.clear()


def _pack(counts: Sequence[int]) -> int:
    key = 0
    for f in range(NUM_FACES):
        c = counts[f]
        if c:
            key |= c << _SHIFT[f]
    return key


def _moves(key: int, need_pair: bool) -> list[tuple[int, int, tuple[int, ...], bool]]:
    """Every group the lowest card can join: (new key, 胡息, faces, pair used)."""
    f = 0
    k = key
    while not k & 7:
        k >>= 3
        f += 1
    c = k & 7
    out: list[tuple[int, int, tuple[int, ...], bool]] = []
    num = f % 10
    big = f >= 10
    if need_pair and c >= 2:
        out.append((key - 2 * _ONE[f], 0, (f, f), True))
    if num <= 7 and (k >> 3) & 7 and (k >> 6) & 7:
        hx = (6 if big else 3) if num == 0 else 0
        out.append((key - _ONE[f] - _ONE[f + 1] - _ONE[f + 2], hx, (f, f + 1, f + 2), False))
    if num == 1 and (k >> 15) & 7 and (k >> 24) & 7:
        out.append((key - _ONE[f] - _ONE[f + 5] - _ONE[f + 8], 6 if big else 3, (f, f + 5, f + 8), False))
    if not big:
        cb = (key >> _SHIFT[f + 10]) & 7
        if c >= 2 and cb >= 1:
            out.append((key - 2 * _ONE[f] - _ONE[f + 10], 0, (f, f, f + 10), False))
        if cb >= 2:
            out.append((key - _ONE[f] - 2 * _ONE[f + 10], 0, (f, f + 10, f + 10), False))
    return out


def _best(key: int, need_pair: bool) -> int:
    """Best 胡息 of arranging ``key`` into sets (and the one pair if needed), or -1."""
    if key == 0:
        return _NONE if need_pair else 0
    mkey = key << 1 | need_pair
    hit = _memo.get(mkey)
    if hit is not None:
        return hit
    best = _NONE
    for nkey, hx, _faces, used in _moves(key, need_pair):
        sub = _best(nkey, need_pair and not used)
        if sub >= 0 and sub + hx > best:
            best = sub + hx
    if len(_memo) >= _MEMO_LIMIT:
        _memo.clear()
    _memo[mkey] = best
    return best


def _groups_of(key: int, need_pair: bool) -> list[Group]:
    """Rebuild the groups of the best decomposition (deterministic: first best move)."""
    out: list[Group] = []
    while key:
        target = _best(key, need_pair)
        for nkey, hx, faces, used in _moves(key, need_pair):
            np = need_pair and not used
            sub = _best(nkey, np)
            if sub >= 0 and sub + hx == target:
                out.append(Group(GroupKind.DUI if used else GroupKind.JU, faces))
                key, need_pair = nkey, np
                break
        else:  # pragma: no cover - memo says decomposable
            raise AssertionError("decomposition walk failed")
    return out


def decompose(counts: Sequence[int], need_pair: bool) -> tuple[int, list[Group]] | None:
    """Best 胡息 and groups for free cards (no 坎 locking), or ``None``."""
    key = _pack(counts)
    best = _best(key, need_pair)
    if best < 0:
        return None
    return best, _groups_of(key, need_pair)


# ---------------------------------------------------------------------------
# Win evaluation.


def _parse_table(table: TableInput) -> tuple[Group, ...]:
    return parse_groups(table)


def _parse_hand(hand: HandInput) -> list[int]:
    if isinstance(hand, str):
        return counts_of(parse_faces(hand))
    return counts_of(hand)


def _parse_card(card: int | str) -> int:
    if isinstance(card, str):
        faces = parse_faces(card)
        if len(faces) != 1:
            raise HandError(f"the winning card must be one card, got {card!r}")
        return faces[0]
    return parse_face(glyph(card))


def validate(table: Sequence[Group], hand: Sequence[int], card: int | None) -> None:
    """Reject impossible holdings: five copies, a 坎 face on the table, a 提 in hand."""
    total = list(hand)
    for g in table:
        for f in g.faces:
            total[f] += 1
    if card is not None:
        total[card] += 1
    check_counts(total, "hand, table and card together")
    table_faces = {f for g in table for f in g.faces}
    for f in range(NUM_FACES):
        c = hand[f]
        if c >= 4:
            raise HandError(f"four {glyph(f)} in a hand must be declared as a 提")
        if c == 3 and f in table_faces:
            raise HandError(f"the 坎 {glyph(f) * 3} cannot share its face with a table group")
    for g in table:
        if g.kind in (GroupKind.JU, GroupKind.DUI, GroupKind.KAN):
            raise HandError(f"{g.notation()} is not a table group (坎, 句 and 对 stay in the hand)")


def evaluate_win(
    table: TableInput = (),
    hand: HandInput = "",
    card: int | str = 0,
    self_drawn: bool = False,
    last_card: bool = False,
    rules: RuleSet = HONG_GUAI_WAN,
) -> WinResult | None:
    """Is ``card`` a win for this table and hand, and what is it worth?

    Accepts notation strings or parsed values. Returns ``None`` when the card does
    not win; raises a :class:`~paohuzi.core.errors.HandError` for holdings that
    cannot exist or a card count that cannot make a complete hand.
    """
    groups = _parse_table(table)
    counts = _parse_hand(hand)
    x = _parse_card(card)
    validate(groups, counts, x)
    k = sum(1 for g in groups if g.kind in _QUAD_KINDS)
    n = sum(len(g.faces) for g in groups) + sum(counts) + 1
    if n != complete_size(k) and n != complete_size(k + 1):
        raise HandError(
            f"{n} cards (table {format_faces(f for g in groups for f in g.faces)}, hand "
            f"{format_faces(f for f in range(NUM_FACES) for _ in range(counts[f]))}, card {glyph(x)}) "
            f"cannot make a complete hand with {k} 提/跑: a win needs {complete_size(k)}"
            + (f" or {complete_size(k + 1)}" if k else "")
        )
    return evaluate_counts(groups, counts, x, self_drawn, last_card, rules)


def evaluate_counts(
    table: Sequence[Group],
    hand: Sequence[int],
    x: int,
    self_drawn: bool = False,
    last_card: bool = False,
    rules: RuleSet = HONG_GUAI_WAN,
) -> WinResult | None:
    """Unchecked fast path of :func:`evaluate_win` on parsed values."""
    hx = hand[x]
    table_x = None  # index of a table 偎/臭偎/碰 of x
    for i, g in enumerate(table):
        if g.faces[0] == x and g.kind in (GroupKind.WEI, GroupKind.CHOUWEI, GroupKind.PENG):
            table_x = i
            break
    # Options: (table groups, extra groups from x, hand counts with x placed, how)
    options: list[tuple[tuple[Group, ...], tuple[Group, ...], list[int], str]] = []
    base = list(hand)
    if self_drawn and hx == 3:
        base[x] = 0
        options.append((tuple(table), (Group(GroupKind.TI, (x,) * 4),), base, "提胡"))
    elif self_drawn and table_x is not None and table[table_x].kind is not GroupKind.PENG:
        t = list(table)
        t[table_x] = Group(GroupKind.TI, (x,) * 4)
        options.append((tuple(t), (), base, "提胡"))
    elif self_drawn and hx == 2:
        base[x] = 0
        options.append((tuple(table), (Group(GroupKind.WEI, (x,) * 3),), base, "偎胡"))
    else:
        if table_x is not None and (not self_drawn or table[table_x].kind is GroupKind.PENG):
            t = list(table)
            t[table_x] = Group(GroupKind.PAO, (x,) * 4)
            options.append((tuple(t), (), base, "跑胡"))
        if hx == 3:  # not self-drawn here
            h = list(hand)
            h[x] = 0
            options.append((tuple(table), (Group(GroupKind.PAO, (x,) * 4),), h, "跑胡"))
        if hx == 2:
            h = list(hand)
            h[x] = 0
            options.append((tuple(table), (Group(GroupKind.PENG, (x,) * 3),), h, "碰"))
        h = list(hand)
        h[x] += 1
        options.append((tuple(table), (), h, ""))

    # Facts over all owned cards: the same for every option.
    red = big = 0
    total = 0
    for g in table:
        for f in g.faces:
            red += _RED[f]
            big += f >= 10
        total += len(g.faces)
    for f in range(NUM_FACES):
        c = hand[f]
        if c:
            red += _RED[f] * c
            big += c if f >= 10 else 0
            total += c
    hand_size = total - sum(len(g.faces) for g in table)
    red += _RED[x]
    big += x >= 10
    total += 1
    shuahou = hand_size == 1 and hx == 1

    best: WinResult | None = None
    best_key = (-1, -1)
    for tgroups, extra, h, how in options:
        k = 0
        fixed_huxi = 0
        pengpeng = True
        for g in tgroups:
            fixed_huxi += g.huxi
            if g.kind in _QUAD_KINDS:
                k += 1
            elif not g.same_face:
                pengpeng = False
        for g in extra:
            fixed_huxi += g.huxi
            if g.kind in _QUAD_KINDS:
                k += 1
        # Lock the 坎 (three of a face dealt into the hand); x itself never makes one.
        free = list(h)
        kans: list[Group] = []
        for f in range(NUM_FACES):
            c = free[f]
            if c >= 3 and not (f == x and hand[f] < 3):
                kans.append(Group(GroupKind.KAN, (f, f, f)))
                fixed_huxi += 6 if f >= 10 else 3
                free[f] -= 3
        nfree = sum(free)
        if total != complete_size(k):
            continue
        need_pair = k >= 1
        if nfree != (3 * ((nfree - 2) // 3) + 2 if need_pair else 3 * (nfree // 3)):
            continue
        key = _pack(free)
        hand_huxi = _best(key, need_pair)
        if hand_huxi < 0:
            continue
        huxi = fixed_huxi + hand_huxi
        if pengpeng:
            # Same-face groups only: the free cards must be exactly the pair (or none).
            pengpeng = nfree == (2 if need_pair else 0)
        facts = WinFacts(
            red=red,
            big=big,
            small=total - big,
            pengpeng=pengpeng,
            last_card=last_card,
            shuahou=shuahou,
        )
        mt = mingtang_of(facts, rules)
        if huxi < (rules.min_huxi_with_mingtang if mt else rules.min_huxi):
            continue
        fan = combine_fan(mt, rules)
        tun = tun_of(huxi, self_drawn, rules)
        score = tun * fan
        if (score, huxi) > best_key:
            best_key = (score, huxi)
            groups = tuple(tgroups) + tuple(extra) + tuple(kans) + tuple(_groups_of(key, need_pair))
            best = WinResult(
                huxi=huxi,
                tun=tun,
                fan=fan,
                score=score,
                mingtang=mt,
                groups=groups,
                card=x,
                self_drawn=self_drawn,
                last_card=last_card,
                how=how,
            )
    return best


# ---------------------------------------------------------------------------
# Waiting cards (听牌).


@dataclass(frozen=True, slots=True)
class Wait:
    """A face that wins, with what it scores if another player draws it and if drawn oneself."""

    face: int
    other: WinResult | None
    self_drawn: WinResult | None

    @property
    def best_score(self) -> int:
        return max(r.score for r in (self.other, self.self_drawn) if r is not None)


def waits_counts(
    table: Sequence[Group],
    hand: Sequence[int],
    rules: RuleSet = HONG_GUAI_WAN,
    last_card: bool = False,
) -> list[Wait]:
    """Unchecked fast path of :func:`waits`."""
    owned = list(hand)
    for g in table:
        for f in g.faces:
            owned[f] += 1
    out: list[Wait] = []
    for x in range(NUM_FACES):
        if owned[x] >= 4:
            continue
        other = evaluate_counts(table, hand, x, False, last_card, rules)
        own = evaluate_counts(table, hand, x, True, last_card, rules)
        if other is not None or own is not None:
            out.append(Wait(x, other, own))
    return out


def waits(
    table: TableInput = (),
    hand: HandInput = "",
    rules: RuleSet = HONG_GUAI_WAN,
    last_card: bool = False,
) -> list[Wait]:
    """Every face that would complete this hand (听牌), and what it would score."""
    groups = _parse_table(table)
    counts = _parse_hand(hand)
    validate(groups, counts, None)
    k = sum(1 for g in groups if g.kind in _QUAD_KINDS)
    n = sum(len(g.faces) for g in groups) + sum(counts) + 1
    if n != complete_size(k) and n != complete_size(k + 1):
        raise HandError(
            f"{n - 1} cards with {k} 提/跑 cannot wait for a win: a waiting hand holds "
            f"{complete_size(k) - 1}" + (f" or {complete_size(k + 1) - 1}" if k else "") + " cards"
        )
    return waits_counts(groups, counts, rules, last_card)


def discard_waits(
    table: TableInput = (),
    hand: HandInput = "",
    rules: RuleSet = HONG_GUAI_WAN,
) -> dict[int, list[Wait]]:
    """For each face the hand may discard (never a 坎 card), the waits it leaves."""
    groups = _parse_table(table)
    counts = _parse_hand(hand)
    validate(groups, counts, None)
    k = sum(1 for g in groups if g.kind in _QUAD_KINDS)
    n = sum(len(g.faces) for g in groups) + sum(counts)
    if n != complete_size(k):
        raise HandError(
            f"a hand that discards holds {complete_size(k)} cards with {k} 提/跑, this one holds {n}"
        )
    out: dict[int, list[Wait]] = {}
    for f in range(NUM_FACES):
        if counts[f] in (1, 2):
            h = list(counts)
            h[f] -= 1
            out[f] = waits_counts(groups, h, rules)
    return out
