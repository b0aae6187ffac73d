"""Action ids, text forms and their round trips (python-chess style parse/format pairs)."""

from __future__ import annotations

import pytest

from paohuzi.core.actions import (
    CHI_BASE,
    HU_ID,
    NO_SHAPE,
    NUM_ACTIONS,
    PASS_ID,
    PENG_ID,
    Action,
    ActionKind,
    chi_id,
    parse_action,
    shape_faces,
)
from paohuzi.core.cards import parse_faces
from paohuzi.core.errors import NotationError


def all_chi_ids(x: int) -> list[int]:
    out = []
    for s0 in range(6):
        if shape_faces(x, s0) is None:
            continue
        for b1 in range(7):
            for b2 in range(b1, 7):
                if b1 != NO_SHAPE and shape_faces(x, b1) is None:
                    continue
                if b2 != NO_SHAPE and shape_faces(x, b2) is None:
                    continue
                out.append(chi_id(s0, b1, b2))
    return out


def test_id_ranges_are_dense_and_documented() -> None:
    assert (PASS_ID, HU_ID, PENG_ID, CHI_BASE, NUM_ACTIONS) == (20, 21, 22, 23, 317)
    for f in range(20):
        a = Action.from_id(f)
        assert a.kind is ActionKind.DISCARD and a.face == f and a.id == f


@pytest.mark.parametrize("x", range(20))
def test_every_chi_id_round_trips_through_text(x: int) -> None:
    for aid in all_chi_ids(x):
        a = Action.from_id(aid, x)
        assert a.kind is ActionKind.CHI
        assert x in a.groups[0].faces
        for ascii_form in (False, True):
            back = parse_action(a.text(ascii=ascii_form), x)
            assert back == a, (a.text(), back.text())


@pytest.mark.parametrize(
    ("text", "card", "want"),
    [
        ("打:五", None, 4),
        ("discard:b10", None, 19),
        ("过", 3, PASS_ID),
        ("pass", None, PASS_ID),
        ("胡", 3, HU_ID),
        ("碰:四", 3, PENG_ID),
        ("peng", 3, PENG_ID),
        ("吃:三四五", 4, chi_id(0)),
        ("吃:三四五 比:五五伍", 4, chi_id(0, 4)),
        ("chi:s3,s4,s5 bi:s5,s5,b5", 4, chi_id(0, 4)),
    ],
)
def test_parse_action(text: str, card: int | None, want: int) -> None:
    assert parse_action(text, card).id == want


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("", None),
        ("扔:五", None),
        ("打:狗", None),
        ("打:五六", None),
        ("碰:六", 3),
        ("吃:一二三", None),
        ("吃:一三五", 2),
        ("吃:一二三 碰:二二二", 1),
    ],
)
def test_bad_action_text_is_quoted(text: str, card: int | None) -> None:
    with pytest.raises(NotationError) as e:
        parse_action(text, card)
    assert repr(text) in str(e.value) or not text


def test_bad_ids() -> None:
    for bad in (-1, NUM_ACTIONS, 10_000):
        with pytest.raises(NotationError, match=str(bad)):
            Action.from_id(bad, 0)
    with pytest.raises(NotationError):
        Action.from_id(PENG_ID)  # no card on offer


def test_shapes() -> None:
    (x,) = parse_faces("七")
    assert shape_faces(x, 3) == parse_faces("二七十")
    assert shape_faces(parse_faces("九")[0], 2) is None  # 九十一 is no run
    assert shape_faces(parse_faces("一")[0], 0) is None


def test_hand_cards_leave_out_the_claimed_copy() -> None:
    (x,) = parse_faces("五")
    a = parse_action("吃:三四五 比:五五伍", x)
    assert sorted(a.hand_cards()) == sorted(parse_faces("三四五五伍"))
    assert parse_action("碰", x).hand_cards() == (x, x)
