"""Options that several commands take, declared once as typer ``Annotated`` aliases (a
command gives its own default: ``seed: SeedOpt = 0``)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

__all__ = [
    "EvalDealsOpt",
    "EvalEveryOpt",
    "InitOpt",
    "JsonOpt",
    "OutOpt",
    "RecordsOpt",
    "ScreenLangOpt",
    "SeedOpt",
]

SeedOpt = Annotated[int, typer.Option(help="Seed of the whole run.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON object instead of text.")]
RecordsOpt = Annotated[
    Path | None, typer.Option("--records", help="Write every round record into this directory.")
]
ScreenLangOpt = Annotated[
    str, typer.Option("--lang", help="Language of the screen: zh (default) or en.")
]

# The trainers' (``paohuzi train``, ``paohuzi train-dmc``).
OutOpt = Annotated[
    Path, typer.Option("--out", help="The run's directory: its checkpoints, weights and curve.")
]
InitOpt = Annotated[
    Path | None, typer.Option("--init", help="Start from these weights (a learned.npz).")
]
EvalDealsOpt = Annotated[
    int,
    typer.Option("--eval-deals", min=1, help="Duplicate deals per curve point (each opponent)."),
]
EvalEveryOpt = Annotated[
    int, typer.Option("--eval-every", min=1, help="Updates between curve points.")
]
