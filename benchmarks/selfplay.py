"""Deep Monte-Carlo self-play throughput (``paohuzi train-dmc``), one process, one thread.

Prints one JSON object: self-play decisions per second with the games of an update
played in lock-step and their decisions batched through one forward pass
(``batched``), the same rounds one at a time (``one_at_a_time``), the learner's
samples per second (minibatches of 256 from a replay buffer, squared error of the
taken action's value, Adam), and the ``dmc`` bot's decision time on one core
(the network started from the shipped learned weights, so it plays as the learned
bot until trained). ``--quick`` runs a short version (used by the smoke test).
"""

from __future__ import annotations

import argparse
import json
import random
import time

import numpy as np
import torch

from paohuzi.arena import ARENA_RULES
from paohuzi.bots.learned import LearnedBot, Policy
from paohuzi.core.engine import new_game
from paohuzi.core.views import view
from paohuzi.train.dmc import DMCConfig, Replay, init_weights, new_qnet, play_games, training_deal


def selfplay(q, weights, deals, per_batch):  # type: ignore[no-untyped-def]
    """Decisions, seconds and samples of ``deals`` played ``per_batch`` at a time."""
    rng = random.Random(0)
    out = []
    n = 0
    t = time.perf_counter()
    for i in range(0, len(deals), per_batch):
        d = play_games(q, deals[i : i + per_batch], 0.05, rng, weights)
        n += d["decisions"]
        out.append(d)
    return n, time.perf_counter() - t, out


def learn(q, data, steps, batch):  # type: ignore[no-untyped-def]
    """Samples per second of the learner on a buffer of ``data``."""
    rep = Replay(max(len(d["act"]) for d in data) * len(data))
    for d in data:
        rep.add(d["obs"], d["act"], d["ret"])
    opt = torch.optim.Adam(q.parameters(), lr=1e-4)
    gen = torch.Generator().manual_seed(0)
    t = time.perf_counter()
    for _ in range(steps):
        x, a, r = rep.sample(batch, gen)
        err = ((q(x).gather(1, a[:, None]).squeeze(1) - r) ** 2).mean()
        opt.zero_grad()
        err.backward()
        opt.step()
    return steps * batch / (time.perf_counter() - t)


def decision_times(arrays, rounds):  # type: ignore[no-untyped-def]
    """Milliseconds of each ``dmc`` bot decision over ``rounds`` of it against itself."""
    policy = Policy(arrays)
    times = []
    for g in range(rounds):
        st = new_game(ARENA_RULES, seed=1000 + g, dealer=g % 3)
        bots = [LearnedBot(s, policy, ARENA_RULES) for s in range(3)]
        while not st.over:
            seat = st.to_act()[0]
            v = view(st, seat)
            t = time.perf_counter()
            a = bots[seat].act(v)
            times.append((time.perf_counter() - t) * 1000)
            st.apply(seat, a.id)
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true", help="a short run (smoke test)")
    args = ap.parse_args()
    torch.set_num_threads(1)
    games, steps, rounds = (4, 4, 2) if args.quick else (32, 40, 20)
    cfg = DMCConfig(out="-")
    q = new_qnet(cfg)
    weights = init_weights(cfg.init)
    deals = [training_deal(0, i) for i in range(games)]
    n_b, s_b, data = selfplay(q, weights, deals, 8)
    n_1, s_1, _ = selfplay(q, weights, deals, 1)
    times = decision_times(q.export(weights), rounds)
    print(
        json.dumps(
            {
                "games": games,
                "batched": {"decisions": n_b, "decisions_per_second": round(n_b / s_b, 1)},
                "one_at_a_time": {"decisions": n_1, "decisions_per_second": round(n_1 / s_1, 1)},
                "learn": {
                    "batch": 256,
                    "steps": steps,
                    "samples_per_second": round(learn(q, data, steps, 256), 1),
                },
                "decision_ms": {
                    "decisions": len(times),
                    "p50": round(float(np.percentile(times, 50)), 3),
                    "p95": round(float(np.percentile(times, 95)), 3),
                },
            }
        )
    )


if __name__ == "__main__":
    main()
