"""``paohuzi serve`` as a child process on a loopback port, for tests, benchmarks and the
screenshots: one launcher, so each of them starts, waits for and stops a server alike.

The child runs this same ``paohuzi`` (its source directory goes first on ``PYTHONPATH``)
in its own process group, with stdout and stderr appended to a log file; ``start``
returns once ``GET /health`` (or another path) answers 200 and otherwise raises
:class:`ServerStartError` quoting the end of that log; ``stop`` asks with SIGTERM, then
SIGKILLs the whole group (so ``--workers N`` leaves no worker behind). Standard library
only: it needs no extra of its own.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import TracebackType

__all__ = ["ServerProcess", "ServerStartError", "free_port"]

SRC = Path(__file__).resolve().parents[2]  # the directory holding this ``paohuzi``


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port nothing listens on now (the OS's choice)."""
    with socket.socket() as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


class ServerStartError(RuntimeError):
    """The server exited, or did not answer in time; the message ends with its output."""


class ServerProcess:
    """``paohuzi serve --port PORT --db DB ARGS…`` with ``env`` over this environment.

    ``db`` is an SQLAlchemy URL or an SQLite file's path. ``cmd`` replaces the whole
    command line (one written elsewhere, e.g. in the README; ``port`` must then be its
    port). ``start`` may be called again after ``stop``/``kill``: same port, same
    database, the log appended to.
    """

    def __init__(
        self,
        db: str | Path,
        log: Path,
        env: Mapping[str, str] | None = None,
        args: Sequence[str] = (),
        *,
        port: int | None = None,
        cmd: Sequence[str] | None = None,
    ) -> None:
        self.db_url = db if isinstance(db, str) else f"sqlite:///{db}"
        self.log = log
        self.env = dict(env or {})
        self.args = list(args)
        self.port = port if port is not None else free_port()
        self.cmd = list(cmd) if cmd is not None else None
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def http(self) -> str:
        """The server's base URL, ``http://127.0.0.1:PORT``."""
        return f"http://127.0.0.1:{self.port}"

    def ws(self, code: str) -> str:
        """The WebSocket URL of a room."""
        return f"ws://127.0.0.1:{self.port}/ws/{code}"

    def command(self) -> list[str]:
        """The command line the child runs."""
        if self.cmd is not None:
            return list(self.cmd)
        return [sys.executable, "-m", "paohuzi", "serve", "--port", str(self.port),
                "--db", self.db_url, *self.args]  # fmt: skip

    def launch(self) -> None:
        """Start the child without waiting for it (``wait_ready`` waits)."""
        env = {**os.environ, **self.env}
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(SRC), env.get("PYTHONPATH")) if p)
        self.log.parent.mkdir(parents=True, exist_ok=True)
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                self.command(), stdout=out, stderr=subprocess.STDOUT, env=env,
                start_new_session=True,  # its own process group: stop/kill reach its workers
            )  # fmt: skip

    def wait_ready(self, timeout: float = 60, path: str = "/health") -> None:
        """Wait until ``GET path`` answers 200; ServerStartError if the child exits first
        or ``timeout`` seconds pass (it is left running then: ``stop`` it)."""
        assert self.proc is not None, "launch() first"
        deadline = time.monotonic() + timeout
        while True:
            code = self.proc.poll()
            if code is not None:
                raise ServerStartError(
                    f"paohuzi serve exited with status {code} before {path} answered; "
                    f"its output ({self.log}) ends:\n{self.output_tail()}"
                )
            with (
                contextlib.suppress(OSError, urllib.error.URLError),
                urllib.request.urlopen(f"{self.http}{path}", timeout=1) as r,
            ):
                if r.status == 200:
                    return
            if time.monotonic() >= deadline:
                raise ServerStartError(
                    f"paohuzi serve did not answer {path} on port {self.port} within "
                    f"{timeout:g} s; its output ({self.log}) ends:\n{self.output_tail()}"
                )
            time.sleep(0.1)

    def start(self, timeout: float = 60, path: str = "/health") -> None:
        """``launch``, then ``wait_ready`` (a loaded 2-core machine starts it slowly)."""
        self.launch()
        self.wait_ready(timeout, path)

    def output_tail(self, chars: int = 2000) -> str:
        """The last ``chars`` characters of the child's stdout and stderr."""
        try:
            return self.log.read_bytes()[-chars:].decode(errors="replace")
        except OSError as e:
            return f"(no output: {e})"

    def alive(self) -> bool:
        """Whether the child is running (a stopped one, SIGSTOP, counts as running)."""
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        """SIGKILL the child and its process group (a crash, for the tests)."""
        assert self.proc is not None
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)

    def stop(self, timeout: float = 10) -> int | None:
        """SIGTERM (a graceful stop), then SIGKILL to the group after ``timeout`` seconds;
        the exit status (None: never started)."""
        proc = self.proc
        if proc is None:
            return None
        if proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGCONT)  # a paused one could not stop
            proc.terminate()
            try:
                proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.kill()
        return proc.returncode

    def __enter__(self) -> ServerProcess:
        self.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()
