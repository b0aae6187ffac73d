"""Accessible: axe-core (vendored under tests/web/vendor, never shipped) run in the page
finds no critical violation on the lobby, the table, the 结算 and the replay."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from paohuzi.server.process import ServerProcess
from paohuzi.web.screenshots import PHONE, bot_room, play

from .conftest import guest

AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"


def _context(browser: Any, login: dict[str, Any] | None) -> Any:
    """A phone-sized context whose pages accept the injected axe script (its CSP bypassed:
    the page's own CSP allows no inline script)."""
    ctx = browser.new_context(viewport=PHONE, bypass_csp=True)
    ctx.set_default_timeout(5000)
    if login is not None:
        token, account = json.dumps(login["token"]), json.dumps(json.dumps(login["account"]))
        ctx.add_init_script(
            f"localStorage.setItem('phz.token', {token});"
            f" localStorage.setItem('phz.account', {account});"
        )
    return ctx


def _critical(page: Any, where: str) -> None:
    page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        "() => axe.run(document, {resultTypes: ['violations']}).then((r) => r.violations"
        ".filter((v) => v.impact === 'critical').map((v) => [v.id, v.nodes.length]))"
    )
    assert found == [], (where, found)


@pytest.mark.slow
def test_no_critical_violation_on_lobby_table_settlement_and_replay(
    browser: Any, web: ServerProcess
) -> None:
    page = _context(browser, None).new_page()
    page.goto(f"{web.http}/#/")
    page.wait_for_selector(".login")
    _critical(page, "login")
    code, login = bot_room(web.http, "无障碍", 1, 29)
    page = _context(browser, login).new_page()
    page.goto(f"{web.http}/#/")
    page.wait_for_selector(".lobby")
    _critical(page, "lobby")
    page.goto(f"{web.http}/#/room/{code}")
    page.get_by_role("button", name="开始").click()
    page.wait_for_selector(".hand-card")
    _critical(page, "table")
    play([page], lambda d: bool(page.locator(".settlement").count()), settle=False)
    page.wait_for_selector(".settlement")
    _critical(page, "settlement")
    match_id = page.evaluate("() => window.__phz.game.snapshot.match_id")
    page.locator(".settlement .btn.primary").click()
    page.wait_for_selector(".summary")
    _critical(page, "summary")
    page.goto(f"{web.http}/#/replay/{match_id}")
    page.wait_for_selector(".replay-bar")
    _critical(page, "replay")
    assert guest(web, "x")["token"]


def test_the_check_can_fail(browser: Any) -> None:
    """A button with no name is critical to axe: the check above is not blind."""
    page = _context(browser, None).new_page()
    page.set_content("<html lang='zh'><body><main><button></button></main></body></html>")
    try:
        _critical(page, "a nameless button")
    except AssertionError as e:
        assert "button-name" in str(e)
    else:
        raise AssertionError("axe found nothing critical in a nameless button")
