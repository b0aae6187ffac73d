"""Every HTTP response carries the security headers (CSP fitting the browser client,
nosniff, no framing, no referrer): pages, static files, the API, its refusals, a 404."""

from __future__ import annotations

from fastapi.testclient import TestClient

from paohuzi.server.app import create_app


def test_security_headers_everywhere(db_url: str) -> None:
    with TestClient(create_app(db_url)) as c:
        answers = [
            c.get("/"),
            c.get("/static/app.js"),
            c.get("/health"),
            c.get("/rooms"),
            c.get("/accounts/me"),  # 401
            c.post("/accounts/guest", json={"nickname": 5}),  # 400
            c.get("/no/such/path"),  # 404
            c.get("/openapi.json"),
        ]
        for r in answers:
            h = r.headers
            where = f"{r.request.method} {r.request.url.path} ({r.status_code})"
            csp = h.get("content-security-policy", "")
            assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp, where
            assert "script-src 'self'" in csp and "unsafe-inline" not in csp, where
            assert "connect-src 'self'" in csp, where
            assert h.get("x-content-type-options") == "nosniff", where
            assert h.get("x-frame-options") == "DENY", where
            assert h.get("referrer-policy") == "no-referrer", where
            assert len(h.get_list("content-security-policy")) == 1, where
