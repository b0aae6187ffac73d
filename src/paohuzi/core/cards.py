"""Cards and faces (RULES.md §1).

A face is an ``int`` 0–19: 0–9 are the small faces 一…十 (小字), 10–19 the big
faces 壹…拾 (大字). Plain ints keep count vectors and the engine fast; :class:`Face`
gives them names. Copies of a face are indistinguishable, so a hand is a multiset
of faces, usually held as a count vector of length 20.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import IntEnum

from .errors import HandError, NotationError
from .kernels import faces_of_counts  # both builds' ways side by side

__all__ = [
    "BIG_GLYPHS",
    "COPIES",
    "DECK_SIZE",
    "NUM_FACES",
    "RED_FACES",
    "RED_MASK",
    "RED_NUMBERS",
    "SMALL_GLYPHS",
    "Face",
    "ascii_name",
    "check_counts",
    "counts_of",
    "face_of",
    "faces_of_counts",
    "format_faces",
    "full_deck",
    "glyph",
    "is_big",
    "is_red",
    "number",
    "parse_face",
    "parse_faces",
]

NUM_FACES = 20
COPIES = 4
DECK_SIZE = NUM_FACES * COPIES

SMALL_GLYPHS = "一二三四五六七八九十"
BIG_GLYPHS = "壹贰叁肆伍陆柒捌玖拾"
RED_NUMBERS = frozenset({2, 7, 10})
"""Numbers of the red cards 二七十/贰柒拾 (§1); the one place they are declared."""
RED_FACES = frozenset(f for f in range(NUM_FACES) if f % 10 + 1 in RED_NUMBERS)
"""The six red faces, for 点胡/红胡/乌胡 (§11) and the 二七十 set (§2).

>>> sorted(RED_FACES)
[1, 6, 9, 11, 16, 19]
"""
RED_MASK = sum(1 << f for f in RED_FACES)
"""The red faces as a bit mask (bit ``f`` for face ``f``), for the engine's masks."""


class Face(IntEnum):
    """The 20 faces; ``Face.S1`` is 一 (small one), ``Face.B10`` is 拾 (big ten)."""

    S1 = 0
    S2 = 1
    S3 = 2
    S4 = 3
    S5 = 4
    S6 = 5
    S7 = 6
    S8 = 7
    S9 = 8
    S10 = 9
    B1 = 10
    B2 = 11
    B3 = 12
    B4 = 13
    B5 = 14
    B6 = 15
    B7 = 16
    B8 = 17
    B9 = 18
    B10 = 19

    def __str__(self) -> str:
        """Print as the glyph, the way players write cards."""
        return glyph(self)


_GLYPHS = SMALL_GLYPHS + BIG_GLYPHS
# face index -> glyph, for the hot formatting paths (a view names ~60 cards): one look-up a
# card instead of two calls. Indexing a list refuses floats (TypeError) and faces past 39
# (IndexError); the 20 Nones after the glyphs catch 20-39 and the negatives -1 to -20 (which
# wrap around), so every bad face falls back to ``_check_face``'s error.
_GLYPH_AT: list[str | None] = [*_GLYPHS, *([None] * NUM_FACES)]
_RED = tuple(f in RED_FACES for f in range(NUM_FACES))
_GLYPH_TO_FACE = {g: i for i, g in enumerate(_GLYPHS)}
_ASCII_TO_FACE = {f"{'sb'[i // 10]}{i % 10 + 1}": i for i in range(NUM_FACES)}


def _check_face(face: object) -> int:
    if not isinstance(face, int) or not 0 <= face < NUM_FACES:
        raise NotationError(f"not a face index 0-19: {face!r}")
    return face


def number(face: int) -> int:
    """Return the number 1–10 of a face.

    >>> number(11)
    2
    """
    return _check_face(face) % 10 + 1


def is_big(face: int) -> bool:
    """Tell the big faces 壹…拾 (大字) from the small ones (§1)."""
    return _check_face(face) >= 10


def is_red(face: int) -> bool:
    """Tell the red faces 二七十贰柒拾, which decide 点胡/红胡/乌胡 (§11).

    >>> is_red(parse_face("柒")), is_red(parse_face("八"))
    (True, False)
    """
    return _RED[_check_face(face)]


def face_of(num: int, *, big: bool) -> int:
    """Return the face with this number (1–10) and size.

    >>> glyph(face_of(7, big=True))
    '柒'
    """
    if not isinstance(num, int) or not 1 <= num <= 10:
        raise NotationError(f"not a card number 1-10: {num!r}")
    return num - 1 + (10 if big else 0)


