"""Bots see a seat's view only, return legal actions, and are deterministic per seed."""

from __future__ import annotations

import dataclasses
import random
import typing

import pytest

from paohuzi.bots import BOTS, HeuristicBot, RandomBot, SearchBot, make_bot
from paohuzi.bots.search import playout, sample_state
from paohuzi.core.actions import HU_ID
from paohuzi.core.engine import State, new_game
from paohuzi.core.rules import HONG_GUAI_WAN
from paohuzi.core.views import SeatView, view

from .conftest import decision_views, hidden_twin

VIEWS = decision_views(60, seed=11)


def _holds_state(obj: object, depth: int = 0) -> bool:
    if isinstance(obj, State):
        return True
    if depth > 4:
        return False
    if isinstance(obj, (tuple, list, frozenset, set)):
        return any(_holds_state(x, depth + 1) for x in obj)
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return any(_holds_state(getattr(obj, f.name), depth + 1) for f in dataclasses.fields(obj))
    return False


def test_registry() -> None:
    assert {"random", "heuristic", "search"} <= set(BOTS)
    assert isinstance(make_bot("heuristic", 1), HeuristicBot)
    assert isinstance(make_bot("search", 1), SearchBot)
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("nobody")


@pytest.mark.parametrize("cls", [RandomBot, HeuristicBot, SearchBot])
def test_act_takes_a_seat_view(cls: type) -> None:
    hints = typing.get_type_hints(cls.act)
    assert hints["view"] is SeatView


def test_views_hold_no_state() -> None:
    for _st, v in VIEWS[:200]:
        assert not _holds_state(v)
        for f in dataclasses.fields(v):
            assert not isinstance(getattr(v, f.name), State)


@pytest.mark.slow
def test_decisions_do_not_depend_on_hidden_cards() -> None:
    rng = random.Random(5)
    checked = 0
    for st, v in VIEWS[::7]:
        _other, v2 = hidden_twin(st, v, rng)
        for make in (lambda: HeuristicBot(3), lambda: SearchBot(3, samples=2, candidates=2)):
            assert make().act(v).id == make().act(v2).id
        checked += 1
    assert checked >= 10


def test_heuristic_legal_and_always_wins_when_it_can() -> None:
    bot = HeuristicBot(0)
    hu_seen = 0
    for _st, v in VIEWS:
        a = bot.act(v)
        assert a in v.legal
        if any(x.id == HU_ID for x in v.legal):
            assert a.id == HU_ID
            hu_seen += 1
    assert len(VIEWS) > 1000


def test_heuristic_full_rounds_only_legal() -> None:
    bots = [HeuristicBot(s) for s in range(3)]
    for g in range(30):
        st = new_game(seed=900 + g, dealer=g % 3)
        while not st.over:
            seat = st.to_act()[0]
            st.apply(seat, bots[seat].act(view(st, seat)).id)  # checked apply


