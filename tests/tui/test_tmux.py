"""The real ``paohuzi play`` command in a real terminal (tmux), end to end."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

TMUX = shutil.which("tmux")
PAOHUZI = Path(sys.executable).parent / "paohuzi"

pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed")


def _wait(check: Callable[[], bool], timeout: float = 20.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if check():
            return True
        time.sleep(0.2)
    return False


def test_play_in_tmux(tmp_path: Path) -> None:
    assert TMUX is not None
    sock = f"paohuzi-test-{os.getpid()}"
    session = "play"
    records = tmp_path / "records"
    env = dict(os.environ, HOME=str(tmp_path), TERM="xterm-256color")

    def tmux(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [TMUX, "-L", sock, *args], capture_output=True, text=True, env=env, timeout=20
        )

    def screen() -> str:
        return tmux("capture-pane", "-p", "-t", session).stdout

    def alive() -> bool:
        return tmux("has-session", "-t", session).returncode == 0

    cmd = f"{PAOHUZI} play --seed 1 --rounds 1 --records-dir {records}"
    r = tmux("new-session", "-d", "-x", "160", "-y", "50", "-s", session, cmd)
    assert r.returncode == 0, r.stderr
    try:

        def ready() -> bool:
            t = screen()
            return ("Your discard" in t or "Claim " in t) and re.search(r"亮张 \S", t) is not None

        # The first frames can be partial while textual lays out: wait for a full one.
        assert _wait(ready, timeout=40), screen()
        text = screen()
        assert re.search(r"亮张 \S", text), text
        m = re.search(r"墩 stock (\d+)", text)
        assert m is not None and 0 < int(m.group(1)) <= 19, text
        assert re.search(r"你 seat 0 .*hand 2[01] cards", text), text
        assert re.search(r"^\W*(坎|对|搭|句|散)\s", text, re.M), text  # the hand's column labels
        tmux("send-keys", "-t", session, "q")
        assert _wait(lambda: "Quit the match?" in screen()), screen()
        tmux("send-keys", "-t", session, "y")
        assert _wait(lambda: not alive(), timeout=15), screen()
    finally:
        tmux("kill-server")
