"""复盘: every decision of a recorded match judged fairly (from the seat's view only).

:func:`review_match` values each option of each decision on worlds sampled from
what the deciding seat could see, paired across options; :func:`review_text` and
:func:`review_dict` present the result. See docs/analysis.md.
"""

from __future__ import annotations

from .render import decision_dict, review_dict, review_text
from .review import Budget, DecisionReview, MatchReview, RoundReview, review_decision, review_match
from .summary import Summary, summarize
from .values import DecisionValues, OptionValue, value_options
from .verdict import Verdict, judge

__all__ = [
    "Budget",
    "DecisionReview",
    "DecisionValues",
    "MatchReview",
    "OptionValue",
    "RoundReview",
    "Summary",
    "Verdict",
    "decision_dict",
    "judge",
    "review_decision",
    "review_dict",
    "review_match",
    "review_text",
    "summarize",
    "value_options",
]