def glyph(face: object) -> str:
    """Return the canonical Chinese glyph of a face."""
    try:
        g = _GLYPH_AT[face]  # type: ignore[call-overload]
    except (IndexError, TypeError):
        g = None
    return g if g is not None else _GLYPHS[_check_face(face)]  # raises, naming the face


def ascii_name(face: int) -> str:
    """Return the ASCII alias of a face (``s1``…``s10``, ``b1``…``b10``), for plain terminals."""
    f = _check_face(face)
    return f"{'sb'[f // 10]}{f % 10 + 1}"


def parse_face(text: object) -> int:
    """Parse one face from a glyph (``贰``) or its ASCII alias (``b2``).

    >>> parse_face("贰"), parse_face("b2")
    (11, 11)
    """
    if not isinstance(text, str):
        raise NotationError(f"a card is written as a string like '贰', got {text!r}")
    s = text.strip()
    if s in _GLYPH_TO_FACE:
        return _GLYPH_TO_FACE[s]
    face = _ASCII_TO_FACE.get(s.lower())
    if face is None:
        raise NotationError(f"unknown card {text!r}: expected one of {_GLYPHS} or s1..s10/b1..b10")
    return face


def parse_faces(text: object) -> tuple[int, ...]:
    """Parse a run of faces in either notation, with or without spaces or commas.

    >>> parse_faces("壹贰叁 s10")
    (10, 11, 12, 9)
    """
    if not isinstance(text, str):
        raise NotationError(f"cards are written as a string like '壹贰叁', got {text!r}")
    out: list[int] = []
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch in " \t\n,，、":
            i += 1
            continue
        face = _GLYPH_TO_FACE.get(ch)
        if face is not None:
            out.append(face)
            i += 1
            continue
        if ch in "sbSB":
            j = i + 1
            while j < n and text[j].isascii() and text[j].isdigit():
                j += 1
            digits = text[i + 1 : j]
            # s10 vs s1 followed by 0: numbers are 1..10, so a two-digit "10" is ten.
            digits_used = "10" if digits.startswith("10") else digits[:1]
            if digits_used and 1 <= int(digits_used) <= 10:
                out.append(int(digits_used) - 1 + (10 if ch in "bB" else 0))
                i = i + 1 + len(digits_used)
                continue
        raise NotationError(
            f"unknown card {ch!r} at position {i} in {text!r}: "
            f"expected glyphs {_GLYPHS} or s1..s10/b1..b10"
        )
    return tuple(out)


def format_faces(faces: Iterable[int], *, ascii: bool = False, sep: str = "") -> str:
    """Format faces as glyphs (default) or ASCII aliases (space-separated).

    >>> format_faces([0, 19]), format_faces([0, 19], ascii=True)
    ('一拾', 's1 b10')
    """
    if ascii:
        return (sep or " ").join(ascii_name(f) for f in faces)
    faces = faces if isinstance(faces, (list, tuple)) else list(faces)  # read twice on error
    try:
        return sep.join([_GLYPH_AT[f] for f in faces])  # type: ignore[misc]
    except (IndexError, TypeError):  # a None joined, or a bad index
        return sep.join([glyph(f) for f in faces])  # raises, naming the bad face


def counts_of(faces: Iterable[object]) -> list[int]:
    """Count a multiset of faces into a vector of length 20, the form evaluation uses."""
    c = [0] * NUM_FACES
    try:
        for f in faces:
            if type(f) is int and 0 <= f < NUM_FACES:
                c[f] += 1
            else:
                c[_check_face(f)] += 1  # raises for anything but a face index (bool, enum: counted)
    except TypeError:
        raise NotationError(f"expected face indexes 0-19, got {faces!r}") from None
    return c


def full_deck() -> tuple[int, ...]:
    """Return all 80 cards in face order."""
    return tuple(f for f in range(NUM_FACES) for _ in range(COPIES))


def check_counts(counts: Sequence[int], what: str = "cards") -> None:
    """Reject more than four copies of any face (§1: the deck holds four of each).

    >>> check_counts([5] + [0] * 19, "hand")
    Traceback (most recent call last):
    ...
    paohuzi.core.errors.HandError: hand: 5 copies of 一 (only 4 exist)
    """
    for f, c in enumerate(counts):
        if c > COPIES:
            raise HandError(f"{what}: {c} copies of {glyph(f)} (only {COPIES} exist)")
