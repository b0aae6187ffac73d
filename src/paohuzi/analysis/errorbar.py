"""Error bars for a mean of per-world points, which are heavy-tailed.

A round's points are mostly small and now and then large (a big 胡), so a few
dozen sampled worlds that happened to miss the large outcomes have a sample
spread, and so a standard error, far too small; the verdict then stands on an
interval that a second review does not reproduce. :func:`heavy_se` counts two
more, imagined, worlds in the spread: one a big outcome above the mean and one
below it, ``scale`` points away, where ``scale`` is the size of the largest
outcome the decision's worlds have shown (so the tail is the game's own, not a
constant). Their weight fades as real worlds accumulate: with n worlds the
standard error is at least ``scale·√(2/(n(n+1)))``, about ``1.4·scale / n``, a
floor that matters on a few dozen worlds and hardly at all on hundreds.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

__all__ = ["heavy_se", "mean_se"]


def mean_se(xs: Sequence[float]) -> tuple[float, float]:
    """The mean of ``xs`` and its sample standard error (0 for a single value)."""
    n = len(xs)
    mean = sum(xs) / n
    var = sum((x - mean) ** 2 for x in xs) / max(1, n - 1)
    return mean, math.sqrt(var / n)


def heavy_se(xs: Sequence[float], scale: float) -> tuple[float, float]:
    """The mean of ``xs`` and a standard error that allows for an unseen big outcome.

    The spread is that of ``xs`` with two pseudo-worlds added, at the mean plus and
    minus ``scale``; the mean itself is the sample's. Never smaller than the plain
    standard error's order, and equal to it as ``scale`` goes to 0.
    """
    if scale < 0 or not math.isfinite(scale):
        raise ValueError(f"scale must be a finite number ≥ 0, got {scale!r}")
    n = len(xs)
    mean = sum(xs) / n
    squares = sum((x - mean) ** 2 for x in xs) + 2.0 * scale * scale
    return mean, math.sqrt(squares / (n + 1) / n)
