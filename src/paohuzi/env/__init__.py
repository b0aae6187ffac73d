"""An AI environment for 红拐弯跑胡子 (extra ``rl``: numpy, gymnasium, PettingZoo).

``env()`` / ``raw_env()`` are the PettingZoo AEC environment (three agents),
:class:`PaohuziGymEnv` the single-agent Gymnasium environment (one learner seat
against bots), and :mod:`paohuzi.env.observation` the observation encoder. The
core (:mod:`paohuzi.core`) does not depend on any of this.

The encoder needs numpy only; the environments are imported on first use, so
that a bot that encodes views (the ``learned`` bot) runs without PettingZoo.
"""

from __future__ import annotations

import importlib
from typing import Any

from ..encoding.observation import (
    ACCELERATED,
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

GYM_ID = "paohuzi/Paohuzi-v0"
"""Gymnasium's id: ``gymnasium.make(GYM_ID, opponents=("heuristic", "random"))``."""

try:
    import gymnasium
except ImportError:  # pragma: no cover - the rl extra is not installed
    pass
else:
    if GYM_ID not in gymnasium.registry:
        gymnasium.register(GYM_ID, entry_point="paohuzi.env.single:PaohuziGymEnv")

_LAZY = {
    "AGENTS": ".aec",
    "env": ".aec",
    "raw_env": ".aec",
    "PaohuziGymEnv": ".single",
}


def __getattr__(name: str) -> Any:
    """The environments, imported on first use (they need gymnasium and PettingZoo)."""
    mod = _LAZY.get(name)
    if mod is None:
        raise AttributeError(f"module 'paohuzi.env' has no attribute {name!r}")
    return getattr(importlib.import_module(mod, __name__), name)


__all__ = [
    "ACCELERATED",
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
