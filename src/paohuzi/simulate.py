"""Random-play simulation: throughput and rule statistics over many rounds."""

from __future__ import annotations

import random
import time
from collections import Counter
from pathlib import Path
from typing import Any

from .core.actions import HU_ID
from .core.engine import new_game
from .core.events import EventKind
from .core.record import dumps, round_record
from .core.rules import HONG_GUAI_WAN, RuleSet

__all__ = ["simulate"]


def simulate(
    games: int,
    seed: int = 0,
    rules: RuleSet = HONG_GUAI_WAN,
    records_dir: Path | None = None,
    always_hu: bool = True,
) -> dict[str, Any]:
    """Play ``games`` rounds with uniformly random legal actions.

    With ``always_hu`` a seat that may 胡 always does (random play otherwise passes
    most wins and the statistics say little about scoring).
    """
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games!r}")
    if records_dir is not None:
        records_dir.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    wins = draws = actions = 0
    score_sum = 0
    mingtang: Counter[str] = Counter()
    how: Counter[str] = Counter()
    bi = dead = forced_ti = forced_pao = wei = 0
    elapsed = 0.0
    for g in range(games):
        t0 = time.perf_counter()
        state = new_game(rules, seed=rng.randrange(2**63), dealer=g % 3)
        while not state.over:
            seat = state.to_act()[0]
            ids = state.legal_actions(seat)
            aid = HU_ID if always_hu and HU_ID in ids else rng.choice(ids)
            state.apply_fast(seat, aid)
            actions += 1
        elapsed += time.perf_counter() - t0
        res = state.result
        assert res is not None
        if res.win is not None:
            wins += 1
            score_sum += res.win.score
            mingtang.update(res.win.mingtang.keys())
            how[res.win.how or "hand"] += 1
        else:
            draws += 1
        for e in state.log:
            if e.kind is EventKind.CHI and len(e.groups) > 1:
                bi += 1
            elif e.kind is EventKind.DEAD:
                dead += 1
            elif e.kind is EventKind.TI and e.detail != "dealt":
                forced_ti += 1
            elif e.kind is EventKind.PAO:
                forced_pao += 1
            elif e.kind is EventKind.WEI:
                wei += 1
        if records_dir is not None:
            (records_dir / f"round-{g:06d}.json").write_text(
                dumps(round_record(state)), encoding="utf-8"
            )
    return {
        "games": games,
        "seed": seed,
        "seconds": round(elapsed, 3),
        "games_per_second": round(games / elapsed, 1) if elapsed else None,
        "actions_per_second": round(actions / elapsed, 1) if elapsed else None,
        "actions": actions,
        "win_rate": round(wins / games, 4),
        "draw_rate": round(draws / games, 4),
        "mean_win_score": round(score_sum / wins, 3) if wins else 0.0,
        "mingtang": dict(sorted(mingtang.items())),
        "win_how": {
            "跑胡": how["跑胡"],
            "提胡": how["提胡"],
            "偎胡": how["偎胡"],
            "碰": how["碰"],
            "hand": how["hand"],
        },
        "bi": bi,
        "dead_hands": dead,
        "ti_drawn": forced_ti,
        "pao": forced_pao,
        "wei": wei,
    }
