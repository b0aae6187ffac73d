"""The seat panel's 胡息: what the view shows of the seat's table, face-down groups marked."""

from __future__ import annotations

import dataclasses

from paohuzi.core.groups import Group, GroupKind
from paohuzi.core.state import new_game
from paohuzi.core.views import ViewGroup, view
from paohuzi.tui.panels import seat_text, table_huxi


def test_a_seats_huxi_counts_what_the_view_shows_and_marks_face_down_groups() -> None:
    v = view(new_game(seed=1), 0)
    peng = ViewGroup(GroupKind.PENG, (13, 13, 13), False)  # 碰 of a big card: 3 胡息
    run = ViewGroup(GroupKind.CHI, (0, 1, 2), False)  # 一二三: 3 胡息
    wei = ViewGroup(GroupKind.WEI, None, True)  # face down to seat 0
    mine = ViewGroup(GroupKind.WEI, (5, 5, 5), True)  # seat 0's own 偎: it sees the faces
    v = dataclasses.replace(v, tables=((mine,), (peng, run, wei), ()))
    assert Group(GroupKind.PENG, (13, 13, 13)).huxi + Group(GroupKind.CHI, (0, 1, 2)).huxi == 6
    assert table_huxi(v, 1) == "6+"
    assert table_huxi(v, 0) == str(Group(GroupKind.WEI, (5, 5, 5)).huxi)
    assert table_huxi(v, 2) == "0"
    assert "胡息 6+" in seat_text(v, 1, human=0).plain
    assert f"huxi {table_huxi(v, 0)}" in seat_text(v, 0, human=0, lang="en").plain
    assert "胡息" not in seat_text(v, 2, human=0).plain  # no table, no figure
