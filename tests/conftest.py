"""Suite-wide: fuzz tests report how many inputs they tried, in the run's summary."""

from __future__ import annotations

from typing import Any

_TRIED: dict[str, str] = {}


def pytest_runtest_logreport(report: Any) -> None:
    """Collect ``record_property("inputs_tried", ...)`` (from xdist workers too)."""
    if report.when == "call":
        for k, v in report.user_properties:
            if k == "inputs_tried":
                _TRIED[report.nodeid] = str(v)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """One line per fuzz test: what it tried."""
    if _TRIED:
        terminalreporter.section("fuzz inputs tried")
        for nodeid, text in _TRIED.items():
            terminalreporter.write_line(f"{nodeid}: {text}")
