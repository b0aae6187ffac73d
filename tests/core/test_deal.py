"""The deal (RULES.md §3): seeded, checked, and written in notation that rebuilds it."""

from __future__ import annotations

import pytest

from paohuzi.core.cards import format_faces
from paohuzi.core.deal import Deal, check_seat, check_seed, random_deal
from paohuzi.core.engine import new_game
from paohuzi.core.errors import RecordError


def test_repr_rebuilds_the_deal() -> None:
    d = random_deal(11, 2)
    again = eval(repr(d), {"Deal": Deal})
    assert again == d and again.liangzhang == d.hands[2][-1]
    assert Deal.from_dict(d.to_dict()) == d


@pytest.mark.parametrize(
    ("data", "quote"),
    [
        ("nope", "'nope'"),
        ({"dealer": 0, "hands": "x", "stock": ""}, "hands must be three strings"),
        ({"dealer": 5, "hands": ["", "", ""], "stock": ""}, "got 5"),
        ({"dealer": 0, "hands": ["一", "二", "三"], "stock": "四"}, "21, 20, 20"),
        ({"dealer": 0, "hands": ["鬼", "", ""], "stock": ""}, "鬼"),
    ],
)
def test_bad_deals_are_record_errors_that_quote_them(data: object, quote: str) -> None:
    with pytest.raises(RecordError) as info:
        Deal.from_dict(data)
    assert quote in str(info.value)


def test_a_deal_uses_every_card_once() -> None:
    d = random_deal(3, 0)
    hands = [list(h) for h in d.hands]
    hands[1][0] = hands[0][0]  # one face five times, another three
    with pytest.raises(RecordError, match="all 80 cards once"):
        Deal(0, (tuple(hands[0]), tuple(hands[1]), tuple(hands[2])), d.stock)
    with pytest.raises(RecordError, match="tuple of faces"):
        Deal(0, (d.hands[0], d.hands[1], (True,) * 20), d.stock)
    # Deal checks its arguments itself: a RecordError on both builds, never a TypeError.
    with pytest.raises(RecordError, match="three hands"):
        Deal(0, (d.hands[0], d.hands[1]), d.stock)
    with pytest.raises(RecordError, match="tuple of faces"):
        Deal(0, d.hands, list(d.stock))
    with pytest.raises(RecordError, match="dealer must be seat"):
        Deal("0", d.hands, d.stock)
    with pytest.raises(RecordError, match="19 cards"):
        Deal(0, d.hands, d.stock[1:])
    with pytest.raises(RecordError, match="no face"):
        Deal(0, (d.hands[0], d.hands[1], (99,) * 20), d.stock)


@pytest.mark.parametrize("seed", ["abc", 1.5, True, [1]])
def test_a_seed_is_an_int_or_none(seed: object) -> None:
    with pytest.raises(RecordError, match="integer or null"):
        check_seed(seed)
    with pytest.raises(RecordError, match="integer or null"):
        new_game(seed=seed)  # type: ignore[arg-type]
    assert check_seed(None) is None and check_seed(7) == 7


def test_seats_and_other_arguments_are_checked() -> None:
    for bad in (3, -1, True, "0", None):
        with pytest.raises(RecordError):
            check_seat(bad)
    with pytest.raises(RecordError, match="dealer"):
        new_game(seed=1, dealer=3)
    with pytest.raises(RecordError, match="does not match"):
        new_game(deal=random_deal(1, 0), dealer=1)
    with pytest.raises(RecordError, match="three integer balances"):
        new_game(seed=1, balances=(1, 2))
    with pytest.raises(RecordError, match="must be a Deal"):
        new_game(deal="deal")  # type: ignore[arg-type]
    with pytest.raises(RecordError, match="RuleSet"):
        new_game("rules", seed=1)  # type: ignore[arg-type]


def test_the_notation_reads_back() -> None:
    d = random_deal(5, 1)
    hands = [format_faces(h) for h in d.hands]
    assert Deal.parse(1, hands, format_faces(d.stock)) == d
