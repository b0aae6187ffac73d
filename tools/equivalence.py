"""Check that this engine plays the same games as another build of it.

Usage::

    git worktree add /tmp/paohuzi-old <commit>      # or any tree with src/paohuzi
    python tools/equivalence.py /tmp/paohuzi-old/src --actions 100000 --heuristic-games 200

Both engines are driven with the same decisions, from random play (seeded) and
from the heuristic bot, and after every decision the script compares the seats
to act, the legal action sets, the new events and, at the end, the results. The
one intended difference since 0.1 is allowed: a 吃 that lays down the same groups
had two ids, so legal ids are compared after :func:`canonical_id` and the groups
of a 吃 event as a multiset. Prints JSON; exits 1 on the first difference.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

from paohuzi.bots.heuristic import HeuristicBot
from paohuzi.core.actions import canonical_id
from paohuzi.core.engine import new_game
from paohuzi.core.views import view


def load_old(src: Path) -> ModuleType:
    """Import the ``paohuzi`` package under ``src`` as ``paohuzi_old``."""
    spec = importlib.util.spec_from_file_location(
        "paohuzi_old",
        src / "paohuzi" / "__init__.py",
        submodule_search_locations=[str(src / "paohuzi")],
    )
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["paohuzi_old"] = mod
    spec.loader.exec_module(mod)
    return mod


def norm_event(e: Any) -> tuple[Any, ...]:
    """An event as plain values, 吃 groups as a multiset, so two builds compare."""
    groups = [(g.kind.value, tuple(g.faces)) for g in e.groups]
    if e.kind.value == "chi":
        groups.sort()
    return (
        e.kind.value,
        e.seat,
        e.face,
        tuple(groups),
        e.source,
        str(e.detail),
        e.hidden,
        tuple(tuple(h) if h is not None else None for h in e.hands),
        tuple(e.numbers),
        e.private,
    )


class Mismatch(Exception):
    """The two engines disagree."""


def _legal_old(old: Any, seat: int) -> tuple[int, ...]:
    """The other build's legal ids: ``legal_ids`` before 0.2, ``legal_actions`` since."""
    legal = getattr(old, "legal_ids", None) or old.legal_actions
    return tuple(legal(seat))


def step(new: Any, old: Any, seat: int, aid: int, where: str) -> None:
    """Apply ``aid`` (a new id) to both and compare the events."""
    old_ids = [a for a in _legal_old(old, seat) if canonical_id(a) == aid]
    if not old_ids:
        raise Mismatch(f"{where}: id {aid} is not legal in the old engine")
    ev_new = [norm_event(e) for e in new.apply_fast(seat, aid)]
    ev_old = [norm_event(e) for e in old.apply_fast(seat, old_ids[0])]
    if ev_new != ev_old:
        raise Mismatch(f"{where}: events differ\nnew {ev_new}\nold {ev_old}")


def compare_now(new: Any, old: Any, where: str) -> None:
    """Same seats to act, same legal sets (old ids made canonical)."""
    if tuple(new.to_act()) != tuple(old.to_act()):
        raise Mismatch(f"{where}: to_act {new.to_act()} vs {old.to_act()}")
    for s in range(3):
        got = set(new.legal_actions(s))
        want = {canonical_id(a) for a in _legal_old(old, s)}
        if got != want:
            raise Mismatch(f"{where}: seat {s} legal {sorted(got)} vs {sorted(want)}")
        if len(new.legal_actions(s)) != len(got):
            raise Mismatch(f"{where}: seat {s} offers an id twice")


def compare_end(new: Any, old: Any, where: str) -> None:
    """Same result and the same whole log."""
    if [norm_event(e) for e in new.log] != [norm_event(e) for e in old.log]:
        raise Mismatch(f"{where}: logs differ")
    r, o = new.result, old.result
    if (r.winner, r.deltas, r.balances, r.next_dealer) != (
        o.winner, o.deltas, o.balances, o.next_dealer,
    ):  # fmt: skip
        raise Mismatch(f"{where}: results {r} vs {o}")


def random_games(old_mod: Any, actions: int, seed: int) -> dict[str, int]:
    """Random play until ``actions`` decisions were compared."""
    rng = random.Random(seed)
    done = games = merged = 0
    while done < actions:
        gseed = rng.randrange(2**31)
        new = new_game(seed=gseed)
        old = old_mod.new_game(seed=gseed)
        while not new.over:
            where = f"random game seed {gseed}, decision {len(new.decisions)}"
            compare_now(new, old, where)
            seat = new.to_act()[0]
            ids = new.legal_actions(seat)
            merged += len(_legal_old(old, seat)) - len(ids)
            step(new, old, seat, ids[rng.randrange(len(ids))], where)
            done += 1
        compare_end(new, old, f"random game seed {gseed}")
        games += 1
    return {"actions": done, "games": games, "duplicate_chi_ids_merged": merged}


def heuristic_games(old_mod: Any, n: int, seed: int) -> dict[str, int]:
    """Games driven by the heuristic bot in every seat (more wins than random play)."""
    done = wins = 0
    for g in range(n):
        gseed = seed + g
        new = new_game(seed=gseed)
        old = old_mod.new_game(seed=gseed)
        bots = [HeuristicBot(seed=gseed * 3 + s) for s in range(3)]
        while not new.over:
            where = f"heuristic game seed {gseed}, decision {len(new.decisions)}"
            compare_now(new, old, where)
            seat = new.to_act()[0]
            step(new, old, seat, bots[seat].act(view(new, seat)).id, where)
            done += 1
        compare_end(new, old, f"heuristic game seed {gseed}")
        wins += new.result.winner is not None
    return {"games": n, "actions": done, "wins": wins}


def main() -> int:
    """Run both checks and print JSON."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old_src", type=Path, help="folder holding the other build's paohuzi package")
    ap.add_argument("--actions", type=int, default=100_000)
    ap.add_argument("--heuristic-games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=20261203)
    args = ap.parse_args()
    old_mod = load_old(args.old_src)
    t = time.perf_counter()
    out: dict[str, Any] = {"old": str(args.old_src), "seed": args.seed}
    try:
        out["random"] = random_games(old_mod, args.actions, args.seed)
        out["heuristic"] = heuristic_games(old_mod, args.heuristic_games, args.seed)
        out["equal"] = True
    except Mismatch as e:
        out["equal"] = False
        out["difference"] = str(e)
    out["seconds"] = round(time.perf_counter() - t, 1)
    print(json.dumps(out, ensure_ascii=False, indent=1))
    return 0 if out["equal"] else 1


if __name__ == "__main__":
    sys.exit(main())
