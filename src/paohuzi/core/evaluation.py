"""Win evaluation: every way the winning card X can be used, scored, the best kept (§10–§12).

X may join a hand group, 碰 with a pair, make a forced 偎/提 on an own draw, or 跑 onto
a 坎/偎/碰 (:func:`_options`); the free cards each use leaves are arranged by the
:mod:`solver`, and each arrangement is scored (名堂 §11, 囤 and 番 §12). The best score
wins, ties to the higher 胡息 (§10). Group objects are built only for the winning
arrangement, from pre-built constants.

What evaluation reads from the table, the hand and the rule set is summarised once and
cached: :class:`TableInfo` by the table groups' identity, the hand by
:func:`.kernels.hand_info`, the rule set's constants (and its 名堂 cache) by identity.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields
from typing import Final

from .cards import NUM_FACES, RED_FACES
from .groups import Group, GroupKind, huxi_of, same_face_groups
from .kernels import HandInfo, hand_info, lanes_of
from .rules import HONG_GUAI_WAN, RuleSet
from .scoring import WinFacts, combine_fan, mingtang_of
from .solver import MEMO_LIMIT, ONE, arrange, best, memo
from .winresult import W, WinResult

__all__ = ["TableInfo", "evaluate", "evaluate_counts", "hand_summary", "rule_info", "table_info"]

# Module constants are Final: a compiled build reads them as natives, not from a dict.
_TI: Final = GroupKind.TI
_PAO: Final = GroupKind.PAO
_WEI: Final = GroupKind.WEI
_CHOUWEI: Final = GroupKind.CHOUWEI
_KAN: Final = GroupKind.KAN
_PENG: Final = GroupKind.PENG
_IS_RED: Final = tuple(int(f in RED_FACES) for f in range(NUM_FACES))
_RED_LANES: Final = lanes_of(RED_FACES)

# Pre-built same-face groups by face (immutable, shared by every result).
_KAN_G: Final = same_face_groups(_KAN)
_PENG_G: Final = same_face_groups(_PENG)
_WEI_G: Final = same_face_groups(_WEI)
_PAO_G: Final = same_face_groups(_PAO)
_TI_G: Final = same_face_groups(_TI)


def _huxi_by_face(kind: GroupKind) -> tuple[int, ...]:
    return tuple(huxi_of(kind, big=f >= 10) for f in range(NUM_FACES))


_TI_H: Final = _huxi_by_face(_TI)
_PAO_H: Final = _huxi_by_face(_PAO)
_WEI_H: Final = _huxi_by_face(_WEI)
_KAN_H: Final = _huxi_by_face(_KAN)
_PENG_H: Final = _huxi_by_face(_PENG)

# How X is used (§5, §10): the option codes of :func:`_options`.
INTO_HAND: Final = 0  # X joins a group of the hand
PENG_PAIR: Final = 1  # 碰 with a pair of the hand
PAO_KAN: Final = 2  # 跑 on a 坎 of the hand
PAO_OPEN: Final = 3  # 跑 on a table 偎 (another's draw) or 碰
TI_KAN: Final = 4  # forced 提 of a 坎 (own draw)
TI_WEI: Final = 5  # forced 提 of a table 偎 (own draw)
WEI_PAIR: Final = 6  # forced 偎 with a pair (own draw)
# What a result calls each use (WinResult.how), by code.
_HOW: Final = ("", "碰", "跑胡", "跑胡", "提胡", "提胡", "偎胡")

_KIND_RANK: Final = {id(kind): i for i, kind in enumerate(GroupKind)}  # by id: Enum hashing is slow


def _group_order(g: Group) -> tuple[int, tuple[int, ...]]:
    """Canonical order of result groups (kind as in GroupKind, then faces)."""
    return _KIND_RANK[id(g.kind)], g.faces


# ---------------------------------------------------------------------------
# Summaries of the table and the rule set, cached.


class TableInfo:
    """What evaluation reads from a seat's table groups, worked out once per table."""

    __slots__ = (
        "big",
        "cards",
        "groups",
        "huxi",
        "on_table",
        "open_faces",
        "ordered",
        "pengpeng",
        "quads",
        "red",
    )

    def __init__(self, groups: tuple[Group, ...]) -> None:
        """Sum the groups' 胡息, cards, red and big cards; note 提/跑 and open faces."""
        huxi = quads = red = big = n = 0
        pengpeng = True
        open_faces: dict[int, Group] = {}
        on_table = [0] * NUM_FACES
        for g in groups:
            kind = g.kind
            huxi += g.huxi
            red += g.red
            big += g.big
            n += len(g.faces)
            if kind is _TI or kind is _PAO:
                quads += 1
            elif kind is _WEI or kind is _CHOUWEI or kind is _PENG:
                open_faces[g.faces[0]] = g
            elif kind is not _KAN:
                pengpeng = False
            for f in g.faces:
                on_table[f] = on_table[f] + 1  # not +=: generic when compiled
        self.groups = groups
        self.ordered = tuple(sorted(groups, key=_group_order))  # as a result lists them
        self.huxi = huxi
        self.quads = quads  # k of §9: 提 and 跑
        self.pengpeng = pengpeng  # every group a same-face one (碰碰胡 so far)
        self.red = red
        self.big = big
        self.cards = n
        self.open_faces = open_faces  # face -> its 偎/臭偎/碰 (X may 跑/提 on it)
        self.on_table = on_table  # copies of each face on the table


