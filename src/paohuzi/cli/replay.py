"""``paohuzi replay FILE``: step through a saved round or match record.

The record is loaded and checked (every decision replayed) before textual starts,
so a broken file gives a one-line error instead of a crashed screen.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from .app import app
from .options import ScreenLangOpt

__all__ = ["replay_cmd"]


@app.command("replay")
def replay_cmd(
    file: Annotated[Path, typer.Argument(help="A round or match record (JSON) from paohuzi play.")],
    lang: ScreenLangOpt = "zh",
) -> None:
    """Step through a record: ←/→ one decision, Home/End, PgUp/PgDn rounds, v view, q quit.

    Exit status 1 when the file cannot be read or is not a valid record.
    """
    from ..core.errors import PaohuziError
    from ..core.record import loads

    if lang not in ("zh", "en"):
        typer.echo(f"error: --lang {lang!r}: choose zh or en", err=True)
        raise typer.Exit(2)

    try:
        text = file.read_text(encoding="utf-8")
    except OSError as e:
        typer.echo(f"error: cannot read {file}: {e.strerror or e}", err=True)
        raise typer.Exit(1) from None
    try:
        from ..tui.replay import load_rounds

        rounds = load_rounds(loads(text))
    except ImportError as e:  # pragma: no cover - depends on the install
        typer.echo(f"paohuzi replay needs textual: pip install 'paohuzi[play]' ({e})", err=True)
        raise typer.Exit(2) from None
    except (PaohuziError, ValueError, TypeError, KeyError, IndexError) as e:
        # a record is outside input: whatever in it the loader trips on is the file's fault
        typer.echo(f"error: {file}: not a valid record: {' '.join(str(e).split())}", err=True)
        raise typer.Exit(1) from None
    from ..tui.replay import replay_app

    replay_app(rounds, source=file.name, lang=lang).run()
