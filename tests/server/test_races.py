"""Races at one table: simultaneous claims resolve by RULES.md §5–§6 priority whatever the
order they arrive in; an intent racing its timeout is applied once; a retried intent once;
bots think off the event loop."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path
from typing import Any

import pytest

from paohuzi.core.actions import HU_ID, PASS_ID, PENG_ID, ActionKind
from paohuzi.core.state import Phase, State
from paohuzi.server.db import MatchRow
from paohuzi.server.errors import ApiError
from paohuzi.server.limits import PlaySettings
from paohuzi.server.tables import Table

from .harness import Seat, act, find_window, make_table, stored


def _peng_vs_chi(st: State, acting: tuple[int, ...]) -> tuple[int, int] | None:
    kinds = {s: {a.kind for a in st.legal_moves(s)} for s in acting}
    for a in acting:
        for b in acting:
            if (a != b and ActionKind.PENG in kinds[a] and ActionKind.CHI in kinds[b]
                    and not kinds[b] & {ActionKind.PENG, ActionKind.HU}
                    and ActionKind.HU not in kinds[a]):  # fmt: skip
                return a, b
    return None


def _hu_vs_peng(st: State, acting: tuple[int, ...]) -> tuple[int, int] | None:
    kinds = {s: {a.kind for a in st.legal_moves(s)} for s in acting}
    for a in acting:
        for b in acting:
            hu, peng = ActionKind.HU, ActionKind.PENG
            if a != b and hu in kinds[a] and peng in kinds[b] and hu not in kinds[b]:
                return a, b
    return None


async def _at_window(tmp: Path, found: tuple[int, list[tuple[int, int]], int, int]) -> tuple:
    seed, prefix, a, b = found
    table = await make_table(tmp, seed)
    seats = [Seat(s) for s in range(3)]
    for i, (s, aid) in enumerate(prefix):
        assert (await act(table, seats[s], aid, f"pre{i}"))["type"] == "ack"
    return table, seats, a, b


@pytest.mark.parametrize("high_first", [True, False])
async def test_peng_beats_chi_whichever_arrives_first(tmp_path: Path, high_first: bool) -> None:
    found = find_window(range(0, 200), _peng_vs_chi)
    table, seats, a, b = await _at_window(tmp_path, found)
    st = table.state
    others = [s for s in st.to_act() if s not in (a, b)]
    chi = next(m.id for m in st.legal_moves(b) if m.kind is ActionKind.CHI)
    before = [len(t) for t in st.tables]
    high = table.intent(seats[a].conn, PENG_ID, table.step(a), "peng")
    low = table.intent(seats[b].conn, chi, table.step(b), "chi")
    got = await asyncio.gather(*((high, low) if high_first else (low, high)),
                               return_exceptions=True)  # fmt: skip
    _refused_only_if_overtaken(got, high_first)
    for s in others:  # any third eligible seat passes
        if s in table.state.to_act():
            await table.intent(seats[s].conn, PASS_ID, table.step(s), "pass")
    st = table.state
    assert st.phase is not Phase.CLAIM
    assert [len(t) for t in st.tables] == [n + (s == a) for s, n in enumerate(before)]
    assert st.tables[a][-1].group.kind.value == "碰"
    assert st.to_act() == (a,)  # the 碰 seat discards next
    acks = {m["client_id"] for m in seats[a].drain() + seats[b].drain() if m["type"] == "ack"}
    assert "peng" in acks and ("chi" in acks) == (not high_first)
    log = [(s, x) for s, x, _ in await stored(table)]
    assert (a, PENG_ID) in log[len(found[1]) :]


def _refused_only_if_overtaken(got: list[object], high_first: bool) -> None:
    """The higher claim is always taken; the lower one, sent after the higher claim
    settled the window, is refused (stale / not your turn), never applied."""
    high, low = got if high_first else got[::-1]
    assert high is None, high
    if high_first:
        assert getattr(low, "code", None) in ("stale", "not_your_turn"), low
    else:
        assert low is None, low


@pytest.mark.parametrize("high_first", [True, False])
async def test_hu_beats_peng_whichever_arrives_first(tmp_path: Path, high_first: bool) -> None:
    found = find_window(range(400, 700), _hu_vs_peng)
    table, seats, a, b = await _at_window(tmp_path, found)
    st = table.state
    others = [s for s in st.to_act() if s not in (a, b)]
    high = table.intent(seats[a].conn, HU_ID, table.step(a), "hu")
    low = table.intent(seats[b].conn, PENG_ID, table.step(b), "peng")
    got = await asyncio.gather(*((high, low) if high_first else (low, high)),
                               return_exceptions=True)  # fmt: skip
    high_res, low_res = got if high_first else got[::-1]
    assert high_res is None, high_res
    assert low_res is None or getattr(low_res, "code", None) in (
        "stale", "not_your_turn", "match_over")  # fmt: skip
    for s in others:
        if not table.ended:
            await table.intent(seats[s].conn, PASS_ID, table.step(s), "pass")
    assert table.ended  # a one-round match: the 胡 ended it
    last = table.match.finished[-1]
    assert last.result is not None and last.result.winner == a
    assert sum(last.result.deltas) == 0


async def test_retried_intent_at_the_same_moment_is_applied_once(tmp_path: Path) -> None:
    table = await make_table(tmp_path, 5)
    actor = table.state.to_act()[0]
    seat = Seat(actor)
    aid = table.state.legal_actions(actor)[0]
    await asyncio.gather(*(table.intent(seat.conn, aid, 0, "same") for _ in range(3)))
    acks = [m for m in seat.drain() if m["type"] == "ack"]
    assert [m["duplicate"] for m in acks] == [False, True, True]
    assert {m["step"] for m in acks} == {table.step(actor)} == {1}  # the seat's first step
    assert len(await stored(table)) == table.decision_seq == 1


async def test_an_intent_racing_its_timeout_is_applied_at_most_once(tmp_path: Path) -> None:
    limit = 0.05
    table = await make_table(tmp_path, 9, time_limit=limit)
    seats = [Seat(s) for s in range(3)]
    table.launch()
    outcomes = {"ack": 0, "late": 0}
    try:
        for trial in range(24):
            # Wait for a seat to be due (its clock running), then answer near the deadline.
            while True:
                st = table.state
                due = [s for s in st.to_act() if table.clock.deadline[s] is not None]
                if table.ended or due:
                    break
                await asyncio.sleep(0.002)
            if table.ended:
                break
            s = due[0]
            since, deadline = table.audience(s).since, table.clock.deadline[s]
            assert deadline is not None
            await asyncio.sleep(max(0.0, deadline - time.time() + (trial % 6 - 3) * 0.004))
            if table.audience(s).since != since:
                outcomes["late"] += 1  # the timeout came first; the intent would be stale
                continue
            aid = table.state.legal_actions(s)[0]
            step = table.step(s)
            try:
                await table.intent(seats[s].conn, aid, step, f"t{trial}")
                outcomes["ack"] += 1
            except Exception as e:  # the timeout won the lock (and maybe ended the round)
                assert getattr(e, "code", None) in ("stale", "not_your_turn", "match_over"), e
                outcomes["late"] += 1
        rows = await stored(table)
        # The log and the table agree, with no gap and nothing applied twice.
        assert [(s, x) for s, x, _ in rows] == [(s, x) for _, s, x in table.decisions]
        print("intent vs timeout:", outcomes)
        # Every client id appears at most once, and each acked one is in the log once.
        ids = [c for _, _, c in rows if c is not None and c.startswith("t")]
        assert len(ids) == len(set(ids)) == outcomes["ack"]
        assert outcomes["ack"] > 0 and outcomes["late"] > 0  # both sides of the race ran
    finally:
        await table.stop()


class _SlowBot:
    """A bot that thinks for 0.2 s without giving the event loop back (like a search)."""

    name = "slow"

    def __init__(self) -> None:
        self.calls = 0

    def act(self, v):  # type: ignore[no-untyped-def]
        self.calls += 1
        time.sleep(0.2)
        return v.legal[0]


async def test_bots_think_off_the_event_loop(tmp_path: Path) -> None:
    table = await make_table(tmp_path, 3, bots=("heuristic", "heuristic", "heuristic"),
                             settings=PlaySettings(grace=30))  # fmt: skip
    slow = _SlowBot()
    table.driver.bots = {s: slow for s in range(3)}
    gaps: list[float] = []
    table.launch()
    try:
        last = time.perf_counter()
        end = last + 0.7
        while time.perf_counter() < end:
            await asyncio.sleep(0.01)
            now = time.perf_counter()
            gaps.append(now - last)
            last = now
        assert slow.calls >= 2  # the bots were playing all along
        assert table.decision_seq >= 2
        assert max(gaps) < 0.15, max(gaps)  # a 0.2 s think never stalled the loop
    finally:
        await table.stop()


async def test_an_overtaken_claim_is_told_before_it_is_refused(tmp_path: Path) -> None:
    """Both claims are made on the latest prompts; the lower one arrives after the 碰 has
    settled the window. The others' passes never moved its ``since``; the 碰 did, and the
    prompt saying so (nothing to decide) is on its socket before the ``stale`` refusal,
    whose reason says the decision is gone rather than that a new one opened."""
    found = find_window(range(0, 200), _peng_vs_chi)
    table, seats, a, b = await _at_window(tmp_path, found)
    for s in seats:
        await table.attach(s.conn, None)
    chi = next(m.id for m in table.state.legal_moves(b) if m.kind is ActionKind.CHI)
    since = table.audience(b).since
    for s in [s for s in table.state.to_act() if s not in (a, b)]:  # a third seat passes
        await table.intent(seats[s].conn, PASS_ID, table.step(s), "pass")
    latest = [m for m in seats[b].drain() if m["type"] in ("snapshot", "prompt")][-1]
    assert latest["since"] == since and latest["legal"]  # b's question did not change
    await table.intent(seats[a].conn, PENG_ID, table.step(a), "peng")
    with pytest.raises(ApiError) as refused:
        await table.intent(seats[b].conn, chi, latest["step"], "chi")
    assert refused.value.code == "stale"
    assert "nothing to decide" in refused.value.reason, refused.value.reason
    told = [m for m in seats[b].drain() if m["type"] == "prompt"]
    assert told and told[-1]["since"] == table.step(b) and told[-1]["legal"] == []


def _latest(seats: list[Seat], prompts: list[list[dict[str, Any]]], s: int) -> dict[str, Any]:
    """Seat ``s``'s latest prompt (or snapshot), keeping in ``prompts`` every one it got."""
    prompts[s] += [m for m in seats[s].drain() if m["type"] in ("snapshot", "prompt")]
    return prompts[s][-1]


