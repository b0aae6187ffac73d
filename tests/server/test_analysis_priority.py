"""An analysis worker runs below the server's priority, so live tables keep their CPU
while a review runs (issue 31: the server stays responsive while an analysis runs)."""

from __future__ import annotations

import os

import pytest

from paohuzi.server.services.analysis import AnalysisPool, AnalysisSettings


def test_a_worker_is_niced_by_the_setting() -> None:
    base = os.nice(0)
    for nice in (10, 0):
        pool = AnalysisPool(AnalysisSettings(workers=1, queue=1, samples=4, nice=nice))
        try:
            assert pool._pool().submit(os.nice, 0).result(timeout=120) == min(19, base + nice)
        finally:
            assert pool.executor is not None
            pool.executor.shutdown()


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
