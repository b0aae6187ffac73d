"""Summaries of judged decisions: points lost per decision, 一致率, the biggest mistakes."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from .review import DecisionReview
from .verdict import Verdict

__all__ = ["Summary", "summarize"]


@dataclass(frozen=True, slots=True)
class Summary:
    """``decisions`` judged, mean ``loss`` per decision (points), ``agreement`` (一致率:
    the share whose choice was the best valued option or tied with it), verdict counts and the
    ``worst`` decisions (judged worse than good, biggest loss first)."""

    decisions: int
    loss: float
    agreement: float
    verdicts: dict[str, int]
    worst: tuple[DecisionReview, ...]


def summarize(decisions: Sequence[DecisionReview], top: int = 5) -> Summary:
    """The summary of ``decisions`` (a round's or a match's), ``top`` worst kept."""
    valued = [d for d in decisions if d.values.options]
    n = len(valued)
    counts = Counter(d.verdict.value for d in valued)
    bad = sorted(
        (d for d in valued if d.verdict is not Verdict.GOOD), key=lambda d: (-d.loss, d.index)
    )
    return Summary(
        decisions=n,
        loss=sum(d.loss for d in valued) / n if n else 0.0,
        agreement=sum(d.matches_best for d in valued) / n if n else 1.0,
        verdicts={v.value: counts.get(v.value, 0) for v in Verdict},
        worst=tuple(bad[:top]),
    )
