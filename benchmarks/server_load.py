"""Load on ``paohuzi serve``: N rooms, three bot clients each, over real WebSockets.

The script starts the server itself (a subprocess on a free loopback port, a fresh
SQLite file unless ``--db`` names a database), seats three guest clients in each room
(``paohuzi.server.client``, the client ``paohuzi bot`` uses), starts the matches, lets
them play for a warm-up and then measures for ``--seconds``. A room whose match ends
starts another. Prints one JSON object:

- ``decisions_per_second``: intents acknowledged in the window (each one committed to
  the database before its ack), per second;
- ``p50_ms``/``p95_ms``/``p99_ms``/``max_ms``: from sending an intent to its ack;
- ``rounds``: rounds that started in the window; ``errors``: error messages and failed
  clients (``stale`` intents counted apart: ``stale_overtaken``, a claim whose window
  another seat's answer settled while it was in flight, the expected race, and
  ``stale_open``, refused while the seat's decision was still open: a fault, always 0);
  ``server_rss_mb``; ``server_cpu``/``clients_cpu``: CPU seconds per second.

``--quick`` (2 rooms, 3 s) is the smoke test's short form. ``--club``: every room is a
club's (docs/clubs.md): each room's first client creates a club and a template (standard
rules, ``--rounds``, no time limit), the other two join it by its invite link, and each
match's room is opened from the template by one of the three members in turn, who starts
it; everything else is as with plain rooms, so the two runs compare side by side (the
club's rounds are also written into its standings).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import subprocess
import sys
import tempfile
import time
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from paohuzi.server.process import ServerProcess, ServerStartError

SRC = Path(__file__).resolve().parents[1] / "src"


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def _start_server(db: str, log: Path) -> ServerProcess:
    srv = ServerProcess(db, log)
    try:
        srv.start()
    except ServerStartError as e:
        srv.stop()
        raise SystemExit(f"error: {e}") from None
    return srv


class _Window:
    """What the clients of one process saw while the window was open."""

    def __init__(self) -> None:
        self.open = False
        self.latencies: list[float] = []
        self.rounds = 0
        self.errors = 0
        self.overtaken = 0
        self.stale_open = 0
        self.codes: dict[str, int] = {}
        self.samples: list[str] = []  # a few error reasons, to tell what went wrong

    def ack(self, dt: float) -> None:
        if self.open:
            self.latencies.append(dt)

    def round(self, index: int) -> None:
        if self.open and index > 0:
            self.rounds += 1


async def _club(clients: list[Any], rounds: int) -> str:
    """A club of the three clients (the first its owner) with one template; the path that
    opens a room from it."""
    club = await clients[0].call("POST", "/clubs", {"name": "load"})
    for c in clients[1:]:
        await c.call("POST", f"/clubs/{club['id']}/join", {"key": club["invite_key"]})
    body = {"name": "load", "rules": {}, "rounds": rounds, "time_limit": None}
    template = await clients[0].call("POST", f"/clubs/{club['id']}/templates", body)
    return f"/clubs/{club['id']}/templates/{template['id']}/open"


async def _room_forever(
    base: str, args: Any, w: _Window, seed: int, started: asyncio.Event, setup: asyncio.Semaphore
) -> None:
    """Three clients in a room; a new room each time the match ends."""
    from paohuzi.bots import make_bot
    from paohuzi.server.client import SeatPlayer, ServerClient

    clients = [ServerClient(base, timeout=120) for _ in range(3)]
    try:
        async with setup:  # a few rooms at a time, so start-up does not swamp the server
            for i, c in enumerate(clients):
                await c.guest(f"load{seed}-{i}")
        opened = await _club(clients, args.rounds) if args.club else None
        n = 0
        while True:
            host = clients[n % 3] if opened else clients[0]
            async with setup:
                if opened:
                    code = str((await host.call("POST", opened))["code"])
                else:
                    code = await host.create_room(rounds=args.rounds)
                for c in clients:
                    await c.join(code)
            players = [
                SeatPlayer(
                    c.ws_url(code),
                    str(c.token),
                    make_bot(args.bot, seed * 7 + n * 3 + i),
                    on_ack=w.ack,
                    on_round=w.round if i == 0 else None,
                    batch=not args.no_batch,
                )
                for i, c in enumerate(clients)
            ]
            tasks = [asyncio.create_task(p.play()) for p in players]
            await host.start(code)
            started.set()
            if w.open:
                w.rounds += 1  # the new match's first round
            await asyncio.gather(*tasks)
            for p in players:
                w.errors += len(p.errors)
                w.overtaken += p.overtaken
                w.stale_open += p.stale_open
                for e in p.errors:
                    w.codes[str(e.get("code"))] = w.codes.get(str(e.get("code")), 0) + 1
                    if len(w.samples) < 3:
                        w.samples.append(f"{e.get('code')}: {e.get('reason')}"[:300])
            n += 1
    finally:
        for c in clients:
            await c.aclose()


async def _clients(base: str, rooms: list[int], args: Any, conn: Connection) -> None:
    w = _Window()
    started = [asyncio.Event() for _ in rooms]
    setup = asyncio.Semaphore(8)
    tasks = [
        asyncio.create_task(_room_forever(base, args, w, seed, ev, setup))
        for seed, ev in zip(rooms, started, strict=True)
    ]
    waits = [asyncio.create_task(ev.wait()) for ev in started]
    pending: set[asyncio.Task[Any]] = set(waits)
    while pending:  # every room is playing (or one failed), then the warm-up
        _, pending = await asyncio.wait(
            pending | {t for t in tasks if not t.done()}, return_when=asyncio.FIRST_COMPLETED
        )
        failed = [t for t in tasks if t.done()]
        if failed:
            conn.send(f"error: a room's clients failed: {failed[0].exception()!r}"[:500])
            return
        pending = {t for t in waits if not t.done()}
    await asyncio.sleep(args.warmup)
    conn.send("ready")
    await asyncio.to_thread(conn.recv)  # "go"
    w.open = True
    t0 = time.perf_counter()
    cpu0 = time.process_time()
    await asyncio.sleep(args.seconds)
    w.open = False
    wall = time.perf_counter() - t0
    failed = [t for t in tasks if t.done() and t.exception() is not None]
    conn.send(
        {
            "latencies": w.latencies,
            "rounds": w.rounds,
            "errors": w.errors + len(failed),
            "codes": w.codes,
            "overtaken": w.overtaken,
            "stale_open": w.stale_open,
            "failures": [repr(t.exception())[:300] for t in failed[:3]],
            "samples": w.samples,
            "cpu": (time.process_time() - cpu0) / wall,
        }
    )
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


def _client_main(base: str, rooms: list[int], args: Any, conn: Connection) -> None:
    sys.path.insert(0, str(SRC))
    run: Any = asyncio.run
    try:  # the clients share the cores with the server: the cheaper loop when there is one
        import uvloop

        run = uvloop.run
    except ImportError:
        pass
    run(_clients(base, rooms, args, conn))


def _py_spy() -> str:
    """py-spy from the running interpreter's environment, else from PATH."""
    here = Path(sys.executable).with_name("py-spy")
    return str(here) if here.exists() else "py-spy"


