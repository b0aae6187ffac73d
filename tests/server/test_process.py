"""paohuzi.server.process: the one launcher of ``paohuzi serve`` (tests, benchmarks,
screenshots) starts, waits, reports a failed start with the server's own words, stops."""

from __future__ import annotations

import signal
import socket
from pathlib import Path

import httpx
import pytest

from paohuzi.server.process import ServerProcess, ServerStartError, free_port


def test_free_port_is_free() -> None:
    port = free_port()
    with socket.socket() as s:
        s.bind(("127.0.0.1", port))  # nothing holds it


def test_start_wait_and_a_graceful_stop(tmp_path: Path) -> None:
    srv = ServerProcess(tmp_path / "s.db", tmp_path / "s.log", {"PAOHUZI_GRACE": "7"})
    assert srv.command()[-4:] == ["--port", str(srv.port), "--db", f"sqlite:///{tmp_path / 's.db'}"]
    srv.launch()
    try:
        # A path that never answers 200: a clear timeout, the server left running.
        with pytest.raises(ServerStartError, match=r"did not answer /nope on port \d+ within 1 s"):
            srv.wait_ready(timeout=1, path="/nope")
        srv.wait_ready()
        assert srv.alive()
        assert httpx.get(f"{srv.http}/health").status_code == 200
        assert f"open http://127.0.0.1:{srv.port}/" in srv.output_tail()
    finally:
        code = srv.stop()
    # SIGTERM was enough: uvicorn shut down, then re-raised the signal (not SIGKILL's -9).
    assert code == -signal.SIGTERM and not srv.alive()
    assert "stopped: every acknowledged decision is stored" in srv.output_tail()
    assert srv.stop() == code  # stopping a stopped server is harmless


def test_a_failed_start_quotes_the_servers_error(tmp_path: Path) -> None:
    srv = ServerProcess("nosuchdb://x", tmp_path / "bad.log")
    with pytest.raises(ServerStartError) as e:
        srv.start(timeout=60)
    text = str(e.value)
    assert "exited with status 2 before /health answered" in text
    assert "nosuchdb" in text.split("ends:\n", 1)[1]  # the server's own error line
    assert not srv.alive()
