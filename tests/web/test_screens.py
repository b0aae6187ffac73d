"""Every screen at a phone's 390×844 and a desktop's 1366×768: no sideways overflow, no
console error or failed request, 44 px touch targets, ARIA labels; a screenshot of each."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from paohuzi.server.process import ServerProcess
from paohuzi.web.screenshots import (
    DESKTOP,
    PHONE,
    bot_room,
    can_discard,
    http,
    play,
)

from .conftest import Watch, guest, no_overflow, open_page

SIZES = {"phone": PHONE, "desktop": DESKTOP}
LANDSCAPE = {"width": 844, "height": 390}  # a phone turned sideways


def check(page: Any, watch: Watch, shots: Path, name: str) -> None:
    """The screen fits, said nothing wrong, has big enough targets; save its picture."""
    page.wait_for_timeout(250)  # animations end
    page.screenshot(path=str(shots / f"{name}.png"))
    no_overflow(page)
    assert watch.errors == [], watch.errors
    small = page.evaluate(
        """() => [...document.querySelectorAll(
              'button, a.btn, select, input:not([type=checkbox]), summary, label.check')]
            .filter((e) => e.offsetParent !== null && !e.closest('.hand-col'))
            .map((e) => [e.outerHTML.slice(0, 80), e.getBoundingClientRect()])
            .filter(([, r]) => r.height < 44 || r.width < 44)"""
    )
    assert small == [], f"touch targets under 44 px: {small}"
    unnamed = page.evaluate(
        """() => [...document.querySelectorAll('button, svg.card, a')]
            .filter((e) => !(e.getAttribute('aria-label') || e.textContent.trim()))
            .map((e) => e.outerHTML.slice(0, 80))"""
    )
    assert unnamed == [], f"no accessible name: {unnamed}"


@pytest.fixture(scope="module")
def finished(browser: Any, web: ServerProcess) -> dict[str, Any]:
    """A guest who has finished a one-round match against two bots (played by clicks)."""
    code, login = bot_room(web.http, "回放", 1, 11)
    page, _ = open_page(browser, web, login, PHONE, f"#/room/{code}")
    page.get_by_role("button", name="开始").click()
    page.wait_for_selector(".table")
    play([page], lambda d: page.locator(".summary").count() > 0)
    page.context.close()
    match_id = httpx.get(f"{web.http}/rooms/{code}").json()["match_id"]
    return {"login": login, "code": code, "match_id": match_id}


@pytest.mark.parametrize("size", SIZES)
def test_login(browser: Any, web: ServerProcess, shots: Path, size: str) -> None:
    page, watch = open_page(browser, web, None, SIZES[size], "")
    page.wait_for_selector(".login form")
    check(page, watch, shots, f"login-{size}")
    page.get_by_role("tab", name="注册").click()
    page.wait_for_selector("input[name=password]")
    no_overflow(page)
    page.get_by_role("tab", name="游客").click()
    page.fill("input[name=nickname]", "小王")
    page.get_by_role("button", name="以游客身份进入").click()
    page.wait_for_selector(".lobby")
    assert "小王" in page.locator(".topbar").inner_text()


@pytest.mark.parametrize("size", SIZES)
def test_lobby_and_english(browser: Any, web: ServerProcess, shots: Path, size: str) -> None:
    login = guest(web, "大厅")
    http(web.http, "POST", "/rooms", {"rounds": 4, "public": True}, login["token"])
    page, watch = open_page(browser, web, login, SIZES[size], "")
    page.wait_for_selector(".room-row")
    check(page, watch, shots, f"lobby-{size}")
    page.get_by_role("button", name="Switch to English").click()
    page.wait_for_selector("text=Create a room")
    check(page, watch, shots, f"lobby-en-{size}")
    page.get_by_role("button", name="切换到中文").click()
    page.wait_for_selector("text=创建房间")


@pytest.mark.parametrize("size", SIZES)
def test_room_from_the_lobby_form(browser: Any, web: ServerProcess, shots: Path, size: str) -> None:
    page, watch = open_page(browser, web, guest(web, "房主"), SIZES[size], "")
    # the bots' level is asked only with 空位加机器人 ticked
    assert not page.locator("select[name=bot]").is_visible()
    page.locator("input[name=bots]").check()
    assert page.locator("select[name=bot]").is_visible()
    page.locator("input[name=bots]").uncheck()
    page.select_option("select[name=rounds]", "2")
    page.get_by_role("button", name="创建", exact=True).click()
    page.wait_for_selector(".room .seat-row")
    code = page.url.rsplit("/", 1)[1]
    assert len(code) == 6 and code.isdigit()
    assert page.locator(".invite input").input_value().endswith(f"/#/room/{code}")
    check(page, watch, shots, f"room-{size}")
    # The room says its rounds and clock; the host picks the bots' level here too (every
    # bot added in the waiting room was 普通).
    assert page.locator("[data-room-info]").inner_text() == "2 局 · 不限时"
    page.select_option("[data-bot-level]", "gaoshou")
    page.locator(".seat-row[data-seat='1']").get_by_role("button", name="加机器人").click()
    page.wait_for_selector(".seat-row[data-seat='1'] >> text=高手机器人2号")
    page.select_option("[data-bot-level]", "rumen")
    page.get_by_role("button", name="空位加机器人").click()
    page.wait_for_selector(".btn.primary:enabled >> text=开始")
    room = httpx.get(f"{web.http}/rooms/{code}").json()
    assert [s is not None for s in room["seats"]] == [True, True, True] and room["rounds"] == 2
    assert [s["bot"] for s in room["seats"]] == [None, "gaoshou", "rumen"]


def test_table_on_a_phone_turned_sideways(browser: Any, web: ServerProcess, shots: Path) -> None:
    """The whole hand and the claim/discard controls are on screen without scrolling."""
    code, login = bot_room(web.http, "横屏", 1, 23)
    page, watch = open_page(browser, web, login, LANDSCAPE, f"#/room/{code}")
    page.get_by_role("button", name="开始").click()
    page.wait_for_selector(".table")
    play([page], lambda d: len(d) >= 2 and can_discard(page))
    check(page, watch, shots, "table-landscape")
    outside = page.evaluate(
        """() => [...document.querySelectorAll('.hand svg.card, .actions button')]
            .map((e) => [e.getAttribute('aria-label') || e.textContent, e.getBoundingClientRect()])
            .filter(([, r]) => r.bottom > innerHeight + 0.5 || r.top < -0.5)
            .map(([name, r]) => `${name} at ${Math.round(r.top)}-${Math.round(r.bottom)}`)"""
    )
    assert outside == [], f"off screen at {LANDSCAPE}: {outside}"
    tall = page.evaluate("() => [document.documentElement.scrollHeight, innerHeight]")
    assert tall[0] <= tall[1], f"the table scrolls: {tall[0]} px of content in {tall[1]}"
    # Which columns this deal gives depends on the bots' play, so columns of 3, 4 and 5 of
    # this hand's cards are laid beside it: the taller ones must be no taller than 3.
    assert page.evaluate(
        """() => [...document.querySelectorAll('.hand-col')]
            .every((c) => Number(c.style.getPropertyValue('--n')) === c.children.length)"""
    )
    heights = page.evaluate(
        """() => {
            const hand = document.querySelector('.hand');
            const card = hand.querySelector('.hand-card');
            return [3, 4, 5].map((n) => {
                const col = document.createElement('div');
                col.className = 'hand-col';
                col.style.setProperty('--n', n);
                for (let i = 0; i < n; i++) col.appendChild(card.cloneNode(true));
                hand.appendChild(col);
                const h = col.getBoundingClientRect().height;
                col.remove();
                return h;
            });
        }"""
    )
    assert abs(heights[0] - (2 * 44 + 62)) < 1, heights  # two covered cards and a whole one
    assert heights[1] <= heights[0] + 0.5 and heights[2] <= heights[0] + 0.5, heights


@pytest.mark.parametrize("size", SIZES)
def test_table_settlement_and_summary(
    browser: Any, web: ServerProcess, shots: Path, size: str
) -> None:
    code, login = bot_room(web.http, "牌桌", 1, 23)
    page, watch = open_page(browser, web, login, SIZES[size], f"#/room/{code}")
    page.get_by_role("button", name="开始").click()
    page.wait_for_selector(".table")
    play([page], lambda d: len(d) >= 2 and can_discard(page))
    page.locator("button[aria-label='听牌提示']").click()
    page.wait_for_selector(".hint b, .hint:has-text('暂不听牌')")
    check(page, watch, shots, f"table-{size}")
    assert page.locator(".seat-panel").count() == 3
    assert page.locator(".center [data-stock]").inner_text().isdigit()
    _log_readable(page)
    play([page], lambda d: page.locator(".settlement").count() > 0, settle=False)
    check(page, watch, shots, f"settlement-{size}")
    assert page.locator(".settlement .formula").count() == 1  # seed 23: a win, itemised
    assert "名堂" in page.locator(".settlement").inner_text()
    _reveal_shows_the_hands(page, web)
    page.locator(".settlement .btn.primary").click()
    page.wait_for_selector(".summary")
    page.wait_for_selector('.summary [data-round-col="0"]')
    check(page, watch, shots, f"summary-{size}")
    _summary_headers_on_one_line(page)


def test_the_top_bars_balance_moves_with_each_round(browser: Any, web: ServerProcess) -> None:
    """A round settled for 悟性 moves the top bar's figure at its 结算, not only once the
    match is over (it said 悟性 100 beside a seat at 97 for the whole match)."""
    code, login = bot_room(web.http, "悟性条", 2, 23)
    page, watch = open_page(browser, web, login, PHONE, f"#/room/{code}")
    page.get_by_role("button", name="开始").click()
    page.wait_for_selector(".table")
    play([page], lambda d: page.locator(".settlement").count() > 0, settle=False)
    me = http(web.http, "GET", "/accounts/me", token=login["token"])
    assert me["balance"] != 100  # seed 23: the first round moves this seat's 悟性
    page.wait_for_selector(f".topbar a[href='#/account']:has-text('悟性 {me['balance']}')")
    assert watch.errors == []


def _log_readable(page: Any) -> None:
    """The recent moves are shown whole (wrapped, never cut with "…"), each line saying
    who by seat (你/上家/下家), and the table still fits the window's height."""
    lines = page.evaluate(
        """() => [...document.querySelectorAll('.log li')].map((e) => ({
            text: e.textContent, cut: e.scrollWidth > e.clientWidth + 1,
            ellipsis: getComputedStyle(e).textOverflow === 'ellipsis'}))"""
    )
    assert lines, "no recent moves shown"
    assert not [x for x in lines if x["cut"] or x["ellipsis"]], lines
    assert any(w in x["text"] for x in lines for w in ("你", "上家", "下家")), lines
    room = page.evaluate(
        "() => [document.documentElement.scrollHeight, document.documentElement.clientHeight]"
    )
    assert room[0] <= room[1], f"the table is taller than the window: {room}"


