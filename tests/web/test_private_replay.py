"""A private room's finished match in the browser: the page opened with the room's invite
key passes it on (``?key=``) to the match's rounds and replay, so a key holder sees them;
without the key the server answers as for no match, and the page says so."""

from __future__ import annotations

import time
from typing import Any

from paohuzi.server.process import ServerProcess
from paohuzi.web.screenshots import DESKTOP, http

from .conftest import guest, open_page


def _private_bots_match(web: ServerProcess) -> tuple[str, str, int]:
    """A private one-round match of three random bots, played to its end: (code, key, id)."""
    tok = guest(web, "房主")["token"]
    made = http(web.http, "POST", "/rooms", {"rounds": 1, "public": False}, token=tok)
    code, key = made["code"], made["invite_key"]
    http(web.http, "POST", f"/rooms/{code}/bots", {"bot": "random"}, token=tok)
    match_id = int(http(web.http, "POST", f"/rooms/{code}/start", token=tok)["match_id"])
    deadline = time.monotonic() + 60
    while http(web.http, "GET", f"/rooms/{code}", token=tok)["status"] != "finished":
        assert time.monotonic() < deadline, "the bots' match did not finish"
        time.sleep(0.1)
    return code, key, match_id


def test_a_private_replay_opens_with_its_key_only(browser: Any, web: ServerProcess) -> None:
    code, key, match_id = _private_bots_match(web)
    # A signed-in stranger with the invite link: the finished room links to its replay,
    # the key carried along.
    stranger = guest(web, "路人")
    page, watch = open_page(browser, web, stranger, DESKTOP, f"#/room/{code}/{key}")
    link = page.locator(f"a[href='#/replay/{match_id}/{key}']")
    link.wait_for()
    link.click()
    page.wait_for_selector(".replay .table")
    asked: list[str] = []
    page.on("request", lambda r: "/matches/" in r.url and asked.append(r.url))
    page.select_option("select[aria-label='视角']", "1")
    page.wait_for_selector(".hand-card")  # seat 1's view, asked for with the key
    page.keyboard.press("End")
    page.wait_for_selector(".settlement")
    assert asked and all(u.endswith(f"key={key}") for u in asked), asked
    # The bots are named by level and seat, as at the live table, not "random bot"; the
    # sheet counts the replay's own rounds and its button goes back to the steps.
    text = page.locator("main").inner_text()
    assert "随机机器人1号" in text and "random bot" not in text, text
    sheet = page.locator(".settlement").inner_text()
    assert "第 1/1 局" in sheet.replace("\u00a0", " ") and "返回回放" in sheet, sheet
    assert watch.errors == [], watch.errors
    page.context.close()
    # Signed out, with the key: the replay; without it: no such match.
    page, watch = open_page(browser, web, None, DESKTOP, f"#/replay/{match_id}/{key}")
    page.wait_for_selector(".replay .table")
    assert watch.errors == [], watch.errors
    page.goto(f"{web.http}/#/replay/{match_id}")
    page.wait_for_selector("[data-replay-error]")
    assert "没有这场对局" in page.locator("[data-replay-error]").inner_text()
    assert any("HTTP 404" in e for e in watch.errors), watch.errors
    page.context.close()
