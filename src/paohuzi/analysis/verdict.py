"""Verdicts on a decision's loss, with the thresholds stated (in points for the round).

A mistake or a blunder is given only when the loss's whole interval (± ``Z``
standard errors) lies above its threshold; when the interval straddles a
threshold the milder of the two grades is given, so a loss near a threshold
does not flip between grades from one sampling to the next. An inaccuracy
needs the loss to reach its threshold and its interval to clear zero: a
difference the sampling cannot tell from noise is never called a mistake. The
review samples more worlds while an interval straddles a threshold
(:func:`unsettled`), up to its budget.
"""

from __future__ import annotations

from enum import Enum

__all__ = [
    "BLUNDER",
    "INACCURACY",
    "MISTAKE",
    "Verdict",
    "Z",
    "judge",
    "straddles_severe",
    "thresholds_text",
    "unsettled",
]

INACCURACY = 1.0  # points of expected balance change for the round
MISTAKE = 3.0
BLUNDER = 7.0
Z = 2.0  # standard errors a loss must clear to count


class Verdict(Enum):
    """How bad a decision was; the value is the English word, ``zh`` the Chinese."""

    GOOD = "good"
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"

    @property
    def zh(self) -> str:
        """The Chinese word: 好 / 欠佳 / 失误 / 大错."""
        return _ZH[self.value]

    @property
    def rank(self) -> int:
        """0 for good up to 3 for a blunder (for sorting and counting)."""
        return list(Verdict).index(self)


_ZH = {"good": "好", "inaccuracy": "欠佳", "mistake": "失误", "blunder": "大错"}


def judge(loss: float, loss_se: float) -> Verdict:
    """The verdict on a loss of ``loss`` points (±``loss_se``) against the best option.

    A mistake or blunder needs the interval's lower end, ``loss - Z·loss_se``, to
    clear its threshold (straddling it gives the milder grade); an inaccuracy
    needs a loss of at least its threshold that clears zero by ``Z`` errors.
    """
    low = loss - Z * loss_se
    if low >= BLUNDER:
        return Verdict.BLUNDER
    if low >= MISTAKE:
        return Verdict.MISTAKE
    if loss >= INACCURACY and low > 0:
        return Verdict.INACCURACY
    return Verdict.GOOD


def straddles_severe(loss: float, loss_se: float) -> bool:
    """Whether the interval ``loss ± Z·loss_se`` straddles the mistake or blunder threshold
    (more worlds could move the decision into or out of the grades the bar counts)."""
    return any(abs(loss - t) < Z * loss_se for t in (MISTAKE, BLUNDER))


def unsettled(loss: float, loss_se: float) -> bool:
    """Whether more worlds could change the grade: the interval ``loss ± Z·loss_se``
    straddles the mistake or blunder threshold, or zero for a loss of an inaccuracy's
    size, or the loss lies within an error of the inaccuracy threshold."""
    bar = Z * loss_se
    return (
        straddles_severe(loss, loss_se)
        or (loss >= INACCURACY and loss <= bar)
        or abs(loss - INACCURACY) < loss_se
    )


def thresholds_text(lang: str = "en") -> str:
    """The thresholds as one line, for the output's header."""
    if lang == "zh":
        return (
            f"判定：损失 ≥{INACCURACY:g} 分为欠佳，≥{MISTAKE:g} 为失误，≥{BLUNDER:g} 为大错"
            f"（失误、大错须损失减 {Z:g} 倍标准误仍达门槛，跨两档时取轻者；"
            f"欠佳须超出 {Z:g} 倍标准误）"
        )
    return (
        f"verdicts: a loss of ≥{INACCURACY:g} points is an inaccuracy, ≥{MISTAKE:g} a mistake,"
        f" ≥{BLUNDER:g} a blunder; a mistake or blunder needs the loss less {Z:g} standard"
        " errors to reach its threshold (the milder grade when the interval straddles two),"
        f" an inaccuracy a loss beyond {Z:g} standard errors"
    )
