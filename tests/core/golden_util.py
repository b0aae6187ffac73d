"""Golden playthroughs: seeded random rounds written out as text, state by state."""

from __future__ import annotations

import difflib
import os
import random
from pathlib import Path

import pytest

from paohuzi.core.engine import new_game
from paohuzi.core.views import format_view, view

GOLDEN_SEEDS = (1, 2, 3, 17)
GOLDEN_DIR = Path(__file__).resolve().parents[1] / "golden"
UPDATE_ENV = "PAOHUZI_UPDATE_GOLDEN"


def check_golden(path: Path, text: str) -> None:
    """Fail unless ``path`` holds exactly ``text``.

    Goldens are written only on request (``PAOHUZI_UPDATE_GOLDEN=1``): a missing file
    is a failure, never silently created, so a lost golden cannot pass unnoticed.
    """
    if os.environ.get(UPDATE_ENV) == "1":
        path.write_text(text, encoding="utf-8")
        return
    how = f"{UPDATE_ENV}=1 python -m pytest tests/core/test_golden.py"
    if not path.exists():
        pytest.fail(f"golden file {path} is missing; write it with: {how}")
    want = path.read_text(encoding="utf-8")
    if text != want:
        diff = "".join(
            difflib.unified_diff(want.splitlines(True), text.splitlines(True), "golden", "now", n=2)
        )
        pytest.fail(f"{path.name} changed (if intended, rewrite it with: {how}):\n{diff[:4000]}")


def playthrough(seed: int) -> str:
    """Every decision point's spectator view and legal actions, the decision and its events."""
    rng = random.Random(seed)
    st = new_game(seed=seed)
    out = [f"# golden playthrough, seed {seed}, dealer {st.dealer}"]
    out += ["event: " + e.text() for e in st.log]
    step = 0
    while not st.over:
        out.append(f"--- decision {step}")
        out.append(format_view(view(st, None)))
        for seat in st.to_act():
            out.append(f"  seat {seat} may: " + ", ".join(a.text() for a in st.legal_moves(seat)))
        seat = st.to_act()[0]
        ids = st.legal_actions(seat)
        aid = ids[rng.randrange(len(ids))]
        out.append(f"  seat {seat} plays {st.action(seat, aid).text()}")
        for e in st.apply(seat, aid):
            out.append("event: " + e.text())
        step += 1
    out.append("--- final (everything revealed)")
    out.append(format_view(view(st, None)))
    return "\n".join(out) + "\n"
