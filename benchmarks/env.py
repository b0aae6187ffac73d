"""The AI environment's speed beside the engine's, measured in one run.

Prints one JSON object: the engine's random actions per second (driven as
benchmarks/games.py does), the PettingZoo AEC environment's steps per second with
a random masked policy (each step: ``last()`` — the observation encoded — then
``step``), their ratio, and batched observation encodes per second
(``encode_batch`` on positions sampled from random games, in batches of 256).
Where the C encoder is built (``paohuzi.env.ACCELERATED``), the environment also
runs with the Python encoder, and both figures are printed. The engine and the
environment(s) alternate in chunks of rounds, so that the machine's changing speed
weighs on all alike. ``--quick`` runs a short version (used by the smoke test).
"""

from __future__ import annotations

import argparse
import json
import random
import time

from games import random_rounds  # benchmarks/ is on the path of a script run from it
from paohuzi.core.engine import State, new_game
from paohuzi.core.hand import build_tables
from paohuzi.encoding.observation import Encoder, _encode_batch_python
from paohuzi.env import ACCELERATED, encode_batch, raw_env


def engine_random(games: int, seed: int) -> tuple[int, float]:
    """Random rounds straight on the engine, as games.py plays them: (actions, seconds)."""
    return random_rounds(games, random.Random(seed))


def env_random(games: int, seed: int, accelerated: bool = ACCELERATED) -> tuple[int, float, float]:
    """Random masked play through the AEC env: (steps, seconds, all rewards summed).

    Settlement is zero-sum (RULES.md §12), so the rewards must sum to exactly 0.
    ``accelerated=False`` runs the env on the Python encoder.
    """
    rng = random.Random(seed)
    uniform = rng.random
    e = raw_env()
    e._encoder = Encoder(accelerated=accelerated)  # the env's own, chosen explicitly
    steps = 0
    total = 0.0
    t0 = time.perf_counter()
    for g in range(games):
        e.reset(seed=seed * 1_000_003 + g)
        for _agent in e.agent_iter():
            obs, reward, term, trunc, _ = e.last()
            total += reward
            if term or trunc:
                e.step(None)
                continue
            ids = obs["action_mask"].nonzero()[0]
            e.step(int(ids[int(uniform() * len(ids))]))
            steps += 1
    return steps, time.perf_counter() - t0, total


def positions(n: int, seed: int) -> tuple[list[State], list[int]]:
    """``n`` positions from random games, with the seat to act in each."""
    rng = random.Random(seed)
    states: list[State] = []
    seats: list[int] = []
    while len(states) < n:
        st = new_game(seed=rng.randrange(2**63))
        while not st.over and len(states) < n:
            seat = st.to_act()[0]
            states.append(st.clone(history=False))
            seats.append(seat)
            ids = st.legal_actions(seat)
            st.apply_fast(seat, ids[rng.randrange(len(ids))])
    return states, seats


def batched_encodes(n: int, seed: int, batch: int = 256, python: bool = False) -> tuple[int, float]:
    states, seats = positions(n, seed)
    fn = _encode_batch_python if python else encode_batch
    t0 = time.perf_counter()
    for i in range(0, n, batch):
        fn(states[i : i + batch], seats[i : i + batch])
    return n, time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--encodes", type=int, default=50_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    games = 20 if args.quick else args.games
    encodes = 2000 if args.quick else args.encodes
    build_tables()
    # Alternate in chunks, so that the machine's changing speed hits both alike.
    e_actions = v_steps = p_steps = 0
    e_sec = v_sec = p_sec = reward_total = 0.0
    chunk = max(1, min(100, games // 10))
    for i, start in enumerate(range(0, games, chunk)):
        n = min(chunk, games - start)
        a, s = engine_random(n, args.seed + start)
        e_actions, e_sec = e_actions + a, e_sec + s
        # Where the C encoder is built, the same rounds on the Python encoder too; the two
        # take turns at running first, since what runs right after the engine reads slower.
        order = ([True, False] if i % 2 == 0 else [False, True]) if ACCELERATED else [False]
        for accelerated in order:
            st, s, r = env_random(n, args.seed + start, accelerated=accelerated)
            reward_total += r
            if accelerated or not ACCELERATED:  # the encoder the env runs by default
                v_steps, v_sec = v_steps + st, v_sec + s
            else:
                p_steps, p_sec = p_steps + st, p_sec + s
    n_enc, enc_sec = batched_encodes(encodes, args.seed)
    engine_aps = e_actions / e_sec
    env_sps = v_steps / v_sec
    out: dict[str, object] = {
        "benchmark": "env",
        "games": games,
        "encoder": "c" if ACCELERATED else "python",
        "engine_actions_per_second": round(engine_aps, 1),
        "env_steps_per_second": round(env_sps, 1),
        "env_steps_per_game": round(v_steps / games, 2),
        "env_to_engine_ratio": round(env_sps / engine_aps, 3),
        "env_reward_total": reward_total,
        "encodes": n_enc,
        "batched_encodes_per_second": round(n_enc / enc_sec, 1),
        "python_encoder": None,  # the Python encoder's figures, where the C one runs
    }
    if ACCELERATED:
        assert p_steps == v_steps, "the two encoders must play the same rounds"
        _, py_enc_sec = batched_encodes(encodes, args.seed, python=True)
        out["python_encoder"] = {
            "env_steps_per_second": round(p_steps / p_sec, 1),
            "env_to_engine_ratio": round(p_steps / p_sec / engine_aps, 3),
            "batched_encodes_per_second": round(n_enc / py_enc_sec, 1),
        }
    print(json.dumps(out))


if __name__ == "__main__":
    main()
