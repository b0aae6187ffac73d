"""The two builds' ways of the hot counting loops, side by side, and the one build flag.

The core ships interpreted (the reference) and compiled with mypyc. The two prefer
different code for the same count: the interpreter does its counting in ``bytes``
operations (C loops it does not have to interpret), the compiled build in plain loops
of native ints (where a ``bytes`` round trip and a generic call cost more). Every such
difference lives here, each kernel with both ways beside each other and a dispatcher
that reads :data:`COMPILED`; the rules modules call the dispatcher and read as rules.
``tests/core/test_kernels.py`` runs both ways of each kernel on the pure build (by
switching :data:`COMPILED`) and checks that they agree.

This module imports nothing from the package (``cards`` reads :func:`faces_of_counts`
from here): what a kernel needs of the rules is passed in.
"""

from __future__ import annotations

import random
import types
from collections.abc import Iterable, Sequence
from typing import Final

__all__ = [
    "COMPILED",
    "LANE",
    "discard_faces",
    "faces_of_counts",
    "hand_info",
    "hand_masks",
    "hand_size",
    "has_four",
    "lanes_of",
    "pack",
    "shuffle",
]


def _probe() -> None:
    """Compiled by mypyc, a function is a native one, not a Python function object."""


# Whether the core runs compiled (mypyc): the one build flag. Tests switch it on the pure
# build to run the compiled way of each kernel; on the compiled build it is fixed.
COMPILED: Final = not isinstance(_probe, types.FunctionType)


# ---------------------------------------------------------------------------
# Counts to faces (cards.faces_of_counts).

_FACE_BYTE: Final = [bytes((f,)) for f in range(256)]


def faces_of_counts(counts: Sequence[int]) -> tuple[int, ...]:
    """Return the sorted faces of a count vector."""
    if COMPILED:
        return _faces_loop(counts if isinstance(counts, list) else list(counts))
    return _faces_bytes(counts)


def _faces_loop(cs: list[int]) -> tuple[int, ...]:
    """Compiled: a plain loop over a list (indexing is native)."""
    out: list[int] = []
    for f in range(len(cs)):
        c = cs[f]
        while c > 0:
            out.append(f)
            c -= 1
    return tuple(out)


def _faces_bytes(counts: Sequence[int]) -> tuple[int, ...]:
    """Interpreted: one ``bytes`` join."""
    return tuple(b"".join([_FACE_BYTE[f] * c for f, c in enumerate(counts)]))


# ---------------------------------------------------------------------------
# Hand sizes and the faces a hand may discard (state.py).


def hand_size(h: list[int]) -> int:
    """``sum(h)``: the compiled build's sum() is a generic call, so it loops."""
    if COMPILED:
        n = 0
        for c in h:
            n += c
        return n
    return sum(h)


def has_four(h: list[int]) -> bool:
    """Whether a hand holds four of a face: compiled, a loop beats a generic ``in``."""
    if COMPILED:
        for c in h:  # noqa: SIM110 (compiled, any() of a generator builds an object)
            if c == 4:
                return True
        return False
    return 4 in h


# bytes.translate maps that turn a hand's counts into a face bit mask via int(_, 2).
_SINGLE_CH: Final = bytes(49 if c == 1 else 48 for c in range(256))
_PAIR_CH: Final = bytes(49 if c == 2 else 48 for c in range(256))
_KAN_CH: Final = bytes(49 if c >= 3 else 48 for c in range(256))


# A hand's free count by face: a 坎 (three or more) is not free.
_FREE_COUNT: Final = bytes(c if c < 3 else 0 for c in range(256))

HandMasks = tuple[int, int, int, int, int, int, bytes]


def hand_masks(hand: Sequence[int]) -> HandMasks:
    """Singles, pairs and 坎 of a hand: masks, its cards, its small and big 坎, free counts.

    The masks are of the faces held once, twice, three times or more; the counts are
    of the small and big faces held exactly three times; last, the free count of each
    face as bytes (a 坎 counts 0).
    """
    b = bytes(hand)
    if COMPILED:
        return _hand_masks_loop(hand if isinstance(hand, list) else list(hand), b)
    singles = int(b.translate(_SINGLE_CH)[::-1], 2)  # bit f of the reversed string is face f
    pairs = int(b.translate(_PAIR_CH)[::-1], 2)
    if 3 not in b:
        return singles, pairs, 0, sum(b), 0, 0, b.translate(_FREE_COUNT)
    kans = int(b.translate(_KAN_CH)[::-1], 2)
    return singles, pairs, kans, sum(b), b.count(3, 0, 10), b.count(3, 10), b.translate(_FREE_COUNT)