@pytest.mark.slow
async def test_a_seat_on_its_latest_prompt_is_refused_only_once_its_decision_closed(
    tmp_path: Path,
) -> None:
    """Several matches where some of the seats to act answer at once, each on the latest
    prompt it was sent (or on an older prompt of the same decision, had one come: another
    seat's answer in its window no longer sends one, RULES.md §14), the intents applied
    in a random order: an intent is refused only when the prompts queued before the
    refusal show its decision closed (a claim overtaken in flight), never while it is
    still open."""
    rng = random.Random(7)
    overtaken = accepted = older = 0

    for seed in range(12):
        sub = tmp_path / str(seed)
        sub.mkdir()
        table = await make_table(sub, seed)
        seats = [Seat(s) for s in range(3)]
        prompts: list[list[dict[str, Any]]] = [[], [], []]  # per seat, oldest first
        for seat in seats:
            await table.attach(seat.conn, None)
        n = 0
        while not table.ended:
            intents = []
            acting = list(table.state.to_act())
            for s in rng.sample(acting, rng.randint(1, len(acting))):
                m = _latest(seats, prompts, s)
                assert m["legal"], (seed, s, m)  # a seat to act is told so
                same = [p for p in prompts[s] if p["since"] == m["since"]]
                if len(same) > 1 and rng.random() < 0.5:
                    m = rng.choice(same)  # an older prompt of the same decision
                    older += 1
                intents.append((s, m, rng.choice(m["legal"])["id"]))
            rng.shuffle(intents)
            for s, m, aid in intents:
                n += 1
                try:
                    await table.intent(seats[s].conn, aid, m["step"], f"i{n}")
                    accepted += 1
                except ApiError as e:
                    assert e.code in ("stale", "not_your_turn", "match_over"), e
                    now = _latest(seats, prompts, s)
                    assert now["since"] != m["since"] or not now["legal"], (seed, s, e, now)
                    overtaken += e.code == "stale"
        await table.stop()
    print("accepted, overtaken, on an older prompt:", accepted, overtaken, older)
    assert accepted > 200 and overtaken > 5, (accepted, overtaken, older)


