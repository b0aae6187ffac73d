"""Installable: a web app manifest with icons, and a service worker (at /sw.js, covering
the app) that caches the static files while the live state still comes from the server."""

from __future__ import annotations

import json
from typing import Any

import httpx

from paohuzi.server.process import ServerProcess
from paohuzi.web import STATIC
from paohuzi.web.screenshots import PHONE

from .conftest import open_page


def test_the_manifest_names_the_app_and_its_icons(web: ServerProcess) -> None:
    m = json.loads((STATIC / "manifest.webmanifest").read_text(encoding="utf-8"))
    assert m["start_url"] == "/" and m["display"] in ("fullscreen", "standalone")
    assert m["short_name"] == "跑胡子"
    sizes = {i["sizes"] for i in m["icons"]}
    assert {"192x192", "512x512"} <= sizes
    # a launcher that cuts its own shape gets the felt to the edges (no white corners)
    assert any(i.get("purpose") == "maskable" for i in m["icons"])
    for i in m["icons"]:
        r = httpx.get(f"{web.http}{i['src']}")
        assert r.status_code == 200 and len(r.content) > 100, i
        if i["type"] == "image/png":
            assert r.content[:8] == b"\x89PNG\r\n\x1a\n"
    sw = httpx.get(f"{web.http}/sw.js")
    assert sw.status_code == 200 and "javascript" in sw.headers["content-type"]
    page = httpx.get(f"{web.http}/").text
    assert '<link rel="manifest" href="/static/manifest.webmanifest">' in page


def test_the_service_worker_caches_the_static_files(browser: Any, web: ServerProcess) -> None:
    page, watch = open_page(browser, web, None, PHONE, "#/")
    page.wait_for_selector(".login")
    cached = page.evaluate(
        """async () => {
            const reg = await navigator.serviceWorker.ready;
            const c = await caches.open("phz-static-v1");
            return [reg.active !== null, (await c.keys()).map((r) => new URL(r.url).pathname)];
        }"""
    )
    assert cached[0] is True
    assert {"/", "/static/app.js", "/static/style.css"} <= set(cached[1])
    assert not [p for p in cached[1] if p.startswith(("/rooms", "/accounts", "/ws"))]
    assert watch.errors == []
