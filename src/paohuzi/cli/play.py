"""``paohuzi play``: a match in the terminal against two bots.

textual is imported inside the command, so the rest of the CLI (``paohuzi
score`` …) works where only the ``cli`` extra is installed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from .app import app
from .options import ScreenLangOpt

__all__ = ["choose_bots", "play", "replay_hint"]

_PREFERRED = "heuristic"


def choose_bots(spec: str | None) -> tuple[list[str], str | None]:
    """The two bot names for seats 1 and 2, and a notice when a fallback was taken.

    Without ``--bots`` the heuristic bot plays both seats when it is installed,
    else the random bot (with a notice saying so).
    """
    from ..bots import BOTS

    if spec is None:
        if _PREFERRED in BOTS:
            return [_PREFERRED, _PREFERRED], None
        return ["random", "random"], f"no {_PREFERRED} bot here: playing against random bots"
    names = [n.strip() for n in spec.split(",") if n.strip()]
    if len(names) == 1:
        names = names * 2
    if len(names) != 2:
        raise typer.BadParameter(
            f"give two bots (seat 1, seat 2) like heuristic,search: {spec!r}", param_hint="--bots"
        )
    unknown = list(dict.fromkeys(n for n in names if n not in BOTS))
    if unknown:
        raise typer.BadParameter(
            f"unknown bot {', '.join(unknown)}: choose from {', '.join(sorted(BOTS))}",
            param_hint="--bots",
        )
    return names, None


def replay_hint(path: Path, lang: str = "zh") -> str:
    """A replay command that works without the virtualenv on PATH (this Python, ``-m``),
    in the match's language."""
    import shlex
    import sys

    extra = " --lang en" if lang == "en" else ""
    return f"{shlex.quote(sys.executable)} -m paohuzi replay {shlex.quote(str(path))}{extra}"


@app.command()
def play(
    bots: Annotated[
        str | None,
        typer.Option("--bots", help="Bots for seats 1 (下家) and 2 (上家), e.g. heuristic,search."),
    ] = None,
    rounds: Annotated[
        int | None, typer.Option("--rounds", min=1, help="Rounds in the match (default 8).")
    ] = None,
    seed: Annotated[int | None, typer.Option("--seed", help="Match seed (deals, dealer).")] = None,
    records_dir: Annotated[
        Path | None,
        typer.Option("--records-dir", help="Where records go (default ~/.paohuzi/records)."),
    ] = None,
    delay: Annotated[
        float,
        typer.Option(
            "--delay",
            min=0.0,
            max=10.0,
            help="Seconds each draw, discard and claim stays on screen (s skips ahead).",
        ),
    ] = 0.4,
    lang: ScreenLangOpt = "zh",
) -> None:
    """Play a match as seat 0 against two bots (arrows+Enter discard, 1-9/p claim, t 听, q quit).

    The records folder is checked before the match starts; a record that cannot be
    saved is reported again on exit, with exit status 1.
    """
    from .errors import fail, writable_dir

    try:
        from ..tui.app import play_app
        from ..tui.session import GameSession, default_records_dir
        from ..tui.words import LANGS, bot_word, word
    except ImportError as e:  # pragma: no cover - depends on the install
        fail(f"paohuzi play needs textual: pip install 'paohuzi[play]' ({e})")
    from ..bots import make_bot
    from ..core.match import Match

    if lang not in LANGS:
        fail(f"--lang {lang!r}: choose zh or en")
    names, notice = choose_bots(bots)
    folder = writable_dir(
        records_dir if records_dir is not None else default_records_dir(), "--records-dir"
    )
    match = Match(seed=seed, rounds=rounds)
    seats = (1, 2)
    players = {
        s: make_bot(n, match.seed + s, match.rules) for s, n in zip(seats, names, strict=True)
    }
    session = GameSession(match, players, human=0, records_dir=folder)
    names_by_seat = {s: bot_word(n, lang) for s, n in zip(seats, names, strict=True)}
    tui = play_app(session, lang=lang, delay=delay, names=names_by_seat, notice=notice)
    saved = tui.run()
    if notice:
        typer.echo(notice)
    if tui.save_error is not None:
        typer.echo(word("exit_not_saved", lang, why=tui.save_error), err=True)
        raise typer.Exit(1)
    if saved is not None:
        typer.echo(word("exit_saved", lang, path=saved))
        typer.echo(word("exit_replay", lang, hint=replay_hint(saved, lang)))
