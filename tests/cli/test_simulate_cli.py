"""``paohuzi simulate`` prints the statistics the issue names."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from paohuzi.cli.app import app
from paohuzi.core.record import loads, replay


def test_simulate_json(tmp_path: Path) -> None:
    r = CliRunner().invoke(
        app, ["simulate", "--games", "40", "--seed", "3", "--json", "--records", str(tmp_path)]
    )
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    for key in (
        "games",
        "games_per_second",
        "actions_per_second",
        "win_rate",
        "draw_rate",
        "mean_win_score",
        "mingtang",
    ):
        assert key in data
    assert data["games"] == 40
    assert abs(data["win_rate"] + data["draw_rate"] - 1) < 1e-9
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 40
    replay(loads(files[0].read_text(encoding="utf-8")))


def test_simulate_text() -> None:
    r = CliRunner().invoke(app, ["simulate", "--games", "10"])
    assert r.exit_code == 0, r.output
    assert "games/second" in r.output and "荒庄" in r.output


def test_simulate_rejects_bad_count() -> None:
    r = CliRunner().invoke(app, ["simulate", "--games", "0"])
    assert r.exit_code == 2
