"""``server_load.py`` on two source trees, alternating, in one run: A against B.

A machine's speed drifts (up to 2x on a shared one), so a change is measured against its
baseline run beside it, turn by turn, never against a figure from another hour. Each
turn runs this checkout's ``server_load.py`` once per database and side, the server and
its clients importing the side's tree (``PYTHONPATH``: each side speaks its own protocol); on
PostgreSQL each run gets a new database on the server ``--pg`` names, dropped after.
Prints one JSON line per run, then one with each side's medians per database:

    python tools/server_load_ab.py --a /path/to/main/src --reps 3 \\
        --pg postgresql+psycopg://postgres@127.0.0.1:5432/postgres -- --rooms 100 --seconds 30
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent / "benchmarks"  # where server_load.py is
KEYS = ("decisions_per_second", "p50_ms", "p95_ms", "p99_ms", "max_ms", "errors",
        "transactions_per_second", "decisions_per_transaction", "server_cpu_ms_per_decision",
        "server_cpu")  # fmt: skip


@contextlib.contextmanager
def _database(kind: str, pg: str | None) -> Iterator[str | None]:
    """None (server_load.py's own new SQLite file), or a new PostgreSQL database's URL."""
    if kind == "sqlite":
        yield None
        return
    import psycopg
    from sqlalchemy.engine import make_url

    assert pg is not None
    url = make_url(pg)
    admin = url.set(drivername="postgresql").render_as_string(hide_password=False)
    name = f"load_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield url.set(database=name, drivername="postgresql+psycopg").render_as_string(
            hide_password=False
        )
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _run(src: str, db: str | None, load_args: list[str]) -> dict[str, Any]:
    """One ``server_load.py`` run with the server importing ``src``; its JSON."""
    cmd = [sys.executable, str(HERE / "server_load.py"), *load_args]
    if db is not None:
        cmd += ["--db", db]
    env = {**os.environ, "PYTHONPATH": src}
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    lines = out.stdout.strip().splitlines()
    if out.returncode != 0 or not lines:
        return {"failed": (out.stdout + out.stderr)[-500:]}
    result: dict[str, Any] = json.loads(lines[-1])
    return result


def _medians(runs: list[dict[str, Any]]) -> dict[str, float]:
    ok = [r for r in runs if "failed" not in r]
    return {k: round(statistics.median(r[k] for r in ok), 2) for k in KEYS} if ok else {}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--a", required=True, help="the baseline's src folder (e.g. main's)")
    ap.add_argument("--b", default=str(HERE.parent / "src"), help="default: this checkout's")
    ap.add_argument("--reps", type=int, default=2, help="turns (each: every db, A then B)")
    ap.add_argument("--pg", help="a PostgreSQL server's URL: runs there too")
    ap.add_argument("--no-sqlite", action="store_true", help="PostgreSQL only")
    ap.add_argument("load_args", nargs="*", help="after --: server_load.py's options")
    args = ap.parse_args()
    kinds = ([] if args.no_sqlite else ["sqlite"]) + (["postgresql"] if args.pg else [])
    if not kinds:
        raise SystemExit("error: nothing to run (--no-sqlite without --pg)")
    runs: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for turn in range(args.reps):
        for kind in kinds:
            for side, src in (("A", args.a), ("B", args.b)):
                with _database(kind, args.pg) as db:
                    r = _run(src, db, args.load_args)
                runs.setdefault((kind, side), []).append(r)
                line = {"turn": turn, "db": kind, "side": side, "load": os.getloadavg()[0]}
                print(json.dumps(line | {k: r[k] for k in (*KEYS, "failed") if k in r}), flush=True)
    medians = {f"{kind} {side}": _medians(r) for (kind, side), r in runs.items()}
    print(json.dumps({"a": args.a, "b": args.b, "medians": medians}), flush=True)


if __name__ == "__main__":
    main()