def test_search_legal_and_deterministic() -> None:
    for _st, v in VIEWS[:: max(1, len(VIEWS) // 60)]:
        a = SearchBot(7, samples=2, candidates=3).act(v)
        b = SearchBot(7, samples=2, candidates=3).act(v)
        assert a in v.legal
        assert a == b


def test_seeded_bots_repeat_decisions() -> None:
    for name in ("random", "heuristic"):
        x = [make_bot(name, 42).act(v).id for _st, v in VIEWS[:300]]
        y = [make_bot(name, 42).act(v).id for _st, v in VIEWS[:300]]
        assert x == y


def test_determinize_is_consistent_with_the_view() -> None:
    rng = random.Random(1)
    n = misses = 0
    for _st, v in VIEWS[::3]:
        if any(a.id == HU_ID for a in v.legal):
            continue  # the search wins at once there, it never samples
        seat = v.seat
        assert seat is not None
        d = sample_state(v, HONG_GUAI_WAN, rng)
        if d is None:
            misses += 1
            continue
        assert d.card_counts() == [4] * 20
        assert d.legal_actions(seat) == tuple(a.id for a in v.legal)
        assert view(d, seat).hand == v.hand
        assert [len(p) for p in d.piles] == [len(p) for p in v.piles]
        assert sum(d.hands[(seat + 1) % 3]) == v.hand_sizes[(seat + 1) % 3]
        assert d.stock_count == v.stock_count
        if n % 10 == 0:
            playout(d)
            assert d.over and d.result is not None
        n += 1
    assert n > 100 and misses <= n // 20


def test_search_returns_single_legal_action_at_once() -> None:
    for _st, v in decision_views(3, seed=2):
        one = dataclasses.replace(v, legal=v.legal[:1])
        assert SearchBot(0).act(one) == v.legal[0]
        break


def test_a_heuristic_claims_by_its_margins_and_weighs_discards_by_its_risks() -> None:
    """Each claim kind has its own margin; the discard risks enter every discard's value."""
    from dataclasses import replace

    from paohuzi.bots.handeval import DEFAULT_WEIGHTS
    from paohuzi.core.actions import ActionKind

    eager = HeuristicBot(0, weights=replace(DEFAULT_WEIGHTS, margin_peng=-1e6, margin_chi=-1e5))
    shy = HeuristicBot(0, weights=replace(DEFAULT_WEIGHTS, margin_peng=1e6, margin_chi=1e6))
    kinds = set()
    for _st, v in VIEWS:
        legal = {a.kind for a in v.legal}
        if ActionKind.HU in legal or len(v.legal) < 2:
            continue
        if ActionKind.PENG in legal:
            assert eager.act(v).kind is ActionKind.PENG  # the bigger pull wins
            assert shy.act(v).kind is ActionKind.PASS
            kinds.add(ActionKind.PENG)
        elif ActionKind.CHI in legal:
            assert eager.act(v).kind is ActionKind.CHI
            assert shy.act(v).kind is ActionKind.PASS
            kinds.add(ActionKind.CHI)
        elif v.legal[0].kind is ActionKind.DISCARD:
            base = dict((a.id, val) for val, a in HeuristicBot(0).rank(v))
            riskless = HeuristicBot(
                0, weights=replace(DEFAULT_WEIGHTS, risk_pao=0, risk_peng=0, risk_chi=0)
            )
            for val, a in riskless.rank(v):
                assert val >= base[a.id] - 1e-9  # risks only ever subtract
            kinds.add(ActionKind.DISCARD)
    assert kinds == {ActionKind.PENG, ActionKind.CHI, ActionKind.DISCARD}


CUSTOM = HONG_GUAI_WAN.with_(min_huxi=15, dianhu=6, fan_combine="multiply")


@pytest.mark.parametrize("name", sorted(BOTS))
def test_make_bot_gives_a_bot_the_rules_it_plays_under(name: str) -> None:
    bot = make_bot(name, 3, CUSTOM)
    if name != "random":  # the random bot judges nothing
        assert getattr(bot, "rules") is CUSTOM  # noqa: B009 - not every bot has rules
    default = make_bot(name, 3)
    assert getattr(default, "rules", HONG_GUAI_WAN) is HONG_GUAI_WAN
    st = new_game(CUSTOM, seed=5, dealer=0)
    seat = st.to_act()[0]
    assert st.can_apply(seat, bot.act(view(st, seat)).id)


def test_the_callers_pass_their_rules_to_make_bot(monkeypatch: pytest.MonkeyPatch) -> None:
    """The arena, the single-agent environment and training seats hand their rule set to
    ``make_bot`` (they used to patch it into the bot afterwards, where it had the attribute)."""
    import paohuzi.arena as arena
    import paohuzi.train.selfplay as selfplay

    seen: list[object] = []

    def spy(name: str, seed: int | None = None, rules: object = None) -> object:
        seen.append(rules)
        return make_bot(name, seed) if rules is None else make_bot(name, seed, rules)  # type: ignore[arg-type]

    monkeypatch.setattr(arena, "make_bot", spy)
    monkeypatch.setattr(selfplay, "make_bot", spy)
    arena.play_round(("random", "search", "random"), seed=1, dealer=0, bot_seed=2, rules=CUSTOM)
    selfplay.seat_bot("search", 4, CUSTOM)
    assert seen == [CUSTOM] * 4
    try:
        import paohuzi.env.single as single
    except ImportError:  # pragma: no cover - gymnasium is the env extra
        return
    monkeypatch.setattr(single, "make_bot", spy)
    seen.clear()
    env = single.PaohuziGymEnv(("random", "heuristic"), seat=0, rules=CUSTOM)
    env.reset(seed=1)
    assert seen[-2:] == [CUSTOM, CUSTOM]
    assert all(getattr(b, "rules", CUSTOM) is CUSTOM for b in env.bots.values())
