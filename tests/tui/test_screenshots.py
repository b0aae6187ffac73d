"""The docs/ screenshots are made by a command, at both sizes, of a real table."""

from __future__ import annotations

from pathlib import Path

from paohuzi.tui.screenshots import SIZES, main


def test_screenshots(tmp_path: Path) -> None:
    assert main([str(tmp_path)]) == 0
    for w, h in SIZES:
        svg = (tmp_path / f"table-{w}x{h}.svg").read_text(encoding="utf-8")
        assert svg.startswith("<svg") and f"{w}×{h}" in svg
        assert "桌面" in svg and "悟性" in svg  # the offer and the balances
    assert main([str(tmp_path / "missing")]) == 2
