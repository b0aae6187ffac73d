"""The Gymnasium single-agent environment: one learner seat against bots."""

from __future__ import annotations

import warnings
from typing import Any

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


def _unmasked_random_episodes(e: PaohuziGymEnv, episodes: int, seed: int) -> list[dict[str, Any]]:
    """What an unmasked trainer (or stable-baselines3's check_env) does: random ids from the
    whole action space, to the end of each round. Returns the info of each illegal step."""
    e.action_space.seed(seed)
    seen = []
    for i in range(episodes):
        obs, _ = e.reset(seed=seed + i)
        done, steps = False, 0
        while not done:
            a = int(e.action_space.sample())
            before = obs
            obs, reward, done, _trunc, info = e.step(a)
            assert e.observation_space.contains(obs)
            if info.get("illegal"):
                seen.append({**info, "action": a, "reward": reward, "before": before, "obs": obs})
            steps += 1
            assert steps < 20_000
    return seen


def test_an_unmasked_illegal_action_raises_by_default() -> None:
    e = PaohuziGymEnv(("random", "random"), seat=0)
    with pytest.raises(IllegalActionError):
        _unmasked_random_episodes(e, 1, seed=2)


def test_penalize_plays_nothing_and_costs_the_penalty() -> None:
    e = PaohuziGymEnv(("random", "random"), seat=1, illegal="penalize", illegal_penalty=0.5)
    seen = _unmasked_random_episodes(e, 2, seed=4)
    assert len(seen) > 10
    for s in seen:
        assert not s["before"]["action_mask"][s["action"]] and s["reward"] == -0.5
        assert np.array_equal(s["before"]["observation"], s["obs"]["observation"])


def test_random_plays_a_legal_action_instead_the_same_for_the_same_seed() -> None:
    def run() -> list[tuple[int, int]]:
        e = PaohuziGymEnv(("random", "heuristic"), seat=2, illegal="random")
        seen = _unmasked_random_episodes(e, 3, seed=6)
        for s in seen:
            assert (
                s["before"]["action_mask"][s["played"]]
                and not s["before"]["action_mask"][s["action"]]
            )
        return [(s["action"], s["played"]) for s in seen]

    first = run()
    assert len(first) > 10 and first == run()


def test_the_illegal_option_is_checked() -> None:
    with pytest.raises(ValueError, match="illegal must be one of raise, penalize, random"):
        PaohuziGymEnv(illegal="ignore")
    with pytest.raises(ValueError, match="illegal_penalty"):
        PaohuziGymEnv(illegal="penalize", illegal_penalty=float("nan"))


def test_the_default_keeps_todays_episodes() -> None:
    """The option draws nothing from the episode's generator: a seeded reset deals the same."""
    a = PaohuziGymEnv(("random", "random"), illegal="random")
    b = PaohuziGymEnv(("random", "random"))
    oa, _ = a.reset(seed=9)
    ob, _ = b.reset(seed=9)
    assert a.seat == b.seat and np.array_equal(oa["observation"], ob["observation"])


@pytest.mark.parametrize("illegal", ["penalize", "random"])
def test_stable_baselines3_check_env_passes(illegal: str) -> None:
    env_checker = pytest.importorskip("stable_baselines3.common.env_checker")
    e = PaohuziGymEnv(("random", "heuristic"), illegal=illegal)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning either
        env_checker.check_env(e)


def test_stable_baselines3_check_env_fails_on_the_default() -> None:
    """Why the option exists: the checker steps unmasked random actions."""
    env_checker = pytest.importorskip("stable_baselines3.common.env_checker")
    with pytest.raises(IllegalActionError):
        env_checker.check_env(PaohuziGymEnv(("random", "heuristic")), warn=False)