_table_cache: Final[dict[tuple[int, ...], tuple[tuple[Group, ...], TableInfo]]] = {}
_TABLE_CACHE_LIMIT: Final = 4096
# The same, by the identity of the tuple itself: the cheapest check when a caller
# passes one tuple again (the entry holds it, so its id cannot be reused either).
_tuple_cache: Final[dict[int, tuple[tuple[Group, ...], TableInfo]]] = {}


def table_info(table: Sequence[Group]) -> TableInfo:
    """The :class:`TableInfo` of the table groups, cached.

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
        info = TableInfo(groups)
        if len(_table_cache) >= _TABLE_CACHE_LIMIT:
            _table_cache.clear()
        _table_cache[ids] = (groups, info)
    if given:
        if len(_tuple_cache) >= _TABLE_CACHE_LIMIT:
            _tuple_cache.clear()
        _tuple_cache[id(groups)] = (groups, info)
    return info


def hand_summary(hand: Sequence[int]) -> HandInfo:
    """What evaluation reads from a hand (see :data:`.kernels.HandInfo`)."""
    return hand_info(hand, _RED_LANES, _KAN_H)


# The 名堂 cache's key: a win's WinFacts values, in WinFacts' field order. A fact a new
# 名堂 needs is a new WinFacts field (scoring.py) and its value in the key that
# _score_best builds, the one place a key is built; _mingtang names them by the fields.
_FactsKey = tuple[int, int, int, bool, bool, bool]
_FACT_NAMES: Final = tuple(f.name for f in fields(WinFacts))


class RuleInfo:
    """Constants of a rule set that scoring reads, and its 名堂 cache."""

    __slots__ = ("min_huxi", "min_mt_huxi", "mt_cache", "rules", "zimo")

    def __init__(self, rules: RuleSet) -> None:
        """Read the bars and the 自摸 bonus; start an empty 名堂 cache."""
        self.rules = rules
        self.min_huxi = rules.min_huxi
        self.min_mt_huxi = rules.min_huxi_with_mingtang
        self.zimo = rules.zimo_bonus_tun
        self.mt_cache: dict[_FactsKey, tuple[dict[str, int], int]] = {}


_rule_cache: Final[dict[int, RuleInfo]] = {}


def rule_info(rules: RuleSet) -> RuleInfo:
    """The :class:`RuleInfo` of a rule set, cached by identity (the entry keeps it alive)."""
    info = _rule_cache.get(id(rules))
    if info is None or info.rules is not rules:
        if len(_rule_cache) >= 64:
            _rule_cache.clear()
        info = RuleInfo(rules)
        _rule_cache[id(rules)] = info
    return info


def _mingtang(key: _FactsKey, rules: RuleSet) -> tuple[dict[str, int], int]:
    """名堂 and 番 of a win's facts (a :data:`_FactsKey`), for the cache."""
    mt = mingtang_of(WinFacts(**dict(zip(_FACT_NAMES, key, strict=True))), rules)  # type: ignore[arg-type]
    return mt, combine_fan(mt, rules)


