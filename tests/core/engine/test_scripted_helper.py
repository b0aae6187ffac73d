"""The scripted-deal helper itself: all 80 cards, the spec kept, no stray pairs."""

from __future__ import annotations

import pytest

from paohuzi.core.cards import counts_of, parse_faces

from .scripted import build_deal


def test_spec_is_kept_and_fill_makes_no_pairs() -> None:
    d = build_deal(1, {0: "五五五", 1: "六六", 2: "七"}, stock="八?九", liang="拾", stock_tail="一")
    assert d.dealer == 1
    assert d.hands[1][-1] == parse_faces("拾")[0]
    assert d.stock[0] == parse_faces("八")[0]
    assert d.stock[2] == parse_faces("九")[0]
    assert d.stock[-1] == parse_faces("一")[0]
    c0, c1, c2 = (counts_of(h) for h in d.hands)
    assert c0[parse_faces("五")[0]] == 3
    assert c1[parse_faces("六")[0]] == 2
    # every other count is at most one (the dealer's 21 cards may need one filler pair)
    assert sum(1 for c in c0 if c >= 2) == 1
    assert sum(1 for c in c2 if c >= 2) == 0
    assert sum(1 for c in c1 if c >= 2) <= 2
    # the "?" filler is a face nobody holds a pair of
    q = d.stock[1]
    assert all(counts_of(h)[q] < 2 for h in d.hands)


def test_exclude_and_overfull() -> None:
    d = build_deal(0, {1: "四六"}, exclude={1: "三五七伍"})
    c1 = counts_of(d.hands[1])
    assert all(c1[f] == 0 for f in parse_faces("三五七伍"))
    with pytest.raises(ValueError):
        build_deal(0, {1: "五五五五五"})
