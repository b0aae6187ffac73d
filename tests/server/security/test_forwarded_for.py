"""X-Forwarded-For is believed only from a configured proxy (uvicorn believed it from any
loopback peer, so a local process could claim any address and dodge per-address limits)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from paohuzi.server.process import SRC, ServerProcess


def _failed_logins(srv: ServerProcess, n: int) -> list[int]:
    """``n`` wrong logins for different names, each claiming a different address."""
    return [
        httpx.post(
            f"{srv.http}/accounts/login",
            json={"username": f"nobody{i}", "password": "wrong horse"},
            headers={"X-Forwarded-For": f"203.0.113.{i}"},
            timeout=30,
        ).status_code
        for i in range(n)
    ]


def test_forwarded_for_is_ignored_by_default(tmp_path: Path) -> None:
    with ServerProcess(tmp_path / "s.db", tmp_path / "s.log") as srv:
        # One address (loopback) whatever the header says: its 20 failures, then 429.
        assert _failed_logins(srv, 21) == [401] * 20 + [429]


def test_forwarded_for_from_a_configured_proxy(tmp_path: Path) -> None:
    env = {"PAOHUZI_TRUSTED_PROXIES": "10.0.0.0/8, 127.0.0.1"}
    with ServerProcess(tmp_path / "s.db", tmp_path / "s.log", env) as srv:
        assert _failed_logins(srv, 21) == [401] * 21  # 21 addresses, one failure each


def test_trusted_proxies_are_checked() -> None:
    from paohuzi.server.proxies import trusted_proxies

    assert trusted_proxies(["127.0.0.1,10.0.0.0/8", "::1"]) == ["127.0.0.1", "10.0.0.0/8", "::1"]
    with pytest.raises(ValueError, match=r"'proxy\.example'"):
        trusted_proxies(["proxy.example"])
    out = subprocess.run(
        [sys.executable, "-m", "paohuzi", "serve", "--trusted-proxy", "nonsense"],
        capture_output=True, text=True, env={"PYTHONPATH": str(SRC), "PATH": ""}, timeout=60,
    )  # fmt: skip
    assert out.returncode == 2 and "--trusted-proxy: 'nonsense'" in out.stderr, out.stderr
