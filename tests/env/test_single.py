"""The Gymnasium single-agent environment: one learner seat against bots."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_reset_seed_determinism, data_equivalence
from gymnasium.utils.passive_env_checker import (
    env_reset_passive_checker,
    env_step_passive_checker,
)

from paohuzi.core.errors import IllegalActionError
from paohuzi.env import GYM_ID, PaohuziGymEnv, encode


def _first_legal(obs: dict[str, np.ndarray]) -> int:
    return int(np.flatnonzero(obs["action_mask"])[0])


def test_gymnasium_checks_pass() -> None:
    e = PaohuziGymEnv(("random", "heuristic"))
    obs, _info = env_reset_passive_checker(e, seed=3)
    env_step_passive_checker(e, _first_legal(obs))
    check_reset_seed_determinism(e)


def test_made_by_id_and_played_to_the_end_the_reward_is_the_learners_delta() -> None:
    e = gymnasium.make(GYM_ID, opponents=("heuristic", "random"))
    total = 0.0
    seats = set()
    for ep in range(12):
        obs, info = e.reset(seed=ep)
        seats.add(info["seat"])
        done = False
        reward = 0.0
        while not done:
            assert obs["action_mask"].any()
            obs, reward, done, truncated, info = e.step(_first_legal(obs))
            assert not truncated
        st = e.unwrapped.state  # type: ignore[attr-defined]
        assert st.over and reward == st.result.deltas[info["seat"]] == info["deltas"][info["seat"]]
        total += reward
    assert seats == {0, 1, 2}  # the learner's seat is drawn each episode


def test_the_learner_sees_its_own_view_only() -> None:
    e = PaohuziGymEnv(("random", "random"), seat=1)
    obs, _ = e.reset(seed=9)
    assert e.seat == 1 and e.state is not None
    np.testing.assert_array_equal(obs["observation"], encode(e.state, 1))
    assert e.state.to_act()[0] == 1
    np.testing.assert_array_equal(obs["action_mask"].astype(bool), e.action_masks())
    done = False
    while not done:  # every step's observation is the encoding of the learner's view
        obs, _reward, done, _truncated, _info = e.step(_first_legal(obs))
        np.testing.assert_array_equal(obs["observation"], encode(e.state, 1))
        legal = np.zeros_like(obs["action_mask"])
        legal[list(e.state.legal_actions(1))] = 1
        np.testing.assert_array_equal(obs["action_mask"], legal)


def test_same_seed_same_episode() -> None:
    runs = []
    for _ in range(2):
        e = PaohuziGymEnv(("heuristic", "random"))
        obs, _ = e.reset(seed=77)
        trace = [obs]
        done = False
        while not done:
            obs, _r, done, _t, _i = e.step(_first_legal(obs))
            trace.append(obs)
        runs.append(trace)
    assert len(runs[0]) == len(runs[1])
    assert all(data_equivalence(a, b) for a, b in zip(*runs, strict=True))


def test_bad_arguments_and_actions_are_refused_clearly() -> None:
    with pytest.raises(ValueError, match="unknown bot 'nobody'"):
        PaohuziGymEnv(("heuristic", "nobody"))
    with pytest.raises(ValueError, match="two bot names"):
        PaohuziGymEnv(("heuristic",))
    with pytest.raises(ValueError, match="seat"):
        PaohuziGymEnv(seat=3)
    e = PaohuziGymEnv(("random", "random"), seat=0, render_mode="ansi")
    obs, _ = e.reset(seed=1)
    bad = next(a for a in range(317) if not obs["action_mask"][a])
    with pytest.raises(IllegalActionError, match=rf"illegal action {bad} for seat 0"):
        e.step(bad)
    with pytest.raises(IllegalActionError, match="int id"):
        e.step("打:一")  # type: ignore[arg-type]
    text = e.render()
    assert text is not None and text.startswith("learner: seat 0") and "legal:" in text
