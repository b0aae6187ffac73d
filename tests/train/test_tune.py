"""The heuristic's weights tuned by pattern search on duplicate deals (numpy/torch not needed)."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from paohuzi.bots.handeval import DEFAULT_WEIGHTS, Weights
from paohuzi.train.tune import MULTIPLIED, SHIFTED, deal_scores, score_job, tune


def test_the_heuristic_against_itself_scores_exactly_zero() -> None:
    """With the same weights in every seat the three rotations play the same round, and
    settlement is zero-sum, so every deal scores exactly 0."""
    assert score_job((DEFAULT_WEIGHTS.to_dict(), 1, "t", 0, 4)) == [0.0] * 4


def test_different_weights_score_differently_and_the_same_twice() -> None:
    w = replace(DEFAULT_WEIGHTS, huxi=DEFAULT_WEIGHTS.huxi * 4, margin_peng=-3.0)
    a = deal_scores(w, 1, "t", 6)
    assert a == deal_scores(w, 1, "t", 6)  # seeded: the same deals, the same play
    assert any(x != 0 for x in a)
    assert a != deal_scores(w, 2, "t", 6)  # another seed, other deals


def test_a_step_is_taken_only_when_it_gains_more_than_z_standard_errors() -> None:
    res = tune(4, 3, 1, z=1e9)
    assert res.weights == DEFAULT_WEIGHTS  # nothing can clear that bar
    steps = [e for e in res.log if "weight" in e]
    # each weight tried up and down, once each, since neither was taken
    assert [e["weight"] for e in steps] == [n for n in (*MULTIPLIED, *SHIFTED) for _ in (0, 1)]
    assert all(e["taken"] is False for e in steps)
    assert "check_mean" in res.log[-1]


@pytest.mark.slow
def test_the_search_is_reproducible_and_follows_its_log() -> None:
    a = tune(5, 4, 2, z=0.0, check_deals=4)
    b = tune(5, 4, 2, z=0.0, check_deals=4)
    assert a.weights == b.weights and a.log == b.log
    w = DEFAULT_WEIGHTS
    factor, shift = 2.0, 1.0
    for sweep in range(2):
        for e in a.log:
            if e.get("sweep") == sweep and e.get("taken"):
                name = str(e["weight"])
                old = getattr(w, name)
                assert isinstance(e["value"], float)
                if name in SHIFTED:
                    assert math.isclose(abs(e["value"] - old), shift, abs_tol=1e-3)
                else:
                    ratio = e["value"] / old
                    assert math.isclose(max(ratio, 1 / ratio), factor, rel_tol=1e-3)
                    assert e["gain"] > 0
                w = replace(w, **{name: float(e["value"])})
        factor, shift = math.sqrt(factor), shift / 2
    for name in (*MULTIPLIED, *SHIFTED):
        assert math.isclose(getattr(w, name), getattr(a.weights, name), rel_tol=1e-3)
    assert a.to_dict()["weights"] == a.weights.to_dict()


def test_weights_round_trip_and_bad_ones_are_named() -> None:
    w = replace(DEFAULT_WEIGHTS, huxi=3.2, margin_chi=-0.5)
    assert Weights.from_dict(w.to_dict()) == w
    assert Weights.from_dict({"huxi": 2}) == replace(DEFAULT_WEIGHTS, huxi=2.0)
    with pytest.raises(ValueError, match=r"unknown heuristic weights.*'hux'"):
        Weights.from_dict({"hux": 1.0})
    with pytest.raises(ValueError, match=r"must be numbers.*'huxi': 'a lot'"):
        Weights.from_dict({"huxi": "a lot"})
    with pytest.raises(ValueError, match=r"must be numbers.*True"):
        Weights.from_dict({"huxi": True})
    with pytest.raises(ValueError, match=r"an object of numbers, got \[1, 2\]"):
        Weights.from_dict([1, 2])