def _hand_masks_loop(hand: list[int], b: bytes) -> HandMasks:
    """Compiled: :func:`hand_masks` face by face."""
    singles = pairs = kans = n = kans_small = kans_big = 0
    bit = 1  # 1 << f, doubled as f goes up (native adds, no shifts)
    for f in range(len(hand)):
        c = hand[f]
        if c:
            n += c
            if c == 1:
                singles |= bit
            elif c == 2:
                pairs |= bit
            else:
                kans |= bit
                if c == 3:
                    if f < 10:
                        kans_small += 1
                    else:
                        kans_big += 1
        bit += bit
    return singles, pairs, kans, n, kans_small, kans_big, b.translate(_FREE_COUNT) if kans else b


# Discards by the free/not-free string of a hand's small and big halves (interpreted) ...
_FREE_CH: Final = bytes(49 if 0 < c < 3 else 48 for c in range(256))
_DISCARDS_SMALL: Final = {
    format(m, "010b")[::-1].encode(): tuple(f for f in range(10) if m >> f & 1)
    for m in range(1 << 10)
}
_DISCARDS_BIG: Final = {k: tuple(f + 10 for f in v) for k, v in _DISCARDS_SMALL.items()}
# ... and by a bit mask of the free faces of each half (compiled).
_DISCARDS_LOW: Final = tuple(tuple(f for f in range(10) if m >> f & 1) for m in range(1 << 10))
_DISCARDS_HIGH: Final = tuple(tuple(f + 10 for f in t) for t in _DISCARDS_LOW)


def discard_faces(h: list[int]) -> tuple[int, ...]:
    """The faces of which a hand holds one or two copies (a 坎 stays whole), ascending."""
    if COMPILED:
        m = _free_mask(h)
        return _DISCARDS_LOW[m & 1023] + _DISCARDS_HIGH[m >> 10]
    key = bytes(h).translate(_FREE_CH)
    return _DISCARDS_SMALL[key[:10]] + _DISCARDS_BIG[key[10:]]


def _free_mask(h: list[int]) -> int:
    """Compiled: the faces held once or twice as a mask, in one native loop."""
    m = 0
    bit = 1  # 1 << f, doubled as f goes up (native adds, no shifts)
    for f in range(len(h)):
        c = h[f]
        if c == 1 or c == 2:
            m |= bit
        bit += bit
    return m


# ---------------------------------------------------------------------------
# The shuffle of a deal (deal.py): the same draws of the generator both ways.

_DECK_SIZE: Final = 80
# (i, bits of i + 1) for the Fisher-Yates steps over the 80 cards.
_STEPS: Final = tuple((i, (i + 1).bit_length()) for i in range(_DECK_SIZE - 1, 0, -1))
# 32-bit outputs drawn at once by the compiled build's shuffle: a shuffle takes about
# 119 (more than 160 in about one deal in ten million: another batch is drawn then).
_BATCH: Final = 160
# By step i, the shift that turns the top byte of a 32-bit output into
# getrandbits(bits of i + 1): 8 minus those bits.
_TOP_SHIFT: Final = bytes(8 - (i + 1).bit_length() for i in range(_DECK_SIZE))


def shuffle(deck: list[int], rng: random.Random) -> None:
    """``rng.shuffle(deck)`` of the 80 cards, step for step (see :func:`_shuffle_calls`)."""
    if COMPILED:
        _shuffle_batched(deck, rng)
    else:
        _shuffle_calls(deck, rng)


def _shuffle_calls(deck: list[int], rng: random.Random) -> None:
    """Interpreted: ``rng.shuffle(deck)``, step for step, in a third of the time.

    The same draws of ``getrandbits`` as CPython's ``Random.shuffle`` (so seeds keep
    their deals): step i draws ``getrandbits(k)``, k the bits of i + 1, until it is
    at most i. Written out so that a deal does not depend on the Python version.
    """
    getrandbits = rng.getrandbits
    for i, k in _STEPS:
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        deck[i], deck[j] = deck[j], deck[i]


def _outputs(rng: random.Random) -> bytes:
    """The generator's next :data:`_BATCH` 32-bit outputs, four bytes each, in order.

    ``getrandbits(32 * n)`` is the next n outputs, the first in the lowest 32 bits.
    """
    return rng.getrandbits(32 * _BATCH).to_bytes(4 * _BATCH, "little")


