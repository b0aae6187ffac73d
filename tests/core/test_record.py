"""Records: typed round trip, replay checks, old files, and errors that quote the problem."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paohuzi.core.actions import canonical_id
from paohuzi.core.engine import Deal, State, new_game, random_deal
from paohuzi.core.errors import RecordError
from paohuzi.core.events import Event
from paohuzi.core.match import Match, replay_match
from paohuzi.core.record import (
    MatchRecord,
    RecordedAction,
    RecordedResult,
    RoundRecord,
    dumps,
    load_record,
    loads,
    replay,
    round_record,
)
from paohuzi.core.rules import HONG_GUAI_WAN

DATA = Path(__file__).resolve().parent / "data"
# Written by paohuzi 0.1 (dict records); they must keep loading, byte for byte.
ROUND_V1 = (DATA / "round-v1.json").read_text(encoding="utf-8")
MATCH_V1 = (DATA / "match-v1.json").read_text(encoding="utf-8")
EVENTS_V1 = json.loads((DATA / "round-v1-events.json").read_text(encoding="utf-8"))


def played_state(seed: int) -> State:
    rng = random.Random(seed)
    state = new_game(seed=seed)
    while not state.over:
        seat = state.to_act()[0]
        ids = state.legal_actions(seat)
        state.apply(seat, 21 if 21 in ids else rng.choice(ids))
    return state


def played(seed: int) -> RoundRecord:
    return round_record(played_state(seed))


def played_match(seed: int, rounds: int = 3) -> Match:
    m = Match(HONG_GUAI_WAN.with_(rounds_per_match=rounds), seed=seed)
    rng = random.Random(seed)
    while not m.over:
        state = m.start_round()
        while not state.over:
            seat = state.to_act()[0]
            ids = state.legal_actions(seat)
            state.apply(seat, 21 if 21 in ids else rng.choice(ids))
        m.end_round()
    return m


def v1() -> dict[str, Any]:
    """A fresh copy of the stored round record's JSON object."""
    d: dict[str, Any] = json.loads(ROUND_V1)
    return d


# ----------------------------------------------------------------- round trip


def test_round_trip_and_replay() -> None:
    rec = played(3)
    assert RoundRecord.from_json(rec.to_json()) == rec
    assert RoundRecord.from_dict(rec.to_dict()) == rec
    assert dumps(rec) == rec.to_json() == dumps(rec.to_dict())
    state = replay(rec)
    assert round_record(state) == rec
    assert replay(rec.to_dict()).log == state.log  # a dict is accepted too


def test_replay_by_text_gives_the_same_game() -> None:
    rec = played(5)
    by_text = RoundRecord.from_dict(
        {**rec.to_dict(), "actions": [{"seat": a.seat, "text": a.text} for a in rec.actions]}
    )
    assert all(a.id is None for a in by_text.actions)
    assert replay(by_text).log == replay(rec).log


def test_record_fields_are_typed() -> None:
    rec = played(8)
    assert rec.format == "paohuzi-round/1"
    assert rec.rules == HONG_GUAI_WAN and rec.seed == 8
    assert isinstance(rec.deal, Deal) and rec.balances == (100, 100, 100)
    assert all(isinstance(a, RecordedAction) and isinstance(a.id, int) for a in rec.actions)
    assert isinstance(rec.result, RecordedResult) and sum(rec.result.deltas) == 0
    assert repr(rec).startswith("<RoundRecord seed 8, dealer ")
    assert repr(rec.actions[0]) == f"<RecordedAction seat {rec.deal.dealer} {rec.actions[0].text}>"


def test_unfinished_round_has_no_result() -> None:
    state = new_game(seed=2)
    state.apply(state.turn, state.legal_actions(state.turn)[0])
    rec = round_record(state)
    assert rec.result is None and "result" not in rec.to_dict()
    assert replay(RoundRecord.from_json(rec.to_json())).log == state.log


