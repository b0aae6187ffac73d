"""The typer application; each command lives in its own module."""

from __future__ import annotations

import typer

app = typer.Typer(
    name="paohuzi",
    help="红拐弯跑胡子: score hands, simulate, play against bots.",
    no_args_is_help=True,
    add_completion=False,
)


def _version(value: bool) -> None:
    if value:
        from .. import __version__
        from ..core import COMPILED

        typer.echo(f"paohuzi {__version__} ({'compiled' if COMPILED else 'pure Python'} core)")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Show the version and build."
    ),
) -> None:
    """红拐弯跑胡子 (Hong Guai Wan Paohuzi)."""


from . import analyse as _analyse  # noqa: E402,F401
from . import arena as _arena  # noqa: E402,F401
from . import bot as _bot  # noqa: E402,F401
from . import play as _play  # noqa: E402,F401
from . import replay as _replay  # noqa: E402,F401
from . import score as _score  # noqa: E402,F401
from . import serve as _serve  # noqa: E402,F401
from . import simulate as _simulate  # noqa: E402,F401
from . import train as _train  # noqa: E402,F401
from . import train_dmc as _train_dmc  # noqa: E402,F401
