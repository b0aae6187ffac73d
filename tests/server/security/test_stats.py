"""``/stats`` shows counts only: no live match id for anyone to watch or probe."""

from __future__ import annotations

from fastapi.testclient import TestClient

from paohuzi.server.app import create_app


def test_stats_lists_no_match_ids(db_url: str) -> None:
    with TestClient(create_app(db_url)) as c:
        token = c.post("/accounts/guest", json={"nickname": "h"}).json()["token"]
        auth = {"Authorization": f"Bearer {token}"}
        code = c.post("/rooms", json={"rounds": 1}, headers=auth).json()["code"]
        assert c.post(f"/rooms/{code}/join", json={}, headers=auth).status_code == 200
        assert (
            c.post(f"/rooms/{code}/bots", json={"bot": "random"}, headers=auth).status_code == 200
        )
        assert c.post(f"/rooms/{code}/start", headers=auth).status_code == 200
        stats = c.get("/stats").json()
        assert stats["tables"] == 1
        assert "live_matches" not in stats
        assert all(not isinstance(v, list) for v in stats.values()), stats
