"""The PettingZoo AEC environment: three agents, one decision at a time.

Agents ``player_0``–``player_2`` are the engine's seats 0–2. The action space is
``Discrete(317)``, the engine's action ids (docs/record-format.md); the
observation is ``{"observation": Box, "action_mask": Box(int8)}`` as in
PettingZoo's classic card games, the observation being :func:`~.encode.encode`
of the agent's own view.

A claim window (RULES.md §5, §6) in which several seats may claim is presented
one agent at a time, in the engine's priority order. No observation shows
another seat's answer or even whether another seat had an option: the answers
are private (the view omits them), and an agent is asked exactly when its answer
can still matter — the case in which, at a real table, the seats answer at once.

Rewards are balance changes (悟性): each agent's share of a round's settlement,
given when the round ends. With ``rounds=N`` an episode is a match of N rounds
(balances carried over, the winner deals next, RULES.md §13); ``reward="match"``
then pays the match total at its end instead of each round's change.
"""

from __future__ import annotations

import random
from typing import Any, Literal

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..core.actions import NUM_ACTIONS
from ..core.engine import State
from ..core.errors import IllegalActionError
from ..core.match import Match
from ..core.rules import HONG_GUAI_WAN, RuleSet
from ..core.views import format_view, view
from ..encoding.observation import OBS_SIZE, Encoder, bounds

__all__ = ["AGENTS", "env", "raw_env"]

AGENTS = ("player_0", "player_1", "player_2")
_SEAT = {a: i for i, a in enumerate(AGENTS)}
_INTS = (int, np.integer)


class raw_env(AECEnv):  # type: ignore[misc]  # PettingZoo's name
    """红拐弯跑胡子 for three agents (PettingZoo AEC API)."""

    metadata = {  # noqa: RUF012 - PettingZoo reads a class attribute
        "render_modes": ["ansi"],
        "name": "paohuzi_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        render_mode: str | None = None,
        *,
        rules: RuleSet = HONG_GUAI_WAN,
        rounds: int = 1,
        reward: Literal["round", "match"] = "round",
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode != "ansi":
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
            raise ValueError(f"rounds must be a positive int, got {rounds!r}")
        if reward not in ("round", "match"):
            raise ValueError(f"reward must be 'round' or 'match', got {reward!r}")
        if not isinstance(rules, RuleSet):
            raise ValueError(f"rules must be a RuleSet, got {rules!r}")
        self.render_mode = render_mode
        self.rules = rules
        self.rounds = rounds
        self.reward_mode = reward
        self.possible_agents = list(AGENTS)
        low, high = bounds()
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(low, high, (OBS_SIZE,), np.float32),
                    "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
                }
            )
            for a in AGENTS
        }
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in AGENTS}
        self._rng = random.Random()
        self.match: Match | None = None
        self.state: State | None = None
        self._paid = False  # whether self.rewards holds a payment (else all zero)
        self._encoder = Encoder()
        self._legal_st: State | None = None
        self._legal_version = self._legal_seat = -1
        self._legal: tuple[int, ...] = ()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ API

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new round (or match); ``seed`` fixes this and every later deal."""
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int | np.integer)):
            raise ValueError(f"a seed is an int or None, got {seed!r}")
        if seed is not None:
            self._rng.seed(int(seed))  # as random.Random(int(seed)), without a new object
        self.match = Match(self.rules, self._rng.randrange(2**63), self.rounds)
        self.state = self.match.start_round()
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in AGENTS}
        self.agent_selection = AGENTS[self.state.to_act()[0]]
        self._paid = False

    def observe(self, agent: str) -> dict[str, np.ndarray[Any, Any]]:
        st = self.state
        if st is None:
            raise RuntimeError("call reset() before using the environment")
        seat = _SEAT[agent]
        legal = st.legal_actions(seat)
        # Kept for step(), which checks the action against them (as attributes: a tuple
        # a step would be one more object for the garbage collector to count).
        self._legal_st, self._legal_version, self._legal_seat = st, st.version, seat
        self._legal = legal
        obs, mask = self._encoder.observe(st, seat, legal)
        return {"observation": obs, "action_mask": mask}

    def last(
        self, observe: bool = True
    ) -> tuple[dict[str, np.ndarray[Any, Any]] | None, float, bool, bool, dict[str, Any]]:
        """PettingZoo's ``last()``, written out: it runs on every step."""
        agent = self.agent_selection
        return (
            self.observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def step(self, action: int | np.integer[Any] | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        st = self._live()
        seat = _SEAT[agent]
        if type(action) is int:
            aid = action
        elif isinstance(action, _INTS) and not isinstance(action, bool):
            aid = int(action)
        else:
            raise IllegalActionError(
                f"{agent} must act with an action id (an int 0–{NUM_ACTIONS - 1}), got {action!r}"
            )
        if self._legal_st is st and self._legal_version == st.version and self._legal_seat == seat:
            legal = self._legal  # what observe() found: the state has not moved since
        else:
            legal = st.legal_actions(seat)
        if aid not in legal:
            raise IllegalActionError(
                f"illegal action {action!r} for {agent}: legal are "
                + ", ".join(f"{a} ({st.action(seat, a).text()})" for a in legal)
            )
        st.apply_fast(seat, aid)
        self._cumulative_rewards[agent] = 0
        if not st.over:
            # The common case: nobody is paid, so the rewards stay zero.
            if self._paid:
                self.rewards = dict.fromkeys(AGENTS, 0)
                self._paid = False
            self.agent_selection = AGENTS[st.to_act()[0]]
            return
        self.rewards = dict.fromkeys(AGENTS, 0)
        self._round_over(st)
        self._paid = True
        self._accumulate_rewards()
        self._deads_step_first()

    def render(self) -> str | None:
        """The table as text (``render_mode="ansi"``), as a spectator sees it."""
        if self.render_mode is None:
            return None
        st = self._live()
        head = f"paohuzi: round {len(self._match().finished) + 1}/{self.rounds}"
        if not st.over:
            head += f", {self.agent_selection} to act"
        out = [head, format_view(view(st, None))]
        if st.result is not None:
            r = st.result
            who = "荒庄 (no winner)" if r.winner is None else f"player_{r.winner} wins"
            out.append(f"  result: {who}, balance changes {list(r.deltas)}")
        return "\n".join(out)

    def close(self) -> None:
        """Nothing to release."""

    # ------------------------------------------------------------ internals

    def _live(self) -> State:
        if self.state is None:
            raise RuntimeError("call reset() before using the environment")
        return self.state

    def _match(self) -> Match:
        if self.match is None:
            raise RuntimeError("call reset() before using the environment")
        return self.match

    def _round_over(self, st: State) -> None:
        """Pay a finished round; start the match's next one or end the episode."""
        res = st.result
        assert res is not None
        m = self._match()
        m.end_round()
        if self.reward_mode == "round":
            self.rewards = {a: res.deltas[i] for i, a in enumerate(AGENTS)}
        if m.over:
            if self.reward_mode == "match":
                tot = m.totals()
                self.rewards = {a: tot[i] for i, a in enumerate(AGENTS)}
            self.terminations = dict.fromkeys(AGENTS, True)
            for i, a in enumerate(AGENTS):
                self.infos[a] = {"deltas": res.deltas, "totals": m.totals(), "seat": i}
            return  # self.state stays the last round: observe and render show it
        self.state = m.start_round()
        self.agent_selection = AGENTS[self.state.to_act()[0]]


def env(**kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's standard checks (order, bounds) around it."""
    e = raw_env(**kwargs)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)
