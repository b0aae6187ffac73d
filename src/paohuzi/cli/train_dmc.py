"""``paohuzi train-dmc``: Deep Monte-Carlo self-play, resumable (extra ``train``)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Annotated

import typer

from .app import app
from .options import EvalDealsOpt, EvalEveryOpt, InitOpt, OutOpt, SeedOpt


@app.command("train-dmc")
def train_dmc(
    out: OutOpt = Path("runs/dmc"),
    seed: SeedOpt = 0,
    updates: Annotated[
        int | None,
        typer.Option("--updates", min=1, help="Stop when the run has made this many updates."),
    ] = None,
    minutes: Annotated[
        float | None,
        typer.Option("--minutes", min=0.0, help="Stop after this much wall time (this call)."),
    ] = None,
    games: Annotated[int, typer.Option(min=1, help="Self-play rounds per update.")] = 8,
    steps: Annotated[int, typer.Option(min=1, help="Minibatches learned per update.")] = 4,
    batch: Annotated[int, typer.Option(min=1, help="Samples per minibatch.")] = 256,
    buffer: Annotated[int, typer.Option(min=1, help="Replay buffer: recent samples kept.")] = 20000,
    lr: Annotated[float, typer.Option(min=0.0, help="Learning rate (Adam).")] = 1e-4,
    epsilon: Annotated[
        float, typer.Option(min=0.0, max=1.0, help="Share of exploratory random actions.")
    ] = 0.05,
    kappa: Annotated[
        float | None,
        typer.Option(min=1e-6, help="Hold κ (Q's value step per logit unit) at this value."),
    ] = None,
    init: InitOpt = None,
    scratch: Annotated[
        bool, typer.Option("--scratch", help="Start from a random network instead.")
    ] = False,
    eval_deals: EvalDealsOpt = 30,
    eval_every: EvalEveryOpt = 50,
    eval_seed: Annotated[
        int, typer.Option("--eval-seed", help="The curve: seed of the evaluation deals.")
    ] = 0,
) -> None:
    """Train an action-value network by self-play (Deep Monte-Carlo), from the learned bot.

    It starts from the shipped learned.npz (or --init's weights, or at random with
    --scratch); re-running on the same --out resumes the run. Writes checkpoint.pt and
    replay.npz (the state a rerun resumes from), dmc.npz (the weights the dmc bot plays:
    PAOHUZI_DMC_WEIGHTS=DIR/dmc.npz) and curve.json (every point against the heuristic
    and learned bots, appended) into --out.
    """
    from .errors import check_init, fail, writable_dir

    if importlib.util.find_spec("torch") is None:
        fail("paohuzi train-dmc needs torch: pip install 'paohuzi[train]'")
    if updates is None and minutes is None:
        fail("give --updates N (in all) or --minutes M (this call)")
    writable_dir(out, "--out")
    from ..bots.learned import DEFAULT_WEIGHTS

    start = None if scratch else (init or DEFAULT_WEIGHTS)
    if start is not None:
        check_init(start)
    from ..train.dmc import DMCConfig
    from ..train.dmc_run import run_dmc

    cfg = DMCConfig(
        out=str(out),
        seed=seed,
        updates=updates,
        minutes=minutes,
        games=games,
        steps=steps,
        batch=batch,
        buffer=buffer,
        lr=lr,
        epsilon=epsilon,
        kappa=kappa,
        init=None if start is None else str(start),
        eval_deals=eval_deals,
        eval_every=eval_every,
        eval_seed=eval_seed,
    )
    try:
        curve = run_dmc(cfg)
    except ValueError as e:
        fail(f"--out: {e}")
    last = curve["curve"][-1]
    parts = [
        f"{k[3:]} {v['mean']:+.3f} {v['ci95']}" for k, v in last.items() if k.startswith("vs_")
    ]
    typer.echo(
        f"update {last['update']} ({curve['compute_seconds']} s of compute): dmc minus "
        + "; ".join(parts)
        + f" per round on {cfg.eval_deals} deals; {out}/dmc.npz, {out}/curve.json"
    )
