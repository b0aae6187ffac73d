"""Every script in benchmarks/ runs with ``--quick`` and prints one valid JSON object."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPTS = sorted((Path(__file__).resolve().parents[2] / "benchmarks").glob("*.py"))


def test_there_are_benchmarks() -> None:
    assert SCRIPTS


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_quick_run_prints_json(script: Path) -> None:
    r = subprocess.run(
        [sys.executable, str(script), "--quick"],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
        check=False,
    )
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert isinstance(data, dict) and data


def test_win_eval_times_string_inputs_beside_counts() -> None:
    script = next(p for p in SCRIPTS if p.name == "win_eval.py")
    r = subprocess.run(
        [sys.executable, str(script), "--quick"],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
        check=True,
    )
    data = json.loads(r.stdout)
    assert set(data["evaluate_counts_per_s"]) == {
        "complete",
        "near_complete",
        "random_deals",
        "all",
    }
    strings = data["evaluate_win_strings_per_s"]
    assert strings["inputs"] > 0
    for key in ("evaluate_win_strings", "evaluate_counts_same_inputs"):
        assert strings[key]["cold"] > 0 and strings[key]["warm"] > 0
    assert strings["warm_ratio"] > 0
