"""``paohuzi serve`` starts quietly: the address to open is its first line, and the
libraries' INFO lines (Alembic's migration steps, uvicorn's) appear only with --verbose."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from paohuzi.server.process import ServerProcess


def _start_output(tmp_path: Path, *args: str) -> list[str]:
    server = ServerProcess(tmp_path / "server.db", tmp_path / "serve.log", args=args)
    try:
        server.start()
    finally:
        server.stop()
    return server.log.read_text(encoding="utf-8").splitlines()


def test_first_line_is_the_url_and_no_library_info(tmp_path: Path) -> None:
    lines = _start_output(tmp_path)
    assert lines[0].startswith("paohuzi: open http://127.0.0.1:") and lines[0].endswith(
        "/ in a browser to play"
    ), lines
    assert not [ln for ln in lines if "alembic" in ln.lower()], lines
    assert not [ln for ln in lines if " INFO uvicorn" in ln], lines
    assert any("paohuzi.server ready" in ln for ln in lines), lines  # its own short log
    assert len(lines) <= 4, lines


def test_verbose_shows_the_libraries_lines(tmp_path: Path) -> None:
    lines = _start_output(tmp_path, "--verbose")
    assert lines[0].startswith("paohuzi: open http://"), lines
    assert any("INFO alembic.runtime.migration Running upgrade" in ln for ln in lines), lines
    assert any(" INFO uvicorn" in ln for ln in lines), lines
