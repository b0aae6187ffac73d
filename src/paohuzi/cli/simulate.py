"""``paohuzi simulate``: random rounds, throughput and rule statistics."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from .app import app
from .options import JsonOpt, RecordsOpt, SeedOpt


@app.command()
def simulate(
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="Rounds to play.")] = 1000,
    seed: SeedOpt = 0,
    as_json: JsonOpt = False,
    records: RecordsOpt = None,
) -> None:
    """Play N full rounds with random legal actions (a seat that may 胡 does)."""
    from ..simulate import simulate as run
    from .errors import writable_dir

    if records is not None:
        writable_dir(records, "--records")
    stats = run(games, seed, records_dir=records)
    if as_json:
        typer.echo(json.dumps(stats, ensure_ascii=False))
        return
    g = stats["games"]
    typer.echo(f"games            {g}")
    typer.echo(f"games/second     {stats['games_per_second']}")
    typer.echo(f"actions/second   {stats['actions_per_second']}")
    typer.echo(f"won              {stats['win_rate']:.1%}")
    typer.echo(f"荒庄             {stats['draw_rate']:.1%}")
    typer.echo(f"mean win score   {stats['mean_win_score']}")
    typer.echo(
        "名堂             "
        + (", ".join(f"{k} {v}" for k, v in stats["mingtang"].items()) or "none")
    )
    typer.echo("wins by          " + ", ".join(f"{k} {v}" for k, v in stats["win_how"].items()))
    typer.echo(f"吃 with 比       {stats['bi']}")
    typer.echo(f"dead hands       {stats['dead_hands']}")
    typer.echo(f"提 (drawn) / 跑 / 偎  {stats['ti_drawn']} / {stats['pao']} / {stats['wei']}")
    if records is not None:
        typer.echo(f"records in       {records}")
