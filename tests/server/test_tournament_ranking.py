"""The tournament's ranking separates a stronger bot from weaker ones by the gap the arena
measures: 2 learned and 4 heuristic players (a learned bot and two heuristics at each of
2 tables) play ``DEALS`` deals in-process, seated by the tournament's own rotation
(duplicate.slot_at), each deal's match seeded as the server seeds it (duplicate.deal_seed,
one one-round match on the tournament's rules), and are ranked by the tournament's own
duplicate-score code (duplicate.rank). Every learned player ranks above every heuristic
one, and the per-deal gap (learned's mean score less the heuristics') agrees with the
arena's learned − heuristic, +1.11 [0.89, 1.33] a round over 3,000 deals (seed 20261226,
docs/strength.md). The seed was written down before the run (docs/clubs.md). The real
server's 6-player tournament is tests/server/test_tournaments.py."""

from __future__ import annotations

import math
import random
from statistics import mean, stdev
from typing import Any

import pytest

from paohuzi.bots import make_bot
from paohuzi.core.match import Match
from paohuzi.core.views import view
from paohuzi.server.duplicate import RULES, deal_seed, rank, slot_at

SEED = 32301
DEALS = 360
ARENA_GAP, ARENA_CI = 1.11, (0.89, 1.33)  # docs/strength.md, 3,000 deals, seed 20261226
KINDS = ["learned", "heuristic", "heuristic", "learned", "heuristic", "heuristic"]  # slots


def play(deal: int, rotation: int, table: int) -> dict[str, Any]:
    """One table's play of a deal, as the server's results list it (account id = slot)."""
    slots = [slot_at(table, rotation, s) for s in range(3)]
    rng = random.Random(f"ranking:{SEED}:{deal}:{rotation}:{table}")
    bots = [make_bot(KINDS[slot], rng.randrange(2**31), RULES) for slot in slots]
    m = Match(RULES, seed=deal_seed(SEED, deal), rounds=1)
    st = m.start_round()
    while not st.over:
        s = st.to_act()[0]
        st.apply(s, bots[s].act(view(st, s)).id)
    m.end_round()
    return {"table": table, "rotation": rotation,
            "seats": [{"account_id": slot, "result": r}
                      for slot, r in zip(slots, m.totals(), strict=True)]}  # fmt: skip


@pytest.mark.slow
def test_learned_ranks_above_heuristic_by_the_arenas_gap() -> None:
    plays = {d: [play(d, r, t) for t in range(2) for r in range(3)] for d in range(DEALS)}
    deals, ranking = rank(2, plays)
    strong = {i for i, k in enumerate(KINDS) if k == "learned"}
    order = [e["account_id"] for e in ranking]
    assert set(order[:2]) == strong, ranking  # each learned player above every heuristic
    gaps = []
    for d in deals:
        assert d["complete"] and abs(sum(d["scores"].values())) < 1e-3
        sc = {int(a): v for a, v in d["scores"].items()}
        gaps.append(mean(sc[a] for a in strong) - mean(v for a, v in sc.items() if a not in strong))
    gap, se = mean(gaps), stdev(gaps) / math.sqrt(len(gaps))
    arena_se = (ARENA_CI[1] - ARENA_CI[0]) / 2 / 1.96
    print(f"gap {gap:+.3f} ± {1.96 * se:.3f} over {len(gaps)} deals")
    # the two estimates agree within their joint 95 % interval
    assert abs(gap - ARENA_GAP) < 1.96 * math.hypot(se, arena_se), (gap, se)
    assert gap - 1.96 * se > 0
