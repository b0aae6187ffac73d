"""``paohuzi arena``: duplicate-deal tournaments between bots."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from .app import app
from .options import JsonOpt, RecordsOpt, SeedOpt


@app.command()
def arena(
    bots: Annotated[
        str, typer.Option("--bots", help="Bot names, comma separated (two or three).")
    ] = "heuristic,random,random",
    deals: Annotated[
        int, typer.Option("--deals", "-n", min=1, help="Duplicate deals to play.")
    ] = 100,
    seed: SeedOpt = 0,
    as_json: JsonOpt = False,
    records: RecordsOpt = None,
    workers: Annotated[
        int,
        typer.Option(
            "--workers", "-w", min=1, help="Processes (capped at the CPU count and the deals)."
        ),
    ] = 1,
    backend: Annotated[
        str,
        typer.Option(
            "--backend", help="Where deals run: process (a local pool) or ray (needs Ray)."
        ),
    ] = "process",
    weights: Annotated[
        Path | None,
        typer.Option(
            "--weights",
            help="A network from paohuzi train (its learned.npz) for the learned and guided "
            "bots to play instead of the shipped one.",
        ),
    ] = None,
) -> None:
    """Play duplicate deals: each deal is replayed with the bots rotated through the seats.

    Scores are balance changes per round under 红拐弯 with the 悟性 caps off, so a
    round pays its full score.
    """
    from ..arena import run_arena
    from ..bots import BOTS
    from .errors import cap_workers, check_backend, fail, writable_dir

    names = [b.strip() for b in bots.split(",") if b.strip()]
    unknown = list(dict.fromkeys(n for n in names if n not in BOTS))
    if unknown:
        known = ", ".join(sorted(BOTS))
        fail(f"--bots {bots!r}: unknown bot {', '.join(unknown)} (choose from {known})")
    if not 1 <= len(names) <= 3:
        fail(f"--bots {bots!r}: give one to three names from {', '.join(sorted(BOTS))}")
    check_backend(backend)
    if records is not None:
        writable_dir(records, "--records")
    if weights is not None:
        _check_weights(weights, names)
    used = cap_workers(workers, deals) if backend == "process" else workers
    if used < workers:
        typer.echo(f"--workers {workers}: using {used} (CPUs and deals)", err=True)
    stats = run_arena(
        names,
        deals,
        seed,
        records=records,
        workers=used,
        backend=backend,
        weights=None if weights is None else str(weights),
    )
    if as_json:
        typer.echo(json.dumps(stats, ensure_ascii=False))
        return
    typer.echo(
        f"{stats['deals']} deals x {stats['seatings']} seatings = {stats['rounds']} rounds, "
        f"seed {seed}; 悟性 caps off (a round pays its full score); "
        f"荒庄 {stats['draw_rate']:.1%}; {stats['seconds']} s"
    )
    typer.echo(
        f"{'bot':<12}{'score/round':>12}  {'95% CI':<20}{'win':>7}{'荒庄':>7}"
        f"{'win 胡息':>9}{'p50 ms':>9}{'p95 ms':>9}"
    )
    for name, b in stats["bots"].items():
        lo, hi = b["ci95"]
        typer.echo(
            f"{name:<12}{b['mean_score']:>12.3f}  [{lo:>7.3f}, {hi:>7.3f}]  "
            f"{b['win_rate']:>7.1%}{b['draw_rate']:>7.1%}{b['mean_win_huxi']:>9.2f}"
            f"{b['decision_ms_p50']:>9.2f}{b['decision_ms_p95']:>9.2f}"
        )
    d = stats.get("diff")
    if d:
        lo, hi = d["ci95"]
        typer.echo(f"{d['a']} - {d['b']}: {d['mean']:.3f} per round, 95% CI [{lo:.3f}, {hi:.3f}]")
    if weights is not None:
        typer.echo(f"learned and guided played the network in {weights}")
    if records is not None:
        typer.echo(f"records in {records}")


def _check_weights(path: Path, names: list[str]) -> None:
    """``--weights`` only with a bot that plays the network, and only a file that is one:
    an error quoting it before any deal is played."""
    from ..arena import WEIGHTED, load_weights
    from .errors import fail

    if not any(n in WEIGHTED for n in names):
        fail(f"--weights {str(path)!r}: only the {' and '.join(WEIGHTED)} bots play a network")
    try:
        load_weights(str(path))
    except ValueError as e:
        fail(f"--weights: {e}")
