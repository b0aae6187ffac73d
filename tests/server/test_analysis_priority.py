"""An analysis worker runs below the server's priority, so live tables keep their CPU
while a review runs (issue 31: the server stays responsive while an analysis runs)."""

from __future__ import annotations

import asyncio
import os
import time

import pytest

from paohuzi.core.engine import new_game
from paohuzi.core.rules import HONG_GUAI_WAN
from paohuzi.core.views import view
from paohuzi.server.errors import ApiError
from paohuzi.server.services.analysis import AnalysisPool, AnalysisSettings


def test_a_worker_is_niced_by_the_setting() -> None:
    base = os.nice(0)
    for nice in (10, 0):
        pool = AnalysisPool(AnalysisSettings(workers=1, queue=1, samples=4, nice=nice))
        try:
            for kind in ("review", "hint"):
                got = pool._pool(kind).submit(os.nice, 0).result(timeout=120)
                assert got == min(19, base + nice)
        finally:
            pool.close()


def test_a_hint_never_waits_behind_a_review() -> None:
    """The 提示 has its own worker: with the review worker busy for a minute and its
    queue full, a hint is still answered at once (a player's clock is 15 s)."""
    pool = AnalysisPool(AnalysisSettings(workers=1, queue=0, samples=4, nice=0))
    try:
        pool.warm_hints()
        busy = pool._pool("review").submit(time.sleep, 60)
        pool.reserved.add((1, 0))  # the review worker's one place is taken
        with pytest.raises(ApiError, match="analysis workers are busy"):
            pool.check_room()
        st = new_game(HONG_GUAI_WAN, seed=11, dealer=1)
        t0 = time.monotonic()
        out = asyncio.run(pool.hint(view(st, 1), HONG_GUAI_WAN, 0))
        assert time.monotonic() - t0 < 30 and not busy.done()
        assert out["worlds"] == 8 and len(out["options"]) >= 2  # two batches of 4
        pool.hints = 1  # one hint under way fills the hint worker (queue 0): the next waits
        with pytest.raises(ApiError, match="hint workers are busy"):
            asyncio.run(pool.hint(view(st, 1), HONG_GUAI_WAN, 0))
    finally:
        pool.reserved.clear()
        pool.close()


@pytest.mark.parametrize("raw", ["-1", "20", "ten", "1.5", "+3"])
def test_a_bad_niceness_is_refused_quoting_it(raw: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PAOHUZI_ANALYSIS_NICE", raw)
    with pytest.raises(ValueError, match=f"PAOHUZI_ANALYSIS_NICE .*{raw!r}".replace("+", r"\+")):
        AnalysisSettings.from_env()


def test_the_niceness_defaults_to_ten_and_reads_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("PAOHUZI_ANALYSIS_NICE", raising=False)
    assert AnalysisSettings.from_env().nice == 10
    monkeypatch.setenv("PAOHUZI_ANALYSIS_NICE", "0")
    assert AnalysisSettings.from_env().nice == 0
