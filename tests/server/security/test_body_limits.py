"""Request bodies over the limit are refused early (413), never read into memory."""

from __future__ import annotations

import json
import select
import socket
import time
from pathlib import Path

import httpx

from ..conftest import Server

CHUNK = 64 * 1024


def _rss_kib(srv: Server) -> int:
    assert srv.proc is not None
    for line in Path(f"/proc/{srv.proc.pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def _response(sock: socket.socket, timeout: float) -> bytes:
    """What the server sent before closing or ``timeout`` seconds passed."""
    sock.settimeout(timeout)
    out = b""
    try:
        while b"\r\n\r\n" not in out or not out.endswith(b"}"):
            data = sock.recv(65536)
            if not data:
                break
            out += data
    except (TimeoutError, ConnectionResetError):
        pass
    return out


def _status_and_body(raw: bytes) -> tuple[int, dict[str, object]]:
    head, _, body = raw.partition(b"\r\n\r\n")
    assert head, "no response"
    return int(head.split()[1]), json.loads(body)


def test_a_declared_300_mb_body_is_refused_before_it_is_sent(server: Server) -> None:
    with socket.create_connection(("127.0.0.1", server.port)) as s:
        s.sendall(
            b"POST /accounts/guest HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 300000000\r\n\r\n"
        )
        status, body = _status_and_body(_response(s, 5))
    assert status == 413 and body["code"] == "too_large"
    assert "300000000" in str(body["reason"])


def test_a_streamed_300_mb_body_is_cut_off_and_memory_stays(server: Server) -> None:
    httpx.get(f"{server.http}/health")
    before = _rss_kib(server)
    sent = 0
    answer = b""
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", server.port)) as s:
        s.sendall(
            b"POST /accounts/guest HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n"
        )
        chunk = f"{CHUNK:x}\r\n".encode() + b" " * CHUNK + b"\r\n"
        try:
            while sent < 300_000_000 and time.monotonic() - started < 60:
                readable, _, _ = select.select([s], [], [], 0)
                if readable:
                    break
                s.sendall(chunk)
                sent += CHUNK
        except (BrokenPipeError, ConnectionResetError):
            pass
        answer = _response(s, 5)
    status, body = _status_and_body(answer)
    assert status == 413 and body["code"] == "too_large", answer[:300]
    assert sent < 50_000_000, f"{sent} bytes went in before the refusal"
    grown = _rss_kib(server) - before
    assert grown < 50_000, f"the server grew by {grown} KiB"


def test_a_small_body_still_works_and_a_large_one_is_not_echoed(server: Server) -> None:
    ok = httpx.post(f"{server.http}/accounts/guest", json={"nickname": "small"})
    assert ok.status_code == 201
    big = httpx.post(f"{server.http}/accounts/guest", json={"nickname": "x" * 100_000})
    assert big.status_code == 413 and big.json()["code"] == "too_large"
    assert len(big.content) < 1000
