"""Invariants over many random rounds (hypothesis drives seeds and play choices)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paohuzi.core.cards import NUM_FACES
from paohuzi.core.engine import Phase, State, new_game
from paohuzi.core.events import EventKind
from paohuzi.core.record import dumps, loads, replay, round_record
from paohuzi.core.views import censored_log, view

MAX_ACTIONS = 400


def play(seed: int, choice_seed: int, check: bool = True) -> State:
    rng = random.Random(choice_seed)
    state = new_game(
        seed=seed, balances=(rng.randrange(0, 60), rng.randrange(0, 60), rng.randrange(0, 60))
    )
    n = 0
    while not state.over:
        if check:
            assert state.card_counts() == [4] * NUM_FACES
        acting = state.to_act()
        assert acting, "a live round always has a seat to act"
        seat = acting[rng.randrange(len(acting))]
        ids = state.legal_actions(seat)
        assert ids
        state.apply(seat, ids[rng.randrange(len(ids))])
        n += 1
        assert n < MAX_ACTIONS, "round does not end"
    assert state.card_counts() == [4] * NUM_FACES
    return state


seeds = st.integers(min_value=0, max_value=2**63 - 1)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seeds, seeds)
def test_cards_conserved_and_round_ends(seed: int, choice: int) -> None:
    play(seed, choice)


@settings(max_examples=120, deadline=None)
@given(seeds, seeds)
def test_replay_rebuilds_identical_log(seed: int, choice: int) -> None:
    state = play(seed, choice, check=False)
    again = replay(loads(dumps(round_record(state))))
    assert again.log == state.log
    assert again.result == state.result
    assert round_record(again) == round_record(state)


@settings(max_examples=150, deadline=None)
@given(seeds, seeds)
def test_balances_conserved_and_never_negative(seed: int, choice: int) -> None:
    state = play(seed, choice, check=False)
    res = state.result
    assert res is not None
    assert sum(res.deltas) == 0
    assert all(b >= 0 for b in res.balances)
    assert sum(res.balances) == sum(state.balances_at_start)
    if res.winner is None:
        assert res.deltas == (0, 0, 0)
        assert res.next_dealer == state.dealer
    else:
        assert res.next_dealer == res.winner
        assert res.deltas[res.winner] >= 0
        assert res.deltas[res.winner] <= state.balances_at_start[res.winner]


def _hidden_faces(state: State, seat: int | None) -> list[int]:
    """Face counts ``seat`` must not learn: other hands, face-down groups, the stock."""
    c = [0] * NUM_FACES
    for s in range(3):
        if s == seat:
            continue
        for f in range(NUM_FACES):
            c[f] += state.hands[s][f]
        for t in state.tables[s]:
            if t.hidden:
                for f in t.group.faces:
                    c[f] += 1
    for f in state.stock:
        c[f] += 1
    return c


@settings(max_examples=60, deadline=None)
@given(seeds, seeds, st.sampled_from([0, 1, 2, None]))
def test_views_never_leak(seed: int, choice: int, seat: int | None) -> None:
    """Swapping hidden cards between other hands and the stock never changes a view."""
    rng = random.Random(choice)
    state = new_game(seed=seed)
    while not state.over:
        v = view(state, seat)
        twin = state.clone()
        # Move hidden cards around: swap a random card of another seat's hand with a stock card.
        others = [s for s in range(3) if s != seat and sum(twin.hands[s])]
        if others and twin.stock:
            o = rng.choice(others)
            have = [f for f in range(NUM_FACES) if 0 < twin.hands[o][f] < 2]
            i = rng.randrange(len(twin.stock))
            if have and twin.hands[o][twin.stock[i]] < 1:
                f = rng.choice(have)
                g = twin.stock[i]
                twin.hands[o][f] -= 1
                twin.hands[o][g] += 1
                twin.stock[i] = f
        rng.shuffle(twin.stock)
        v2 = view(twin, seat)
        assert v2.hands == v.hands
        assert v2.tables == v.tables
        assert v2.piles == v.piles
        assert v2.offer == v.offer
        # Censored events never carry a hidden face.
        for e in censored_log(state, seat):
            if e.kind is EventKind.DEAL:
                assert all(h is None for s, h in enumerate(e.hands) if s != seat)
            if e.hidden and e.seat != seat:
                assert e.face is None and not e.groups
            if e.private:
                assert e.seat == seat
        acting = state.to_act()
        s = acting[rng.randrange(len(acting))]
        ids = state.legal_actions(s)
        state.apply(s, ids[rng.randrange(len(ids))])
    # At the end everything is revealed.
    v = view(state, seat)
    assert all(h is not None for h in v.hands)
    assert all(g.faces is not None for t in v.tables for g in t)


def test_views_show_only_own_hand_and_legal() -> None:
    state = new_game(seed=5)
    for seat in range(3):
        v = view(state, seat)
        assert v.hand == tuple(f for f in range(NUM_FACES) for _ in range(state.hands[seat][f]))
        assert [h is None for h in v.hands] == [s != seat for s in range(3)]
        if seat in state.to_act():
            assert [a.id for a in v.legal] == list(state.legal_actions(seat))
        else:
            assert v.legal == ()
    spectator = view(state, None)
    assert all(h is None for h in spectator.hands)
    assert spectator.chou_chi is None and spectator.legal == ()
    assert state.phase in (Phase.DISCARD, Phase.CLAIM)


def test_seeded_games_are_deterministic() -> None:
    a = play(42, 7, check=False)
    b = play(42, 7, check=False)
    assert a.log == b.log
    assert new_game(seed=9).deal == new_game(seed=9).deal


def test_thousands_of_random_rounds_fast_path() -> None:
    """The fast path over 1,500 rounds: every round ends with all 80 cards accounted for."""
    rng = random.Random(0)
    for g in range(1500):
        state = new_game(seed=rng.randrange(2**63), dealer=g % 3)
        n = 0
        while not state.over:
            seat = state.to_act()[0]
            ids = state.legal_actions(seat)
            state.apply_fast(seat, ids[rng.randrange(len(ids))])
            n += 1
            assert n < MAX_ACTIONS
        assert state.card_counts() == [4] * NUM_FACES
