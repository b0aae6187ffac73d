"""Cards and notation (RULES.md §1): both notations, round trips, clear errors."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paohuzi.core.cards import (
    BIG_GLYPHS,
    DECK_SIZE,
    RED_FACES,
    RED_MASK,
    RED_NUMBERS,
    SMALL_GLYPHS,
    Face,
    ascii_name,
    check_counts,
    counts_of,
    face_of,
    faces_of_counts,
    format_faces,
    full_deck,
    glyph,
    is_big,
    is_red,
    number,
    parse_face,
    parse_faces,
)
from paohuzi.core.errors import HandError, NotationError, PaohuziError

faces_st = st.lists(st.integers(0, 19), max_size=30)


def test_twenty_faces_in_both_notations() -> None:
    for f in range(20):
        assert parse_face(glyph(f)) == f
        assert parse_face(ascii_name(f)) == f
        assert parse_face(ascii_name(f).upper()) == f
    assert [glyph(f) for f in range(20)] == list(SMALL_GLYPHS + BIG_GLYPHS)
    assert ascii_name(0) == "s1" and ascii_name(9) == "s10"
    assert ascii_name(10) == "b1" and ascii_name(19) == "b10"
    assert str(Face.B2) == "贰" and int(Face.S10) == 9


def test_number_size_colour() -> None:
    assert [number(f) for f in (0, 9, 10, 19)] == [1, 10, 1, 10]
    assert not is_big(9) and is_big(10)
    assert {glyph(f) for f in range(20) if is_red(f)} == set("二七十贰柒拾")
    assert sum(is_red(f) for f in full_deck()) == 24
    assert len(full_deck()) == DECK_SIZE == 80
    assert face_of(7, big=True) == 16 and face_of(10, big=False) == 9


def test_parse_with_and_without_spaces_or_commas() -> None:
    assert parse_faces("壹贰叁 二七十") == (10, 11, 12, 1, 6, 9)
    assert parse_faces("b1 b2 b3, s2,s7，s10") == (10, 11, 12, 1, 6, 9)
    assert parse_faces("b1b2b3s2s7s10") == (10, 11, 12, 1, 6, 9)
    assert parse_faces("s10s1") == (9, 0)
    assert parse_faces("壹s10贰") == (10, 9, 11)
    assert parse_faces("") == ()


@pytest.mark.parametrize("bad", ["x", "壹贰z", "s0", "s11", "b", "s", "q3", "壹 贰 十一0"])
def test_unknown_card_quotes_the_input(bad: str) -> None:
    with pytest.raises(NotationError) as e:
        parse_faces(bad)
    assert repr(bad) in str(e.value)
    assert isinstance(e.value, ValueError) and isinstance(e.value, PaohuziError)


@pytest.mark.parametrize("bad", ["", "一二", "z", "s11", "b0"])
def test_parse_face_rejects(bad: str) -> None:
    with pytest.raises(NotationError, match="unknown card"):
        parse_face(bad)


@pytest.mark.parametrize("bad", [-1, 20, 3.0, "1"])
def test_face_index_checked(bad: object) -> None:
    with pytest.raises(NotationError):
        glyph(bad)  # type: ignore[arg-type]


def test_face_of_checks_number() -> None:
    with pytest.raises(NotationError, match="11"):
        face_of(11, big=False)


@settings(max_examples=60)
@given(faces_st)
def test_round_trip_glyphs(faces: list[int]) -> None:
    assert parse_faces(format_faces(faces)) == tuple(faces)


@settings(max_examples=60)
@given(faces_st)
def test_round_trip_ascii(faces: list[int]) -> None:
    text = format_faces(faces, ascii=True)
    assert text.isascii()
    assert parse_faces(text) == tuple(faces)
    assert parse_faces(text.replace(" ", "")) == tuple(faces)


@settings(max_examples=60)
@given(faces_st)
def test_counts_round_trip(faces: list[int]) -> None:
    counts = counts_of(faces)
    assert len(counts) == 20 and sum(counts) == len(faces)
    assert faces_of_counts(counts) == tuple(sorted(faces))


def test_five_copies_rejected() -> None:
    check_counts([4] * 20)
    with pytest.raises(HandError, match="5 copies of 三"):
        check_counts(counts_of(parse_faces("三三三三三")))


def test_red_faces_are_declared_once_and_agree() -> None:
    assert {number(f) for f in RED_FACES} == set(RED_NUMBERS) == {2, 7, 10}
    assert {f for f in range(20) if is_red(f)} == RED_FACES
    assert sum(1 << f for f in RED_FACES) == RED_MASK


def test_booleans_are_keywords() -> None:
    with pytest.raises(TypeError):
        format_faces([0], True)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        face_of(7, True)  # type: ignore[call-arg]


@pytest.mark.parametrize("text", [None, 5, [0], b"\xe4\xb8\x80"])
def test_non_strings_are_notation_errors(text: object) -> None:
    with pytest.raises(NotationError, match=re.escape(f"got {text!r}")):
        parse_faces(text)  # type: ignore[arg-type]
    with pytest.raises(NotationError):
        parse_face(text)  # type: ignore[arg-type]
