"""Win evaluation benchmark: evaluations and waiting-card queries per second.

Prints one JSON object. The inputs are a fixed, seeded set of

* complete hands: random legal table groups plus a hand composed of random legal
  groups (and the pair when there is a 提/跑), with one card taken out as X;
* near-complete hands: the same with one hand card swapped for another face;
* random deals: 20 shuffled cards (a dealt 4-of-a-kind laid down as a 提) and X.

``evaluate_win_strings_per_s`` times the public, checked ``evaluate_win`` on the
same holdings written as notation strings (those ``evaluate_win`` accepts: a deal
with two 提 is a card short) side by side with ``evaluate_counts`` on their parsed
values, in the same run.

"cold" is one pass with every memo cleared (the decomposition tables, built once
per process, stay; their build time and memory are reported on their own);
"warm" is repeated passes over the same inputs. The riichi ``mahjong`` library is
timed in the same run for scale (``null`` when it is not installed): full
``HandCalculator`` valuation of random complete 14-tile hands, and bare
``HandDivider`` division. Everything runs on one core.

    python benchmarks/win_eval.py [--quick] [--seed N]
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import platform
import random
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable, Sequence
from typing import Any

from paohuzi.core import COMPILED, hand
from paohuzi.core.cards import faces_of_counts, format_faces, glyph
from paohuzi.core.errors import PaohuziError
from paohuzi.core.groups import Group, GroupKind, format_groups

Case = tuple[tuple[Group, ...], list[int], int, bool]  # table, hand counts, X, self-drawn
TextCase = tuple[str, str, str, bool]  # the same written as notation

SETS: list[tuple[int, ...]] = []
for _off in (0, 10):
    SETS += [(_off + i, _off + i + 1, _off + i + 2) for i in range(8)]
    SETS.append((_off + 1, _off + 6, _off + 9))
SETS += [(n, n, n + 10) for n in range(10)] + [(n, n + 10, n + 10) for n in range(10)]
SAME_KINDS = (GroupKind.PENG, GroupKind.WEI, GroupKind.CHOUWEI, GroupKind.PAO, GroupKind.TI)


def complete_case(rng: random.Random) -> Case:
    """Make a random legal complete holding, less one card X."""
    while True:
        owned = [0] * 20
        table: list[Group] = []
        for _ in range(rng.randint(0, 6)):
            if rng.random() < 0.45:
                g = Group(GroupKind.CHI, rng.choice(SETS))
            else:
                kind = rng.choice(SAME_KINDS)
                g = Group(kind, (rng.randrange(20),) * kind.size)
            table.append(g)
            for f in g.faces:
                owned[f] += 1
        k = sum(g.kind in (GroupKind.TI, GroupKind.PAO) for g in table)
        counts = [0] * 20
        for _ in range((7 if k == 0 else 6) - len(table)):
            faces = (rng.randrange(20),) * 3 if rng.random() < 0.2 else rng.choice(SETS)
            for f in faces:
                counts[f] += 1
        if k:
            counts[rng.randrange(20)] += 2
        table_faces = {f for g in table for f in g.faces}
        if (
            sum(counts) == 0
            or any(o + c > 4 for o, c in zip(owned, counts, strict=True))
            or any(c == 4 or (c == 3 and f in table_faces) for f, c in enumerate(counts))
        ):
            continue
        x = rng.choice([f for f in range(20) for _ in range(counts[f])])
        counts[x] -= 1
        return tuple(table), counts, x, rng.random() < 0.3


def near_case(rng: random.Random, case: Case) -> Case:
    """Swap one hand card of a holding for another face: mostly not a win."""
    table, counts, x, drawn = case
    counts = list(counts)
    owned = list(counts)
    for g in table:
        for f in g.faces:
            owned[f] += 1
    owned[x] += 1
    table_faces = {f for g in table for f in g.faces}
    out = rng.choice([f for f in range(20) for _ in range(counts[f])])
    for _ in range(50):
        new = rng.randrange(20)
        if new != out and owned[new] < 4 and counts[new] < 2 + (new not in table_faces):
            counts[out] -= 1
            counts[new] += 1
            break
    return table, counts, x, drawn


def deal_case(rng: random.Random) -> Case:
    """Twenty shuffled cards and the next as X; a dealt 4-of-a-kind is a 提 on the table."""
    deck = [f for f in range(20) for _ in range(4)]
    rng.shuffle(deck)
    counts = [0] * 20
    for f in deck[:20]:
        counts[f] += 1
    table = tuple(Group(GroupKind.TI, (f,) * 4) for f in range(20) if counts[f] == 4)
    for g in table:
        counts[g.faces[0]] = 0
    return table, counts, deck[20], rng.random() < 0.3


def rate(run: Callable[[], int], min_seconds: float) -> float:
    """Operations per second of ``run`` (it returns its operation count), repeated."""
    ops = 0
    start = time.perf_counter()
    while True:
        ops += run()
        elapsed = time.perf_counter() - start
        if elapsed >= min_seconds:
            return ops / elapsed


def cold_warm(run: Callable[[], int], min_seconds: float, tries: int) -> dict[str, float]:
    """Best of ``tries`` single passes after clearing the memos, then warm passes."""
    cold = 0.0
    for _ in range(tries):
        hand.clear_cache()
        start = time.perf_counter()
        ops = run()
        cold = max(cold, ops / (time.perf_counter() - start))
    return {"cold": round(cold), "warm": round(rate(run, min_seconds))}


def evals(cases: Sequence[Case]) -> Callable[[], int]:
    """Time ``evaluate_counts``, the engine's unchecked path, over the cases."""

    def run() -> int:
        ev = hand.evaluate_counts
        for table, counts, x, drawn in cases:
            ev(table, counts, x, drawn)
        return len(cases)

    return run