async def _start_analysis(base: str) -> dict[str, Any]:
    """A bot-only 8-round match played to its end, then its analysis (seat 0) asked for:
    it runs in the server's analysis pool while the window is measured."""
    from paohuzi.server.client import ServerClient

    c = ServerClient(base, timeout=120)
    try:
        await c.guest("analyst")
        code = await c.create_room(rounds=8)
        await c.add_bots(code, "heuristic")
        match_id = await c.start(code)
        while (await c.room(code))["status"] != "finished":
            await asyncio.sleep(0.5)
        await c.call("POST", f"/matches/{match_id}/analysis?seat=0")
        return {"match_id": match_id, "token": c.token}
    finally:
        await c.aclose()


async def _analysis_status(base: str, analysis: dict[str, Any]) -> str:
    from paohuzi.server.client import ServerClient

    c = ServerClient(base, token=analysis.pop("token"), timeout=30)
    try:
        out = await c.call("GET", f"/matches/{analysis['match_id']}/analysis?seat=0")
        return str(out["status"])
    finally:
        await c.aclose()


def _percentile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return 0.0
    i = min(len(sorted_values) - 1, max(0, round(q * (len(sorted_values) - 1))))
    return sorted_values[i]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rooms", type=int, default=10)
    ap.add_argument("--seconds", type=float, default=20)
    ap.add_argument("--db", help="SQLAlchemy URL (default: a new SQLite file)")
    ap.add_argument("--bot", default="random", help="random or heuristic")
    ap.add_argument("--procs", type=int, default=1, help="client processes")
    ap.add_argument("--warmup", type=float, default=3.0)
    ap.add_argument("--rounds", type=int, default=8, help="rounds per match")
    ap.add_argument("--profile", help="py-spy the server in the window: collapsed stacks here")
    ap.add_argument("--gil", action="store_true", help="with --profile: GIL holders only")
    ap.add_argument(
        "--no-batch",
        action="store_true",
        help="one message per frame (clients do not ask for batched frames)",
    )
    ap.add_argument(
        "--analysis",
        action="store_true",
        help="one 复盘 running on the server through the window (a bot match's, seat 0)",
    )
    ap.add_argument("--quick", action="store_true", help="2 rooms, 3 s (the smoke test)")
    ap.add_argument("--club", action="store_true", help="club rooms, opened from a template")
    ap.add_argument(
        "--workers",
        help="e.g. 1,2,3: several workers behind PostgreSQL and Redis, one run per count "
        "(runs benchmarks/cluster_load.py with --rooms, --seconds, --rounds, --db)",
    )
    args = ap.parse_args()
    if args.workers and args.club:
        raise SystemExit("error: --club runs on one worker (not with --workers)")
    if args.workers:
        cmd = [sys.executable, str(Path(__file__).with_name("cluster_load.py")),
               "--workers", args.workers, "--rooms", str(args.rooms),
               "--seconds", str(args.seconds), "--rounds", str(args.rounds)]  # fmt: skip
        if args.db:
            cmd += ["--db", args.db]
        if args.quick:
            cmd.append("--quick")
        raise SystemExit(subprocess.call(cmd))
    if args.quick:
        args.rooms, args.seconds, args.warmup = 2, 3.0, 1.0
    if args.rooms < 1 or args.seconds <= 0 or args.procs < 1:
        raise SystemExit("error: --rooms and --procs are at least 1, --seconds above 0")

    with tempfile.TemporaryDirectory(prefix="paohuzi-load-") as tmp:
        db = args.db or f"sqlite:///{Path(tmp) / 'load.db'}"
        srv = _start_server(db, Path(tmp) / "server.log")
        try:
            assert srv.proc is not None
            out = _measure(srv.proc, srv.http, db, args, Path(tmp) / "server.log")
        finally:
            srv.stop(15)
    print(json.dumps(out))


