"""The ``paohuzi`` command line (typer)."""

from __future__ import annotations

import sys


def main() -> None:
    """The console script: every error is one line on stderr, never a traceback."""
    from .errors import run

    sys.exit(run())
