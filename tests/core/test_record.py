"""Records: round trip, replay checks and errors that name the problem."""

from __future__ import annotations

import copy
import random

import pytest

from paohuzi.core.engine import Deal, new_game, random_deal
from paohuzi.core.errors import RecordError
from paohuzi.core.match import Match, replay_match
from paohuzi.core.record import dumps, loads, replay, round_record
from paohuzi.core.rules import HONG_GUAI_WAN


def played(seed: int) -> dict[str, object]:
    rng = random.Random(seed)
    st = new_game(seed=seed)
    while not st.over:
        seat = st.to_act()[0]
        st.apply(seat, rng.choice(st.legal_actions(seat)))
    return round_record(st)


def test_round_trip_and_replay() -> None:
    rec = played(3)
    assert loads(dumps(rec)) == rec
    st = replay(rec)
    assert round_record(st) == rec
    # Replaying by text instead of ids gives the same game.
    by_text = copy.deepcopy(rec)
    for a in by_text["actions"]:  # type: ignore[union-attr]
        del a["id"]
    assert replay(by_text).log == st.log


def test_replay_upto_steps_through() -> None:
    rec = played(4)
    n = len(rec["actions"])  # type: ignore[arg-type]
    assert replay(rec, upto=0).version == 0
    assert replay(rec, upto=n // 2).version == n // 2


def test_tampered_action_is_named() -> None:
    rec = played(5)
    bad = copy.deepcopy(rec)
    bad["actions"][1] = {"seat": 2, "id": 316}  # type: ignore[index]
    with pytest.raises(RecordError, match="action 1"):
        replay(bad)


def test_tampered_result_is_caught() -> None:
    rec = played(6)
    bad = copy.deepcopy(rec)
    bad["result"]["deltas"] = [5, -5, 0]  # type: ignore[index]
    with pytest.raises(RecordError, match="differs"):
        replay(bad)


@pytest.mark.parametrize(
    "text",
    ["not json", "[1, 2]", '{"format": "something-else"}'],
)
def test_bad_records(text: str) -> None:
    with pytest.raises(RecordError):
        replay(loads(text))


def test_deal_validation() -> None:
    d = random_deal(1, 0)
    with pytest.raises(RecordError, match="80 cards"):
        Deal(0, ((*d.hands[0][:-1], d.hands[0][0]), d.hands[1], d.hands[2]), d.stock)
    with pytest.raises(RecordError, match="21"):
        Deal(1, d.hands, d.stock)
    assert Deal.from_dict(d.to_dict()) == d


def test_match_record_replays() -> None:
    m = Match(HONG_GUAI_WAN.with_(rounds_per_match=3), seed=11)
    rng = random.Random(1)
    while not m.over:
        st = m.start_round()
        while not st.over:
            seat = st.to_act()[0]
            ids = st.legal_actions(seat)
            st.apply(seat, 21 if 21 in ids else rng.choice(ids))
        m.end_round()
    states = replay_match(loads(dumps(m.record())))
    assert [s.log for s in states] == [s.log for s in m.finished]
    assert sum(m.balances) == 300
