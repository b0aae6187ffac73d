"""亲友圈 on phones: an owner creates a club; one friend joins through its invite link, another
asks by the club's code and the owner approves; the owner adds a 2-round template and opens a
room from it, the friends find it among the club's tables and sit (warned, not stopped, that
all three joined from one address); the three play the match by taps; the standings move
(the same as the server's, zero-sum); the owner closes the season and its table stays
readable under season 1."""

from __future__ import annotations

from typing import Any

import pytest

from paohuzi.server.process import ServerProcess
from paohuzi.web.screenshots import PHONE, http, play

from .conftest import guest, no_overflow, open_page


def _rows(page: Any) -> list[dict[str, str]]:
    out: list[dict[str, str]] = page.evaluate(
        """() => [...document.querySelectorAll('.standings-table tbody tr')].map((tr) => {
            const td = [...tr.querySelectorAll('td')].map((x) => x.textContent);
            return {account: tr.dataset.account, rounds: td[1], points: td[4]};
        })"""
    )
    return out


@pytest.mark.slow
def test_a_club_on_phones_from_creation_to_a_closed_season(
    browser: Any, web: ServerProcess, shots: Any
) -> None:
    logins = [guest(web, n) for n in ("圈主", "阿明", "小红")]
    owner, watch = open_page(browser, web, logins[0], PHONE, "#/")
    owner.get_by_role("link", name="亲友圈").click()
    owner.get_by_placeholder("圈名").fill("周末牌友")
    owner.get_by_role("button", name="创建").click()
    owner.wait_for_selector(".club .invite input")
    cid = int(owner.locator(".club").get_attribute("data-club") or 0)
    link = owner.locator(".club .invite input").input_value()
    assert link.endswith(f"#/clubs/{cid}/" + link.rsplit("/", 1)[1])
    code = http(web.http, "GET", f"/clubs/{cid}", None, logins[0]["token"])["code"]

    friend, fwatch = open_page(browser, web, logins[1], PHONE, link.split("/", 3)[3])
    friend.wait_for_selector(".club .members")
    asker, awatch = open_page(browser, web, logins[2], PHONE, "#/clubs")
    asker.get_by_placeholder("圈号").fill(code)
    asker.get_by_role("button", name="申请").click()
    asker.wait_for_selector(f'.club-row[data-club="{cid}"] >> text=待审核')
    owner.get_by_role("button", name="刷新").click()
    owner.get_by_role("button", name="通过").click()
    owner.wait_for_selector(".member-row >> text=小红")
    owner.wait_for_function("() => !document.querySelector('.member-row button.primary')")

    owner.get_by_placeholder("模板名").fill("两局")
    owner.locator(".template-form select[name=rounds]").select_option("2")
    owner.locator(".template-form input[name=bots]").uncheck()
    owner.get_by_role("button", name="添加模板").click()
    owner.wait_for_selector(".template-row >> text=两局")
    # The form is back to its defaults (8 rounds, bots allowed), not to 1 round, no bots.
    assert owner.locator(".template-form select[name=rounds]").input_value() == "8"
    assert owner.locator(".template-form input[name=bots]").is_checked()
    assert _rows(owner) == []  # the season has no round yet
    owner.screenshot(path=str(shots / "club-phone.png"), full_page=True)
    no_overflow(owner)
    owner.get_by_role("button", name="开房").click()
    owner.wait_for_selector(".room .seat-row")
    room = owner.evaluate("() => location.hash").split("/")[2]
    # The member who opened the room is seated in it (they had to find 坐下 themselves).
    owner.wait_for_selector('.seat-row[data-seat="0"] >> text=圈主')
    pages = [owner]
    for i, p in ((1, friend), (2, asker)):
        p.goto(f"{web.http}/#/clubs/{cid}")
        p.get_by_role("button", name="刷新").click()  # (the friend's page was there already)
        p.wait_for_selector(f'.club-tables .room-row[data-code="{room}"]')
        p.locator(f'.club-tables .room-row[data-code="{room}"] a', has_text="加入").click()
        p.get_by_role("button", name="坐下").nth(0).click()
        name = logins[i]["account"]["nickname"]
        p.wait_for_selector(f'.seat-row[data-seat="{i}"] >> text={name}')
        pages.append(p)
    # All three came from one address (loopback): a warning on every page, never a block.
    for p in pages:
        p.wait_for_selector(".same-address >> text=座位 1、2、3")  # (the room is polled)
    owner.get_by_role("button", name="开始").click()
    for p in pages:
        p.wait_for_selector(".table")
    play(pages, lambda _: all(p.locator(".summary").count() for p in pages), seconds=240)

    owner.goto(f"{web.http}/#/clubs/{cid}")
    owner.wait_for_selector(".standings-table tbody tr")
    shown = _rows(owner)
    server = http(web.http, "GET", f"/clubs/{cid}/standings", None, logins[0]["token"])
    assert len(shown) == 3 and all(r["rounds"] == "2" for r in shown)
    assert [int(r["points"]) for r in shown] == [e["points"] for e in server["standings"]]
    assert sum(e["points"] for e in server["standings"]) == 0
    owner.screenshot(path=str(shots / "club-standings-phone.png"), full_page=True)

    owner.on("dialog", lambda d: d.accept())
    owner.get_by_role("button", name="结束本赛季").click()
    owner.wait_for_selector('.standings-table[data-season="2"]')
    assert _rows(owner) == []
    owner.locator(".standings select").select_option(label="赛季 1")
    owner.wait_for_selector('.standings-table[data-season="1"] tbody tr')
    assert _rows(owner) == shown
    for w in (watch, fwatch, awatch):
        assert w.errors == [], w.errors
