from __future__ import annotations

from typer.testing import CliRunner

from paohuzi import __version__
from paohuzi.cli.app import app
from paohuzi.core import COMPILED


def test_version_names_the_build() -> None:
    r = CliRunner().invoke(app, ["--version"])
    assert r.exit_code == 0
    build = "compiled" if COMPILED else "pure Python"
    assert r.output == f"paohuzi {__version__} ({build} core)\n"
