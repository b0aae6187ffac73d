"""What each audience is shown at each of its steps, from an uninterrupted replay.

A test's independent account of the server's numbering: an audience (a seat, or the
spectators: seat None) is at step 0 at the start and one step on at each decision after
which its events grew or its view (legal actions included) changed, and at each deal after
the first (准备: a round's end, with its 结算 open, is a step of its own). Another seat's
private answer changes neither, so it is no step (RULES.md §14).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import paohuzi
from paohuzi.server.protocol import view_to_dict


@dataclass(frozen=True)
class Step:
    """An audience's step: the match's decision that made it (0: the start), the round,
    its view's JSON, its legal action ids and who it is shown to act."""

    decision: int
    round: int
    view: dict[str, Any]
    legal: list[int]
    to_act: list[int]


def audience_steps(states: list[Any], seat: int | None) -> list[Step]:
    """Each step of ``seat``'s audience in the match whose rounds ended in ``states``."""
    out: list[Step] = []
    last: tuple[Any, ...] | None = None
    earlier = 0  # the audience's events in the rounds before
    seq = 0  # the match's decisions so far
    for rnd, final in enumerate(states):
        st = paohuzi.replay(paohuzi.round_record(final), upto=0)
        moves = list(final.decisions)
        for k in range(len(moves) + 1):
            if k:
                st.apply(*moves[k - 1])
                seq += 1
            v = paohuzi.view(st, seat)
            shown = {**view_to_dict(v), "step": None}
            legal = [] if seat is None or st.over else list(st.legal_actions(seat))
            looks = (earlier + len(paohuzi.censored_log(st, seat)), rnd, shown, legal)
            if looks != last:
                last = looks
                out.append(Step(seq, rnd, {**shown, "step": len(out)}, legal, list(v.to_act)))
        earlier += len(paohuzi.censored_log(final, seat))
    return out


def decided(states: list[Any], seat: int, acks: list[tuple[int, Any]]) -> list[tuple[int, Any]]:
    """A seat's ``(step, x)`` acks as ``(decision, x)``: the match's decision each step was
    made by (a seat's own decision always moves its step: it sees its own answer)."""
    made = [s.decision for s in audience_steps(states, seat)]
    return [(made[step], x) for step, x in acks]
