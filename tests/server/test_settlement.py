"""A round's settlement runs statements built once (``persist._settle_statements``,
``standings._record_statement``): reused round after round, each writes its own values."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from paohuzi.server import persist, standings
from paohuzi.server.db import upgrade

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "settlement.py"


def test_the_statements_are_built_once_per_shape() -> None:
    assert persist._settle_statements(3) is persist._settle_statements(3)
    assert persist._settle_statements(1) is not persist._settle_statements(3)
    assert standings._record_statement(3) is standings._record_statement(3)


def _bench(url: str, *extra: str) -> dict[str, object]:
    r = subprocess.run(
        [sys.executable, str(BENCH), "--rounds", "40", "--db", url, *extra],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert r.returncode == 0, r.stderr[-2000:]
    out: dict[str, object] = json.loads(r.stdout)
    return out


def test_forty_settlements_each_write_their_own_values(db_url: str) -> None:
    # The benchmark checks its own rows (a ledger summing to zero, three rows a round,
    # the balances moved by each round's deltas, a club's results three a round) and
    # exits non-zero otherwise; run here on the test database of each backend.
    upgrade(db_url)
    club = _bench(db_url)
    assert (club["ledger_sum"], club["ledger_rows"], club["club_results"]) == (0, 120, 120)
    plain = _bench(db_url, "--no-club")
    assert (plain["ledger_rows"], plain["club_results"]) == (120, 0)
    assert club["balances"] == plain["balances"]  # the same deltas, the same balances