def test_replay_upto_steps_through() -> None:
    rec = played(4)
    n = len(rec.actions)
    assert replay(rec, upto=0).version == 0
    assert replay(rec, upto=n // 2).version == n // 2
    with pytest.raises(RecordError, match="upto"):
        replay(rec, upto=-1)


# ------------------------------------------------------- files from version 1


def _canonical(rec: RoundRecord) -> list[tuple[int, int | None]]:
    return [(a.seat, canonical_id(a.id) if a.id is not None else None) for a in rec.actions]


def test_v1_round_file_loads_and_replays() -> None:
    """0.1 files load as written and replay; a 吃 recorded under its second id (its
    groups in the other order, §7) replays as the one canonical id 0.2 writes."""
    rec = RoundRecord.from_json(ROUND_V1)
    assert rec.to_json() + "\n" == ROUND_V1
    assert any(a.id is not None and canonical_id(a.id) != a.id for a in rec.actions)
    state = replay(rec)
    again = round_record(state)
    assert [(a.seat, a.id) for a in again.actions] == _canonical(rec)
    assert (again.rules, again.seed, again.balances, again.deal, again.result) == (
        rec.rules, rec.seed, rec.balances, rec.deal, rec.result,
    )  # fmt: skip
    assert replay(again).log == state.log
    assert replay(loads(ROUND_V1)).log == state.log  # the dict path of 0.1 callers
    assert load_record(ROUND_V1) == rec


def _chi_as_multiset(e: Event) -> Event:
    return e._replace(groups=tuple(sorted(e.groups, key=lambda g: g.faces))) if e.groups else e


def test_v1_event_log_loads() -> None:
    """The same events as 0.1 wrote, but for the order of a 吃's groups (now by shape)."""
    log = replay(RoundRecord.from_json(ROUND_V1)).log
    old = [Event.from_dict(d) for d in EVENTS_V1]
    assert [_chi_as_multiset(e) for e in old] == [_chi_as_multiset(e) for e in log]
    assert [Event.from_dict(e.to_dict()) for e in log] == log


def test_v1_match_file_loads_replays_and_writes_back_identically() -> None:
    rec = MatchRecord.from_json(MATCH_V1)
    assert rec.to_json() + "\n" == MATCH_V1
    assert load_record(MATCH_V1) == rec
    states = replay_match(rec)
    assert len(states) == len(rec.rounds) == rec.rounds_total == 2
    assert [_canonical(round_record(s)) for s in states] == [_canonical(r) for r in rec.rounds]


# ------------------------------------------------------------- replay checks


def test_tampered_action_is_named() -> None:
    d = played(5).to_dict()
    d["actions"][1] = {"seat": 2, "id": 316}  # type: ignore[index]
    with pytest.raises(RecordError, match="action 1"):
        replay(d)


@pytest.mark.parametrize(
    ("key", "value"),
    [("deltas", [5, -5, 0]), ("winner", None), ("next_dealer", 2), ("score", 999)],
)
def test_tampered_result_is_caught(key: str, value: object) -> None:
    d = played(6).to_dict()
    result = d["result"]
    assert isinstance(result, dict)
    if result[key] == value:
        value = 0
    result[key] = value
    with pytest.raises(RecordError, match="differs"):
        replay(d)


def test_result_without_the_end_is_caught() -> None:
    d = played(6).to_dict()
    d["actions"] = d["actions"][:-3]  # type: ignore[index]
    with pytest.raises(RecordError, match="do not finish"):
        replay(d)


def test_deal_validation() -> None:
    d = random_deal(1, 0)
    with pytest.raises(RecordError, match="80 cards"):
        Deal(0, ((*d.hands[0][:-1], d.hands[0][0]), d.hands[1], d.hands[2]), d.stock)
    with pytest.raises(RecordError, match="21"):
        Deal(1, d.hands, d.stock)
    assert Deal.from_dict(d.to_dict()) == d


# ---------------------------------------------------------- loading errors


def _set(path: tuple[str | int, ...], value: object) -> Callable[[dict[str, Any]], None]:
    def change(d: dict[str, Any]) -> None:
        for p in path[:-1]:
            d = d[p]  # type: ignore[index]
        d[path[-1]] = value  # type: ignore[index]

    return change


def _drop(*path: str | int) -> Callable[[dict[str, Any]], None]:
    def change(d: dict[str, Any]) -> None:
        for p in path[:-1]:
            d = d[p]  # type: ignore[index]
        del d[path[-1]]  # type: ignore[arg-type]

    return change


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (_set(("actions", 0, "id"), "5"), "action 0's id must be an integer, got '5'"),
        (_set(("actions", 0, "id"), True), "action 0's id must be an integer, got True"),
        (_set(("actions", 0, "seat"), 3), "action 0's seat must be seat 0, 1 or 2, got 3"),
        (_set(("actions", 0, "text"), 7), "action 0's text must be a string, got 7"),
        (_set(("actions", 0), "打:五"), "action 0 must be an object, got '打:五'"),
        (_set(("actions", 0), {"seat": 0}), "action 0 needs an id or a text"),
        (_set(("actions",), {}), "the actions must be a list, got {}"),
        (_set(("seed",), "abc"), "the seed must be an integer, got 'abc'"),
        (_set(("seed",), 1.5), "the seed must be an integer, got 1.5"),
        (_set(("balances",), ["100", 100, 100]), "the balances item must be an integer"),
        (_set(("balances",), [100, 100]), "the balances must hold 3 items, got [100, 100]"),
        (_set(("deal", "dealer"), "0"), "the deal's dealer must be an integer, got '0'"),
        (_set(("deal", "dealer"), False), "the deal's dealer must be an integer, got False"),
        (_set(("deal", "hands"), "一二三"), "the deal's hands must be a list, got '一二三'"),
        (_set(("deal", "hands", 1), 5), "a dealt hand must be a string, got 5"),
        (_set(("deal", "stock"), "xyz"), "the deal: unknown card 'x'"),
        (_set(("deal", "stock"), "一"), "the stock must hold 19 cards"),
        (_set(("deal",), None), "the deal must be an object, got None"),
        (_set(("rules", "min_huxi"), "18"), "rule min_huxi must be a non-negative int, got '18'"),
        (_set(("rules", "no_such_rule"), 1), "unknown rule field"),
        (_set(("rules",), [1]), "the rules must be an object, got [1]"),
        (_set(("result", "winner"), "1"), "the result's winner must be an integer, got '1'"),
        (_set(("result", "deltas"), [0, 0, None]), "the result's deltas item must be an integer"),
        (_set(("format",), "paohuzi-round/2"), "got 'paohuzi-round/2'"),
        (_set(("extra",), 1), "unknown key(s) ['extra']"),
        (_drop("format"), "not a round record"),
        (_drop("actions"), "a round record lacks 'actions'"),
        (_drop("deal", "stock"), "the deal lacks 'stock'"),
        (_drop("result", "next_dealer"), "the result lacks 'next_dealer'"),
        (_drop("seed"), "a round record lacks 'seed'"),
    ],
)
def test_bad_fields_are_quoted(change: Callable[[dict[str, Any]], None], message: str) -> None:
    d = v1()
    change(d)
    with pytest.raises(RecordError) as info:
        replay(RoundRecord.from_json(json.dumps(d, ensure_ascii=False)))
    assert message in str(info.value)
    assert "\n" not in str(info.value)
    with pytest.raises(RecordError):
        replay(d)  # the dict path checks the same


