"""Which build of the core runs: pure Python, or compiled by mypyc."""

from __future__ import annotations

import os

import pytest

from paohuzi.core import COMPILED, state


def test_compiled_flag_matches_the_modules() -> None:
    assert isinstance(COMPILED, bool)
    assert (not str(state.__file__).endswith(".py")) == COMPILED


@pytest.mark.skipif("PAOHUZI_EXPECT_COMPILED" not in os.environ, reason="set by CI's runs")
def test_the_expected_build_runs() -> None:
    """CI runs the suite on each build and says which it means to test."""
    assert (os.environ["PAOHUZI_EXPECT_COMPILED"] == "1") == COMPILED