async def test_the_last_intent_retried_after_the_end_is_acknowledged(tmp_path: Path) -> None:
    # A socket that dies between the match's last commit and its ack comes back to a match
    # that is over: its client resends the intent and must learn it was applied (a duplicate
    # ack), not be told "match_over" as if it had been refused; also once the finished
    # match is served from the database.
    table = await make_table(tmp_path, 5)
    seats = [Seat(i) for i in range(3)]
    rng = random.Random(5)
    last: tuple[int, int, str] | None = None
    while not table.ended:
        s = table.state.to_act()[0]
        ids = table.state.legal_actions(s)
        last = (s, ids[rng.randrange(len(ids))], f"c{table.decision_seq}")
        first = await act(table, seats[s], last[1], last[2])
        assert first["type"] == "ack"
    assert last is not None
    s, aid, cid = last
    final = table.step(s)
    assert first["step"] == final  # the ack carries the seat's step the decision made
    again = await act(table, seats[s], aid, cid)
    assert (again["step"], again["duplicate"]) == (final, True)
    with pytest.raises(ApiError, match="over"):  # a new intent is refused
        await table.intent(seats[s].conn, aid, table.step(s), "new")

    async with table.sessions() as db:
        row = await db.get(MatchRow, table.match_id)
        assert row is not None and row.status == "finished"
        loaded = await Table.load(table.sessions, row, table.seats)
    assert loaded.ended and loaded.decision_seq == table.decision_seq
    assert [loaded.step(w) for w in (0, 1, 2, None)] == [table.step(w) for w in (0, 1, 2, None)]
    back = Seat(s)
    again = await act(loaded, back, aid, cid)
    assert (again["step"], again["duplicate"]) == (final, True)
