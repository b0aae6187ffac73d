"""吃 and 比 (RULES.md §7): the rule function, the tables built from it, one id per option."""

from __future__ import annotations

import itertools
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from paohuzi.core.actions import CHI_BASE, Action, canonical_id, chi_id, is_canonical_chi
from paohuzi.core.cards import NUM_FACES, parse_faces
from paohuzi.core.chi import TABLES, chi_options, chi_shapes, related_faces
from paohuzi.core.engine import new_game


def _free(text: str) -> list[int]:
    c = [0] * NUM_FACES
    for f in parse_faces(text):
        c[f] += 1
    return c


def test_plain_chi_is_every_shape_with_both_cards() -> None:
    # 五 on offer, 三四六七 in hand: 三四五, 四五六, 五六七.
    assert chi_options(_free("三四六七"), 4) == [(0,), (1,), (2,)]
    assert chi_options(_free("三七"), 4) == []


def test_bi_must_use_every_copy() -> None:
    # 五 on offer with a 五 in hand: the copy must go into a 比 group (§7).
    assert chi_options(_free("四五六"), 4) == []  # 四五六 takes the card, 五 would stay
    assert chi_options(_free("四五六六七"), 4) == [(1, 2)]
    assert chi_options(_free("四六五五伍"), 4) == [(1, 4)]  # 比 may hold two copies: 五五伍


def test_kan_cards_are_never_used() -> None:
    # A 坎 counts 0 free cards: the caller passes free counts.
    assert chi_options(_free("四六"), 4) == [(1,)]


def _all_free_vectors(x: int, limit: int) -> list[list[int]]:
    """Free-count vectors over the faces related to x (0–2 each), at most ``limit``."""
    rel = related_faces(x)
    out = []
    for combo in itertools.product(range(3), repeat=len(rel)):
        free = [0] * NUM_FACES
        for f, c in zip(rel, combo, strict=True):
            free[f] = c
        out.append(free)
    rng = random.Random(x)
    rng.shuffle(out)
    return out[:limit]


def _table(x: int, free: list[int]) -> dict[int, Action]:
    if free[x]:
        return TABLES.with_copy(x, bytes(free))[0]
    mask = sum(1 << f for f in range(NUM_FACES) if free[f])
    pairs = sum(1 << f for f in range(NUM_FACES) if free[f] == 2)
    return TABLES.plain(x, mask, pairs)[0]


def test_tables_equal_the_rule_on_many_hands() -> None:
    """The memo tables answer exactly what chi_options says, hand by hand."""
    checked = 0
    for x in range(NUM_FACES):
        for free in _all_free_vectors(x, 1500):
            want = [chi_id(*o, *(6,) * (3 - len(o))) for o in chi_options(free, x)]
            got = _table(x, free)
            assert list(got) == sorted(want), (x, free)
            assert all(got[aid].id == aid and aid >= CHI_BASE for aid in got)
            checked += 1
    assert checked > 15_000


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 2), min_size=NUM_FACES, max_size=NUM_FACES), st.integers(0, 19))
def test_tables_equal_the_rule(free: list[int], x: int) -> None:
    want = [chi_id(*o, *(6,) * (3 - len(o))) for o in chi_options(free, x)]
    assert list(_table(x, free)) == sorted(want)


def test_chi_ids_are_canonical() -> None:
    """One id per set of groups: chi_id sorts the shapes, from_id refuses the others."""
    for shapes in itertools.product(range(6), range(7), range(7)):
        aid = chi_id(*shapes)
        assert is_canonical_chi(aid)
        assert canonical_id(CHI_BASE + shapes[0] * 49 + shapes[1] * 7 + shapes[2]) == aid
    assert chi_id(1, 5) == chi_id(5, 1) == chi_id(5, 1, 6)


def _groups_multiset(a: Action) -> Counter[tuple[object, ...]]:
    return Counter((g.kind, g.faces) for g in a.groups)


def test_no_two_legal_ids_lay_the_same_groups() -> None:
    """In every window of random games, each legal 吃 lays a different set of groups."""
    rng = random.Random(2026)
    windows = 0
    for g in range(300):
        state = new_game(seed=rng.randrange(2**31), dealer=g % 3)
        while not state.over:
            for seat in state.to_act():
                chis = [a for a in state.legal_moves(seat) if a.id >= CHI_BASE]
                seen = [_groups_multiset(a) for a in chis]
                assert all(seen.count(m) == 1 for m in seen), [a.text() for a in chis]
                windows += bool(chis)
            seat = state.to_act()[0]
            ids = state.legal_actions(seat)
            state.apply_fast(seat, ids[rng.randrange(len(ids))])
    assert windows > 500


def test_shapes_hold_the_card() -> None:
    for x in range(NUM_FACES):
        for _s, g, need in chi_shapes(x):
            assert x in g and sorted((*need, x)) == sorted(g)
