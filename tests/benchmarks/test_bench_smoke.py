"""Every script in benchmarks/ runs with ``--quick`` and prints its figures as one JSON object."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from ..server.redisdb import REDIS_VAR, redis_database

SCRIPTS = sorted((Path(__file__).resolve().parents[2] / "benchmarks").glob("*.py"))

_BOT = ("decisions", "decisions_per_second")
_COLD_WARM = ("cold", "warm")

# Figures each script must print, as key paths: counts and rates, numbers > 0.
POSITIVE: dict[str, list[str]] = {
    "analysis_metric.py": [
        "deals",
        "budget",
        "seconds",
        "bots.random.decisions",
        "paired.decisions",
        "paired.rounds",
    ],
    "analysis.py": ["rounds", "budget", "decisions", "seconds", "decisions_per_second"],
    "bots.py": ["views"]
    + [f"{bot}.{k}" for bot in ("heuristic", "random", "search") for k in _BOT],
    "cluster_load.py": [
        "rooms",
        *(f"results.2.{k}" for k in ("decisions_per_second", "p50_ms", "p99_ms", "workers_cpu")),
    ],
    "compiled_vs_pure.py": [
        "reps",
        *(
            f"pure.{k}"
            for k in (
                "games_per_second",
                "clone_microseconds",
                "evaluate_counts_cold_per_s",
                "evaluate_counts_warm_per_s",
            )
        ),
    ],
    "server_load.py": [
        "rooms",
        "seconds",
        "decisions",
        "decisions_per_second",
        "p50_ms",
        "p95_ms",
        "p99_ms",
        "rounds",
        "transactions_per_second",
        "decisions_per_transaction",
        "server_cpu_ms_per_decision",
        "server_rss_mb",
    ],
    "env.py": [
        "games",
        "engine_actions_per_second",
        "env_steps_per_second",
        "env_steps_per_game",
        "env_to_engine_ratio",
        "encodes",
        "batched_encodes_per_second",
    ],
    "games.py": [
        "games",
        "table_build_seconds",
        "seconds",
        "games_per_second",
        "actions_per_second",
        "actions_per_game",
        "clone_microseconds",
        "clone_with_history_microseconds",
    ],
    "settlement.py": ["rounds", "cpu_ms_per_settlement", "wall_ms_per_settlement", "ledger_rows"],
    "selfplay.py": [
        "games",
        "batched.decisions",
        "batched.decisions_per_second",
        "one_at_a_time.decisions_per_second",
        "learn.samples_per_second",
        "decision_ms.decisions",
    ],
    "win_eval.py": [
        "seed",
        "inputs.complete",
        "inputs.complete_that_win",
        "inputs.near_complete",
        "inputs.random_deals",
        *(
            f"evaluate_counts_per_s.{kind}.{k}"
            for kind in ("complete", "near_complete", "random_deals", "all")
            for k in _COLD_WARM
        ),
        *(
            f"waits_counts_per_s.{kind}.{k}"
            for kind in ("waiting_hands", "random_deals")
            for k in _COLD_WARM
        ),
        "decomposition_tables.entries",
        "decomposition_tables.build_seconds",
        "decomposition_tables.bytes",
        "memo.entries_after_one_pass",
        "memo.bytes_after_one_pass",
        "memo.limit",
        "import_paohuzi_core_seconds",
        "seconds",
    ],
}

# Sub-millisecond timings printed rounded: numbers, but a fast machine may print 0.
NON_NEGATIVE: dict[str, list[str]] = {
    "bots.py": [
        f"{bot}.{k}"
        for bot in ("heuristic", "random", "search", "learned", "guided")
        for k in ("mean_ms", "p50_ms", "p95_ms", "cpu_p50_ms", "cpu_p95_ms")
    ],
    "selfplay.py": ["decision_ms.p50", "decision_ms.p95"],
}

# The riichi ``mahjong`` comparison is printed as null when that library is absent.
OPTIONAL_POSITIVE: dict[str, dict[str, list[str]]] = {
    "compiled_vs_pure.py": {
        "compiled": ["games_per_second", "clone_microseconds", "evaluate_counts_cold_per_s"],
        "openspiel_rounds_per_second": ["hearts", "dou_dizhu"],
    },
    "win_eval.py": {"mahjong": ["hand_calculator_per_s", "hand_divider_per_s"]},
    "env.py": {
        "python_encoder": [
            "env_steps_per_second",
            "env_to_engine_ratio",
            "batched_encodes_per_second",
        ]
    },
}


def _get(data: dict[str, Any], path: str) -> Any:
    value: Any = data
    for key in path.split("."):
        assert isinstance(value, dict) and key in value, f"no figure {path!r} in {data}"
        value = value[key]
    return value


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def test_there_are_benchmarks() -> None:
    assert SCRIPTS


def test_every_benchmark_declares_its_figures() -> None:
    assert sorted(s.name for s in SCRIPTS) == sorted(POSITIVE)


def _quick(script: Path) -> dict[str, Any]:
    """Run a benchmark in its short form and return the JSON object it printed."""
    with contextlib.ExitStack() as stack:
        extra = []
        if script.name == "cluster_load.py" and os.environ.get(REDIS_VAR):
            # A Redis database of its own: it empties the one it is given.
            extra = ["--redis", stack.enter_context(redis_database())]
        return _run_quick(script, extra)


def _run_quick(script: Path, extra: list[str]) -> dict[str, Any]:
    r = subprocess.run(
        [sys.executable, str(script), "--quick", *extra],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
        check=False,
    )
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert isinstance(data, dict) and data
    return data


@pytest.mark.slow
@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_quick_run_prints_its_figures(script: Path) -> None:
    data = _quick(script)
    bad = []
    for path in POSITIVE.get(script.name, []):
        value = _get(data, path)
        if not (_is_number(value) and value > 0):
            bad.append(f"{path} = {value!r} (want a number > 0)")
    for path in NON_NEGATIVE.get(script.name, []):
        value = _get(data, path)
        if not (_is_number(value) and value >= 0):
            bad.append(f"{path} = {value!r} (want a number >= 0)")
    for section, keys in OPTIONAL_POSITIVE.get(script.name, {}).items():
        block = _get(data, section)
        if block is not None:
            for key in keys:
                value = _get(block, key)
                if not (_is_number(value) and value > 0):
                    bad.append(f"{section}.{key} = {value!r} (want a number > 0)")
    which = data.get("compiled")  # which build ran
    if script.name in ("games.py", "win_eval.py") and not isinstance(which, bool):
        bad.append(f"compiled = {which!r} (want true or false)")
    assert not bad, f"{script.name} printed bad figures:\n" + "\n".join(bad)
    if script.name == "server_load.py":
        _server_load_is_sane(data)


def test_win_eval_times_string_inputs_beside_counts() -> None:
    data = _quick(next(p for p in SCRIPTS if p.name == "win_eval.py"))
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


def _server_load_is_sane(data: dict[str, Any]) -> None:
    """2 rooms × 3 clients for 3 s: no errors, ordered percentiles, commits that add up."""
    assert data["rooms"] == 2 and data["errors"] == 0 and data["failures"] == []
    assert set(data["error_codes"]) <= {"stale"}  # only the race a claim window allows
    assert 0 < data["p50_ms"] <= data["p95_ms"] <= data["p99_ms"] <= data["max_ms"] < 10_000
    assert data["decisions"] >= 10
    assert data["decisions_per_second"] == round(data["decisions"] / data["seconds"], 1)
    assert 1 <= data["decisions_per_transaction"] <= 2  # one write per table at a time
    assert 20 < data["server_rss_mb"] < 2000
    assert data["batch"] is True  # the clients ask for batched frames unless --no-batch
    assert 0 < data["server_cpu_ms_per_decision"] < 1000
    assert len(data["error_samples"]) <= 3
    assert all(x.startswith("stale: ") for x in data["error_samples"])


@pytest.mark.slow
def test_server_load_measures_with_an_analysis_running() -> None:
    """``--analysis``: a bot match's 复盘 runs in the server's pool through the window (it is
    still running when the window closes), and the tables play on without an error."""
    data = _run_quick(next(p for p in SCRIPTS if p.name == "server_load.py"), ["--analysis"])
    _server_load_is_sane(data)
    assert data["analysis"]["match_id"] > 0
    assert data["analysis"]["status_at_end"] == "running"
    assert "token" not in data["analysis"]  # the guest's token never printed


@pytest.mark.slow
def test_server_load_club_rooms() -> None:
    """``--club``: rooms opened from a club's template by its members in turn (one-round
    matches, so each member opens some), played as plain rooms are, without an error."""
    script = next(p for p in SCRIPTS if p.name == "server_load.py")
    data = _run_quick(script, ["--club", "--rounds", "1"])
    assert data["club"] is True and data["rooms"] == 2
    assert data["errors"] == 0 and data["failures"] == [] and data["stale_open"] == 0
    assert data["decisions"] > 0 and data["rounds"] > 0
