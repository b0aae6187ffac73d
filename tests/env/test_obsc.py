"""The C encoder (_obsc.c): built where a compiler is, equal to the Python encoder float for
float, and safe on bad input (a clear ValueError, never a write out of bounds)."""

from __future__ import annotations

import importlib
import os
import random
import shutil
import subprocess
import sys
from types import ModuleType

import numpy as np
import pytest

from paohuzi.core.actions import NUM_ACTIONS
from paohuzi.core.engine import Phase, new_game
from paohuzi.core.views import view
from paohuzi.encoding import observation as obs_mod
from paohuzi.encoding.layout import FEATURES, OFFSET, RELATIVE, TABLE_KINDS
from paohuzi.encoding.observation import (
    Encoder,
    _encode_batch_python,
    _encode_python,
    offer_hidden,
)
from paohuzi.env import ACCELERATED, OBS_SIZE, encode, encode_batch

from .conftest import random_positions, random_walk

needs_c = pytest.mark.skipif(not ACCELERATED, reason="the C encoder is not built here")


def _obsc() -> ModuleType:
    return importlib.import_module("paohuzi.encoding._obsc")


def test_the_c_encoder_is_built_where_a_compiler_is() -> None:
    """pip install (editable or not) compiles it when cc is there: it must not be missing
    silently, or the env would run at the Python encoder's speed unnoticed."""
    if os.environ.get("PAOHUZI_PURE_ENCODER"):
        pytest.skip("PAOHUZI_PURE_ENCODER is set")
    if not (shutil.which("cc") or shutil.which("gcc")):
        pytest.skip("no C compiler on PATH")
    assert ACCELERATED, "a C compiler is here but the C encoder was not built: pip install -e ."


@needs_c
def test_c_equals_python_on_every_position_and_seat() -> None:
    """Every position of 150 random rounds, each seat, with its legal ids: the same floats
    and the same mask (face-down groups, 偎胡 windows and settled rounds included)."""
    rng = random.Random(23)
    c_enc, py_enc = Encoder(accelerated=True), Encoder(accelerated=False)
    checked = hidden = over = 0
    for s in random_walk(150, rng):
        for seat in range(3):
            legal = s.legal_actions(seat)
            o, m = c_enc.observe(s, seat, legal)
            po, pm = py_enc.observe(s, seat, legal)
            assert o.dtype == np.float32 and m.dtype == np.int8
            assert o.tobytes() == po.tobytes() and m.tobytes() == pm.tobytes()
            assert encode(s, seat).tobytes() == _encode_python(s, seat).tobytes()
            checked += 1
        hidden += any(t.hidden for table in s.tables for t in table)
        over += s.over
    assert checked > 10_000 and hidden > 100 and over == 150


@needs_c
def test_c_batch_equals_python_batch() -> None:
    positions = random_positions(6, seed=4)
    seats = [i % 3 for i in range(len(positions))]
    a = encode_batch(positions, seats)
    b = _encode_batch_python(positions, seats)
    assert a.shape == b.shape == (len(positions), OBS_SIZE) and a.tobytes() == b.tobytes()


@needs_c
def test_c_fills_every_entry_of_a_dirty_buffer() -> None:
    s = new_game(seed=3)
    out = np.full(OBS_SIZE, 7.0, np.float32)
    mask = np.full(NUM_ACTIONS, 7, np.int8)
    _obsc().encode(s, s.dealer, s.legal_actions(s.dealer), out, mask)
    assert out.tobytes() == _encode_python(s, s.dealer).tobytes()
    assert np.flatnonzero(mask).tolist() == sorted(s.legal_actions(s.dealer))


@needs_c
@pytest.mark.parametrize(
    ("seat", "legal", "out", "mask", "message"),
    [
        (3, (), OBS_SIZE, NUM_ACTIONS, "seat 3 out of range"),
        (-1, (), OBS_SIZE, NUM_ACTIONS, "seat -1 out of range"),
        (0, (NUM_ACTIONS,), OBS_SIZE, NUM_ACTIONS, f"action id {NUM_ACTIONS} out of range"),
        (0, (-5,), OBS_SIZE, NUM_ACTIONS, "action id -5 out of range"),
        (0, (), OBS_SIZE - 1, NUM_ACTIONS, "out must be"),
        (0, (), OBS_SIZE, NUM_ACTIONS + 1, "mask must be"),
    ],
)
def test_c_rejects_bad_arguments(
    seat: int, legal: tuple[int, ...], out: int, mask: int, message: str
) -> None:
    s = new_game(seed=1)
    with pytest.raises(ValueError, match=message):
        _obsc().encode(s, seat, legal, np.zeros(out, np.float32), np.zeros(mask, np.int8))


