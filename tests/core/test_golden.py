"""Golden playthrough files: regenerate and diff (PAOHUZI_UPDATE_GOLDEN=1 rewrites them)."""

from __future__ import annotations

import difflib
import os
from pathlib import Path

import pytest

from .golden_util import GOLDEN_SEEDS, playthrough

GOLDEN = Path(__file__).resolve().parents[1] / "golden"


@pytest.mark.parametrize("seed", GOLDEN_SEEDS)
def test_golden_playthrough(seed: int) -> None:
    path = GOLDEN / f"playthrough-seed{seed}.txt"
    text = playthrough(seed)
    if os.environ.get("PAOHUZI_UPDATE_GOLDEN") or not path.exists():
        path.write_text(text, encoding="utf-8")
    want = path.read_text(encoding="utf-8")
    if text != want:
        diff = "".join(
            difflib.unified_diff(want.splitlines(True), text.splitlines(True), "golden", "now", n=2)
        )
        pytest.fail(f"playthrough for seed {seed} changed:\n{diff[:4000]}")
