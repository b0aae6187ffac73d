"""The heavy-tailed error bar and the refinement's contenders (issue 31's stability)."""

from __future__ import annotations

import math
import random

import pytest

from paohuzi.analysis import Budget, Verdict, judge
from paohuzi.analysis.errorbar import heavy_se, mean_se
from paohuzi.analysis.values import _contenders
from paohuzi.analysis.verdict import BLUNDER, INACCURACY, MISTAKE, straddles_severe, unsettled


def _round_points(rng: random.Random, n: int) -> list[float]:
    """Per-world differences shaped like a round's: mostly small, 3 % a big 胡 (40)."""
    return [40.0 if rng.random() < 0.03 else rng.gauss(0.0, 2.0) for _ in range(n)]


def test_heavy_se_covers_a_heavy_tailed_mean_where_the_sample_se_does_not() -> None:
    """On 32 worlds the sample's standard error is too small whenever the worlds missed
    the big outcome: mean ± 2 SE holds the true mean (1.2) far less than 95 % of the
    time; the heavy-tailed error bar holds it at least 90 % of the time."""
    rng = random.Random(1)
    naive = heavy = 0
    runs = 1500
    for _ in range(runs):
        xs = _round_points(rng, 32)
        m, s = mean_se(xs)
        naive += abs(m - 1.2) <= 2 * s
        m, s = heavy_se(xs, 20.0)
        heavy += abs(m - 1.2) <= 2 * s
    assert naive / runs < 0.8
    assert heavy / runs >= 0.9


def test_heavy_se_is_wider_and_fades_with_more_worlds() -> None:
    rng = random.Random(2)
    xs = [rng.gauss(5.0, 2.0) for _ in range(32)]
    m, s = mean_se(xs)
    hm, hs = heavy_se(xs, 30.0)
    assert hm == m and hs > 2 * s  # a few worlds: the unseen tail dominates
    ys = [rng.gauss(5.0, 8.0) for _ in range(2000)]
    assert heavy_se(ys, 30.0)[1] == pytest.approx(mean_se(ys)[1], rel=0.05)
    assert heavy_se(xs, 0.0)[1] == pytest.approx(s * math.sqrt(31 / 33), rel=1e-9)
    assert heavy_se([3.0], 4.0) == (3.0, 4.0)
    for bad in (-1.0, math.inf, math.nan):
        with pytest.raises(ValueError, match="scale"):
            heavy_se(xs, bad)


def test_straddling_with_the_heavy_error_bar_gives_the_milder_grade() -> None:
    """A loss of about 4.5 on 24 worlds clears the mistake threshold by the sample's own
    error but not once an unseen big outcome is allowed for: an inaccuracy, not a
    mistake, until more worlds settle it."""
    rng = random.Random(3)
    xs = [rng.gauss(4.5, 1.5) for _ in range(24)]
    assert judge(*mean_se(xs)) is Verdict.MISTAKE
    assert judge(*heavy_se(xs, 20.0)) is Verdict.INACCURACY
    more = xs + [rng.gauss(4.5, 1.5) for _ in range(400)]
    assert judge(*heavy_se(more, 20.0)) is Verdict.MISTAKE


def test_contenders_keep_the_close_options_and_the_one_chosen() -> None:
    """A refinement keeps playing every option not clearly worse than the best (here
    0 and 1, a point apart on noisy worlds) and the option in focus (3), not the clearly
    worse one (2): its reference is then settled on all worlds, not picked once."""
    rng = random.Random(4)
    means = (10.0, 9.0, -5.0, 2.0)
    out = [[m + rng.gauss(0.0, 6.0) for _ in range(64)] for m in means]
    best = max(range(4), key=lambda j: sum(out[j]))  # 0 or 1, by these worlds' luck
    keep = _contenders(out, 3, 3, 0.0)
    assert keep[0] == best and sorted(keep) == [0, 1, 3]
    assert _contenders(out, 3, 1, 0.0) == [best, 3]  # at most one beside the focus
    assert sorted(_contenders(out, 0, 3, 0.0)) == [0, 1]  # the focus is a contender already


def test_only_a_straddled_mistake_or_blunder_threshold_earns_the_long_refinement() -> None:
    """The review refines up to ``Budget.refine`` batches only while the interval straddles
    the mistake or blunder threshold; a good-or-inaccuracy doubt stops at ``Budget.mild``."""
    assert straddles_severe(MISTAKE + 0.5, 0.5) and straddles_severe(BLUNDER - 0.1, 0.1)
    assert not straddles_severe(INACCURACY + 0.2, 0.5)  # unsettled, but only mildly
    assert unsettled(INACCURACY + 0.2, 0.5)
    assert not straddles_severe(5.0, 0.9)
    with pytest.raises(ValueError, match="mild"):
        Budget(mild=0)
    with pytest.raises(ValueError, match="keep"):
        Budget(keep=0)
    with pytest.raises(ValueError, match="shared"):
        Budget(shared=0)