@pytest.mark.parametrize(
    "text",
    ["not json", "[1, 2]", '{"format": "something-else"}', "1" * 5000, "[" * 100_000, ""],
)
def test_bad_texts(text: str) -> None:
    with pytest.raises(RecordError):
        RoundRecord.from_json(text)
    with pytest.raises(RecordError):
        load_record(text)


def test_long_values_are_cut_in_messages() -> None:
    d = v1()
    d["seed"] = "x" * 500
    with pytest.raises(RecordError) as info:
        RoundRecord.from_dict(d)
    assert len(str(info.value)) < 120


# ------------------------------------------------------------------ matches


def test_match_record_replays() -> None:
    m = played_match(11)
    rec = m.record()
    assert isinstance(rec, MatchRecord) and len(rec.rounds) == 3
    assert MatchRecord.from_json(rec.to_json()) == rec
    states = replay_match(loads(dumps(rec)))
    assert [s.log for s in states] == [s.log for s in m.finished]
    assert replay_match(rec)[-1].result == m.finished[-1].result
    assert sum(m.balances) == 300
    assert repr(rec) == "<MatchRecord seed 11, 3/3 rounds>"


def test_unfinished_match_records_its_current_round() -> None:
    m = Match(seed=4)
    m.start_round()
    rec = m.record()
    assert len(rec.rounds) == 1 and rec.rounds[0].result is None
    assert len(replay_match(rec)) == 1