# ---------------------------------------------------------------------------
# Evaluation.

# A use of X: free key, free cards, need pair, 胡息 (a change, then the total), option code.
_Option = tuple[int, int, bool, int, int]


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
    one = ONE[x]
    if self_drawn and hx == 3:  # forced 提 of the 坎 (§5.1)
        return [(free, n_free, True, _TI_H[x] - _KAN_H[x], TI_KAN)] if quad else []
    if self_drawn and open_g is not None and open_g.kind is not _PENG:  # forced 提 of a 偎
        return [(free, n_free, True, _TI_H[x] - open_g.huxi, TI_WEI)] if quad else []
    if self_drawn and hx == 2:  # forced 偎
        return [(free - 2 * one, n_free - 2, pair_plain, _WEI_H[x], WEI_PAIR)] if plain else []
    opts: list[_Option] = []
    if quad:
        if open_g is not None:  # 跑 on a table 偎 (another's draw) or 碰 (anyone's)
            opts.append((free, n_free, True, _PAO_H[x] - open_g.huxi, PAO_OPEN))
        if hx == 3:  # 跑 on the 坎
            opts.append((free, n_free, True, _PAO_H[x] - _KAN_H[x], PAO_KAN))
    if plain:
        if hx == 2:  # 碰 with the pair (scores as 碰, not 坎)
            opts.append((free - 2 * one, n_free - 2, pair_plain, _PENG_H[x], PENG_PAIR))
        opts.append((free + one, n_free + 1, pair_plain, 0, INTO_HAND))
    return opts


def evaluate(
    ti: TableInfo,
    hi: HandInfo,
    x: int,
    self_drawn: bool,
    last_card: bool,
    ri: RuleInfo,
) -> WinResult | None:
    """Try every use of X (§10) and return the best-scoring arrangement."""
    counts, h_n, _red, _big, free, n_free, _kans, _kan_huxi = hi
    tk = ti.quads
    hx = counts[x]
    open_faces = ti.open_faces
    open_g = open_faces.get(x) if open_faces else None
    total = ti.cards + h_n + 1
    if hx < 2 and open_g is None:
        # The common case: X can only join a hand group; reject before any work.
        if total != W[tk] or (n_free + 1) % 3 != (2 if tk else 0):
            return None
        key = free + ONE[x]
        hit = memo.get(key + key + (tk > 0))
        hit = best(key, tk > 0) if hit is None else hit
        if hit < 0:
            return None
        found = [(key, n_free + 1, tk > 0, hit, INTO_HAND)]
    else:
        # X the hand pairs or the table shows: 碰/偎/跑/提 (§5), or into the hand.
        plain = total == W[tk]  # X joins without a 提/跑
        quad = total == W[tk + 1]  # X makes a 提/跑
        if not (plain or quad):
            return None
        found = []
        for key, nf, need_pair, extra, code in _options(
            hx, open_g, x, self_drawn, plain, quad, free, n_free, tk > 0
        ):
            if nf % 3 == (2 if need_pair else 0):
                hit = memo.get(key + key + need_pair)
                hit = best(key, need_pair) if hit is None else hit
                if hit >= 0:
                    found.append((key, nf, need_pair, hit + extra, code))
        if not found:
            return None
    return _score_best(ti, hi, x, open_g, found, self_drawn, last_card, ri)


