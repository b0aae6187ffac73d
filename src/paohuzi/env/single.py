"""A Gymnasium single-agent environment: one learner seat against bots.

The learner is one seat (fixed, or drawn each episode); the other two are
bots from :func:`paohuzi.bots.make_bot`, which see only their own views. Between
the learner's decisions the bots play on, so ``step`` returns the learner's next
observation (a round the bots finish before the learner's first decision is
dealt again, since there is nothing to learn from it). The reward is the
learner's balance change when the round ends.
Observation and action spaces are the AEC environment's (``Discrete(317)``,
``{"observation", "action_mask"}``); ``action_masks()`` returns the mask as
booleans, the name sb3-contrib's maskable algorithms look for.

What an action outside the mask does is the ``illegal`` option (:data:`ILLEGAL`):
``"raise"`` (the default) raises :class:`~paohuzi.core.errors.IllegalActionError`,
for masked trainers where it is a bug; ``"penalize"`` plays nothing, returns the same
observation and a reward of ``-illegal_penalty``; ``"random"`` plays a legal action
drawn by the environment's seeded generator instead. ``info["illegal"]`` says when it
happened. The last two let unmasked trainers and stable-baselines3's ``check_env``
(which steps random actions) run on the environment.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from ..bots import Bot, make_bot
from ..core.actions import NUM_ACTIONS
from ..core.engine import State, new_game
from ..core.errors import IllegalActionError
from ..core.rules import HONG_GUAI_WAN, RuleSet
from ..core.views import format_view, view
from ..encoding.observation import OBS_SIZE, Encoder, bounds

__all__ = ["ILLEGAL", "PaohuziGymEnv"]

ILLEGAL = ("raise", "penalize", "random")
"""What ``step`` may do with an action outside the mask (the ``illegal`` option)."""

Obs = dict[str, np.ndarray[Any, Any]]


class PaohuziGymEnv(gymnasium.Env[Obs, np.int64]):
    """One learner seat against two bots, one round an episode."""

    metadata = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012 - gymnasium's

    def __init__(
        self,
        opponents: Sequence[str] = ("heuristic", "heuristic"),
        *,
        seat: int | None = None,
        rules: RuleSet = HONG_GUAI_WAN,
        render_mode: str | None = None,
        illegal: str = "raise",
        illegal_penalty: float = 1.0,
    ) -> None:
        """``illegal``: what an action outside the mask does, one of :data:`ILLEGAL`;
        ``illegal_penalty``: the reward lost to one under ``"penalize"``."""
        if isinstance(opponents, str) or len(opponents) != 2:
            raise ValueError(f"opponents are two bot names, got {opponents!r}")
        for name in opponents:
            make_bot(name, 0)  # an unknown name fails here, quoting it
        if seat is not None and (isinstance(seat, bool) or seat not in (0, 1, 2)):
            raise ValueError(f"seat must be 0, 1, 2 or None (drawn each episode), got {seat!r}")
        if render_mode is not None and render_mode != "ansi":
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        if illegal not in ILLEGAL:
            raise ValueError(f"illegal must be one of {', '.join(ILLEGAL)}, got {illegal!r}")
        if not (isinstance(illegal_penalty, int | float) and 0 <= illegal_penalty < float("inf")):
            raise ValueError(
                f"illegal_penalty must be a finite number >= 0, got {illegal_penalty!r}"
            )
        self.illegal = illegal
        self.illegal_penalty = float(illegal_penalty)
        self.opponents = tuple(opponents)
        self.fixed_seat = seat
        self.rules = rules
        self.render_mode = render_mode
        low, high = bounds()
        self.observation_space = spaces.Dict(  # type: ignore[assignment]
            {
                "observation": spaces.Box(low, high, (OBS_SIZE,), np.float32),
                "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
            }
        )
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self.state: State | None = None
        self.seat = 0
        self._encoder = Encoder()  # exactly encode(state, seat), reusing unchanged blocks
        self.bots: dict[int, Bot] = {}
        self._rng = random.Random(0)  # draws "random" replacements; seeded by reset()

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        super().reset(seed=seed)
        rng = random.Random(int(self.np_random.integers(2**63)))
        self.seat = self.fixed_seat if self.fixed_seat is not None else rng.randrange(3)
        others = [(self.seat + 1) % 3, (self.seat + 2) % 3]
        self.bots = {}
        for s, name in zip(others, self.opponents, strict=True):
            self.bots[s] = make_bot(name, rng.randrange(2**31), self.rules)
        while True:  # a round the bots finish before the learner decides is skipped
            self.state = new_game(self.rules, seed=rng.randrange(2**63), dealer=rng.randrange(3))
            self._play_bots()
            if not self.state.over:
                self._rng.setstate(rng.getstate())  # its next draws: no draw above moves
                return self._obs(), self._info()

    def step(self, action: int | np.integer[Any]) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        st = self._live()
        if st.over:
            raise IllegalActionError("the round is over: call reset()")
        if not isinstance(action, int | np.integer) or isinstance(action, bool):
            raise IllegalActionError(f"an action is an int id 0–{NUM_ACTIONS - 1}, got {action!r}")
        aid = int(action)
        legal = st.legal_actions(self.seat)
        illegal = aid not in legal
        if illegal:
            if self.illegal == "penalize":
                info = {**self._info(), "illegal": True}
                return self._obs(), -self.illegal_penalty, False, False, info
            if self.illegal == "raise":
                raise IllegalActionError(
                    f"illegal action {action!r} for seat {self.seat}: legal are "
                    + ", ".join(f"{a} ({st.action(self.seat, a).text()})" for a in legal)
                )
            aid = legal[self._rng.randrange(len(legal))]  # "random"
        st.apply_fast(self.seat, aid)
        self._play_bots()
        reward = 0.0
        if st.result is not None:
            reward = float(st.result.deltas[self.seat])
        info = self._info()
        if illegal:
            info["illegal"] = True
            info["played"] = aid
        return self._obs(), reward, st.over, False, info

    def action_masks(self) -> np.ndarray[Any, np.dtype[np.bool_]]:
        """The legal actions as booleans (sb3-contrib's MaskablePPO reads this)."""
        m = np.zeros(NUM_ACTIONS, np.bool_)
        m[list(self._live().legal_actions(self.seat))] = True
        return m

    def render(self) -> str | None:
        """The table as the learner sees it (``render_mode="ansi"``)."""
        if self.render_mode is None:
            return None
        return f"learner: seat {self.seat}\n" + format_view(view(self._live(), self.seat))

    # ------------------------------------------------------------ internals

    def _live(self) -> State:
        if self.state is None:
            raise RuntimeError("call reset() before using the environment")
        return self.state

    def _play_bots(self) -> None:
        """Let the bots decide until the learner must act or the round ends."""
        st = self._live()
        while not st.over:
            seat = st.to_act()[0]
            if seat == self.seat:
                return
            st.apply(seat, self.bots[seat].act(view(st, seat)).id)

    def _obs(self) -> Obs:
        st = self._live()
        obs, mask = self._encoder.observe(st, self.seat, st.legal_actions(self.seat))
        return {"observation": obs, "action_mask": mask}

    def _info(self) -> dict[str, Any]:
        st = self._live()
        info: dict[str, Any] = {"seat": self.seat}
        if st.result is not None:
            info["deltas"] = st.result.deltas
            info["winner"] = st.result.winner
        return info
