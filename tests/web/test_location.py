"""The close-by warning in the browser: two seated players each press 分享大致位置 (only the
press asks the browser; Chromium's geolocation is granted and set per context), only rough
coordinates go to the server, and the third player, who never shared, sees 座位 1、2 的玩家位置相近
before the start, with no position anywhere on the page or its socket; a withdrawal clears it
and the start is never blocked."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from paohuzi.server.process import ServerProcess
from paohuzi.web.screenshots import PHONE, http

from .conftest import guest, open_page

HOME = {"latitude": 28.194137, "longitude": 112.982271, "accuracy": 15}  # 长沙
NEAR = {"latitude": 28.198514, "longitude": 112.985513, "accuracy": 15}  # about 0.6 km away


def _share(page: Any, web: ServerProcess, at: dict[str, float], sent: list[Any]) -> None:
    ctx = page.context
    ctx.grant_permissions(["geolocation"], origin=web.http)
    ctx.set_geolocation(at)
    page.on("request", lambda r: r.url.endswith("/location") and sent.append(r.post_data))
    page.locator('[data-location="share"]').click()
    page.wait_for_selector('[data-location="withdraw"]')


def test_two_near_players_opt_in_and_the_third_sees_the_warning(
    browser: Any, web: ServerProcess, shots: Path
) -> None:
    logins = [guest(web, n) for n in ("甲", "乙", "丙")]
    code = http(web.http, "POST", "/rooms", {"rounds": 1}, logins[0]["token"])["code"]
    pages = []
    for i, login in enumerate(logins):
        http(web.http, "POST", f"/rooms/{code}/join", {"seat": i}, login["token"])
        pages.append(open_page(browser, web, login, PHONE, f"#/room/{code}"))
    for page, _ in pages:
        page.wait_for_selector(".room .seat-row")
        assert page.locator(".close-by").count() == 0
    sent: list[Any] = []
    _share(pages[0][0], web, HOME, sent)
    _share(pages[1][0], web, NEAR, sent)
    bodies = [json.loads(b) for b in sent]
    assert bodies == [{"lat": 28.195, "lon": 112.98}, {"lat": 28.2, "lon": 112.985}], bodies
    third, watch = pages[2]
    third.wait_for_selector(".close-by >> text=座位 1、2 的玩家位置相近")  # (the room is polled)
    third.screenshot(path=str(shots / "close-by.png"))
    text = third.content() + json.dumps(watch.frames)
    assert not any(d in text for d in ("28.19", "28.2", "112.98")), "a position leaked"
    assert {"type": "close_by", "room": code, "seats": [[0, 1]]} in watch.frames
    assert third.locator('[data-location="withdraw"]').count() == 0  # 丙 never shared

    pages[1][0].locator('[data-location="withdraw"]').click()
    pages[1][0].wait_for_selector('[data-location="share"]')
    third.wait_for_selector(".close-by", state="detached")
    _share(pages[1][0], web, NEAR, sent)
    pages[0][0].wait_for_selector(".close-by >> text=座位 1、2")
    pages[0][0].locator(".actions .btn.primary").click()  # 开始: a warning, never a block
    for page, _ in pages:
        page.wait_for_selector(".table")
    assert http(web.http, "GET", f"/rooms/{code}", None, logins[2]["token"])["close_by"] == []
    for _, w in pages:
        assert w.errors == [], w.errors


def test_no_location_is_offered_against_bots_alone(browser: Any, web: ServerProcess) -> None:
    """Close by whom? A person seated with two bots is not asked to share a position; with
    a free seat (a person may still come) it is."""
    login = guest(web, "丁")
    code = http(web.http, "POST", "/rooms", {"rounds": 1}, login["token"])["code"]
    http(web.http, "POST", f"/rooms/{code}/join", {"seat": 0}, login["token"])
    page, watch = open_page(browser, web, login, PHONE, f"#/room/{code}")
    page.wait_for_selector('[data-location="share"]')
    http(web.http, "POST", f"/rooms/{code}/bots", {"bot": "random"}, login["token"])
    page.wait_for_selector(".seat-row[data-seat='2'] >> text=机器人")
    page.wait_for_selector('[data-location="share"]', state="detached")
    assert watch.errors == [], watch.errors
