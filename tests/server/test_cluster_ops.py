"""Several workers as an operator starts them: ``paohuzi serve --workers 2`` (one port, the
kernel spreading the sockets) plays a room to its end and stops every worker, and the
README's cluster block runs as written.

Needs ``$PAOHUZI_TEST_PG_URL`` and ``$PAOHUZI_TEST_REDIS_URL`` like test_cluster.py.
"""

from __future__ import annotations

import asyncio
import json
import os
import shlex
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from paohuzi.server.process import ServerProcess, free_port

from ..docblocks import marked
from .conftest import Player, check_ledger, guest, join, replayed, room, seat_events, start
from .pg import pg_database
from .redisdb import redis_database
from .steps import decided

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def _group(pgid: int) -> set[int]:
    """The live processes of a process group (Linux /proc)."""
    out = set()
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                fields = (d / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == pgid and fields[0] != "Z":
                out.add(int(d.name))
    return out


def _gone(pgid: int, timeout: float = 10) -> None:
    """Wait until no process of the group is left (a worker or multiprocessing's resource
    tracker may take a moment after the supervisor); fail naming those still there."""
    deadline = time.monotonic() + timeout
    while left := _group(pgid):
        if time.monotonic() > deadline:
            names = {p: Path(f"/proc/{p}/cmdline").read_bytes().replace(b"\0", b" ")[:200]
                     for p in left if Path(f"/proc/{p}").exists()}  # fmt: skip
            raise AssertionError(f"processes of the server left behind: {names}")
        time.sleep(0.05)


def _alive_workers(redis_url: str) -> list[str]:
    """The workers that joined the cluster on this Redis (their heartbeat keys)."""
    import redis

    with redis.Redis.from_url(redis_url, decode_responses=True) as r:
        return sorted(str(k) for k in r.scan_iter("phz:alive:*"))


def _wait(cond: object, what: str, srv: ServerProcess, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not callable(cond) or not cond():
        assert time.monotonic() < deadline, f"{what}; the server's output:\n{srv.output_tail()}"
        time.sleep(0.1)


async def test_serve_workers_2_plays_a_room_and_stops_every_worker(tmp_path: Path) -> None:
    with redis_database() as redis_url, pg_database() as db:
        srv = ServerProcess(db, tmp_path / "w.log", args=["--workers", "2", "--redis", redis_url])
        try:
            await asyncio.to_thread(srv.start, 90, "/ready")
            _wait(lambda: len(_alive_workers(redis_url)) == 2, "two workers did not join", srv)
            assert srv.proc is not None
            group = _group(srv.proc.pid)
            assert len(group - {srv.proc.pid}) >= 2, group  # the supervisor and its workers
            tokens = [guest(srv, f"p{i}") for i in range(3)]
            code = room(srv, tokens[0], rounds=1)
            for i, t in enumerate(tokens):
                assert join(srv, code, t, i) == i
            players = [Player(srv, code, t, seed=20 + i) for i, t in enumerate(tokens)]
            tasks = [asyncio.create_task(p.play()) for p in players]
            await asyncio.sleep(0.3)  # the sockets wait for the start, on either worker
            match_id = await asyncio.to_thread(start, srv, code, tokens[0])
            try:
                await asyncio.wait_for(asyncio.gather(*tasks), 90)
            except TimeoutError:
                raise AssertionError(srv.output_tail(4000)) from None
            record, states = replayed(srv, match_id)
            assert len(states) == 1 and all(st.over for st in states)
            flat = [(a.seat, a.id) for rnd in record.rounds for a in rnd.actions]
            acks = {p.seat: decided(states, p.seat, p.acks) for p in players if p.seat is not None}
            for p in players:
                assert p.seat is not None
                assert p.events == seat_events(states, p.seat)  # an uninterrupted replay's
                for decision, aid in acks[p.seat]:
                    assert flat[decision - 1] == (p.seat, aid)  # nothing acknowledged lost
            assert sorted(d for a in acks.values() for d, _ in a) == list(range(1, len(flat) + 1))
            check_ledger(srv, code, match_id, states)
        finally:
            status = await asyncio.to_thread(srv.stop, 20)
        # SIGTERM to the supervisor stopped every worker, each gracefully: no process of
        # the group is left and each handed back its place in the cluster.
        assert status in (0, -15), status
        _gone(srv.proc.pid)
        assert _alive_workers(redis_url) == []
        joined = [
            line for line in srv.output_tail(100_000).splitlines() if "joined the cluster" in line
        ]
        assert len(joined) == 2, joined


# The README's block names fixed addresses; the test runs it against the test services
# and free ports, replacing exactly these strings (each must be in the block).
README_DB = "postgresql+psycopg://postgres@127.0.0.1:5432/paohuzi"
README_REDIS = "redis://127.0.0.1:6379/0"
README_PORTS = ("8001", "8002")


@pytest.mark.slow
def test_readme_cluster_block_runs_as_written(tmp_path: Path) -> None:
    lines = [line for line in marked("cluster-command").splitlines() if line.strip()]
    serve = [line for line in lines if " serve " in line]
    bench = [line for line in lines if "benchmarks/" in line]
    assert len(serve) == 2 and len(bench) == 1 and len(lines) == 3, lines
    with redis_database() as redis_url, redis_database() as bench_redis, pg_database() as db:
        # The measurement line, in its short form (as test_docs_commands.py runs benchmarks), on
        # the test PostgreSQL and a Redis database of its own: cluster_load.py takes them
        # from $PAOHUZI_TEST_PG_URL / $PAOHUZI_TEST_REDIS_URL. It runs beside the workers.
        cmd = bench[0].replace(".venv/bin/", f"{BIN}/") + " --quick"
        path = os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")])
        env = {**os.environ, "PAOHUZI_TEST_REDIS_URL": bench_redis, "PYTHONPATH": path}
        measuring = subprocess.Popen(["bash", "-c", cmd], cwd=ROOT, env=env, text=True,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)  # fmt: skip
        workers = []
        for line, port in zip(serve, README_PORTS, strict=True):
            assert README_DB in line and README_REDIS in line and f"--port {port}" in line, line
            mine = free_port()
            cmd = (
                line.replace(".venv/bin/", f"{BIN}/")
                .replace(README_DB, db)
                .replace(README_REDIS, redis_url)
                .replace(f"--port {port}", f"--port {mine}")
            )
            workers.append(ServerProcess(db, tmp_path / f"{port}.log", port=mine,
                                         cmd=shlex.split(cmd)))  # fmt: skip
        try:
            workers[0].start(90)  # migrates the database; then the second
            workers[1].start(90)
            for w in workers:
                assert httpx.get(f"{w.http}/health").json() == {"ok": True}
                ready = httpx.get(f"{w.http}/ready")
                assert (ready.status_code, ready.json()) == (200, {"ready": True}), ready.text
                assert "paohuzi_rooms 0.0" in httpx.get(f"{w.http}/metrics").text
            assert len(_alive_workers(redis_url)) == 2  # one cluster of two
        finally:
            for w in workers:
                w.stop()
            try:
                stdout, stderr = measuring.communicate(timeout=300)
            finally:
                measuring.kill()
        assert measuring.returncode == 0, f"{bench[0]}\n{stdout[-2000:]}\n{stderr[-3000:]}"
        out = json.loads(stdout)
        (only,) = out["results"].values()  # --quick: the first worker count, 1
        assert only["workers"] == 1 and only["decisions_per_second"] > 0, out
        assert only["errors"] == only["error_codes"].get("stale", 0), out
