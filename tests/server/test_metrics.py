"""``/ready`` and ``/metrics`` of one worker (no Redis): the counters follow the match."""

from __future__ import annotations

import time

import httpx

from .conftest import Server, replayed, seated_room, start


def _metrics(srv: Server) -> dict[str, float]:
    r = httpx.get(f"{srv.http}/metrics")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/plain")
    out = {}
    for line in r.text.splitlines():
        if line and not line.startswith("#"):
            name, value = line.rsplit(" ", 1)
            out[name] = float(value)
    return out


def test_ready_and_metrics_count_every_committed_decision(server: Server) -> None:
    r = httpx.get(f"{server.http}/ready")
    assert r.status_code == 200 and r.json() == {"ready": True}
    before = _metrics(server)
    code, tokens = seated_room(server, 0, bot="random")
    match_id = start(server, code, tokens[0])
    deadline = time.monotonic() + 60
    while httpx.get(f"{server.http}/rooms/{code}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the bots' match did not finish"
        time.sleep(0.1)
    record, _ = replayed(server, match_id)
    n = sum(len(rnd.actions) for rnd in record.rounds)
    after = _metrics(server)
    assert after["paohuzi_decisions_total"] - before["paohuzi_decisions_total"] == n
    commits = after["paohuzi_commit_seconds_count"] - before["paohuzi_commit_seconds_count"]
    assert commits == n
    assert 0 < after["paohuzi_commit_seconds_sum"] - before["paohuzi_commit_seconds_sum"] < n
    assert after["paohuzi_lease_moves_total"] == 0  # one process: nothing moves
    assert after["paohuzi_commits_refused_total"] == 0
    assert "paohuzi_rooms" in after and "paohuzi_sockets" in after
