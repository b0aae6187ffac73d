"""Draw the README's screenshots of the browser client, and drive it for the tests.

``python -m paohuzi.web.screenshots docs/`` starts ``paohuzi serve`` on a throwaway SQLite
file and a free loopback port, opens Debian's Chromium (``/usr/bin/chromium``, never a
downloaded browser) through Playwright, plays a seeded one-round match against two bots
by clicks and writes ``web-table.png`` (1366×768) and ``web-settlement.png`` (390×844).
Needs the ``dev`` extra (playwright) and the ``chromium`` Debian package.
"""

from __future__ import annotations

import contextlib
import json
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..server.process import ServerProcess

__all__ = [
    "CHROMIUM",
    "CHROMIUM_ARGS",
    "DESKTOP",
    "PHONE",
    "can_discard",
    "http",
    "main",
    "seeded_server",
    "step",
]

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"width": 390, "height": 844}
SIDEWAYS = {"width": 844, "height": 390}  # a phone turned sideways
DESKTOP = {"width": 1366, "height": 768}
# Seeds (for a fresh database: the bots' seeds follow the match id) whose first round ends
# in a win with 名堂 after a dozen clicked decisions, and one that lasts long enough to
# show a full table.
SEED = 23
TABLE_SEED = 29


def seeded_server(db: Path, log: Path) -> ServerProcess:
    """The server the screenshots and the browser tests play on (not started): an SQLite
    file, a free loopback port, test seeds allowed (``PAOHUZI_TEST_SEEDS=1``)."""
    return ServerProcess(db, log, {"PAOHUZI_TEST_SEEDS": "1"})


def http(base: str, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
    """One JSON call to the server; the answer's JSON (None for 204)."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(f"{base}{path}", data=data, method=method)
    req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(req, timeout=10) as r:
        text = r.read()
    return json.loads(text) if text else None


def bot_room(base: str, nickname: str, rounds: int, seed: int | None) -> tuple[str, dict[str, Any]]:
    """A guest seated in a new room with two heuristic bots (not started): (code, login)."""
    login = http(base, "POST", "/accounts/guest", {"nickname": nickname})
    tok = login["token"]
    code = http(base, "POST", "/rooms", {"rounds": rounds, "public": True}, tok)["code"]
    http(base, "POST", f"/rooms/{code}/join", {"seat": 0}, tok)
    http(base, "POST", f"/rooms/{code}/bots", {"seat": None, "bot": "heuristic"}, tok)
    if seed is not None:
        http(base, "POST", f"/rooms/{code}/seed", {"seed": seed}, tok)
    return code, login


def signed_in(browser: Any, login: dict[str, Any], viewport: dict[str, int]) -> Any:
    """A browser context that already holds ``login``'s token (as after logging in)."""
    ctx = browser.new_context(viewport=viewport)
    ctx.set_default_timeout(5000)
    token, account = json.dumps(login["token"]), json.dumps(json.dumps(login["account"]))
    ctx.add_init_script(
        f"if (!localStorage.getItem('phz.token')) {{ localStorage.setItem('phz.token', {token});"
        f" localStorage.setItem('phz.account', {account}); }}"
    )
    return ctx


_LOOK = """() => {
  const q = (s) => document.querySelector(s);
  const claim = q("button.claim.hu:enabled") || q("button.claim:enabled");
  const card = q(".hand-card.can");
  return {
    settlement: !!q(".settlement .btn.primary:enabled"),
    overlay: !!q(".overlay"),
    claim: claim ? claim.dataset.action : null,
    claimText: claim ? claim.dataset.text : null,
    face: card ? card.dataset.k : null,
    faceText: card ? card.dataset.face : null,
  };
}"""


def step(page: Any, *, settle: bool = True) -> str | None:
    """Make one decision by clicks if the page offers one; what was done, or None.

    胡 when offered, else the first claim option (碰/吃/过), else the first discardable card
    (tapped once to pick it, once more to discard). ``settle``: close a 结算 sheet.
    """
    look = page.evaluate(_LOOK)
    if look["settlement"] and settle:  # 准备 (once: then it waits for the others)
        page.locator(".settlement .btn.primary:enabled").click(timeout=2000)
        return "continue"
    if look["overlay"]:
        return None
    if look["claim"] is not None:
        page.locator(f'button.claim[data-action="{look["claim"]}"]').click(timeout=2000)
        return str(look["claimText"])
    if look["face"] is not None:
        card = page.locator(f'.hand-card[data-k="{look["face"]}"]')
        card.click(timeout=2000)
        page.locator(".hand-card.can.selected").click(timeout=2000)
        return f"打:{look['faceText']}"
    return None


def play(
    pages: list[Any], until: Any, seconds: float = 60, limit: int = 10**6, settle: bool = True
) -> list[str]:
    """Click decisions on ``pages`` in turn until ``until(done)`` or ``limit``; the decisions."""
    done: list[str] = []
    deadline = time.monotonic() + seconds
    while not until(done) and len(done) < limit:
        if time.monotonic() > deadline:
            raise TimeoutError(f"not done after {seconds} s and {len(done)} decisions")
        moved = False
        for p in pages:
            try:
                d = step(p, settle=settle)
            except Exception:  # the table moved on while clicking: look again
                d = None
            if d is not None and d != "continue":
                done.append(d)
            moved = moved or d is not None
        if not moved:
            pages[0].wait_for_timeout(30)
    return done


def can_discard(page: Any) -> bool:
    """The page waits for this seat's discard, drawn (nothing of ours in flight)."""
    return bool(
        page.evaluate(
            """() => new Promise((ok) => requestAnimationFrame(() => {
              const g = window.__phz.game;
              ok(!!g && !g.busy && !document.querySelector('.overlay, button.claim:enabled')
                 && !!document.querySelector('.hand-card.can'));
            }))"""
        )
    )


def _can_discard(page: Any) -> bool:
    if page.locator(".overlay").count():
        raise RuntimeError("the round ended before the screenshot; pick another seed")
    return can_discard(page)


@contextlib.contextmanager
def _server() -> Iterator[ServerProcess]:
    with tempfile.TemporaryDirectory() as d:
        srv = seeded_server(Path(d) / "server.db", Path(d) / "server.log")
        srv.start()
        try:
            yield srv
        finally:
            srv.stop()


def main(argv: list[str] | None = None) -> int:
    """Write web-table.png and web-settlement.png into the folder given (default docs/)."""
    from playwright.sync_api import sync_playwright

    args = sys.argv[1:] if argv is None else argv
    out = Path(args[0] if args else "docs")
    out.mkdir(parents=True, exist_ok=True)
    with _server() as srv, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        shots = ((PHONE, "web-settlement.png", SEED), (DESKTOP, "web-table.png", TABLE_SEED))
        for viewport, name, seed in shots:
            code, login = bot_room(srv.http, "阿明", 1, seed)
            page = signed_in(browser, login, viewport).new_page()
            page.goto(f"{srv.http}/#/room/{code}")
            page.get_by_role("button", name="开始").click()
            page.wait_for_selector(".table")
            if name == "web-table.png":
                made = play([page], lambda d, p=page: len(d) >= 8 and _can_discard(p))
                page.locator(".hand-card.can").first.click()
                page.wait_for_timeout(300)
            else:
                made = play(
                    [page], lambda d, p=page: bool(p.locator(".settlement").count()), settle=False
                )
                page.wait_for_timeout(300)
            page.screenshot(path=str(out / name))
            print(f"{out / name}: {len(made)} decisions")
        browser.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