def text_cases(cases: Sequence[Case]) -> tuple[list[TextCase], list[Case]]:
    """Write the cases ``evaluate_win`` accepts as notation; keep their parsed twins."""
    texts: list[TextCase] = []
    kept: list[Case] = []
    for case in cases:
        table, counts, x, drawn = case
        text = (format_groups(table), format_faces(faces_of_counts(counts)), glyph(x), drawn)
        try:
            hand.evaluate_win(table=text[0], hand=text[1], card=text[2], self_drawn=drawn)
        except PaohuziError:
            continue
        texts.append(text)
        kept.append(case)
    return texts, kept


def text_evals(cases: Sequence[TextCase]) -> Callable[[], int]:
    """Time the public ``evaluate_win`` on notation strings over the cases."""

    def run() -> int:
        ev = hand.evaluate_win
        for table, held, card, drawn in cases:
            ev(table=table, hand=held, card=card, self_drawn=drawn)
        return len(cases)

    return run


def string_figures(cases: Sequence[Case], min_s: float, tries: int) -> dict[str, Any]:
    """``evaluate_win`` on strings beside ``evaluate_counts`` on the same holdings."""
    texts, kept = text_cases(cases)
    strings = cold_warm(text_evals(texts), min_s, tries)
    counts = cold_warm(evals(kept), min_s, tries)
    hand.clear_cache()
    evals(kept)()  # the evaluation memos, so that what is left is the input memo's
    tracemalloc.start()
    text_evals(texts)()
    size = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return {
        "inputs": len(texts),
        "input_memo_entries": int(hand.cache_info()["input_entries"]),
        "input_memo_bytes": size,
        "evaluate_win_strings": strings,
        "evaluate_counts_same_inputs": counts,
        "warm_ratio": round(strings["warm"] / counts["warm"], 2),
    }


def wait_queries(cases: Sequence[Case]) -> Callable[[], int]:
    """Time ``waits_counts`` over the cases' hands."""

    def run() -> int:
        wc = hand.waits_counts
        for table, counts, _x, _drawn in cases:
            wc(table, counts)
        return len(cases)

    return run


def import_seconds() -> float:
    """Wall time of ``import paohuzi.core`` in a fresh interpreter (best of three)."""
    code = (
        "import time; t = time.perf_counter(); import paohuzi.core; print(time.perf_counter() - t)"
    )
    runs = [
        float(
            subprocess.run(
                [sys.executable, "-c", code], capture_output=True, text=True, check=True
            ).stdout
        )
        for _ in range(3)
    ]
    return round(min(runs), 4)


def table_figures() -> dict[str, Any]:
    """Build time, size and memory of the decomposition tables."""
    hand.clear_cache(tables=True)
    seconds = hand.build_tables()
    hand.clear_cache(tables=True)
    tracemalloc.start()
    hand.build_tables()
    size = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return {
        "entries": int(hand.cache_info()["table_entries"]),
        "build_seconds": round(seconds, 4),
        "bytes": size,
    }


