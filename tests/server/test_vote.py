"""The 解散 vote as a value: its outcome, and its stored form (``MatchRow.dissolve``) as
databases written before it was a typed object hold it."""

from __future__ import annotations

import pytest

from paohuzi.server.errors import ApiError
from paohuzi.server.vote import Vote


def test_the_stored_form_is_the_one_existing_databases_hold() -> None:
    # What tables.py stored while the vote was a dict {"proposer", "votes", "deadline"}.
    old = {"proposer": 1, "votes": [None, True, True], "deadline": 1733456789.25}
    v = Vote.from_stored(old)
    assert v == Vote(1, (None, True, True), 1733456789.25)
    assert v.stored() == old
    assert v.cast(0, True).stored("dissolved") == {**old, "votes": [True, True, True],
                                                   "outcome": "dissolved"}  # fmt: skip


def test_outcomes_and_each_seat_votes_once() -> None:
    v = Vote.propose(2, [True, False, False], deadline=100.0)
    assert v.votes == (True, None, None) and v.outcome is None
    v = v.cast(2, True)
    assert v.outcome is None and not v.expired(99.9) and v.expired(100.0)
    with pytest.raises(ApiError) as e:
        v.cast(2, False)
    assert e.value.code == "already_voted"
    assert v.cast(1, True).outcome == "dissolved"
    assert v.cast(1, False).outcome == "refused"
    msg = v.message(now=97.5, outcome="expired")
    assert msg == {"type": "dissolve_vote", "proposer": 2, "votes": [True, None, True],
                   "deadline": 100.0, "remaining": 2.5, "outcome": "expired"}  # fmt: skip