def _reveal_shows_the_hands(page: Any, web: ServerProcess) -> None:
    """亮牌 shows each seat's cards left in hand as the server's 结算 has them (public at the
    round's end, RULES.md §14), and no heading over nothing."""
    mid = page.evaluate("() => window.__phz.game.snapshot.match_id")
    result = http(web.http, "GET", f"/matches/{mid}/rounds/0")
    left = {s: len(h) for s, h in enumerate(result["hands"]) if h}
    shown = page.locator(".settlement [data-reveals]")
    if not left:
        assert shown.count() == 0
        return
    assert shown.locator("h3").is_visible()
    rows = shown.locator(".reveal")
    assert rows.count() == len(left)
    for s, n in left.items():
        row = shown.locator(f'.reveal[data-seat="{s}"]')
        assert row.is_visible()
        assert row.locator("svg.card").count() == n


def _summary_headers_on_one_line(page: Any) -> None:
    """本场结束: 第1局/合计/悟性 and each name take one line (a long name is cut with "…")."""
    wrapped = page.evaluate(
        """() => [...document.querySelectorAll('.summary thead th, .summary tbody th .who')]
            .filter((e) => e.textContent.trim())
            .map((e) => { const r = document.createRange(); r.selectNodeContents(e);
                          const rs = [...r.getClientRects()];
                          const tops = new Set(rs.map((x) => Math.round(x.top)));
                          return [e.textContent.trim(), tops.size]; })
            .filter(([, n]) => n > 1)"""
    )
    assert wrapped == [], f"headers on more than one line: {wrapped}"


