"""Check that this tree's observation encodings are byte-identical to another tree's.

Usage::

    git worktree add /tmp/paohuzi-old <commit>      # or any tree with src/paohuzi
    python tools/encoding_equivalence.py /tmp/paohuzi-old/src --rounds 150

Plays ``--rounds`` seeded rounds of random play (the same in both trees: the engine's
own ``tools/equivalence.py`` checks that) and, at every position and for every seat,
hashes the bytes of each encoder: ``encode``, ``encode_view(view(...))``, the
environments' ``Encoder.observe`` (encoding and mask), ``encode_batch`` (a row per
position) and ``encode_oracle``; then the same again with ``PAOHUZI_PURE_ENCODER=1``
(the Python encoders). Each tree runs in its own interpreter (``PYTHONPATH`` set to
its ``src``); the script prints both digests as JSON and exits 1 if any differ.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any


def digests(rounds: int, seed: int) -> dict[str, Any]:
    """SHA-256 of each encoder's bytes over every position and seat of ``rounds`` rounds."""
    import numpy as np

    from paohuzi.core.engine import new_game
    from paohuzi.core.views import view
    from paohuzi.env import ACCELERATED, encode, encode_batch, encode_oracle, encode_view
    from paohuzi.env.observation import Encoder

    names = ("encode", "encode_view", "observe", "mask", "encode_batch", "encode_oracle")
    h = {k: hashlib.sha256() for k in names}
    enc = Encoder()
    rng = random.Random(seed)
    positions = 0
    for g in range(rounds):
        st = new_game(seed=rng.randrange(2**32), dealer=g % 3)
        while True:
            batch = []
            for seat in range(3):
                h["encode"].update(encode(st, seat).tobytes())
                h["encode_view"].update(encode_view(view(st, seat)).tobytes())
                o, m = enc.observe(st, seat, st.legal_actions(seat))
                h["observe"].update(o.tobytes())
                h["mask"].update(m.tobytes())
                h["encode_oracle"].update(encode_oracle(st, seat).tobytes())
                batch.append(st.clone())
            h["encode_batch"].update(np.ascontiguousarray(encode_batch(batch, [0, 1, 2])).tobytes())
            positions += 1
            if st.over:
                break
            seat = st.to_act()[0]
            ids = st.legal_actions(seat)
            st.apply_fast(seat, ids[rng.randrange(len(ids))])
    return {
        "accelerated": ACCELERATED,
        "positions": positions,
        **{k: v.hexdigest() for k, v in h.items()},
    }


def run_tree(src: Path, rounds: int, seed: int, pure: bool) -> dict[str, Any]:
    """:func:`digests` computed by the tree at ``src`` in a fresh interpreter."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    env.pop("PAOHUZI_PURE_ENCODER", None)
    if pure:
        env["PAOHUZI_PURE_ENCODER"] = "1"
    cmd = [sys.executable, __file__, "--digest", "--rounds", str(rounds), "--seed", str(seed)]
    out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True).stdout
    result: dict[str, Any] = json.loads(out)
    return result


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("other", type=Path, nargs="?", help="the other tree's src directory")
    ap.add_argument("--rounds", type=int, default=150)
    ap.add_argument("--seed", type=int, default=23)
    ap.add_argument("--digest", action="store_true", help="print this interpreter's digests")
    a = ap.parse_args()
    if a.digest:
        print(json.dumps(digests(a.rounds, a.seed)))
        return 0
    if a.other is None:
        ap.error("give the other tree's src directory")
    here = Path(__file__).resolve().parents[1] / "src"
    report: dict[str, Any] = {"rounds": a.rounds, "seed": a.seed}
    same = True
    for pure in (False, True):
        mine = run_tree(here, a.rounds, a.seed, pure)
        theirs = run_tree(a.other.resolve(), a.rounds, a.seed, pure)
        key = "python" if pure else "default"
        report[key] = {"this": mine, "other": theirs, "identical": mine == theirs}
        same = same and mine == theirs
    report["identical"] = same
    print(json.dumps(report, indent=1))
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
