"""Who sits where in a duplicate tournament (duplicate.slot_of), apart from the server."""

from __future__ import annotations

import pytest

from paohuzi.server.duplicate import rank, slot_at, slot_of


@pytest.mark.parametrize("tables", range(2, 9))
def test_played_once_every_player_plays_each_deal_once(tables: int) -> None:
    """Each deal seats all 3·k players once, one of each place (slot mod 3) a table, the
    place ``j`` at seat ``(j + deal) mod 3``: each seat of a deal is held at the k tables
    by players of one place, and over three deals a player holds every seat."""
    for deal in range(40):
        seated = [
            [slot_of(tables, 1, table, deal, 0, seat) for seat in range(3)]
            for table in range(tables)
        ]
        assert sorted(s for t in seated for s in t) == list(range(3 * tables))
        for t in seated:
            assert [s % 3 for s in t] == [(seat - deal) % 3 for seat in range(3)]
    for slot in range(3 * tables):
        seats = {
            seat
            for deal in range(3)
            for table in range(tables)
            for seat in range(3)
            if slot_of(tables, 1, table, deal, 0, seat) == slot
        }
        assert seats == {0, 1, 2}


def test_three_rotations_keep_the_groups_at_their_tables() -> None:
    for table in range(4):
        for rotation in range(3):
            got = [slot_of(4, 3, table, 7, rotation, s) for s in range(3)]
            assert got == [slot_at(table, rotation, s) for s in range(3)]
            assert sorted(got) == [3 * table, 3 * table + 1, 3 * table + 2]


def test_played_once_a_deal_counts_when_both_tables_are_in() -> None:
    """A player's score for a deal played once is its result less its seat's average over
    the tables (not a third of it, as for three plays)."""
    a = {"seats": [{"account_id": i, "result": r} for i, r in ((1, 6), (2, -3), (3, -3))]}
    b = {"seats": [{"account_id": i, "result": r} for i, r in ((4, -2), (5, 4), (6, -2))]}
    deals, ranking = rank(2, {0: [a, b]}, rotations=1)
    assert deals[0]["complete"] and deals[0]["seat_average"] == [2.0, 0.5, -2.5]
    assert deals[0]["scores"] == {"1": 4.0, "2": -3.5, "3": -0.5, "4": -4.0, "5": 3.5, "6": 0.5}
    assert ranking[0] == {"account_id": 1, "score": 4.0}
    half, _ = rank(2, {0: [a]}, rotations=1)
    assert not half[0]["complete"] and half[0]["scores"] == {}


def test_the_default_plays_once_where_every_mixed_table_seats_a_member() -> None:
    """Members in one place of their groups (slot mod 3) stay spread over the tables at
    every deal; members in different places may leave a mixed table to bots alone, and the
    default is then three rotations at fixed tables."""
    from paohuzi.server.services.tournaments import _mixes

    assert _mixes([1, "random", "random", 2, "random", "random"], 2, 8)
    assert not _mixes([1, "random", "random", "random", 2, "random"], 2, 8)