def _shuffle_batched(deck: list[int], rng: random.Random) -> None:
    """Compiled: :func:`_shuffle_calls` with the outputs drawn in batches.

    ``getrandbits(k)`` for k ≤ 8 is the top k bits of the next 32-bit output, so of
    its top byte: the same draws, the same deck. Compiled, a loop over bytes costs
    a fraction of a call per draw; interpreted, the loop costs more than the calls.
    """
    out = _outputs(rng)
    p = 3  # the top byte of the next output
    for i in range(_DECK_SIZE - 1, 0, -1):
        shift = _TOP_SHIFT[i]
        while True:
            if p >= len(out):
                out += _outputs(rng)
            j = out[p] >> shift
            p += 4
            if j <= i:
                break
        deck[i], deck[j] = deck[j], deck[i]


# ---------------------------------------------------------------------------
# Packed hands (the win solver's keys) and the hand summary of win evaluation.

# Bits a face in a packed key: interpreted, eight (``int.from_bytes`` packs a vector and
# byte sums are big-int remainders); compiled, three (a count never exceeds 4), so that
# a key of twenty faces fits a native int.
LANE: Final = 3 if COMPILED else 8
_HALF_BITS: Final = 10 * LANE


def pack(counts: Sequence[int]) -> int:
    """A lane a face; faces 0–9 (small) in the low half."""
    if LANE == 8:
        return int.from_bytes(bytes(counts), "little")
    key = 0
    for f in range(len(counts)):
        key |= counts[f] << (LANE * f)
    return key


# Hand summary: counts (bytes when interpreted, the caller's list when compiled), cards,
# red, big, free key, free cards, 坎 faces, 坎 胡息. A plain tuple, not a named class:
# one is built for every evaluation, where a class instance costs several times more.
HandInfo = tuple[Sequence[int], int, int, int, int, int, tuple[int, ...], int]


def lanes_of(faces: Iterable[int]) -> int:
    """A key mask with every bit of the given faces' lanes set (for :func:`hand_info`)."""
    return sum(((1 << LANE) - 1) << (LANE * f) for f in faces)


def hand_info(hand: Sequence[int], red_lanes: int, kan_huxi: Sequence[int]) -> HandInfo:
    """Summarise a count vector: its sums, 坎 and the key of the cards free to arrange.

    ``red_lanes`` is :func:`lanes_of` the red faces and ``kan_huxi`` the 胡息 of a 坎 by
    face: the rules' values, passed in (this module knows no rules).
    """
    if COMPILED:
        return _hand_info_loop(hand if isinstance(hand, list) else list(hand), red_lanes, kan_huxi)
    return _hand_info_bytes(hand, red_lanes, kan_huxi)


def _hand_info_bytes(hand: Sequence[int], red_lanes: int, kan_huxi: Sequence[int]) -> HandInfo:
    """Interpreted: the byte sums as big-int remainders (the key is the bytes themselves)."""
    counts = bytes(hand)
    key = int.from_bytes(counts, "little")
    # Byte sums as one big-int remainder each: 256 ≡ 1 (mod 255), and sums stay < 255.
    n = key % 255
    red = (key & red_lanes) % 255
    big = (key >> _HALF_BITS) % 255
    if 3 not in counts:
        return counts, n, red, big, key, n, (), 0
    kans = []
    huxi = 0
    f = counts.find(3)
    while f >= 0:
        kans.append(f)
        huxi += kan_huxi[f]
        key -= 3 << (8 * f)
        f = counts.find(3, f + 1)
    return counts, n, red, big, key, n - 3 * len(kans), tuple(kans), huxi


def _hand_info_loop(h: list[int], red_lanes: int, kan_huxi: Sequence[int]) -> HandInfo:
    """Compiled: one loop over native ints (three-bit lanes)."""
    n = red = big = n_kan = huxi = key = 0
    kans: list[int] = []
    for f in range(len(h)):
        c = h[f]
        if not c:
            continue
        n += c
        if (red_lanes >> (LANE * f)) & 1:
            red += c
        if f >= 10:
            big += c
        if c == 3:  # a 坎 is not free to arrange
            kans.append(f)
            huxi += kan_huxi[f]
            n_kan += 3
        else:
            key |= c << (LANE * f)
    return h, n, red, big, key, n - n_kan, tuple(kans) if kans else (), huxi
