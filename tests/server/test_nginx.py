"""The deployment of docs/deploy.md, for real: Debian's nginx with deploy/nginx-paohuzi.conf
and a throwaway self-signed certificate on loopback ports, in front of ``paohuzi serve
--trusted-proxy``. A match is played to its end through it by the bot client over
``wss://``; the server's log shows the client's address taken from the proxy's
X-Forwarded-For, and a forged header is believed neither from a direct client nor through
the proxy (which replaces it).

The proxy connects from 127.0.0.2 (``proxy_bind``) and the client from 127.0.0.1, so the
address in the log can only have come from the header. Skipped where nginx is absent,
unless ``PAOHUZI_TEST_NGINX_REQUIRED=1`` (``.ci/run`` sets it) makes that a failure.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import ssl
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from paohuzi.server.process import free_port

from ..docblocks import marked
from .conftest import SRC, Server

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "deploy" / "nginx-paohuzi.conf"
PROXY_ADDR = "127.0.0.2"  # where nginx connects from; the only address the server trusts


def _nginx() -> str:
    found = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else "")
    if not found:
        if os.environ.get("PAOHUZI_TEST_NGINX_REQUIRED", "") not in ("", "0"):
            pytest.fail("nginx is required (PAOHUZI_TEST_NGINX_REQUIRED is set) but not installed")
        pytest.skip("nginx is not installed (Debian: apt-get install nginx)")
    return found


def _certificate(d: Path) -> tuple[Path, Path]:
    cert, key = d / "cert.pem", d / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
         "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )  # fmt: skip
    return cert, key


def deploy_serve(port: int, db: str) -> list[str]:
    """docs/deploy.md's <!-- deploy-serve --> command on ``port`` with database ``db``."""
    words = shlex.split(marked("deploy-serve"))
    assert words[:2] == [".venv/bin/paohuzi", "serve"], words
    assert f"--trusted-proxy {PROXY_ADDR}" in " ".join(words) and "--verbose" in words
    words[words.index("--port") + 1] = str(port)
    return [sys.executable, "-m", "paohuzi", *words[1:], "--db", db]


def site_for_test(text: str, https: int, http: int, upstream: int, cert: Path, key: Path) -> str:
    """deploy/nginx-paohuzi.conf on loopback ports with the throwaway certificate: the
    strings replaced must each be there, so the test follows the shipped file."""
    swaps = {
        "listen 443 ssl;": f"listen 127.0.0.1:{https} ssl;",
        "listen 80;": f"listen 127.0.0.1:{http};",
        "listen [::]:443 ssl;\n": "",
        "listen [::]:80;\n": "",
        "server 127.0.0.1:8000;": f"server 127.0.0.1:{upstream};",
        "/etc/letsencrypt/live/paohuzi.example.org/fullchain.pem": str(cert),
        "/etc/letsencrypt/live/paohuzi.example.org/privkey.pem": str(key),
        "proxy_pass http://paohuzi;": f"proxy_pass http://paohuzi; proxy_bind {PROXY_ADDR};",
    }
    for old, new in swaps.items():
        assert old in text, f"deploy/nginx-paohuzi.conf no longer has {old!r}"
        text = text.replace(old, new)
    return text


@pytest.fixture
def proxied(tmp_path: Path) -> Iterator[tuple[str, Server, Path]]:
    """(the proxy's https URL, the server behind it, the certificate to trust)."""
    nginx = _nginx()
    cert, key = _certificate(tmp_path)
    https, http, upstream = free_port(), free_port(), free_port()
    d = tmp_path / "nginx"
    for sub in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (d / sub).mkdir(parents=True)
        (d / sub).chmod(0o777)  # nginx's workers may run as nobody
    (d / "site.conf").write_text(
        site_for_test(SITE.read_text(encoding="utf-8"), https, http, upstream, cert, key)
    )
    temp = " ".join(f"{s}_temp_path {d / s};" for s in ("fastcgi", "uwsgi", "scgi"))
    (d / "nginx.conf").write_text(
        f"worker_processes 1;\npid {d / 'nginx.pid'};\nerror_log {d / 'error.log'} info;\n"
        "events { worker_connections 256; }\n"
        f"http {{\n access_log {d / 'access.log'};\n client_body_temp_path {d / 'body'};\n"
        f" proxy_temp_path {d / 'proxy'};\n {temp}\n include {d / 'site.conf'};\n}}\n"
    )
    conf = ["-p", str(d), "-c", str(d / "nginx.conf")]
    checked = subprocess.run([nginx, "-t", *conf], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
    srv = Server(tmp_path / "server.db", tmp_path / "server.log", port=upstream,
                 cmd=deploy_serve(upstream, f"sqlite:///{tmp_path / 'server.db'}"))  # fmt: skip
    srv.start()
    proxy = subprocess.Popen([nginx, *conf, "-g", "daemon off;"], stderr=subprocess.PIPE)
    try:
        url = f"https://127.0.0.1:{https}"
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"{url}/health", verify=_trusting(cert), timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert proxy.poll() is None and time.monotonic() < deadline, "nginx did not start"
            time.sleep(0.2)
        yield url, srv, cert
    finally:
        proxy.terminate()
        proxy.wait(10)
        srv.stop()


def _trusting(cert: Path) -> ssl.SSLContext:
    return ssl.create_default_context(cafile=str(cert))


def _log_lines(srv: Server, needle: str) -> list[str]:
    return [ln for ln in srv.log.read_text(encoding="utf-8").splitlines() if needle in ln]


def test_a_match_over_wss_through_nginx(proxied: tuple[str, Server, Path], tmp_path: Path) -> None:
    url, srv, cert = proxied
    env = dict(os.environ, PYTHONPATH=str(SRC), SSL_CERT_FILE=str(cert))  # trusted by the bot
    record = tmp_path / "match.json"
    played = subprocess.run(
        [sys.executable, "-m", "paohuzi", "bot", "--server", url, "--new", "--fill",
         "heuristic", "--seed", "5", "--record", str(record)],
        capture_output=True, text=True, env=env, timeout=300,
    )  # fmt: skip
    assert played.returncode == 0, played.stdout + played.stderr
    assert re.search(r"match \d+ over: seat 0", played.stdout), played.stdout
    import paohuzi

    states = paohuzi.replay_match(paohuzi.MatchRecord.from_json(record.read_text("utf-8")))
    assert states and all(st.over for st in states)

    # The WebSocket came through the proxy (from 127.0.0.2) and is logged as the client's
    # own address, from X-Forwarded-For; no request is logged with the proxy's address.
    accepted = _log_lines(srv, '"WebSocket /ws/')
    assert accepted and all("127.0.0.1:" in ln for ln in accepted), accepted
    assert not _log_lines(srv, PROXY_ADDR), _log_lines(srv, PROXY_ADDR)[:3]

    # A forged header: believed neither from a direct client (not a trusted proxy) nor
    # through the proxy (which replaces it with the connecting address).
    forged = {"X-Forwarded-For": "203.0.113.7"}
    assert httpx.get(f"{srv.http}/health?direct", headers=forged).status_code == 200
    assert (
        httpx.get(f"{url}/health?proxied", headers=forged, verify=_trusting(cert)).status_code
        == 200
    )
    time.sleep(0.5)
    for probe in ("/health?direct", "/health?proxied"):
        lines = _log_lines(srv, probe)
        assert len(lines) == 1 and "127.0.0.1:" in lines[0], lines
    assert not _log_lines(srv, "203.0.113.7")
