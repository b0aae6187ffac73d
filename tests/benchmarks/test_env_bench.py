"""benchmarks/env.py's figures hold together (values, not only their presence)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from paohuzi.env import ACCELERATED

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "env.py"


def test_env_benchmark_figures_are_consistent() -> None:
    r = subprocess.run(
        [sys.executable, str(SCRIPT), "--quick"],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
        check=True,
    )
    d = json.loads(r.stdout)
    assert d["benchmark"] == "env" and d["games"] == 20 and d["encodes"] == 2000
    assert d["env_reward_total"] == 0  # settlement is zero-sum (§12)
    assert 10 < d["env_steps_per_game"] < 100  # a round is tens of decisions
    ratio = d["env_steps_per_second"] / d["engine_actions_per_second"]
    assert abs(ratio - d["env_to_engine_ratio"]) < 0.01
    assert 0 < d["env_to_engine_ratio"] < 1.5  # the env drives the same engine
    assert d["encoder"] == ("c" if ACCELERATED else "python")
    if ACCELERATED:  # the Python encoder's figures beside, from the same rounds
        py = d["python_encoder"]
        py_ratio = py["env_steps_per_second"] / d["engine_actions_per_second"]
        assert abs(py_ratio - py["env_to_engine_ratio"]) < 0.01
        assert 0 < py["env_to_engine_ratio"] < 1.5 and py["batched_encodes_per_second"] > 0
    else:
        assert d["python_encoder"] is None
