"""The observation encoder: the fast path equals the view's encoding, so it cannot leak."""

from __future__ import annotations

import random
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paohuzi.bots.search import sample_assignment
from paohuzi.core.actions import NUM_ACTIONS
from paohuzi.core.engine import State, determinize, new_game
from paohuzi.core.views import view
from paohuzi.encoding.observation import (
    Encoder,
    _encode_batch_python,
    _encode_python,
    _raw,
    bounds,
)
from paohuzi.env import (
    ACCELERATED,
    FEATURES,
    OBS_SIZE,
    ORACLE_FEATURES,
    ORACLE_SIZE,
    action_mask,
    encode,
    encode_batch,
    encode_oracle,
    encode_view,
)

from .conftest import random_positions, random_walk

DOCS = Path(__file__).resolve().parents[2] / "docs" / "env.md"
# Both implementations: the Python encoder, and the C one where it is built.
BOTH = pytest.mark.parametrize(
    "accelerated",
    [
        False,
        pytest.param(True, marks=pytest.mark.skipif(not ACCELERATED, reason="no C encoder")),
    ],
)


def _block(obs: np.ndarray, name: str) -> np.ndarray:
    f = next(f for f in FEATURES if f.name == name)
    return obs[f.start : f.stop]


def _play(seed: int, choices: list[float]) -> State:
    s = new_game(seed=seed)
    for c in choices:
        if s.over:
            break
        seat = s.to_act()[0]
        ids = s.legal_actions(seat)
        s.apply_fast(seat, ids[int(c * len(ids))])
    return s


def test_layout_is_contiguous_and_complete() -> None:
    at = 0
    for f in (*FEATURES, *ORACLE_FEATURES):
        assert f.start == at and f.size > 0, f
        at = f.stop
    assert FEATURES[-1].stop == OBS_SIZE and ORACLE_FEATURES[-1].stop == ORACLE_SIZE
    assert len({f.name for f in (*FEATURES, *ORACLE_FEATURES)}) == len(FEATURES) + len(
        ORACLE_FEATURES
    )


def test_every_feature_is_documented() -> None:
    text = DOCS.read_text(encoding="utf-8")
    documented = set(re.findall(r"^\| `([a-z_.]+)` \|", text, re.M))
    names = {f.name for f in (*FEATURES, *ORACLE_FEATURES)}
    assert names - documented == set(), "features missing from docs/env.md"
    assert documented - names == set(), "docs/env.md lists features that do not exist"


def test_fast_encoding_equals_the_views_on_every_position() -> None:
    """Thousands of positions, every seat: encode(state, seat) == encode_view(view(...))."""
    positions = random_positions(60, seed=11)
    assert any(s.over for s in positions) and any(s.window is not None for s in positions)
    for s in positions:
        for seat in range(3):
            expected = encode_view(view(s, seat))
            np.testing.assert_array_equal(encode(s, seat), expected)
            np.testing.assert_array_equal(_encode_python(s, seat), expected)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), choices=st.lists(st.floats(0, 0.999), max_size=60))
def test_encoding_is_a_function_of_the_view(seed: int, choices: list[float]) -> None:
    s = _play(seed, choices)
    for seat in range(3):
        expected = encode_view(view(s, seat))
        np.testing.assert_array_equal(encode(s, seat), expected)
        np.testing.assert_array_equal(_encode_python(s, seat), expected)


@BOTH
def test_the_incremental_encoder_equals_the_views_encoding_move_by_move(accelerated: bool) -> None:
    """The environments' Encoder keeps blocks between calls: at every position of whole
    rounds, for seats in any order, it equals the view's encoding, and its mask the legal ids;
    fed earlier positions and other rounds in any order, it starts afresh and still does."""
    rng = random.Random(17)
    enc = Encoder(accelerated=accelerated)
    saved: list[State] = []
    calls = 0
    for s in random_walk(40, rng):  # one State object per round, as the env feeds it
        for seat in rng.sample(range(3), rng.randrange(4)):
            legal = s.legal_actions(seat)
            obs, mask = enc.observe(s, seat, legal)
            np.testing.assert_array_equal(obs, encode_view(view(s, seat)))
            assert np.flatnonzero(mask).tolist() == sorted(legal) and mask.dtype == np.int8
            assert enc.raw(s, seat) == bytes(_raw(s, seat))
            calls += 1
        if rng.random() < 0.05 or s.over:
            saved.append(s.clone())
    assert calls > 1000
    for s in rng.sample(saved, len(saved)):
        seat = rng.randrange(3)
        np.testing.assert_array_equal(enc.encode(s, seat), encode_view(view(s, seat)))


