"""Golden playthroughs: seeded random rounds written out as text, state by state."""

from __future__ import annotations

import random

from paohuzi.core.engine import new_game
from paohuzi.core.views import format_view, view

GOLDEN_SEEDS = (1, 2, 3, 17)


def playthrough(seed: int) -> str:
    """Every decision point's spectator view and legal actions, the decision and its events."""
    rng = random.Random(seed)
    st = new_game(seed=seed)
    out = [f"# golden playthrough, seed {seed}, dealer {st.dealer}"]
    out += ["event: " + e.text() for e in st.log]
    step = 0
    while not st.over:
        out.append(f"--- decision {step}")
        out.append(format_view(view(st, None)))
        for seat in st.to_act():
            out.append(f"  seat {seat} may: " + ", ".join(a.text() for a in st.legal_moves(seat)))
        seat = st.to_act()[0]
        ids = st.legal_actions(seat)
        aid = ids[rng.randrange(len(ids))]
        out.append(f"  seat {seat} plays {st.action(seat, aid).text()}")
        for e in st.apply(seat, aid):
            out.append("event: " + e.text())
        step += 1
    out.append("--- final (everything revealed)")
    out.append(format_view(view(st, None)))
    return "\n".join(out) + "\n"