@needs_c
def test_c_rejects_a_buffer_of_the_wrong_type() -> None:
    s = new_game(seed=1)
    with pytest.raises(ValueError, match="out must be"):
        _obsc().encode(s, 0, (), np.zeros(OBS_SIZE, np.float64), None)
    with pytest.raises(BufferError, match="not writable"):
        _obsc().encode(s, 0, (), b"\0" * (4 * OBS_SIZE), None)
    with pytest.raises(ValueError, match="as many seats"):
        _obsc().encode_rows([s], [0, 1], np.zeros((1, OBS_SIZE), np.float32))


@needs_c
def test_c_rejects_a_corrupt_state_instead_of_writing_out_of_bounds() -> None:
    s = new_game(seed=2)
    s.piles[1].append(20)  # a face that does not exist
    with pytest.raises(ValueError, match="face 20 out of range"):
        encode(s, 0)
    s = new_game(seed=2)
    s.hands[0] = s.hands[0][:19]
    with pytest.raises(ValueError, match="one count per face"):
        encode(s, 0)
    s = new_game(seed=2)
    s.hands[0][3] = 5  # five copies of a face
    with pytest.raises(ValueError, match="hand count 5 out of range"):
        encode(s, 0)
    s = new_game(seed=2)
    s.tables = [[], []]  # type: ignore[list-item]
    with pytest.raises(ValueError, match="fewer than three"):
        encode(s, 0)


@needs_c
def test_a_stale_build_is_refused_with_a_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    """An editable install whose _obsc.c was edited after it was compiled."""
    monkeypatch.setattr(_obsc(), "SOURCE_SHA256", "0" * 64)
    with pytest.warns(RuntimeWarning, match="older _obsc.c"):
        assert obs_mod._accelerator() is None


def test_pure_encoder_on_request() -> None:
    """PAOHUZI_PURE_ENCODER=1: the Python encoder runs, and encodes the same."""
    code = (
        "from paohuzi.env import ACCELERATED, encode; from paohuzi.core.engine import new_game;"
        "s = new_game(seed=9); print(ACCELERATED, encode(s, s.dealer).tobytes().hex())"
    )
    env = {**os.environ, "PAOHUZI_PURE_ENCODER": "1"}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout.split()
    s = new_game(seed=9)
    assert out == ["False", encode(s, s.dealer).tobytes().hex()]
    if not ACCELERATED:
        with pytest.raises(ValueError, match="not built"):
            Encoder(accelerated=True)


@needs_c
def test_the_c_encoder_reads_every_block_of_the_layout_by_name() -> None:
    """Its offsets come from layout.py (no block restated by hand): the names it asks
    setup() for, with each table's other kinds following its 吃 block, are the layout's."""
    read = set(_obsc().BLOCKS)
    kinds = {
        f"table.{w}.{k.ascii}" for w in RELATIVE for k in TABLE_KINDS[1:]
    }  # written at table.<w>.chi + kind × 20
    assert read | kinds == {f.name for f in FEATURES}
    for w in RELATIVE:
        for i, k in enumerate(TABLE_KINDS):
            assert OFFSET[f"table.{w}.{k.ascii}"] == OFFSET[f"table.{w}.chi"] + 20 * i


@needs_c
def test_the_c_encoder_refuses_a_layout_it_does_not_write() -> None:
    """A block whose size differs from what _obsc.c writes is refused, and the layout in
    use is kept (the encodings stay right)."""
    s = new_game(seed=5)
    before = encode(s, 0).tobytes()
    blocks = {f.name: (f.start, f.size) for f in FEATURES}
    for name, bad in (("dealer", (OFFSET["dealer"], 4)), ("unseen", (OBS_SIZE, 20))):
        with pytest.raises(ValueError, match=name):
            _obsc().setup(TABLE_KINDS, Phase.CLAIM, Phase.OVER, {**blocks, name: bad}, offer_hidden)
    with pytest.raises(KeyError, match="no block hand"):
        blocks.pop("hand")
        _obsc().setup(TABLE_KINDS, Phase.CLAIM, Phase.OVER, blocks, offer_hidden)
    assert encode(s, 0).tobytes() == before


def test_offer_hidden_is_the_views_rule() -> None:
    """The encoders read the §14 rule for a card on offer from offer_hidden, which says
    what view() says: hidden exactly when the view has a source but no card."""
    rng = random.Random(8)
    hidden = 0
    for s in random_walk(400, rng):
        if s.window is None:
            continue
        for seat in range(3):
            v = view(s, seat)
            assert offer_hidden(s, seat) == (v.offer_source is not None and v.offer is None)
            hidden += offer_hidden(s, seat)
    assert hidden > 0