def test_room_link_shows_the_servers_balance(browser: Any, web: ServerProcess) -> None:
    """A room link opened directly asks for the account: the top bar shows the server's 悟性,
    not the one cached at login."""
    code, login = bot_room(web.http, "旧余额", 1, 5)
    stale = {**login, "account": {**login["account"], "balance": 4321}}
    page, watch = open_page(browser, web, stale, DESKTOP, f"#/room/{code}")
    me = http(web.http, "GET", "/accounts/me", token=login["token"])
    assert me["balance"] != 4321
    page.wait_for_selector(f".topbar a[href='#/account']:has-text('悟性 {me['balance']}')")
    assert "4321" not in page.locator(".topbar").inner_text()
    assert watch.errors == []


@pytest.mark.parametrize("size", SIZES)
def test_replay(
    browser: Any, web: ServerProcess, shots: Path, size: str, finished: dict[str, Any]
) -> None:
    page, watch = open_page(browser, web, finished["login"], SIZES[size], "")
    page.goto(f"{web.http}/#/replay/{finished['match_id']}")
    page.wait_for_selector(".replay .table")
    n = int(page.locator("input[type=range]").get_attribute("max") or 0)
    assert n > 0
    page.get_by_role("button", name="下一步").click()
    page.get_by_role("button", name="下一步").click()
    assert page.locator("[data-step]").inner_text().startswith("第 2/")
    page.keyboard.press("ArrowRight")
    assert page.locator("[data-step]").inner_text().startswith("第 3/")
    # The player's own replay opens at their seat (its 分析 at hand), not as a spectator.
    assert page.locator("select[aria-label='视角']").input_value() == "0"
    page.wait_for_selector(".hand-card")
    page.select_option("select[aria-label='视角']", "")
    page.wait_for_function("() => !document.querySelector('.hand-card')")
    assert page.locator(".hand-card").count() == 0  # the spectator's view: no hand
    # The seats go by the guest's nickname and the bots' level names, as at the table.
    options = page.locator("select[aria-label='视角'] option").all_inner_texts()
    assert "回放" in options[1] and all("机器人" in o for o in options[2:4]), options
    assert "机器人" in page.locator('.seat-panel[data-seat="1"] .seat-name').inner_text()
    # Nothing wider than the screen (at 390 px the replay was 450 px wide, cut off).
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= SIZES[size]["width"], f"the replay is {wide} px wide at {SIZES[size]}"
    assert options[-1] == "全部手牌", options
    # Every hand open (the record shows them anyway): each seat's hand on its panel.
    page.select_option("select[aria-label='视角']", "open")
    page.wait_for_function("() => document.querySelectorAll('.seat-panel .seat-hand').length === 3")
    assert page.locator(".hand-card").count() == 0
    page.select_option("select[aria-label='视角']", "0")
    page.wait_for_selector(".hand-card")
    check(page, watch, shots, f"replay-{size}")
    page.keyboard.press("End")
    page.wait_for_selector(".settlement")


