"""Debian's Chromium through Playwright against the real server in a subprocess.

Never a downloaded browser: the tests launch /usr/bin/chromium (``.ci/run`` installs the
``chromium`` and ``fonts-wqy-microhei`` Debian packages). Without it the tests skip,
except under CI, where a missing browser fails the run.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

try:  # the server's extra and the browser driver; without them nothing here is collected
    import fastapi  # noqa: F401
    import playwright  # noqa: F401
except ImportError:  # pragma: no cover - depends on the install
    collect_ignore_glob = ["test_*.py"]

from paohuzi.server.process import ServerProcess
from paohuzi.web.screenshots import CHROMIUM, CHROMIUM_ARGS, http, seeded_server

if not os.path.exists(CHROMIUM) and not os.environ.get("CI"):  # pragma: no cover
    collect_ignore_glob = ["test_*.py"]


@pytest.fixture(scope="session")
def browser_type_launch_args() -> dict[str, Any]:
    """pytest-playwright's own fixtures launch Debian's Chromium, headless, without a sandbox."""
    return {"executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium for one module (overrides pytest-playwright's session browser).

    Playwright's sync API keeps an event loop running while it is open; held for the whole
    session it would be running under the asyncio tests an xdist worker runs next, so it is
    opened and closed per module.
    """
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One real server per module, with test seeds allowed."""
    d = tmp_path_factory.mktemp("web")
    srv = seeded_server(d / "server.db", d / "server.log")
    srv.start()
    yield srv
    srv.stop()


@pytest.fixture(scope="session")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the tests save their screenshots."""
    return tmp_path_factory.mktemp("screenshots")


def guest(srv: ServerProcess, nickname: str) -> dict[str, Any]:
    return dict(http(srv.http, "POST", "/accounts/guest", {"nickname": nickname}))


class Watch:
    """A page's console errors, uncaught exceptions, failed requests and WebSocket frames."""

    def __init__(self, page: Any) -> None:
        self.errors: list[str] = []
        self.aborted: list[str] = []  # requests a reload or navigation cancelled
        self.frames: list[dict[str, Any]] = []
        page.on("console", lambda m: m.type == "error" and self.errors.append(f"console: {m.text}"))
        page.on("pageerror", lambda e: self.errors.append(f"pageerror: {e}"))
        page.on("requestfailed", self._failed)
        page.on(
            "response",
            lambda r: r.status >= 400 and self.errors.append(f"HTTP {r.status}: {r.url}"),
        )
        page.on("websocket", self._socket)

    def _failed(self, r: Any) -> None:
        """A request that failed is an error, unless the page itself cancelled it: a reload
        or a navigation aborts the fetches in flight (the client never aborts one)."""
        (self.aborted if "ERR_ABORTED" in str(r.failure) else self.errors).append(
            f"failed: {r.url} {r.failure}"
        )

    def _socket(self, ws: Any) -> None:
        ws.on("framereceived", lambda payload: self.frames.append(json.loads(payload)))


def open_page(
    browser: Any, srv: ServerProcess, login: dict[str, Any] | None, size: dict[str, int], path: str
) -> tuple[Any, Watch]:
    """A page at ``path`` in a new context signed in as ``login`` (None: signed out)."""
    from paohuzi.web.screenshots import signed_in

    if login is None:
        ctx = browser.new_context(viewport=size)
        ctx.set_default_timeout(5000)
    else:
        ctx = signed_in(browser, login, size)
    page = ctx.new_page()
    watch = Watch(page)
    page.goto(f"{srv.http}/{path}")
    return page, watch


def no_overflow(page: Any) -> None:
    """Nothing is wider than the viewport (no sideways scrolling on a phone)."""
    wide = page.evaluate(
        "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert wide[0] <= wide[1], f"horizontal overflow: {wide[0]} > {wide[1]} px"
