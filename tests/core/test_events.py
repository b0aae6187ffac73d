"""Events: details as enums, numbers by name, wire form round trip, checked loading."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paohuzi.core.cards import parse_face
from paohuzi.core.engine import State, new_game
from paohuzi.core.errors import RecordError
from paohuzi.core.events import DETAILS, Event, EventDetail, EventKind
from paohuzi.core.groups import parse_group


def play(seed: int) -> State:
    rng = random.Random(seed)
    state = new_game(seed=seed)
    while not state.over:
        seat = state.to_act()[0]
        ids = state.legal_actions(seat)
        state.apply(seat, 21 if 21 in ids else ids[rng.randrange(len(ids))])
    return state


def first(state: State, kind: EventKind) -> Event:
    return next(e for e in state.log if e.kind is kind)


def test_details_compare_with_their_wire_strings() -> None:
    wire = {"kan": EventDetail.KAN, "跑胡": EventDetail.PAOHU, "": EventDetail.NONE}
    assert all(text == member and EventDetail(text) is member for text, member in wire.items())
    e = Event(EventKind.PAO, 1, face=4, source=0, detail="kan")  # as the engine builds it
    assert e.detail == EventDetail.KAN
    assert Event.from_dict(e.to_dict()).detail is EventDetail.KAN
    assert Event.from_dict(e.to_dict()) == e


def test_every_engine_detail_is_listed_for_its_kind() -> None:
    seen: set[tuple[EventKind, str]] = set()
    for seed in range(40):
        for e in play(seed).log:
            assert e.detail in DETAILS.get(e.kind, {EventDetail.NONE}), e
            seen.add((e.kind, e.detail))
    # The common details turn up in forty rounds.
    assert {(EventKind.TI, "dealt"), (EventKind.PAO, "kan"), (EventKind.CHOU, "chi")} <= seen


def test_numbers_by_name() -> None:
    hu = Event(EventKind.HU, 1, face=5, detail="跑胡", numbers=(21, 3, 2, 6))
    assert (hu.huxi, hu.tun, hu.fan, hu.score) == (21, 3, 2, 6)
    settle = Event(EventKind.SETTLE, numbers=(-3, 6, -3))
    assert settle.deltas == (-3, 6, -3)
    state = play(1)
    deal = first(state, EventKind.DEAL)
    assert deal.hand_sizes == tuple(len(h) for h in state.deal.hands)
    assert deal.censor(None) is not None and deal.censor(None).hand_sizes == deal.hand_sizes  # type: ignore[union-attr]


@pytest.mark.parametrize("name", ["huxi", "tun", "fan", "score", "deltas", "hand_sizes"])
def test_a_number_of_another_kind_is_an_attribute_error(name: str) -> None:
    draw = Event(EventKind.DRAW, 0, face=4)
    with pytest.raises(AttributeError, match=f"{name} belongs to .* events, not to draw"):
        getattr(draw, name)
    assert not hasattr(draw, name)


def test_repr_is_the_text() -> None:
    assert repr(Event(EventKind.DRAW, 0, face=4)) == "<Event seat 0 draw 五>"
    assert repr(Event(EventKind.DRAW, 0, face=4, hidden=True)) == "<Event seat 0 draw 五 (hidden)>"
    peng = Event(EventKind.PENG, 1, face=4, groups=(parse_group("碰:五五五"),), source=2)
    assert repr(peng) == "<Event seat 1 peng 碰:五五五 from seat 2>"
    chou = Event(EventKind.CHOU, 2, face=parse_face("五"), detail="chi", private=True)
    assert repr(chou) == "<Event seat 2 臭吃 五 (private)>"
    assert repr(Event(EventKind.SETTLE, numbers=(-3, 6, -3))) == "<Event settle: -3, +6, -3>"
    # A malformed hand-built event still has a repr (the fields), never an exception.
    assert repr(Event(EventKind.HU, 0, numbers=(1,))).startswith("Event(kind=<EventKind.HU")


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=0, max_value=2**63 - 1), st.sampled_from([None, 0, 1, 2]))
def test_wire_form_round_trips_also_censored(seed: int, seat: int | None) -> None:
    for e in play(seed).log:
        assert Event.from_dict(e.to_dict()) == e
        seen = e.censor(seat)
        if seen is not None:
            again = Event.from_dict(seen.to_dict())
            assert again == seen and again.text() == seen.text()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "an event must be an object, got []"),
        ({}, "an event lacks 'kind'"),
        ({"kind": "fly"}, "unknown event kind 'fly'"),
        ({"kind": 3}, "unknown event kind 3"),
        (
            {"kind": "draw", "seat": "0", "face": "五"},
            "a draw event's seat must be an integer, got '0'",
        ),
        ({"kind": "draw", "seat": 5}, "a draw event's seat must be seat 0, 1 or 2, got 5"),
        ({"kind": "draw", "seat": 0, "face": 4}, "a draw event's face must be a string, got 4"),
        ({"kind": "draw", "seat": 0, "face": "五六"}, "a draw event's face must be one card"),
        ({"kind": "draw", "seat": 0, "face": "x"}, "a draw event: unknown card 'x'"),
        (
            {"kind": "peng", "seat": 0, "groups": "碰:五五五"},
            "a peng event's groups must be a list",
        ),
        ({"kind": "peng", "seat": 0, "groups": ["碰:五六七"]}, "a peng event: bad group"),
        ({"kind": "pao", "seat": 0, "detail": "chou"}, "a pao event's detail must be one of"),
        ({"kind": "draw", "seat": 0, "detail": "kan"}, "a draw event's detail must be one of ['']"),
        ({"kind": "draw", "seat": 0, "hidden": 1}, "a draw event's hidden must be true or false"),
        ({"kind": "hu", "seat": 0, "numbers": [1, 2, 3]}, "a hu event's numbers must hold 4 items"),
        (
            {"kind": "settle", "numbers": [1, "2", 3]},
            "a settle event's numbers item must be an integer",
        ),
        ({"kind": "deal", "seat": 0, "hands": ["一"], "numbers": [1, 1, 1]}, "hands must hold 3"),
        (
            {"kind": "reveal", "seat": 0, "hands": [5]},
            "a reveal event's hands item must be a string",
        ),
        ({"kind": "draw", "seat": 0, "colour": "red"}, "unknown key(s) ['colour']"),
    ],
)
def test_bad_events_are_quoted(data: object, message: str) -> None:
    with pytest.raises(RecordError) as info:
        Event.from_dict(data)
    assert message in str(info.value)


_KEYS = ["kind", "seat", "face", "groups", "source", "detail", "hidden", "hands", "numbers"]
_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-3, max_value=30)
    | st.floats(allow_nan=False)
    | st.sampled_from([k.value for k in EventKind] + [d.value for d in EventDetail])
    | st.sampled_from(["五", "伍", "五五", "碰:五五五", "吃:一二三", "x", ""]),
    lambda inner: st.lists(inner, max_size=4),
    max_leaves=6,
)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(_KEYS), _values, min_size=1))
def test_random_event_dicts_load_or_raise_record_errors(data: dict[str, object]) -> None:
    try:
        e = Event.from_dict(data)
    except RecordError as err:
        assert "\n" not in str(err)
        return
    assert Event.from_dict(e.to_dict()) == e
    assert e.text() and repr(e)
