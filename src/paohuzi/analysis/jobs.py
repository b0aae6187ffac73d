"""One analysis as a picklable job: record JSON in, the review's JSON-ready data out.

The server runs it in a worker process (it is CPU-bound Python: in a thread it would
hold the interpreter lock the event loop needs).
"""

from __future__ import annotations

from typing import Any

from ..core.record import MatchRecord, load_record, replay, replay_match
from .render import review_dict
from .review import Budget, review_match

__all__ = ["analyse_record"]


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
