"""The PettingZoo AEC environment: API, seeding, rewards = the engine's settlement, privacy."""

from __future__ import annotations

import random
import warnings
from collections.abc import Iterator

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from paohuzi.core.engine import State, new_game
from paohuzi.core.errors import IllegalActionError
from paohuzi.core.rules import HONG_GUAI_WAN
from paohuzi.core.views import view
from paohuzi.env import AGENTS, encode, encode_view, env, raw_env

from .conftest import random_positions


@pytest.fixture(autouse=True)
def _quiet() -> Iterator[None]:
    # api_test warns that a dict observation is "not a NumPy array", as for every classic game.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


def test_pettingzoo_api_test() -> None:
    api_test(env(), num_cycles=1000)


def test_pettingzoo_api_test_on_a_match() -> None:
    api_test(env(rounds=3, reward="match"), num_cycles=300)


def test_pettingzoo_seed_test() -> None:
    seed_test(env, num_cycles=500)


def test_the_same_seed_deals_the_same_round_and_another_seed_does_not() -> None:
    a, b, c = raw_env(), raw_env(), raw_env()
    a.reset(seed=3)
    b.reset(seed=3)
    c.reset(seed=4)
    assert a.state is not None and b.state is not None and c.state is not None
    assert a.state.deal == b.state.deal and a.state.deal != c.state.deal
    a.reset()
    assert a.state.deal != b.state.deal  # reset() without a seed deals the next round


def _play(e: raw_env, rng: random.Random, check_views: bool = False) -> dict[str, float]:
    """One random masked episode (胡 whenever offered, so that rounds are won, else at random).

    Returns each agent's summed rewards, read from ``last()``.
    """
    got = dict.fromkeys(AGENTS, 0.0)
    for agent in e.agent_iter():
        obs, reward, term, trunc, _info = e.last()
        got[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        mask = obs["action_mask"]
        assert mask.dtype == np.int8 and obs["observation"].dtype == np.float32
        st = e.state
        assert st is not None and AGENTS[st.to_act()[0]] == agent
        legal = sorted(st.legal_actions(AGENTS.index(agent)))
        assert np.flatnonzero(mask).tolist() == legal
        if check_views:  # what the agent observes is its view's encoding, nothing more
            np.testing.assert_array_equal(
                obs["observation"], encode_view(view(st, AGENTS.index(agent)))
            )
        e.step(21 if 21 in legal else int(rng.choice(legal)))
    return got


def test_a_thousand_random_episodes_pay_the_engines_settlement() -> None:
    """Rewards equal the deltas of the same decisions replayed, checked, on a fresh engine."""
    rng = random.Random(2024)
    e = raw_env()
    e.reset(seed=2024)
    wins = 0
    for i in range(1000):
        e.reset()
        got = _play(e, rng, check_views=i < 50)
        st = e.state
        assert st is not None and st.result is not None
        again = new_game(HONG_GUAI_WAN, seed=st.seed, dealer=st.dealer)
        for seat, aid in st.decisions:
            again.apply(seat, aid)
        assert again.result is not None
        assert [got[a] for a in AGENTS] == list(again.result.deltas)
        wins += again.result.winner is not None
    assert 50 < wins < 900  # both wins and 荒庄 happen (random play mostly ends in 荒庄)


@pytest.mark.parametrize("mode", ["round", "match"])
def test_a_match_pays_its_totals(mode: str) -> None:
    e = raw_env(rounds=4, reward=mode)  # type: ignore[arg-type]
    e.reset(seed=8)
    rng = random.Random(8)
    rounds_paid = 0
    got = dict.fromkeys(AGENTS, 0.0)
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        got[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        before = len(e.match.finished) if e.match else 0
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if e.match and len(e.match.finished) > before and any(e.rewards.values()):
            rounds_paid += 1
    assert e.match is not None and len(e.match.finished) == 4
    assert [got[a] for a in AGENTS] == list(e.match.totals())
    if mode == "match":
        assert rounds_paid <= 1  # paid once, at the end


def test_illegal_and_malformed_actions_are_refused_clearly() -> None:
    e = raw_env()
    e.reset(seed=1)
    st = e.state
    assert st is not None
    seat = st.to_act()[0]
    bad = next(a for a in range(317) if a not in st.legal_actions(seat))
    version = st.version
    with pytest.raises(IllegalActionError, match=rf"illegal action {bad} for player_{seat}"):
        e.step(bad)
    for junk in (None, "5", 1.5, True):
        with pytest.raises(IllegalActionError, match="action id"):
            e.step(junk)  # type: ignore[arg-type]
    assert st.version == version  # nothing was applied
    e.step(np.int64(st.legal_actions(seat)[0]))  # numpy ints are fine
    assert st.version == version + 1


def test_bad_options_are_refused() -> None:
    with pytest.raises(ValueError, match="rounds"):
        raw_env(rounds=0)
    with pytest.raises(ValueError, match="reward"):
        raw_env(reward="game")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="render_mode"):
        raw_env(render_mode="human")
    with pytest.raises(RuntimeError, match="reset"):
        raw_env().observe("player_0")
    for seed in ("abc", 1.5, True):
        with pytest.raises(ValueError, match=f"a seed is an int or None, got {seed!r}"):
            raw_env().reset(seed=seed)  # type: ignore[arg-type]


def test_ansi_render_shows_the_table() -> None:
    e = raw_env(render_mode="ansi")
    e.reset(seed=5)
    text = e.render()
    assert text is not None
    assert f"{e.agent_selection} to act" in text
    assert "seat 0:" in text and "seat 2:" in text and "stock 19" in text
    _play(e, random.Random(5))
    text = e.render()
    assert text is not None and "result:" in text and "balance changes" in text
    assert raw_env().render() is None


def _claim_windows(n: int) -> list[State]:
    """Positions where two or more seats may claim the card on offer."""
    return [s for s in random_positions(n, seed=21) if len(s.to_act()) > 1]


def test_a_claimants_answer_is_not_shown_to_the_others() -> None:
    """Whatever the first claimant answers, the next one's observation is the same."""
    windows = _claim_windows(400)
    assert len(windows) >= 10
    compared = 0
    for s in windows:
        first, second = s.to_act()[:2]
        seen = []
        for aid in s.legal_actions(first):
            t = s.clone()
            t.apply_fast(first, aid)
            if t.window is not None and second in t.to_act():  # still open: asked next
                seen.append([encode(t, k) for k in range(3) if k != first])
        for other in seen[1:]:
            for x, y in zip(seen[0], other, strict=True):
                np.testing.assert_array_equal(x, y)
            compared += 1
    assert compared > 0


def test_the_docs_example_runs() -> None:
    import re
    from pathlib import Path

    page = Path(__file__).resolve().parents[2] / "docs" / "env.md"
    blocks = re.findall(r"```python\n(.*?)```", page.read_text(encoding="utf-8"), re.S)
    assert blocks
    for code in blocks:
        exec(compile(code, "docs/env.md", "exec"), {})
