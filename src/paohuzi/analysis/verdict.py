"""Verdicts on a decision's loss, with the thresholds stated (in points for the round).

A verdict worse than good needs the paired loss to clear its error bar
(``Z`` standard errors): a difference the sampling cannot tell from noise is
never called a mistake.
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
    """The verdict on a loss of ``loss`` points (±``loss_se``) against the best option."""
    if loss < INACCURACY or loss <= Z * loss_se:
        return Verdict.GOOD
    if loss >= BLUNDER:
        return Verdict.BLUNDER
    if loss >= MISTAKE:
        return Verdict.MISTAKE
    return Verdict.INACCURACY


def unsettled(loss: float, loss_se: float) -> bool:
    """Whether one more batch of worlds could change the verdict: a threshold lies
    within one standard error of the loss."""
    return any(abs(loss - t) < loss_se for t in (INACCURACY, MISTAKE, BLUNDER)) or (
        loss >= INACCURACY and abs(loss - Z * loss_se) < loss_se
    )


def thresholds_text(lang: str = "en") -> str:
    """The thresholds as one line, for the output's header."""
    if lang == "zh":
        return (
            f"判定: 损失 ≥{INACCURACY:g} 分为欠佳, ≥{MISTAKE:g} 为失误, ≥{BLUNDER:g} 为大错"
            f" (且须超出 {Z:g} 倍标准误)"
        )
    return (
        f"verdicts: a loss of ≥{INACCURACY:g} points is an inaccuracy, ≥{MISTAKE:g} a mistake,"
        f" ≥{BLUNDER:g} a blunder (and it must exceed {Z:g} standard errors)"
    )
