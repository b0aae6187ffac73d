"""Planted mistakes (issue 31's bar): each is the seat's largest loss in its round,
with the right verdict. Positions were found by ``tests/analysis/planted.py``'s
finders over heuristic deals; the review sees only the deciding seat's view."""

from __future__ import annotations

import pytest

from paohuzi.analysis import Budget, Verdict, review_match
from paohuzi.analysis.verdict import BLUNDER, INACCURACY

from .planted import candidates, planted_round

# kind: (deal seed, dealer, decision index, seat, planted action id, verdict, least loss)
# "wait" loses a blunder's worth of points on the estimate (≥ 7), but its interval
# straddles the blunder threshold even at the review's most worlds, so it gets the milder
# grade, a mistake (verdict.py: a grade's threshold must be clear of the interval).
PLANTED = {
    "lou_hu": (0, 0, 24, 0, 20, Verdict.BLUNDER, BLUNDER),  # 过 where 胡 was legal (漏胡)
    "feed": (34, 1, 19, 1, 9, Verdict.BLUNDER, BLUNDER),  # 打:十, which the next seat 胡s on
    "break": (3, 0, 10, 1, 1, Verdict.INACCURACY, INACCURACY),  # breaks a made group
    "wait": (1, 1, 22, 0, 0, Verdict.MISTAKE, BLUNDER),  # leaves no wait; the best kept one
}


@pytest.mark.slow
@pytest.mark.parametrize("kind", sorted(PLANTED))
def test_planted_mistake_is_the_largest_loss(kind: str) -> None:
    seed, dealer, index, seat, aid, verdict, least = PLANTED[kind]
    assert (kind, index, seat, aid) in set(candidates(seed, dealer))  # still that mistake
    review = review_match(planted_round(seed, dealer, index, aid), (seat,), Budget(16, 6), 0)
    decisions = review.decisions()
    planted = next(d for d in decisions if d.index == index)
    assert planted.chosen.id == aid
    assert max(decisions, key=lambda d: d.loss) is planted
    assert planted.verdict is verdict
    assert planted.loss >= least
    assert planted.loss > 2 * planted.loss_se
    if kind == "lou_hu":
        assert "漏胡" in planted.tags
        assert planted.best is not None and planted.best.action.id == 21  # 胡