def _score_best(
    ti: TableInfo,
    hi: HandInfo,
    x: int,
    open_g: Group | None,
    found: list[_Option],
    self_drawn: bool,
    last_card: bool,
    ri: RuleInfo,
) -> WinResult | None:
    """Score each use (名堂 §11, 囤 and 番 §12) and keep the best; ties to more 胡息 (§10)."""
    counts, h_n, h_red, h_big, _free, _n_free, kans, kan_huxi = hi
    red = ti.red + h_red + _IS_RED[x]
    big = ti.big + h_big + (x >= 10)
    small = ti.cards + h_n + 1 - big
    shuahou = h_n == 1 and counts[x] == 1  # 耍猴: X pairs the hand's last card
    t_pengpeng = ti.pengpeng
    base_huxi = ti.huxi + kan_huxi
    rules, mt_cache = ri.rules, ri.mt_cache
    min_huxi, min_mt_huxi = ri.min_huxi, ri.min_mt_huxi
    bonus = ri.zimo if self_drawn else 0
    top: tuple[int, int, int, int, int, bool, int, dict[str, int]] | None = None
    for key, nf, need_pair, hand_huxi, code in found:
        huxi = base_huxi + hand_huxi
        pengpeng = t_pengpeng and nf == (2 if need_pair else 0)  # no run left in the hand
        facts: _FactsKey = (red, big, small, pengpeng, last_card, shuahou)  # as WinFacts
        mt_hit = mt_cache.get(facts)
        if mt_hit is None:
            mt_hit = mt_cache[facts] = _mingtang(facts, rules)
        mt, fan = mt_hit
        if huxi < (min_mt_huxi if mt else min_huxi):
            continue
        tun = (huxi - 12) // 3 + bonus  # tun_of, inline on the hot path
        if top is None or tun * fan > top[0] or (tun * fan == top[0] and huxi > top[1]):
            top = (tun * fan, huxi, tun, fan, key, need_pair, code, mt)
    if top is None:
        return None
    score, huxi, tun, fan, key, need_pair, code, mt = top
    groups = _result_groups(ti, open_g, kans, key, need_pair, code, x)
    return WinResult(huxi, tun, fan, score, dict(mt), groups, x, self_drawn, last_card, _HOW[code])


_arrangements: Final[dict[int, tuple[Group, ...]]] = {}


def _result_groups(
    ti: TableInfo,
    open_g: Group | None,
    kans: tuple[int, ...],
    key: int,
    need_pair: bool,
    code: int,
    x: int,
) -> tuple[Group, ...]:
    """Build the winning groups in a canonical order: table, X's group, 坎, hand groups."""
    tgroups = ti.ordered
    mkey = key + key + need_pair
    hand = _arrangements.get(mkey)
    if hand is None:
        arranged = arrange(key, need_pair)
        assert arranged is not None
        hand = tuple(arranged[1])
        if len(_arrangements) >= MEMO_LIMIT // 4:
            _arrangements.clear()
        _arrangements[mkey] = hand
    if code == INTO_HAND:
        return (*tgroups, *[_KAN_G[f] for f in kans], *hand) if kans else (*tgroups, *hand)
    table = tgroups
    extra: tuple[Group, ...] = ()
    if code in (PAO_OPEN, TI_WEI):  # the table group becomes a 跑/提
        assert open_g is not None
        new = _PAO_G[x] if code == PAO_OPEN else _TI_G[x]
        table = tuple(sorted([*(g for g in tgroups if g is not open_g), new], key=_group_order))
    elif code in (PAO_KAN, TI_KAN):  # the 坎 becomes a 跑/提
        kans = tuple(f for f in kans if f != x)
        extra = (_PAO_G[x] if code == PAO_KAN else _TI_G[x],)
    else:  # PENG_PAIR or WEI_PAIR: the pair and X
        extra = (_PENG_G[x] if code == PENG_PAIR else _WEI_G[x],)
    return (*table, *extra, *(_KAN_G[f] for f in kans), *hand)


def evaluate_counts(
    table: Sequence[Group],
    hand: Sequence[int],
    x: int,
    self_drawn: bool = False,
    last_card: bool = False,
    rules: RuleSet = HONG_GUAI_WAN,
) -> WinResult | None:
    """Unchecked fast path of :func:`~paohuzi.core.hand.evaluate_win` on parsed values.

    ``hand`` is a count vector of length 20 (坎 included), ``x`` the winning face.
    Returns ``None`` when ``x`` does not win (wrong card count included).
    """
    ri = _rule_cache.get(id(rules))
    if ri is None or ri.rules is not rules:
        ri = rule_info(rules)
    hi = hand_info(hand, _RED_LANES, _KAN_H)
    return evaluate(table_info(table), hi, x, self_drawn, last_card, ri)


def clear() -> None:
    """Forget the table, rule-set and arrangement caches."""
    _arrangements.clear()
    _table_cache.clear()
    _tuple_cache.clear()
    _rule_cache.clear()