@pytest.mark.parametrize("size", SIZES)
def test_account(
    browser: Any, web: ServerProcess, shots: Path, size: str, finished: dict[str, Any]
) -> None:
    page, watch = open_page(browser, web, finished["login"], SIZES[size], "#/account")
    page.wait_for_selector(".account .room-row")
    me = http(web.http, "GET", "/accounts/me", token=finished["login"]["token"])
    assert page.locator("[data-balance]").inner_text() == str(me["balance"])
    assert page.locator(f"a[href='#/replay/{finished['match_id']}']").count() == 1
    # The record, from the same matches and ledger the server answers.
    tok = finished["login"]["token"]
    matches = http(web.http, "GET", "/accounts/me/matches", token=tok)
    rounds = [r for r in http(web.http, "GET", "/accounts/me/ledger", token=tok)
              if r["reason"] == "round"]  # fmt: skip
    done = [m for m in matches if m["status"] == "finished" and m["scoring"] == "ledger"]
    hu = sum(r["delta"] > 0 for r in rounds)
    record = page.locator("[data-record]").inner_text()
    assert done and rounds, (matches, rounds)
    assert f"{len(done)} 场（赢 {sum(m['net'] > 0 for m in done)} 场）" in record, record
    assert f"{len(rounds)} 局 · 胡 {hu} 次" in record, record
    check(page, watch, shots, f"account-{size}")


def test_page_weight_and_first_paint(browser: Any, web: ServerProcess) -> None:
    page, watch = open_page(browser, web, None, PHONE, "")
    page.wait_for_selector(".login form")
    m = page.evaluate(
        """() => {
          const nav = performance.getEntriesByType('navigation')[0];
          const res = performance.getEntriesByType('resource');
          const fcp = performance.getEntriesByName('first-contentful-paint')[0];
          const first = performance.getEntriesByName('phz-first-screen')[0];
          return {
            bytes: nav.encodedBodySize + res.reduce((n, r) => n + r.encodedBodySize, 0),
            fonts: res.filter((r) => /\\.(woff2?|ttf|otf)$/.test(r.name)).length,
            files: res.length + 1,
            fcp: fcp ? fcp.startTime : null,
            first: first ? first.startTime : null,
          };
        }"""
    )
    print(
        f"\npage weight {m['bytes']} bytes in {m['files']} files; first contentful paint "
        f"{m['fcp']:.0f} ms, first screen drawn {m['first']:.0f} ms"
    )
    assert m["fonts"] == 0 and m["bytes"] < 300_000
    assert m["first"] is not None and m["first"] < 1000
    assert watch.errors == []
