"""The ``paohuzi`` command line (typer)."""

from __future__ import annotations


def main() -> None:
    from .app import app

    app()
