"""The serving process's garbage: freed by reference counting, not by full collections.

Under load a full collection paused every socket for 100-250 ms every two seconds or so
(the load benchmark's p99). Two reasons, each tested here: closed sockets and finished
tables left reference cycles behind (only a full collection frees a cycle, and with it
everything the cycle holds: a whole match), and the collector's defaults promoted
short-lived objects to the oldest generation, triggering full collections.
"""

from __future__ import annotations

import gc
import subprocess
import sys
import time
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from fastapi.testclient import TestClient

from paohuzi.server import GC_THRESHOLDS
from paohuzi.server.app import create_app

SRC = Path(__file__).resolve().parents[2] / "src"


@contextmanager
def _no_collector() -> Iterator[None]:
    """The cyclic collector off (reference counting alone frees what is freed)."""
    was = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _freed(ref: weakref.ref[object], also: Callable[[], bool] = lambda: True) -> bool:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if ref() is None and also():
            return True
        time.sleep(0.02)
    return False


def _room(c: TestClient, seated: bool) -> tuple[dict[str, str], str]:
    """A one-round room of random bots, its host in seat 0 if ``seated``."""
    tok = c.post("/accounts/guest", json={"nickname": "gc"}).json()["token"]
    h = {"Authorization": f"Bearer {tok}"}
    code = c.post("/rooms", json={"rounds": 1}, headers=h).json()["code"]
    if seated:
        assert c.post(f"/rooms/{code}/join", json={"seat": 0}, headers=h).status_code == 200
    assert c.post(f"/rooms/{code}/bots", json={"bot": "random"}, headers=h).status_code == 200
    return h, code


def test_a_closed_socket_and_a_finished_table_need_no_collection(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'gc.db'}")
    hub = app.state.hub
    with TestClient(app) as c:
        # A seated socket at a live table: once closed, nothing keeps its Connection.
        h, code = _room(c, seated=True)
        assert c.post(f"/rooms/{code}/start", headers=h).status_code == 200
        table = hub.tables[code]
        with _no_collector():
            with c.websocket_connect(f"/ws/{code}") as ws:
                ws.send_json({"type": "auth", "token": h["Authorization"][7:]})
                assert ws.receive_json()["type"] in ("snapshot", "hello", "state")
                deadline = time.monotonic() + 10
                while not any(table.conns[:3]) and time.monotonic() < deadline:
                    time.sleep(0.01)
                (conn,) = [x for s in table.conns for x in s]
                ref = weakref.ref(conn)
                del conn
            assert _freed(ref, lambda: not any(table.conns)), "the socket's Connection lives on"

        # A match of three bots: once it ends and the hub forgets it, nothing keeps it.
        h, code = _room(c, seated=False)
        with _no_collector():
            assert c.post(f"/rooms/{code}/start", headers=h).status_code == 200
            tref = weakref.ref(hub.tables[code])
            assert _freed(tref, lambda: code not in hub.tables), "the finished table lives on"


def test_the_server_process_tunes_its_collector() -> None:
    """What ``run`` and ``app_from_env`` call once the app is built (in a subprocess:
    freezing this test process's objects would change the other tests)."""
    code = (
        "import gc; from paohuzi.server import tune_gc; tune_gc(); "
        "print(gc.get_threshold(), gc.get_freeze_count() > 10_000)"
    )
    out = subprocess.run(
        [sys.executable, "-c", "import paohuzi.server.app\n" + code],
        capture_output=True, text=True, check=True, env={"PYTHONPATH": str(SRC)}, timeout=60,
    ).stdout.split("\n")[0]  # fmt: skip
    assert out == f"{GC_THRESHOLDS} True"
