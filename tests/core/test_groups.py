"""Groups and 胡息 (RULES.md §1, §2)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paohuzi.core.cards import RED_NUMBERS, parse_faces
from paohuzi.core.errors import NotationError
from paohuzi.core.groups import (
    ERQISHI,
    HUXI,
    SAME_FACE_KINDS,
    SCORING_SHAPES,
    Group,
    GroupKind,
    format_groups,
    huxi_of,
    is_set_shape,
    parse_group,
    parse_groups,
    set_shape_huxi,
)

K = GroupKind


@pytest.mark.parametrize(
    ("kind", "big", "small"),
    [
        (K.TI, 12, 9),
        (K.PAO, 9, 6),
        (K.WEI, 6, 3),
        (K.CHOUWEI, 6, 3),
        (K.KAN, 6, 3),
        (K.PENG, 3, 1),
    ],
)
def test_same_face_huxi(kind: GroupKind, big: int, small: int) -> None:
    for f in range(20):
        g = Group(kind, (f,) * kind.size)
        assert g.huxi == (big if f >= 10 else small)
        assert g.same_face and g.face == f


@pytest.mark.parametrize(
    ("cards", "huxi"),
    [
        ("贰柒拾", 6),
        ("二七十", 3),
        ("壹贰叁", 6),
        ("一二三", 3),
        ("肆伍陆", 0),  # the sheet's "肆伍陆" is a copying slip: an ordinary run
        ("四五六", 0),
        ("捌玖拾", 0),
        ("八九十", 0),
        ("捌捌八", 0),
        ("十十拾", 0),
    ],
)
def test_set_huxi(cards: str, huxi: int) -> None:
    faces = parse_faces(cards)
    for kind in (K.CHI, K.JU):
        assert Group(kind, faces).huxi == huxi
    assert set_shape_huxi(*sorted(faces)) == huxi


def test_pair_is_zero() -> None:
    assert Group(K.DUI, parse_faces("拾拾")).huxi == 0


@pytest.mark.parametrize(
    "cards",
    [
        "九十一",  # no wrap
        "玖拾壹",
        "一二叁",  # runs never mix sizes
        "二七拾",  # nor does 二七十
        "壹二三",
        "一一一",  # three of a face is a 坎, not a set
        "一三五",
        "二七九",
        "八八捌捌",
    ],
)
def test_not_a_set(cards: str) -> None:
    faces = parse_faces(cards)
    if len(faces) == 3:
        assert not is_set_shape(*sorted(faces))
    with pytest.raises(NotationError):
        Group(K.CHI, faces)


def test_shapes_that_are_sets() -> None:
    for cards in ("一二三", "八九十", "贰柒拾", "捌捌八", "十十拾", "伍陆柒"):
        assert is_set_shape(*sorted(parse_faces(cards)))


def test_pair_needs_one_face() -> None:
    with pytest.raises(NotationError, match="pair"):
        Group(K.DUI, parse_faces("七柒"))  # 七柒 is not a pair
    with pytest.raises(NotationError):
        Group(K.PENG, parse_faces("七七柒"))


def test_wrong_size_and_bad_face() -> None:
    with pytest.raises(NotationError, match="4 cards"):
        Group(K.TI, (1, 1, 1))
    with pytest.raises(NotationError, match="face indexes"):
        Group(K.PENG, (20, 20, 20))


def test_red_and_big_counts() -> None:
    g = Group(K.CHI, parse_faces("贰柒拾"))
    assert (g.red, g.big) == (3, 3)
    g = Group(K.PAO, parse_faces("七七七七"))
    assert (g.red, g.big) == (4, 0)
    g = Group(K.CHI, parse_faces("捌捌八"))
    assert (g.red, g.big) == (0, 2)


@pytest.mark.parametrize(
    ("text", "kind", "cards"),
    [
        ("碰:贰贰贰", K.PENG, "贰贰贰"),
        ("吃:叁壹贰", K.CHI, "壹贰叁"),
        ("偎：九九九", K.WEI, "九九九"),
        ("臭偎:九九九", K.CHOUWEI, "九九九"),
        ("跑:柒柒柒柒", K.PAO, "柒柒柒柒"),
        ("提:拾拾拾拾", K.TI, "拾拾拾拾"),
        ("peng:b2,b2,b2", K.PENG, "贰贰贰"),
        ("CHI:s2,s7,s10", K.CHI, "二七十"),
        ("chouwei:s9s9s9", K.CHOUWEI, "九九九"),
        ("ti:b10,b10,b10,b10", K.TI, "拾拾拾拾"),
    ],
)
def test_parse_group(text: str, kind: GroupKind, cards: str) -> None:
    g = parse_group(text)
    assert g == Group(kind, parse_faces(cards))
    assert parse_group(g.notation()) == g
    assert parse_group(g.notation(ascii=True)) == g


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("碰贰贰贰", "kind:cards"),
        ("杠:贰贰贰", "unknown group kind"),
        ("碰:贰贰", "3 cards"),
        ("碰:贰贰x", "unknown card"),
        ("吃:九十一", "not a run"),
    ],
)
def test_bad_group_quotes_input(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message) as e:
        parse_group(text)
    assert repr(text) in str(e.value) or text in str(e.value)


def test_parse_groups() -> None:
    gs = parse_groups("碰:贰贰贰 吃:壹贰叁")
    assert [g.kind for g in gs] == [K.PENG, K.CHI]
    assert parse_groups(gs) == gs
    assert parse_groups(["碰:贰贰贰", gs[1]]) == gs
    assert format_groups(gs) == "碰:贰贰贰 吃:壹贰叁"
    assert parse_groups(format_groups(gs, ascii=True)) == gs
    assert parse_groups("") == ()


_shapes = [tuple(sorted(parse_faces(c))) for c in ("一二三", "二七十", "捌捌八", "肆伍陆")]


@settings(max_examples=40)
@given(st.sampled_from(list(K)), st.integers(0, 19), st.sampled_from(_shapes))
def test_notation_round_trip(kind: GroupKind, face: int, shape: tuple[int, ...]) -> None:
    g = Group(kind, shape) if kind in (K.CHI, K.JU) else Group(kind, (face,) * kind.size)
    assert parse_group(str(g)) == g
    assert parse_group(g.notation(ascii=True)) == g
    assert eval(repr(g), {"parse_group": parse_group}) == g


def test_huxi_has_one_source() -> None:
    assert set(HUXI) == set(GroupKind)
    for kind in SAME_FACE_KINDS:
        for face in (3, 13):
            assert Group(kind, (face,) * kind.size).huxi == huxi_of(kind, big=face >= 10)
    assert HUXI[GroupKind.TI] == (9, 12) and HUXI[GroupKind.PENG] == (1, 3)
    assert ERQISHI == tuple(sorted(n - 1 for n in RED_NUMBERS)) == (1, 6, 9)
    assert parse_group("句:贰柒拾").huxi == huxi_of(GroupKind.JU, big=True) == 6
    assert ERQISHI in SCORING_SHAPES and parse_group("吃:四五六").huxi == 0


def test_repr_rebuilds_the_group_and_parsing_is_remembered() -> None:
    g = parse_group("peng:b2,b2,b2")
    assert repr(g) == "parse_group('碰:贰贰贰')"
    assert eval(repr(g), {"parse_group": parse_group}) == g
    assert parse_group("peng:b2,b2,b2") is g  # groups are immutable: parsed once
    for _ in range(2):  # a failure is not remembered
        with pytest.raises(NotationError, match="碰:贰贰叁"):
            parse_group("碰:贰贰叁")


@pytest.mark.parametrize("bad", [None, 5, [1, 2]])
def test_non_strings_are_notation_errors_quoting_them(bad: object) -> None:
    with pytest.raises(NotationError, match=re.escape(repr(bad))):
        parse_group(bad)  # type: ignore[arg-type]
    # Group checks its arguments itself: a NotationError on both builds
    # (a compiled typed constructor would otherwise raise TypeError first).
    with pytest.raises(NotationError):
        Group(GroupKind.PENG, bad)
    with pytest.raises(NotationError, match=re.escape(repr(bad))):
        Group(bad, (1, 1, 1))
