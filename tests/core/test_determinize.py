"""determinize: the state one seat's view and an assignment of its unseen cards make."""

from __future__ import annotations

import random

import pytest

from paohuzi.bots.heuristic import HeuristicBot
from paohuzi.core.cards import faces_of_counts
from paohuzi.core.engine import Assignment, Phase, State, determinize, new_game
from paohuzi.core.errors import HandError
from paohuzi.core.views import view


def _truth(st: State, seat: int) -> Assignment:
    """The assignment that is actually true in ``st``."""
    v = view(st, seat)
    hidden = {
        (s, i): t.group.faces[0]
        for s in range(3)
        for i, (t, vg) in enumerate(zip(st.tables[s], v.tables[s], strict=True))
        if vg.faces is None
    }
    hands = tuple(faces_of_counts(st.hands[s]) for s in range(3))
    return Assignment(
        hands=(hands[0], hands[1], hands[2]),
        hidden=hidden,
        stock=tuple(reversed(st.stock)),
        chou_chi={s: frozenset(f for f in range(20) if st.chou_chi[s] >> f & 1) for s in range(3)},
        chou_peng={
            s: frozenset(f for f in range(20) if st.chou_peng[s] >> f & 1) for s in range(3)
        },
    )


def _decision_points(games: int) -> list[tuple[State, int]]:
    out = []
    for g in range(games):
        bots = [HeuristicBot(seed=g * 3 + s) for s in range(3)]
        st = new_game(seed=4000 + g, dealer=g % 3)
        while not st.over:
            for seat in st.to_act():
                out.append((st.clone(), seat))
            seat = st.to_act()[0]
            st.apply_fast(seat, bots[seat].act(view(st, seat)).id)
    return out


POINTS = _decision_points(25)


def test_the_true_assignment_rebuilds_the_state() -> None:
    """With the real hidden cards, the rebuilt state plays on exactly like the real one."""
    rng = random.Random(9)
    checked = 0
    for st, seat in POINTS[::5]:
        d = determinize(view(st, seat), _truth(st, seat), st.rules)
        assert d.hands == st.hands and d.stock == st.stock and d.piles == st.piles
        assert d.tables == st.tables and d.phase is st.phase
        assert d.chou_chi == st.chou_chi and d.chou_peng == st.chou_peng
        assert d.legal_actions(seat) == st.legal_actions(seat)
        if st.window is not None and st.window.answers:
            continue  # others' answers are private (§14): the window reopens without them
        for s in range(3):
            assert d.legal_actions(s) == st.legal_actions(s)
        assert view(d, seat) == view(st, seat)
        # ... and every continuation is the same game.
        a, b = st.clone(), d
        while not a.over:
            s = a.to_act()[0]
            ids = a.legal_actions(s)
            aid = ids[rng.randrange(len(ids))]
            assert [e for e in a.apply_fast(s, aid)] == [e for e in b.apply_fast(s, aid)]
        assert a.result == b.result
        checked += 1
    assert checked > 60


def test_default_chou_guess_is_the_discards() -> None:
    """Without a guess, another seat's 臭 sets hold what it discarded (public, §8)."""
    st, seat = next(
        (st, seat) for st, seat in POINTS if any(st.discards[s] for s in range(3) if s != seat)
    )
    a = _truth(st, seat)
    d = determinize(view(st, seat), Assignment(a.hands, a.hidden, a.stock), st.rules)
    for s in range(3):
        if s != seat:
            assert d.chou_chi[s] == sum(1 << f for f in set(st.discards[s]))
        else:
            assert d.chou_chi[s] == st.chou_chi[s]


def test_assignments_that_do_not_fit_are_refused() -> None:
    st, seat = next((st, seat) for st, seat in POINTS if st.phase is Phase.DISCARD)
    v = view(st, seat)
    a = _truth(st, seat)
    other = (seat + 1) % 3
    short = list(a.hands)
    short[other] = short[other][1:]
    with pytest.raises(HandError, match=f"seat {other} holds"):
        determinize(v, Assignment((short[0], short[1], short[2]), a.hidden, a.stock), st.rules)
    with pytest.raises(HandError, match="stock holds"):
        determinize(v, Assignment(a.hands, a.hidden, a.stock[1:]), st.rules)
    swapped = list(a.hands)
    swapped[other] = (swapped[other][0],) * len(swapped[other])
    with pytest.raises(HandError, match="every card once"):
        determinize(
            v, Assignment((swapped[0], swapped[1], swapped[2]), a.hidden, a.stock), st.rules
        )
    with pytest.raises(HandError, match="spectator"):
        determinize(view(st, None), a, st.rules)


def test_own_win_windows_reopen_with_the_same_win() -> None:
    """提胡/偎胡 (and 天胡) windows: the win is evaluated as before the card was placed."""
    rng = random.Random(77)
    found = 0
    for g in range(3000):
        st = new_game(seed=rng.randrange(2**31), dealer=g % 3)
        while not st.over and found < 12:
            w = st.window
            if w is not None and w.after_own:
                seat = w.source
                d = determinize(view(st, seat), _truth(st, seat), st.rules)
                assert d.legal_actions(seat) == st.legal_actions(seat)
                assert d.window is not None
                assert d.window.hu[seat].score == w.hu[seat].score
                found += 1
            seat = st.to_act()[0]
            ids = st.legal_actions(seat)
            st.apply_fast(seat, ids[rng.randrange(len(ids))])
        if found >= 12:
            break
    assert found >= 12


def test_a_guess_that_changes_the_viewers_options_is_refused() -> None:
    """A guessed 坎 of the card on offer would force a 跑 the view does not show."""
    for st, seat in POINTS:
        w = st.window
        if w is None or w.after_own or w.from_draw or seat != w.order[0]:
            continue
        a = _truth(st, seat)
        other, x = w.order[1], w.card
        hand, stock = list(a.hands[other]), list(a.stock)
        if hand.count(x) + stock.count(x) < 3 or len(hand) < 3:
            continue
        while hand.count(x) < 3:  # swap stock copies of x for other cards of that hand
            i = stock.index(x)
            j = next(k for k, f in enumerate(hand) if f != x)
            stock[i], hand[j] = hand[j], x
        hands = list(a.hands)
        hands[other] = tuple(hand)
        changed = Assignment((hands[0], hands[1], hands[2]), a.hidden, tuple(stock))
        with pytest.raises(HandError, match="change seat"):
            determinize(view(st, seat), changed, st.rules)
        return
    pytest.skip("no discard window with three copies of the card among stock and hand")
