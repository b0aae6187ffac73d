"""A private room's invite link carries its key: the host's page shows it, and a friend who
opens it sees the room and takes a seat; its code alone shows nothing."""

from __future__ import annotations

from typing import Any

from paohuzi.server.process import ServerProcess
from paohuzi.web.screenshots import DESKTOP, PHONE, http

from .conftest import guest, open_page


def test_a_private_room_is_joined_through_its_invite_link(browser: Any, web: ServerProcess) -> None:
    host = guest(web, "房主")
    made = http(web.http, "POST", "/rooms", {"rounds": 1, "public": False}, host["token"])
    code, key = made["code"], made["invite_key"]
    http(web.http, "POST", f"/rooms/{code}/join", {"seat": 0}, host["token"])
    page, watch = open_page(browser, web, host, DESKTOP, f"#/room/{code}")
    page.wait_for_selector(".room .seat-row")
    link = page.locator(".invite input").input_value()
    assert link.endswith(f"/#/room/{code}/{key}"), link
    assert watch.errors == [], watch.errors

    friend = guest(web, "朋友")
    fpage, fwatch = open_page(browser, web, friend, PHONE, link.split("/", 3)[3])
    fpage.wait_for_selector(".room .seat-row")
    fpage.locator(".seat-row[data-seat='1'] button").first.click()
    fpage.wait_for_selector(".seat-row[data-seat='1'] >> text=朋友")
    room = http(web.http, "GET", f"/rooms/{code}", None, host["token"])
    assert room["seats"][1]["nickname"] == "朋友"
    assert fwatch.errors == [], fwatch.errors

    stranger = guest(web, "路人")
    spage, _ = open_page(browser, web, stranger, PHONE, f"#/room/{code}")
    spage.wait_for_selector(".error")
    assert "邀请链接" in spage.locator(".error").inner_text()
