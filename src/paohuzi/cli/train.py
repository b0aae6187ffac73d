"""``paohuzi train``: train the learned bot (extra ``train``)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Annotated

import typer

from .app import app
from .options import EvalDealsOpt, EvalEveryOpt, InitOpt, OutOpt, SeedOpt


@app.command()
def train(
    out: OutOpt = Path("runs/learned"),
    seed: SeedOpt = 0,
    games: Annotated[
        int, typer.Option(min=1, help="Rounds the teacher plays itself for distillation.")
    ] = 3000,
    epochs: Annotated[int, typer.Option(min=0, help="Distillation epochs.")] = 6,
    updates: Annotated[
        int, typer.Option(min=0, help="Policy-gradient fine-tuning updates (0: none).")
    ] = 300,
    episodes: Annotated[int, typer.Option(min=1, help="Rounds per fine-tuning update.")] = 32,
    search_games: Annotated[
        int,
        typer.Option(
            "--search-games",
            min=0,
            help="Rounds whose decisions the search values for search distillation (0: none).",
        ),
    ] = 0,
    search_samples: Annotated[
        int,
        typer.Option(
            "--search-samples", min=1, help="Determinizations per decision the search values."
        ),
    ] = 12,
    search_epochs: Annotated[
        int, typer.Option("--search-epochs", min=0, help="Search distillation epochs.")
    ] = 3,
    search_lr: Annotated[
        float, typer.Option("--search-lr", min=0.0, help="Search distillation learning rate.")
    ] = 1e-4,
    search_data: Annotated[
        Path | None,
        typer.Option(
            "--search-data",
            help="An .npz of labelled decisions: read if it exists (same seed and sizes), "
            "else written.",
        ),
    ] = None,
    init: InitOpt = None,
    tune_deals: Annotated[
        int,
        typer.Option(
            "--tune-deals",
            min=0,
            help="Tune the heuristic's weights (the prior) first, on this many duplicate deals "
            "per step against the heuristic bot (0: no tuning).",
        ),
    ] = 0,
    tune_sweeps: Annotated[
        int, typer.Option("--tune-sweeps", min=1, help="Sweeps of the tuning's pattern search.")
    ] = 2,
    weights: Annotated[
        Path | None,
        typer.Option(
            "--weights",
            help="The heuristic's weights for the prior (a run's weights.json), or where "
            "--tune-deals starts from.",
        ),
    ] = None,
    eval_deals: EvalDealsOpt = 30,
    eval_every: EvalEveryOpt = 25,
    teacher: Annotated[str, typer.Option(help="The bot to distil.")] = "heuristic",
    workers: Annotated[int, typer.Option("--workers", "-w", min=1, help="Processes.")] = 2,
    backend: Annotated[
        str, typer.Option("--backend", help="process (a local pool) or ray (needs Ray).")
    ] = "process",
) -> None:
    """Tune the heuristic's weights, distil a teacher bot (and optionally the search) into a
    network, fine-tune, plot the curve.

    Writes weights.json (when tuning), checkpoints, learned.npz (the weights the
    learned bot loads: copy it to src/paohuzi/bots/learned.npz to ship it) and
    curve.json/curve.png into --out. The network starts at random, or from --init's
    weights (with --epochs 0 the teacher's data is then not made).
    """
    from ..bots import BOTS
    from .errors import check_backend, check_init, fail, writable_dir

    missing = [m for m in ("torch", "matplotlib") if importlib.util.find_spec(m) is None]
    if missing:
        fail(f"paohuzi train needs {' and '.join(missing)}: pip install 'paohuzi[train]'")
    if teacher not in BOTS or teacher == "learned":
        fail(f"--teacher {teacher!r}: choose from {', '.join(sorted(set(BOTS) - {'learned'}))}")
    check_backend(backend)
    writable_dir(out, "--out")
    if weights is not None:
        from ..train.trainer import read_weights

        try:
            read_weights(str(weights))
        except ValueError as e:
            fail(f"--weights: {e}")
    if init is not None:
        check_init(init)
    from ..train.trainer import KeptDataError, TrainConfig, search_data_problem
    from ..train.trainer import train as run

    cfg = TrainConfig(
        out=str(out),
        seed=seed,
        teacher=teacher,
        games=games,
        epochs=epochs,
        search_games=search_games,
        search_samples=search_samples,
        search_epochs=search_epochs,
        search_lr=search_lr,
        search_data=str(search_data) if search_data is not None else None,
        init=str(init) if init is not None else None,
        tune_deals=tune_deals,
        tune_sweeps=tune_sweeps,
        weights=str(weights) if weights is not None else None,
        finetune_updates=updates,
        finetune_episodes=episodes,
        eval_deals=eval_deals,
        eval_every=eval_every,
        workers=workers,
        backend=backend,
    )
    problem = search_data_problem(cfg)
    if problem is not None:
        fail(f"--search-data: {problem}")
    try:
        curve = run(cfg)
    except KeptDataError as e:  # a kept file that does not fit the weights this run tuned
        fail(f"--search-data: {e}")
    if curve:
        last = curve[-1]
        # A run that only tuned has no network: its last point is the tuned heuristic's.
        who, made = ("learned", "learned.npz")
        if last["phase"] == "tune":
            who, made = ("tuned heuristic", "weights.json")
        typer.echo(
            f"done: {who} - heuristic {last['score_vs_heuristic']:+.3f} per round "
            f"{last['ci95']} on {last['deals']} tuning deals; {out}/{made}, {out}/curve.png"
        )
