"""One analysis as a picklable job: record JSON in, the review's JSON-ready data out.

The server runs it in a worker process (it is CPU-bound Python: in a thread it would
hold the interpreter lock the event loop needs).
"""

from __future__ import annotations

import random
from typing import Any

from ..core.record import MatchRecord, load_record, replay, replay_match
from ..core.rules import RuleSet
from ..core.views import SeatView
from .render import option_dict, review_dict
from .review import Budget, review_match
from .values import value_options

__all__ = ["analyse_record", "hint_options", "ready"]


def analyse_record(
    text: str | bytes, seats: tuple[int, ...], samples: int = 16, seed: int = 0
) -> dict[str, Any]:
    """The review of the record ``text`` for ``seats`` (checked by replaying it first)."""
    rec = load_record(text.decode() if isinstance(text, bytes) else text)
    if isinstance(rec, MatchRecord):
        replay_match(rec)
    else:
        replay(rec)
    return review_dict(review_match(rec, seats, Budget(samples), seed))


def hint_options(v: SeatView, rules: RuleSet, samples: int = 16, seed: int = 0) -> dict[str, Any]:
    """提示: the options of the decision ``v`` shows, valued from that view (best first)."""
    values = value_options(v, rules, random.Random(f"hint:{seed}"), samples, 6)
    options = [option_dict(o) for o in values.options]
    # ``legal``: how many options the decision has (at most six, the heuristic's best, are
    # valued: the page says how many were left out)
    return {"worlds": values.worlds, "legal": len(v.legal), "options": options}


def ready() -> None:
    """Nothing: a job that starts a worker, which imports this module and the analysis."""