def memo_figures(cases: Sequence[Case]) -> dict[str, Any]:
    """Entries and memory of the memo after one pass."""
    hand.clear_cache()
    tracemalloc.start()
    evals(cases)()
    size = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    entries = int(hand.cache_info()["entries"])
    return {
        "entries_after_one_pass": entries,
        "bytes_after_one_pass": size,
        "limit": int(hand.cache_info()["limit"]),
    }


def mahjong_hands(seed: int, n: int) -> list[tuple[list[int], int, list[int]]]:
    """Draw random complete 14-tile riichi hands: tiles, winning tile, 34-counts."""
    rng = random.Random(seed)
    hands: list[tuple[list[int], int, list[int]]] = []
    while len(hands) < n:
        c34 = [0] * 34
        for _ in range(4):
            if rng.random() < 0.3:
                c34[rng.randrange(34)] += 3
            else:
                start = rng.randrange(3) * 9 + rng.randrange(7)
                for t in range(start, start + 3):
                    c34[t] += 1
        c34[rng.randrange(34)] += 2
        if max(c34) > 4:
            continue
        tiles = [4 * t + i for t in range(34) for i in range(c34[t])]
        hands.append((tiles, rng.choice(tiles), c34))
    return hands


def mahjong_figures(seed: int, n: int, min_seconds: float) -> dict[str, Any] | None:
    """Time the riichi ``mahjong`` library on random complete 14-tile hands, for scale."""
    try:
        from mahjong.hand_calculating.divider import HandDivider
        from mahjong.hand_calculating.hand import HandCalculator
        from mahjong.hand_calculating.hand_config import HandConfig
    except ImportError:
        return None
    hands = mahjong_hands(seed, n)
    calc = HandCalculator()
    config = HandConfig(is_tsumo=True)

    def value() -> int:
        for tiles, win, _c34 in hands:
            calc.estimate_hand_value(tiles, win, config=config)
        return len(hands)

    def divide() -> int:
        for _tiles, _win, c34 in hands:
            HandDivider.divide_hand(c34)
        return len(hands)

    return {
        "version": importlib.metadata.version("mahjong"),
        "hand_calculator_per_s": round(rate(value, min_seconds)),
        "hand_divider_per_s": round(rate(divide, min_seconds)),
    }


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    """Run every measurement and return the JSON object."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a short run (smoke test)")
    parser.add_argument("--seed", type=int, default=20240611)
    args = parser.parse_args(argv)
    n, min_s, tries = (150, 0.05, 1) if args.quick else (2000, 1.5, 3)
    start = time.perf_counter()
    rng = random.Random(args.seed)
    complete = [complete_case(rng) for _ in range(n)]
    near = [near_case(rng, c) for c in complete]
    deals = [deal_case(rng) for _ in range(n)]
    tables = table_figures()
    wins = sum(hand.evaluate_counts(t, c, x, d) is not None for t, c, x, d in complete)
    everything = complete + near + deals
    out: dict[str, Any] = {
        "benchmark": "win_eval",
        "compiled": COMPILED,
        "python": platform.python_version(),
        "quick": args.quick,
        "seed": args.seed,
        "inputs": {
            "complete": len(complete),
            "complete_that_win": wins,
            "near_complete": len(near),
            "random_deals": len(deals),
        },
        "evaluate_counts_per_s": {
            "complete": cold_warm(evals(complete), min_s, tries),
            "near_complete": cold_warm(evals(near), min_s, tries),
            "random_deals": cold_warm(evals(deals), min_s, tries),
            "all": cold_warm(evals(everything), min_s, tries),
        },
        "evaluate_win_strings_per_s": string_figures(everything, min_s, tries),
        "waits_counts_per_s": {
            "waiting_hands": cold_warm(wait_queries(complete), min_s, tries),
            "random_deals": cold_warm(wait_queries(deals), min_s, tries),
        },
        "decomposition_tables": tables,
        "memo": memo_figures(everything),
        "import_paohuzi_core_seconds": import_seconds(),
        "mahjong": mahjong_figures(args.seed, n, min_s),
    }
    out["seconds"] = round(time.perf_counter() - start, 2)
    return out


if __name__ == "__main__":
    print(json.dumps(main(), ensure_ascii=False, indent=2))
