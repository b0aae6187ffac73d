"""快捷语 in the browser: a seat picks a phrase from the fixed list; the table and the
spectators see who said it."""

from __future__ import annotations

from typing import Any

import pytest

from paohuzi.server.process import ServerProcess
from paohuzi.web.screenshots import DESKTOP, PHONE, bot_room

from .conftest import guest, open_page


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_phrase_reaches_the_spectators(
    browser: Any, web: ServerProcess, size: dict[str, int]
) -> None:
    code, login = bot_room(web.http, "聊天", 1, 5)
    page, watch = open_page(browser, web, login, size, f"#/room/{code}")
    page.get_by_role("button", name="开始").click()
    page.wait_for_selector(".table")
    spec, spec_watch = open_page(browser, web, guest(web, "看"), size, f"#/watch/{code}")
    spec.wait_for_selector(".table")
    page.locator("[data-chat]").click()
    page.locator('[data-phrase="0"]').click()
    for p in (page, spec):
        p.wait_for_selector('.said [data-said="0"]')
        assert "快点吧" in p.locator(".said").inner_text()
        # the bubble is over the speaker's panel, not over the card on offer (the centre)
        bubble = p.locator('.said [data-said="0"]').bounding_box()
        panel = p.locator('.table .seat-panel[data-seat="0"]').bounding_box()
        centre = p.locator(".table .center").bounding_box()
        assert bubble and panel and centre
        assert panel["y"] <= bubble["y"] <= panel["y"] + panel["height"], (bubble, panel)
        # ... across as well as down (a transformed list moved it over 过 on a phone, over
        # the next seat's panel on a desktop), and not squeezed to a column of 1-2 characters
        assert panel["x"] <= bubble["x"] <= panel["x"] + panel["width"], (bubble, panel)
        assert bubble["width"] >= 100, bubble
        assert not (centre["y"] < bubble["y"] < centre["y"] + centre["height"]), (bubble, centre)
    assert spec.locator("[data-chat]").count() == 0  # a spectator only reads
    assert watch.errors == [] and spec_watch.errors == []
