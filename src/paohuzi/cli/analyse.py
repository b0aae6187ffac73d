"""``paohuzi analyse RECORD``: 复盘, every decision of a recorded match judged fairly."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from .app import app

__all__ = ["analyse"]


@app.command("analyse")
def analyse(
    record: Annotated[Path, typer.Argument(help="A round or match record (JSON).")],
    seat: Annotated[int | None, typer.Option("--seat", help="Judge this seat only (0-2).")] = None,
    budget: Annotated[
        int,
        typer.Option(
            "--budget",
            help="Sampled worlds a batch (1-1000): a decision plays one batch, more while "
            "its verdict is unsettled.",
        ),
    ] = 16,
    options: Annotated[
        int, typer.Option("--options", help="Options valued per decision at most (2-20).")
    ] = 6,
    seed: Annotated[
        int,
        typer.Option(
            help="Seed of the sampling (the server uses the match's id: --seed ID "
            "gives the browser's analysis of that match)."
        ),
    ] = 0,
    lang: Annotated[str, typer.Option("--lang", help="Text language: zh or en.")] = "zh",
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Value every option of every decision from the deciding seat's view (never the
    hidden cards), on the same sampled worlds for all options; print the loss of each
    choice against the best, its verdict, round and match summaries (一致率).

    Exit status 1 when the file cannot be read or is not a valid record.
    """
    from ..analysis import Budget, review_dict, review_match, review_text
    from ..core.errors import PaohuziError
    from ..core.record import MatchRecord, load_record, replay, replay_match
    from .errors import fail

    if lang not in ("zh", "en"):
        fail(f"--lang {lang!r}: choose zh or en")
    for name, value, low, high in (
        ("--seat", seat, 0, 2),
        ("--budget", budget, 1, 1000),
        ("--options", options, 2, 20),
    ):
        if value is not None and not low <= value <= high:
            fail(f"{name} {value!r}: choose a whole number from {low} to {high}")
    try:
        text = record.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        fail(f"cannot read {record}: {getattr(e, 'strerror', None) or e}", 1)
    try:
        rec = load_record(text)
        replay_match(rec) if isinstance(rec, MatchRecord) else replay(rec)
    except (PaohuziError, ValueError) as e:
        fail(f"{record}: not a valid record: {e}", 1)
    seats = (0, 1, 2) if seat is None else (seat,)
    done = [0]

    def tick(n: int) -> None:
        done[0] += n
        if not as_json and sys.stderr.isatty():
            print(f"\r{done[0]} decisions", end="", file=sys.stderr, flush=True)

    review = review_match(rec, seats, Budget(budget, options), seed, tick)
    if not as_json and sys.stderr.isatty():
        print(file=sys.stderr)
    if as_json:
        typer.echo(json.dumps(review_dict(review), ensure_ascii=False))
    else:
        typer.echo(review_text(review, lang))