def test_states_with_the_same_view_encode_alike() -> None:
    """The leak test: resample every hidden card (hands, 偎 faces, stock): same encoding."""
    rng = random.Random(5)
    checked = changed = 0
    for s in random_positions(25, seed=3):
        if s.over:
            continue
        seat = s.to_act()[0]
        v = view(s, seat)
        other = determinize(v, sample_assignment(v, rng), s.rules)
        changed += other.hands != s.hands or other.stock != s.stock
        np.testing.assert_array_equal(encode(other, seat), encode(s, seat))
        checked += 1
    assert checked > 300 and changed > checked // 2


def test_oracle_encoding_holds_what_the_view_hides() -> None:
    rng = random.Random(9)
    differ = 0
    for s in random_positions(5, seed=4)[:-1]:
        if s.over:
            continue
        seat = s.to_act()[0]
        o = encode_oracle(s, seat)
        assert o.shape == (ORACLE_SIZE,) and o.dtype == np.float32
        np.testing.assert_array_equal(o[:OBS_SIZE], encode(s, seat))
        hands = o[OBS_SIZE : OBS_SIZE + 40].reshape(2, 20)
        assert hands[0].tolist() == s.hands[(seat + 1) % 3]
        assert hands[1].tolist() == s.hands[(seat + 2) % 3]
        v = view(s, seat)
        other = determinize(v, sample_assignment(v, rng), s.rules)
        differ += not np.array_equal(encode_oracle(other, seat), o)
    assert differ > 0  # the oracle part is not a function of the view


def test_batch_equals_single_encodes() -> None:
    positions = random_positions(8, seed=2)
    seats = [i % 3 for i in range(len(positions))]
    batch = encode_batch(positions, seats)
    assert batch.shape == (len(positions), OBS_SIZE) and batch.dtype == np.float32
    assert batch.tobytes() == _encode_batch_python(positions, seats).tobytes()
    for row, s, seat in zip(batch, positions, seats, strict=True):
        np.testing.assert_array_equal(row, encode(s, seat))
    assert encode_batch([], []).shape == (0, OBS_SIZE)
    with pytest.raises(ValueError, match="2 states but 1 seats"):
        encode_batch(positions[:2], [0])


def test_known_values_of_the_opening() -> None:
    s = new_game(seed=7)
    dealer = s.dealer
    obs = encode(s, dealer)
    assert _block(obs, "hand").tolist() == s.hands[dealer]
    assert _block(obs, "hand_sizes").tolist() == [21 - 0, 20, 20] or sum(s.hands[dealer]) < 21
    assert _block(obs, "stock").tolist() == [19]
    assert _block(obs, "dealer").tolist() == [1, 0, 0]
    assert _block(obs, "phase").tolist() == [1, 0, 0]
    assert _block(obs, "to_act").tolist() == [1, 0, 0]
    assert _block(obs, "liangzhang")[s.liangzhang] == 1
    assert _block(obs, "balances").tolist() == [1.0, 1.0, 1.0]
    unseen = _block(obs, "unseen")
    assert unseen.tolist() == [4 - c for c in s.hands[dealer]] or s.tables[dealer]
    legal = np.flatnonzero(action_mask(obs)).tolist()
    assert legal == list(s.legal_actions(dealer))
    assert action_mask(obs).shape == (NUM_ACTIONS,)
    # the next seat sees the dealer's 21 cards as a count only
    nxt = encode(s, (dealer + 1) % 3)
    assert _block(nxt, "dealer").tolist() == [0, 0, 1]
    assert _block(nxt, "to_act").tolist() == [0, 0, 1]
    assert not action_mask(nxt).any()


def test_every_encoding_lies_within_its_bounds() -> None:
    low, high = bounds()
    for s in random_positions(10, seed=8):
        for seat in range(3):
            o = encode(s, seat)
            assert (o >= low).all() and (o <= high).all()


def test_a_spectator_view_has_nothing_to_encode() -> None:
    with pytest.raises(ValueError, match="spectator"):
        encode_view(view(new_game(seed=1), None))
