"""One-line errors for every command: bad input never ends in a traceback.

Commands report what they can name themselves with :func:`fail`; whatever else
escapes a command (a usage error from click, a :class:`PaohuziError`, an
``OSError`` on a path, a ``ValueError`` from a library call) is caught once in
:func:`run` and printed as ``paohuzi <command>: error: …`` on one line, with
exit status 2. ``paohuzi replay`` documents status 1 for an unreadable record.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn, cast

import typer

from ..core.errors import PaohuziError


def _cli_error() -> type[Exception]:
    """Usage errors: typer's own (it carries click since 0.20), else click's."""
    err = getattr(typer, "TyperException", None)
    if err is None:  # pragma: no cover - depends on the install
        err = importlib.import_module("click").ClickException
    return cast(type[Exception], err)


_CLI_ERROR = _cli_error()

__all__ = [
    "BAD_INPUT",
    "check_backend",
    "check_init",
    "fail",
    "one_line",
    "run",
    "writable_dir",
]

BAD_INPUT = 2
"""Exit status for bad input (a usage error, a bad value, a path that cannot be used)."""


def one_line(message: object) -> str:
    """The message on one line (click and OS errors may span several)."""
    return " ".join(str(message).split())


def fail(message: str, code: int = BAD_INPUT) -> NoReturn:
    """Print ``error: message`` to stderr and leave with ``code``."""
    typer.echo(f"error: {one_line(message)}", err=True)
    raise typer.Exit(code)


def os_message(e: OSError) -> str:
    """``/etc/passwd: Not a directory`` rather than ``[Errno 20] …``."""
    what = e.strerror or type(e).__name__
    name = e.filename if e.filename is not None else ""
    return f"{name}: {what}" if name else str(what)


def writable_dir(path: Path, option: str) -> Path:
    """Make ``path`` (a records folder) and prove a file can be written there, or :func:`fail`.

    Checked before any game is played, so a match is never played into a folder
    that cannot keep its record.
    """
    if path.exists() and not path.is_dir():
        fail(f"{option} {path}: not a directory")
    try:
        path.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path, prefix=".paohuzi-check-"):
            pass
    except OSError as e:
        fail(f"{option} {path}: cannot write there ({e.strerror or type(e).__name__})")
    return path


def check_backend(backend: str) -> None:
    """``--backend``: a parallel backend (Ray installed for ``ray``), or :func:`fail`."""
    from ..parallel import BACKENDS

    if backend not in BACKENDS:
        fail(f"--backend {backend!r}: choose from {', '.join(BACKENDS)}")
    if backend == "ray" and importlib.util.find_spec("ray") is None:
        fail("--backend ray needs Ray: pip install 'paohuzi[ray]' (or use --backend process)")


def check_init(path: Path) -> None:
    """``--init``: weights the learned bot loads, for today's inputs; or :func:`fail`
    quoting the file (before any training starts)."""
    from ..bots.learned import Policy
    from ..bots.network import INPUTS

    try:
        p = Policy.load(path)
    except ValueError as e:
        fail(f"--init: {e}")
    if p.inputs != INPUTS:
        fail(f"--init {str(path)!r}: weights for {p.inputs} inputs, not {INPUTS}")


def cap_workers(workers: int, jobs: int) -> int:
    """No more processes than CPUs or jobs: extra ones only cost start-up time."""
    return max(1, min(workers, os.cpu_count() or 1, jobs))


def run(args: Sequence[str] | None = None) -> int:
    """Run the ``paohuzi`` command line; returns the exit status."""
    from .app import app

    argv = list(sys.argv[1:] if args is None else args)
    try:
        rv = app(args=argv, prog_name="paohuzi", standalone_mode=False)
    except typer.Exit as e:
        return int(getattr(e, "exit_code", 0) or 0)
    except _CLI_ERROR as e:
        ctx = getattr(e, "ctx", None)
        if type(e).__name__ == "NoArgsIsHelpError" and ctx is not None:
            typer.echo(ctx.get_help())
            return BAD_INPUT
        where = ctx.command_path if ctx is not None else "paohuzi"
        text = e.format_message() if hasattr(e, "format_message") else str(e)
        typer.echo(f"{where}: error: {one_line(text)}", err=True)
        return int(getattr(e, "exit_code", BAD_INPUT))
    except (typer.Abort, KeyboardInterrupt):
        typer.echo("paohuzi: interrupted", err=True)
        return 130
    except PaohuziError as e:
        typer.echo(f"paohuzi: error: {one_line(e)}", err=True)
        return BAD_INPUT
    except json.JSONDecodeError as e:
        typer.echo(f"paohuzi: error: not JSON: {one_line(e)}", err=True)
        return BAD_INPUT
    except OSError as e:
        typer.echo(f"paohuzi: error: {one_line(os_message(e))}", err=True)
        return BAD_INPUT
    except ValueError as e:
        typer.echo(f"paohuzi: error: {one_line(e)}", err=True)
        return BAD_INPUT
    return rv if isinstance(rv, int) else 0