def _unfinish_first_round(d: dict[str, Any]) -> None:
    del d["rounds"][0]["result"]
    d["rounds"][0]["actions"] = d["rounds"][0]["actions"][:3]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (_set(("rounds", 1, "balances"), [90, 110, 100]), "round 1 starts with balances"),
        (_set(("rounds", 1, "rules", "min_huxi"), 15), "round 1 is played under other rules"),
        (_set(("rounds_total",), 1), "2 rounds recorded, the match has 1"),
        (_set(("rounds_total",), 0), "rounds_total must be at least 1"),
        (_set(("seed",), None), "the match seed must be an integer, got None"),
        (_set(("rounds", 0, "seed"), "abc"), "round 0: the seed must be an integer, got 'abc'"),
        (_drop("rounds"), "a match record lacks 'rounds'"),
        (_unfinish_first_round, "round 0 is unfinished but later rounds follow"),
        (_set(("format",), "paohuzi-round/1"), "not a match record"),
    ],
)
def test_bad_match_records(change: Callable[[dict[str, Any]], None], message: str) -> None:
    d = json.loads(MATCH_V1)
    change(d)
    with pytest.raises(RecordError) as info:
        replay_match(d)
    assert message in str(info.value)


def test_match_rejects_a_bad_seed() -> None:
    with pytest.raises(RecordError, match="'abc'"):
        Match(seed="abc")  # type: ignore[arg-type]


# ---------------------------------------------------------- random damage

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=30)
    | st.sampled_from(["五", "打:五", "过", "胡", "碰:五", "一二三", "paohuzi-round/1"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=8,
)


def _paths(value: object, prefix: tuple[str | int, ...] = ()) -> list[tuple[str | int, ...]]:
    out: list[tuple[str | int, ...]] = [prefix] if prefix else []
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, (*prefix, i))
    return out


ROUND_PATHS = _paths(v1())
MATCH_PATHS = _paths(json.loads(MATCH_V1))


def _damage(d: Any, path: tuple[str | int, ...], value: object, delete: bool) -> None:
    for p in path[:-1]:
        d = d[p]
    if delete:
        del d[path[-1]]
    else:
        d[path[-1]] = value


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.tuples(st.sampled_from(ROUND_PATHS), json_values, st.booleans()),
        min_size=1,
        max_size=3,
    )
)
def test_damaged_round_records_fail_only_with_record_errors(
    damage: list[tuple[tuple[str | int, ...], object, bool]],
) -> None:
    d = v1()
    for path, value, delete in damage:
        try:
            _damage(d, path, value, delete)
        except (KeyError, IndexError, TypeError):
            continue  # an earlier change removed or replaced this path
    text = json.dumps(d, ensure_ascii=False)
    try:
        state = replay(RoundRecord.from_json(text))
    except RecordError as e:
        assert "\n" not in str(e)
        return
    assert state.result is not None or "result" not in d


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(MATCH_PATHS), json_values, st.booleans())
def test_damaged_match_records_fail_only_with_record_errors(
    path: tuple[str | int, ...], value: object, delete: bool
) -> None:
    d = json.loads(MATCH_V1)
    _damage(d, path, value, delete)
    try:
        states = replay_match(MatchRecord.from_json(json.dumps(d, ensure_ascii=False)))
    except RecordError as e:
        assert "\n" not in str(e)
        return
    assert len(states) == len(d["rounds"])


def test_copies_do_not_share_state() -> None:
    """Records are frozen: changing a loaded dict does not change the record."""
    d = v1()
    rec = RoundRecord.from_dict(d)
    before = copy.deepcopy(rec.to_dict())
    d["actions"].clear()
    d["balances"][0] = 0
    assert rec.to_dict() == before
