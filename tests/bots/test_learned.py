"""The learned bot: shipped weights, legal and deterministic play, fast, numpy only."""

from __future__ import annotations

import gc
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from paohuzi.bots import make_bot
from paohuzi.bots.handeval import DEFAULT_WEIGHTS as HEURISTIC_WEIGHTS
from paohuzi.bots.heuristic import HeuristicBot
from paohuzi.bots.learned import (
    DEFAULT_WEIGHTS,
    WEIGHTS_KEY,
    LearnedBot,
    Policy,
    prior,
    weights_array,
)
from paohuzi.env import OBS_SIZE

from .conftest import decision_views


def test_weights_are_shipped_and_small() -> None:
    assert DEFAULT_WEIGHTS.is_file()
    assert DEFAULT_WEIGHTS.stat().st_size < 4_000_000  # a few MB at most
    p = Policy.load()
    assert p.inputs == OBS_SIZE - 3 + 317  # the encoding without the balances, the prior


def test_plays_legal_moves_deterministically_and_fast() -> None:
    a, b = make_bot("learned", 1), make_bot("learned", 2)
    times = []
    views = [v for _state, v in decision_views(12, seed=31)]
    a.act(views[0])  # the weights load on first use
    # The collector is off while timing: in a long-lived xdist worker a full collection
    # walks every earlier test's objects, which is not the bot's cost.
    gc.collect()
    gc.disable()
    try:
        for v in views:
            t0 = time.thread_time()  # this thread's CPU: a decision is single-threaded
            # (einsum, no BLAS threads), and neither the shared machine nor threads other
            # tests left in this xdist worker are its cost
            act = a.act(v)
            times.append(time.thread_time() - t0)
            assert act in v.legal
            assert b.act(v) == act  # the seed changes nothing: the policy is greedy
    finally:
        gc.enable()
    times.sort()
    assert len(times) > 100
    # The bar (p95 under 10 ms on one core) is measured by benchmarks/bots.py on a
    # quiet machine (README: 1.7 ms). Here, beside another xdist worker, the thread's CPU
    # time reads several times higher (11–13 ms p95 in CI), so the test guards the typical
    # decision and the tail against a real regression with room for a busy machine.
    assert times[len(times) // 2] < 0.005, times[len(times) // 2]  # p50 under 5 ms
    assert times[int(0.95 * len(times))] < 0.025  # p95 under 25 ms


def test_takes_the_obvious_win() -> None:
    for _state, v in decision_views(40, seed=5):
        if any(a.kind.name == "HU" for a in v.legal):
            assert make_bot("learned").act(v).kind.name == "HU"
            return
    pytest.skip("no 胡 offered in these rounds")


def test_bad_weights_are_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"cannot read policy weights .*missing\.npz"):
        Policy.load(tmp_path / "missing.npz")
    np.savez(tmp_path / "half.npz", w1=np.zeros((2, 2)))
    with pytest.raises(ValueError, match="lack b1"):
        Policy.load(tmp_path / "half.npz")
    bad = tmp_path / "bad.npz"
    bad.write_text("not a zip", encoding="utf-8")
    with pytest.raises(ValueError, match=r"bad\.npz"):
        LearnedBot(0, Policy.load(bad))


def _prior_only(weights: object = None) -> dict[str, object]:
    """Arrays of a network that adds nothing to the prior (every layer zero, α = 1)."""
    n, h = OBS_SIZE - 3 + 317, 4
    arrays: dict[str, object] = {
        "w1": np.zeros((n, h)),
        "b1": np.zeros(h),
        "w2": np.zeros((h, h)),
        "b2": np.zeros(h),
        "wp": np.zeros((h, 317)),
        "bp": np.zeros(317),
        "wv": np.zeros((h, 1)),
        "bv": np.zeros(1),
        "scale": np.ones(n),
        "alpha": np.ones(1),
    }
    if weights is not None:
        arrays[WEIGHTS_KEY] = weights
    return arrays


def test_the_prior_comes_from_the_policys_own_heuristic_weights() -> None:
    """A network that adds nothing plays the prior's best action, ranked with the weights
    that came with it; without them, the heuristic bot's own."""
    plain = LearnedBot(0, Policy(_prior_only()))
    assert plain.policy.weights == HEURISTIC_WEIGHTS
    eager_w = replace(HEURISTIC_WEIGHTS, margin_peng=-50.0, margin_chi=-50.0)
    eager = LearnedBot(0, Policy(_prior_only(weights_array(eager_w))))
    assert eager.policy.weights == eager_w
    differ = 0
    for _st, v in decision_views(12, seed=33):
        for bot, w in ((plain, HEURISTIC_WEIGHTS), (eager, eager_w)):
            marks = prior(HeuristicBot(None, bot.rules, w).rank(v))
            assert marks[bot.act(v).id] == max(marks) == 100  # the prior's top (ties: any)
        differ += plain.act(v) != eager.act(v)
    assert differ > 0


def test_bad_heuristic_weights_in_a_policy_are_a_clear_error() -> None:
    with pytest.raises(ValueError, match=r"heuristic_weights: unknown heuristic weights.*'nope'"):
        Policy(_prior_only(np.asarray('{"nope": 1}')))
    with pytest.raises(ValueError, match="heuristic_weights"):
        Policy(_prior_only(np.asarray("not json")))


def test_seated_without_torch_or_pettingzoo() -> None:
    """Inference runs on numpy alone: a round with torch and PettingZoo unimportable."""
    code = (
        "import sys\n"
        "for m in ('torch', 'pettingzoo', 'gymnasium', 'matplotlib', 'ray'):\n"
        "    sys.modules[m] = None\n"
        "from paohuzi.arena import run_arena\n"
        "s = run_arena(['learned', 'heuristic', 'random'], 1, seed=1)\n"
        "print(s['rounds'])\n"
    )
    r = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "3"


def test_the_shipped_policy_carries_the_weights_its_tuning_and_scans_found() -> None:
    """The README's run wrote docs/learned-weights.json; a scan from it docs/learned-lean.json
    and a scan from that docs/learned-mingtang.json, each keeping its base with its
    best-scoring variant; the shipped file holds the last."""
    import json

    from paohuzi.bots.handeval import Weights

    docs = Path(__file__).resolve().parents[2] / "docs"
    tuned = json.loads((docs / "learned-weights.json").read_text(encoding="utf-8"))
    assert tuned["log"][-1] == {"check_mean": tuned["check_mean"], "check_se": tuned["check_se"]}
    before = Weights.from_dict(tuned["weights"])
    for name in ("learned-lean.json", "learned-mingtang.json"):
        scan = json.loads((docs / name).read_text(encoding="utf-8"))
        assert Weights.from_dict(scan["base"]["weights"]) == before, name
        best = max(scan["variants"], key=lambda v: v["gain"])
        assert scan["weights"] == best["weights"] == {**scan["base"]["weights"], **best["variant"]}
        before = Weights.from_dict(scan["weights"])
    assert Policy.load().weights == before != HEURISTIC_WEIGHTS
    assert before.red > 0 and before.size > 0 and before.pengpeng > 0
