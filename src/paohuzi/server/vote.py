"""The 解散 vote (``Vote``): who proposed it, each seat's vote, its deadline, its outcome,
and its stored form (``MatchRow.dissolve``).

A vote is a frozen value: casting a vote makes a new one, which the table stores before it
becomes the table's (so a refused write leaves the old vote in place).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from .errors import ApiError
from .protocol import dissolve_vote_dict

__all__ = ["Outcome", "Vote"]

Outcome = Literal["dissolved", "refused", "expired"]


@dataclass(frozen=True)
class Vote:
    """An open 解散 vote: a seat's entry in ``votes`` is None until it votes (bots agree)."""

    proposer: int
    votes: tuple[bool | None, ...]
    deadline: float  # Unix time, seconds

    @classmethod
    def propose(cls, seat: int, bots: Sequence[bool], deadline: float) -> Vote:
        """A new vote proposed by seat ``seat`` (which then casts its own); ``bots``: which
        seats are bots (they agree)."""
        return cls(seat, tuple(True if bot else None for bot in bots), deadline)

    def cast(self, seat: int, agree: bool) -> Vote:
        """The vote with seat ``seat``'s answer (each seat answers once)."""
        if self.votes[seat] is not None:
            raise ApiError("already_voted", f"seat {seat} has voted in this 解散 vote")
        votes = list(self.votes)
        votes[seat] = agree
        return Vote(self.proposer, tuple(votes), self.deadline)

    @property
    def outcome(self) -> Literal["dissolved", "refused"] | None:
        """Its outcome so far: refused once a seat said no, dissolved once all agreed."""
        if False in self.votes:
            return "refused"
        return "dissolved" if all(self.votes) else None

    def expired(self, now: float) -> bool:
        """Whether its deadline has passed."""
        return now >= self.deadline

    def message(self, now: float, outcome: Outcome | None = None) -> dict[str, Any]:
        """The ``dissolve_vote`` message: the vote, the seconds left, its outcome if any."""
        remaining = round(max(0.0, self.deadline - now), 3)
        return dissolve_vote_dict(self.proposer, list(self.votes), self.deadline, remaining,
                                  outcome)  # fmt: skip

    def stored(self, outcome: Literal["dissolved"] | None = None) -> dict[str, Any]:
        """Its form in ``MatchRow.dissolve`` (with ``outcome`` "dissolved": the match ended
        so; the key is absent while the vote is open)."""
        out: dict[str, Any] = {"proposer": self.proposer, "votes": list(self.votes),
                               "deadline": self.deadline}  # fmt: skip
        if outcome is not None:
            out["outcome"] = outcome
        return out

    @classmethod
    def from_stored(cls, d: dict[str, Any]) -> Vote:
        """The vote ``stored`` wrote (the outcome, if any, is the caller's to read)."""
        return cls(int(d["proposer"]), tuple(d["votes"]), float(d["deadline"]))
