"""The compiled build's native-int loops agree with the interpreter's bytes operations.

The kernels (``paohuzi.core.kernels``: counts to faces, legal discards, hand sizes, the
shuffle, the hand summary of win evaluation) and seat facts take a plain loop when
compiled and bytes operations when interpreted. On the pure build these tests run both
ways (switching the flag); on the compiled build the flag is fixed at compile time, so
both runs take the loop, and the equivalence run compares the builds.
"""

from __future__ import annotations

import random

import pytest

from paohuzi.core import cards, deal, evaluation, kernels, state
from paohuzi.core.engine import new_game
from paohuzi.core.facts import seat_facts, table_facts
from paohuzi.core.groups import Group, GroupKind, TableGroup
from paohuzi.core.rules import HONG_GUAI_WAN


def _hands(n: int) -> list[list[int]]:
    rng = random.Random(14)
    return [[rng.choice((0, 0, 0, 0, 1, 1, 2, 3)) for _ in range(20)] for _ in range(n)]


def _both(monkeypatch: pytest.MonkeyPatch, module: object, fn: object) -> tuple[object, object]:
    out = []
    for flag in (False, True):
        monkeypatch.setattr(module, "COMPILED", flag)
        out.append(fn())  # type: ignore[operator]
    return out[0], out[1]


def test_seat_facts_loop_matches_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    tables = [
        table_facts([]),
        table_facts([TableGroup(Group(GroupKind.PENG, (4, 4, 4)))]),
        table_facts(
            [
                TableGroup(Group(GroupKind.CHI, (10, 11, 12))),
                TableGroup(Group(GroupKind.PAO, (7,) * 4)),
            ]
        ),
    ]
    for i, h in enumerate(_hands(3000)):
        t = tables[i % 3]
        a, b = _both(monkeypatch, kernels, lambda h=h, t=t: seat_facts(h, t, HONG_GUAI_WAN))
        assert a == b, h


def test_legal_discards_loop_matches_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    st = new_game(seed=3)
    while st.phase is not state.Phase.DISCARD:
        seat = st.to_act()[0]
        st.apply_fast(seat, st.legal_actions(seat)[0])
    for h in _hands(2000):
        st.hands[st.turn] = h
        a, b = _both(monkeypatch, kernels, lambda: st.legal_actions(st.turn))
        assert a == b, h


def test_faces_of_counts_loop_matches_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    for h in _hands(500):
        a, b = _both(monkeypatch, kernels, lambda h=h: cards.faces_of_counts(h))
        assert a == b == tuple(f for f in range(20) for _ in range(h[f]))


@pytest.mark.parametrize("batch", [1, 7, 160])
def test_batched_shuffle_draws_as_random_shuffle(
    monkeypatch: pytest.MonkeyPatch, batch: int
) -> None:
    """The compiled build's shuffle (outputs in batches, refilled when they run out)."""
    monkeypatch.setattr(kernels, "_BATCH", batch)
    for seed in [*range(300), 2**63 - 1, -5, 10**30]:
        want = list(cards.full_deck())
        random.Random(seed).shuffle(want)
        got = list(cards.full_deck())
        kernels._shuffle_batched(got, random.Random(seed))
        plain = list(cards.full_deck())
        kernels._shuffle_calls(plain, random.Random(seed))
        assert got == want == plain, seed


def test_deal_from_seed_same_both_ways(monkeypatch: pytest.MonkeyPatch) -> None:
    for seed in range(200):
        a, b = _both(monkeypatch, kernels, lambda seed=seed: deal.deal_from_seed(seed, seed % 3))
        assert a == b, seed


def _hand_summary(h: list[int]) -> tuple[int, ...]:
    """What win evaluation reads from a hand, worked out plainly (``kernels.LANE`` bits a face)."""
    kans = tuple(f for f in range(20) if h[f] == 3)
    key = sum(h[f] << (kernels.LANE * f) for f in range(20) if f not in kans)
    red = sum(h[f] for f in (1, 6, 9, 11, 16, 19))  # 二七十 and 贰柒拾
    n = sum(h)
    kan_huxi = sum(evaluation._KAN_H[f] for f in kans)
    return (n, red, sum(h[10:]), key, n - 3 * len(kans), *kans, kan_huxi)


def test_hand_summary_loop_and_bytes_match_a_plain_count() -> None:
    """Both ways of summarising a hand give its sums, 坎 and free key (the bytes way only
    where lanes are bytes: the interpreter's; the compiled build packs three bits a face).
    """
    for h in [*_hands(400), [3] * 7 + [0] * 13, [0] * 20, [3, 0] * 10, [4] * 10 + [0] * 10]:
        want = _hand_summary(h)
        args = (evaluation._RED_LANES, evaluation._KAN_H)
        ways = [kernels._hand_info_loop(list(h), *args)]
        if kernels.LANE == 8:
            ways.append(kernels._hand_info_bytes(h, *args))
        for got in ways:
            assert list(got[0]) == h
            assert (*got[1:6], *got[6], got[7]) == want, h


def test_hand_size_and_four_of_a_face_both_ways(monkeypatch: pytest.MonkeyPatch) -> None:
    for h in [*_hands(500), [4] + [0] * 19, [0] * 19 + [4]]:
        a, b = _both(monkeypatch, kernels, lambda h=h: (kernels.hand_size(h), kernels.has_four(h)))
        assert a == b == (sum(h), 4 in h), h


def test_one_build_flag() -> None:
    """The core's COMPILED is the kernels' flag, and no other core module works one out."""
    import pathlib

    from paohuzi import core

    assert core.COMPILED is kernels.COMPILED
    src = pathlib.Path(core.__file__).with_name("kernels.py").parent
    for f in src.glob("*.py"):
        if f.name != "kernels.py":
            assert "FunctionType" not in f.read_text(encoding="utf-8"), f.name