def _measure(
    server: subprocess.Popen[bytes], base: str, db: str, args: Any, log: Path
) -> dict[str, Any]:
    from sqlalchemy.engine import make_url

    ctx = mp.get_context("spawn")
    procs = min(args.procs, args.rooms)
    pipes, children = [], []
    for k in range(procs):
        here, there = ctx.Pipe()
        rooms = list(range(k, args.rooms, procs))
        p = ctx.Process(target=_client_main, args=(base, rooms, args, there), daemon=True)
        p.start()
        pipes.append(here)
        children.append(p)
    for c in pipes:
        said = c.recv() if c.poll(600) else "error: the rooms did not start within 600 s"
        if said != "ready":
            server.terminate()
            errors = [x for x in log.read_text(errors="replace").splitlines() if "Error" in x]
            raise SystemExit(f"{said}; the server's last errors: {errors[-3:]}")
    spy = None
    if args.profile:  # where the server's time goes (pip install py-spy)
        spy = subprocess.Popen(
            [_py_spy(), "record", "--format", "raw", "--rate", "200", "--nonblocking",
             *(["--gil"] if args.gil else []),
             "-d", str(int(args.seconds)), "-o", args.profile, "-p", str(server.pid)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
    import httpx

    analysis = asyncio.run(_start_analysis(base)) if args.analysis else None
    before = httpx.get(f"{base}/stats", timeout=30).json()["commits"]
    cpu0, t0 = cpu_seconds(server.pid), time.perf_counter()
    for c in pipes:
        c.send("go")
    results = [c.recv() for c in pipes]
    wall = time.perf_counter() - t0
    server_cpu_s = cpu_seconds(server.pid) - cpu0
    after = httpx.get(f"{base}/stats", timeout=30).json()["commits"]
    if analysis is not None:  # still running at the window's end: it ran all through it
        analysis["status_at_end"] = asyncio.run(_analysis_status(base, analysis))
    transactions = after["transactions"] - before["transactions"]
    writes = after["writes"] - before["writes"]
    server_cpu = server_cpu_s / wall
    rss = _rss_mb(server.pid)
    for p in children:
        p.join(10)
    if spy is not None:
        spy.wait(60)
    lat = sorted(x for r in results for x in r["latencies"])
    codes: dict[str, int] = {}
    for r in results:
        for k, v in r["codes"].items():
            codes[k] = codes.get(k, 0) + v
    return {
        "rooms": args.rooms,
        "seconds": args.seconds,
        "db": make_url(db).get_backend_name(),
        "bot": args.bot,
        "club": args.club,
        "batch": not args.no_batch,
        "client_processes": procs,
        "decisions": len(lat),
        "decisions_per_second": round(len(lat) / args.seconds, 1),
        "p50_ms": round(_percentile(lat, 0.50) * 1000, 2),
        "p95_ms": round(_percentile(lat, 0.95) * 1000, 2),
        "p99_ms": round(_percentile(lat, 0.99) * 1000, 2),
        "max_ms": round((lat[-1] if lat else 0.0) * 1000, 2),
        "rounds": sum(r["rounds"] for r in results),
        # "stale": an intent overtaken by another seat's decision, the expected race
        "errors": sum(r["errors"] for r in results) - codes.get("stale", 0),
        "stale": codes.get("stale", 0),
        "stale_overtaken": sum(r["overtaken"] for r in results),
        "stale_open": sum(r["stale_open"] for r in results),
        "error_codes": codes,
        "failures": [f for r in results for f in r["failures"]],
        "error_samples": [x for r in results for x in r["samples"]][:3],
        "transactions_per_second": round(transactions / wall, 1),
        "decisions_per_transaction": round(writes / transactions, 2) if transactions else 0.0,
        "server_cpu_ms_per_decision": round(server_cpu_s * 1000 / len(lat), 2) if lat else 0.0,
        "server_rss_mb": round(rss, 1),
        "server_cpu": round(server_cpu, 2),
        "clients_cpu": round(sum(r["cpu"] for r in results), 2),
        "cpus": os.cpu_count(),
        "analysis": analysis,  # --analysis: the match analysed and its status at the end
    }


if __name__ == "__main__":
    main()
