"""An AI environment for 红拐弯跑胡子 (extra ``rl``: numpy, gymnasium, PettingZoo).

``env()`` / ``raw_env()`` are the PettingZoo AEC environment (three agents),
:class:`PaohuziGymEnv` the single-agent Gymnasium wrapper (one learner seat
against bots), and :mod:`paohuzi.env.observation` the observation encoder. The core
(:mod:`paohuzi.core`) does not depend on any of this.
"""

from __future__ import annotations

import gymnasium

from .aec import AGENTS, env, raw_env
from .observation import (
    FEATURES,
    OBS_SIZE,
    ORACLE_FEATURES,
    ORACLE_SIZE,
    action_mask,
    encode,
    encode_batch,
    encode_oracle,
    encode_view,
)
from .single import PaohuziGymEnv

GYM_ID = "paohuzi/Paohuzi-v0"
"""Gymnasium's id: ``gymnasium.make(GYM_ID, opponents=("heuristic", "random"))``."""
if GYM_ID not in gymnasium.registry:
    gymnasium.register(GYM_ID, entry_point="paohuzi.env.single:PaohuziGymEnv")

__all__ = [
    "AGENTS",
    "FEATURES",
    "GYM_ID",
    "OBS_SIZE",
    "ORACLE_FEATURES",
    "ORACLE_SIZE",
    "PaohuziGymEnv",
    "action_mask",
    "encode",
    "encode_batch",
    "encode_oracle",
    "encode_view",
    "env",
    "raw_env",
]
