"""Load on several ``paohuzi serve --redis`` workers sharing one PostgreSQL and one Redis.

For each worker count in ``--workers`` (e.g. ``1,2,3``) the script starts that many
workers on a fresh PostgreSQL database, seats three guest clients in each of ``--rooms``
rooms over real WebSockets, spreading each room's seats over the workers (seat i of room r
talks to worker (r + i) mod n; the room is started, and so owned, by worker r mod n), lets
them play random legal moves for a warm-up and then measures for ``--seconds``. Prints one
JSON object with ``results`` by worker count:

- ``decisions_per_second``: intents acknowledged in the window (each one committed to
  PostgreSQL, fenced by its lease epoch, before its ack), per second;
- ``p50_ms``/``p99_ms``: from sending an intent to its ack;
- ``errors``: error messages and failed clients;
- ``workers_cpu``: the workers' CPU seconds per second, all together, and
  ``cpu_ms_per_decision``: the workers' CPU per committed decision (what a larger machine
  would divide its cores by; PostgreSQL's and Redis's own CPU is not in it).

Without ``--db``/``--redis`` it starts a throwaway PostgreSQL and Redis itself
(tools/throwaway-postgres, tools/throwaway-redis). ``--quick``: 2 rooms, 2 s, and only
the first worker count (2 unless ``--workers`` says).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import subprocess
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from paohuzi.server.process import ServerProcess, ServerStartError
from server_load import cpu_seconds  # benchmarks/ is on a script's path

ROOT = Path(__file__).resolve().parents[1]


def _start_workers(n: int, db: str, redis: str, logdir: Path) -> list[ServerProcess]:
    workers = [ServerProcess(db, logdir / f"worker{n}-{i}.log", args=["--redis", redis])
               for i in range(n)]  # fmt: skip
    try:
        workers[0].start(90, "/ready")  # migrates the database; the others start side by side
        for w in workers[1:]:
            w.launch()
        for w in workers[1:]:
            w.wait_ready(90, "/ready")
    except ServerStartError as e:
        for w in workers:
            w.stop()
        raise SystemExit(f"error: a worker: {e}") from None
    return workers


async def _seat(
    addr: str, code: str, token: str, stats: dict[str, Any], stop: asyncio.Event
) -> None:

    rng = random.Random(token)
    sent: dict[str, float] = {}
    acted: int | None = None
    while not stop.is_set():  # a socket closed (1012: its table moved) reconnects
        if await _connect(addr, code, token, stats, stop, rng, sent, acted):
            return
        stats["reconnects"] += 1
        await asyncio.sleep(0.1)


async def _connect(
    addr: str,
    code: str,
    token: str,
    stats: dict[str, Any],
    stop: asyncio.Event,
    rng: random.Random,
    sent: dict[str, float],
    acted: int | None,
) -> bool:
    import websockets

    try:
        async with websockets.connect(f"ws://{addr}/ws/{code}") as ws:
            await ws.send(json.dumps({"type": "auth", "token": token}))
            seat: int | None = None
            readied: int | None = None
            while not stop.is_set():
                try:
                    text = await asyncio.wait_for(ws.recv(), 1)
                except TimeoutError:
                    continue
                m = json.loads(text)
                t = m["type"]
                if t == "ack":
                    t0 = sent.pop(m["client_id"], None)
                    if t0 is not None and stats["measuring"]:
                        stats["lat"].append(time.perf_counter() - t0)
                        stats["acks"] += 1
                elif t == "error":
                    stats["errors"] += 1
                    codes = stats["error_codes"]
                    codes[m["code"]] = codes.get(m["code"], 0) + 1
                    sent.pop(m.get("client_id") or "", None)
                elif t == "match_over":
                    return True
                if t == "snapshot":
                    seat = m["seat"]
                if t in ("snapshot", "readiness"):  # 准备 at once between rounds
                    wait = m.get("ready") if t == "snapshot" else m
                    waiting = wait is not None and seat is not None and not wait["ready"][seat]
                    if waiting and readied != wait["round"]:  # once per wait
                        readied = wait["round"]
                        await ws.send(json.dumps({"type": "ready"}))
                if t in ("snapshot", "prompt") and m["legal"] and m["since"] != acted:
                    acted = m["since"]
                    cid = f"c{acted}"
                    ids = [a["id"] for a in m["legal"]]
                    aid = 21 if 21 in ids else rng.choice(ids)
                    sent[cid] = time.perf_counter()
                    act = {"type": "act", "action": aid, "step": m["step"], "client_id": cid}
                    await ws.send(json.dumps(act))
    except websockets.ConnectionClosed:
        return False
    except Exception as e:
        stats["errors"] += 1
        codes = stats["error_codes"]
        codes[type(e).__name__] = codes.get(type(e).__name__, 0) + 1
    return stop.is_set()


def _room(addr: str, rounds: int) -> tuple[str, list[str]]:
    import httpx

    base = f"http://{addr}"
    tokens = [
        httpx.post(f"{base}/accounts/guest", json={"nickname": f"p{i}"}).json()["token"]
        for i in range(3)
    ]
    h = {"Authorization": f"Bearer {tokens[0]}"}
    code = httpx.post(f"{base}/rooms", json={"rounds": rounds}, headers=h).json()["code"]
    for i, t in enumerate(tokens):
        r = httpx.post(f"{base}/rooms/{code}/join", json={"seat": i},
                       headers={"Authorization": f"Bearer {t}"})  # fmt: skip
        assert r.status_code == 200, r.text
    return code, tokens


async def _load(addrs: list[str], args: Any) -> dict[str, Any]:
    n = len(addrs)
    stats: dict[str, Any] = {
        "lat": [],
        "acks": 0,
        "errors": 0,
        "error_codes": {},
        "reconnects": 0,
        "measuring": False,
    }
    stop = asyncio.Event()
    tasks = []
    import httpx

    for r in range(args.rooms):
        owner = addrs[r % n]
        code, tokens = await asyncio.to_thread(_room, owner, args.rounds)
        for i, t in enumerate(tokens):
            tasks.append(asyncio.create_task(_seat(addrs[(r + i) % n], code, t, stats, stop)))
        await asyncio.sleep(0.05)
        h = {"Authorization": f"Bearer {tokens[0]}"}
        r_ = await asyncio.to_thread(httpx.post, f"http://{owner}/rooms/{code}/start", headers=h)
        assert r_.status_code == 200, r_.text
    await asyncio.sleep(args.warmup)
    stats["measuring"] = True
    t0 = time.perf_counter()
    await asyncio.sleep(args.seconds)
    stats["measuring"] = False
    elapsed = time.perf_counter() - t0
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    stats["elapsed"] = elapsed
    return stats


def _pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    s = sorted(values)
    return round(1000 * s[min(len(s) - 1, int(q * len(s)))], 1)


def _run(n: int, base_db: str, redis: str, args: Any, logdir: Path) -> dict[str, Any]:
    import psycopg
    import redis as redis_lib
    from sqlalchemy.engine import make_url

    url = make_url(base_db)
    name = f"bench_{uuid.uuid4().hex[:12]}"
    admin = url.set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(admin, autocommit=True) as c:
        c.execute(f'CREATE DATABASE "{name}"')
    db = url.set(database=name, drivername="postgresql+psycopg").render_as_string(False)
    redis_lib.Redis.from_url(redis).flushdb()
    workers = _start_workers(n, db, redis, logdir)
    try:
        pids = [w.proc.pid for w in workers if w.proc is not None]
        cpu0 = [cpu_seconds(p) for p in pids]
        w0 = time.perf_counter()
        stats = asyncio.run(_load([f"127.0.0.1:{w.port}" for w in workers], args))
        wall = time.perf_counter() - w0
        cpu = sum(cpu_seconds(p) - c for p, c in zip(pids, cpu0, strict=True))
    finally:
        for w in workers:
            w.stop(15)
        with psycopg.connect(admin, autocommit=True) as c:
            c.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    dps = stats["acks"] / stats["elapsed"]
    workers_cpu = cpu / wall  # over the whole run: set-up, warm-up and window
    return {
        "workers": n,
        "decisions_per_second": round(dps, 1),
        "p50_ms": _pct(stats["lat"], 0.50),
        "p99_ms": _pct(stats["lat"], 0.99),
        "errors": stats["errors"],
        "error_codes": stats["error_codes"],
        "reconnects": stats["reconnects"],
        "workers_cpu": round(workers_cpu, 2),
        "cpu_ms_per_decision": round(1000 * workers_cpu / dps, 2) if dps else None,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", help="worker counts to measure (default 1,2,3; quick: 2)")
    ap.add_argument("--rooms", type=int, default=30)
    ap.add_argument("--seconds", type=float, default=10)
    ap.add_argument("--warmup", type=float, default=2)
    ap.add_argument("--rounds", type=int, default=8, help="rounds per match")
    ap.add_argument(
        "--db",
        default=os.environ.get("PAOHUZI_TEST_PG_URL") or None,
        help="postgresql+psycopg:// URL of a server, where a database is made "
        "(default: $PAOHUZI_TEST_PG_URL, else a throwaway PostgreSQL)",
    )
    ap.add_argument(
        "--redis",
        default=os.environ.get("PAOHUZI_TEST_REDIS_URL") or None,
        help="redis:// URL, flushed (default: $PAOHUZI_TEST_REDIS_URL, else a throwaway Redis)",
    )
    ap.add_argument(
        "--quick", action="store_true", help="2 rooms, 2 s, one worker count (smoke test)"
    )
    args = ap.parse_args()
    if args.quick:
        args.rooms, args.seconds, args.warmup = 2, 2.0, 0.5
    counts = [int(x) for x in (args.workers or ("2" if args.quick else "1,2,3")).split(",")]
    if args.quick:
        counts = counts[:1]
    with tempfile.TemporaryDirectory(prefix="paohuzi-cluster-load-") as tmp:
        os.chmod(tmp, 0o755)  # PostgreSQL runs as its own user when we are root
        stack = contextlib.ExitStack()
        with stack:
            db, redis = args.db, args.redis
            if db is None:
                d = Path(tmp) / "pg"
                db = _tool("throwaway-postgres", d)
                stack.callback(subprocess.run, [ROOT / "tools/throwaway-postgres", "stop", d])
            if redis is None:
                d = Path(tmp) / "redis"
                redis = _tool("throwaway-redis", d)
                stack.callback(subprocess.run, [ROOT / "tools/throwaway-redis", "stop", d])
            results = {str(n): _run(n, db, redis, args, Path(tmp)) for n in counts}
    print(json.dumps({"rooms": args.rooms, "seconds": args.seconds, "db": "postgresql",
                      "cores": os.cpu_count(), "results": results}))  # fmt: skip


def _tool(name: str, d: Path) -> str:
    out = subprocess.run([ROOT / "tools" / name, "start", d], capture_output=True, check=False)
    if out.returncode != 0:
        raise SystemExit(f"tools/{name} failed: {out.stderr.decode()[-2000:]}")
    return out.stdout.decode().strip()


if __name__ == "__main__":
    main()
