"""Planted mistakes: a heuristic round with one decision of one seat replaced.

A position is (deal seed, dealer, decision index, planted action id): the round is
dealt, played by the heuristic in every seat up to that decision, the planted
action is taken instead, and the heuristic plays the rest. Finders look for the
positions where each kind of mistake can be planted (they read the real state,
as a person setting a puzzle would; the review itself sees only the seat's view).
"""

from __future__ import annotations

from collections.abc import Iterator

from paohuzi.bots import make_bot
from paohuzi.bots.handeval import decompose_free, free_counts
from paohuzi.core.actions import HU_ID, PASS_ID
from paohuzi.core.engine import Phase, State, new_game
from paohuzi.core.hand import waits_counts
from paohuzi.core.record import RoundRecord, round_record
from paohuzi.core.rules import HONG_GUAI_WAN
from paohuzi.core.views import view

RULES = HONG_GUAI_WAN


def planted_round(seed: int, dealer: int, index: int, aid: int) -> RoundRecord:
    """The round of deal ``seed`` with decision ``index`` replaced by ``aid``."""
    st = new_game(RULES, seed=seed, dealer=dealer)
    bots = [make_bot("heuristic", s, RULES) for s in range(3)]
    i = 0
    while not st.over:
        seat = st.to_act()[0]
        st.apply(seat, aid if i == index else bots[seat].act(view(st, seat)).id)
        i += 1
    return round_record(st)


def _fed(st: State, seat: int, f: int) -> bool:
    c = st.clone(history=False)
    c.apply_fast(seat, f)
    return any(s != seat and HU_ID in c.legal_actions(s) for s in c.to_act())


def _outs(st: State, seat: int, f: int) -> int:
    hand = st.hands[seat][:]
    hand[f] -= 1
    return len(waits_counts(st.table_groups(seat), hand, st.rules))


def candidates(seed: int, dealer: int) -> Iterator[tuple[str, int, int, int]]:
    """(kind, index, seat, planted id) for every plantable mistake of the heuristic round."""
    st = new_game(RULES, seed=seed, dealer=dealer)
    bots = [make_bot("heuristic", s, RULES) for s in range(3)]
    i = 0
    while not st.over:
        seat = st.to_act()[0]
        ids = st.legal_actions(seat)
        choice = bots[seat].act(view(st, seat)).id
        if HU_ID in ids and PASS_ID in ids:
            yield "lou_hu", i, seat, PASS_ID
        if st.phase is Phase.DISCARD and len(ids) > 1:
            feeds = [f for f in ids if _fed(st, seat, f)]
            if feeds and not _fed(st, seat, choice):
                yield "feed", i, seat, feeds[0]
            outs = {f: _outs(st, seat, f) for f in ids}
            if outs[choice] > 0 and min(outs.values()) == 0:
                yield "wait", i, seat, min(ids, key=lambda f: (outs[f], f))
            dec = decompose_free(free_counts(st.hands[seat]))
            in_sets = [f for b in dec.sets for f in b.faces if f in ids and st.hands[seat][f] == 1]
            if dec.singles and in_sets and choice not in in_sets:
                yield "break", i, seat, in_sets[0]
        st.apply(seat, choice)
        i += 1
