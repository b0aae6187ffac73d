"""The table as players know it, by three people in three contexts (a phone upright, a phone
sideways, a desktop) playing a two-round match through 准备: at every claim the whole hand
and the claim bar are inside the viewport (measured from element boxes) and every seat
shows its public 胡息; at every discard the acting seat's clock is shown to the other two;
during the 结算 no clock runs and a reload shows the same 结算."""

from __future__ import annotations

import contextlib
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from paohuzi.core.groups import HUXI, GroupKind, set_shape_huxi
from paohuzi.server.process import ServerProcess
from paohuzi.web.screenshots import DESKTOP, PHONE, SIDEWAYS, bot_room, http, step

from .conftest import guest, open_page

SIZES = (PHONE, SIDEWAYS, DESKTOP)

_BOXES = """() => {
  const box = (e) => { const r = e.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom]; };
  return {
    w: innerWidth, h: innerHeight,
    hand: [...document.querySelectorAll('.hand-card')].map(box),
    bar: [...document.querySelectorAll('.claimbar, .claimbar .claim')].map(box),
    huxi: Object.fromEntries([...document.querySelectorAll('.seat-panel')].map((p) =>
      [p.dataset.seat, (p.querySelector('[data-huxi]') || {dataset: {}}).dataset.huxi])),
    tables: window.__phz.game.snapshot.view.tables,
  };
}"""


def _huxi(group: str) -> int | None:
    """A table group's 胡息 from its notation (None: face down), by the core's own table."""
    kind, faces = group.split(":")
    if "▢" in faces:
        return None
    big = all(c in "壹贰叁肆伍陆柒捌玖拾" for c in faces)
    if kind in ("吃", "比"):
        idx = sorted(("一二三四五六七八九十".find(c) if c in "一二三四五六七八九十"
                      else 10 + "壹贰叁肆伍陆柒捌玖拾".find(c)) for c in faces)  # fmt: skip
        return set_shape_huxi(idx[0], idx[1], idx[2])
    return HUXI[GroupKind(kind)][1 if big else 0]


def _inside(page: Any, shots: Path, n: int) -> bool:
    """The whole hand and the claim bar inside the viewport; every seat's 胡息 shown and
    equal to its table groups' (face up) sum. False if the claim closed before the look."""
    page.screenshot(path=str(shots / f"claim-{n}.png"))
    b = page.evaluate(_BOXES)
    if not b["bar"]:
        return False
    assert b["hand"], b
    for left, top, right, bottom in b["hand"] + b["bar"]:
        assert left >= -0.5 and top >= -0.5, b
        assert right <= b["w"] + 0.5 and bottom <= b["h"] + 0.5, (b["w"], b["h"], b)
    for seat, groups in enumerate(b["tables"]):
        want = sum(h for g in groups if (h := _huxi(g)) is not None)
        assert b["huxi"][str(seat)] == str(want), (seat, groups, b["huxi"])
    return True


def over_id(page: Any) -> int:
    return int(page.evaluate("() => window.__phz.game.over.match_id"))


def _clock_shown(page: Any, seat: int) -> bool:
    return bool(page.locator(f'.seat-panel[data-seat="{seat}"] [data-clock]').count())


def _deltas(page: Any) -> list[str]:
    """The 结算's numbers, seat by seat (the row names say 你/上家/下家, page by page)."""
    rows = page.locator(".settlement table.deltas tbody tr").all()
    return [r.get_attribute("data-seat") + ":" + "/".join(r.locator("td").all_inner_texts())
            for r in rows]  # fmt: skip


@pytest.mark.slow
def test_a_two_round_match_through_zhunbei_at_three_sizes(
    browser: Any, web: ServerProcess, shots: Path
) -> None:
    logins = [guest(web, n) for n in ("东", "南", "西")]
    tok = [x["token"] for x in logins]
    body = {"rounds": 2, "public": True, "time_limit": 60, "ready_seconds": 120}
    code = http(web.http, "POST", "/rooms", body, tok[0])["code"]
    http(web.http, "POST", f"/rooms/{code}/seed", {"seed": 7}, tok[0])
    pages, watches = [], []
    for i, (login, size) in enumerate(zip(logins, SIZES, strict=True)):
        http(web.http, "POST", f"/rooms/{code}/join", {"seat": i}, login["token"])
        p, w = open_page(browser, web, login, size, f"#/room/{code}")
        pages.append(p)
        watches.append(w)
    pages[0].get_by_role("button", name="开始").click()
    for p in pages:
        p.wait_for_selector(".table")
    checked = {"claims": 0, "clocks": 0, "sizes": set()}

    def look_and_act(rnd: int) -> None:
        """Play until every page shows round ``rnd``'s 结算, checking at each decision."""
        for _ in range(3000):
            if all(p.locator(".settlement").count() for p in pages):
                return
            for i, p in enumerate(pages):
                claim = p.locator("button.claim:enabled").count()
                can = p.locator(".hand-card.can").count() and not p.locator(".overlay").count()
                if claim and not p.locator(".overlay").count():
                    if _inside(p, shots, checked["claims"]):
                        checked["claims"] += 1
                        checked["sizes"].add(i)
                elif can:  # our turn to discard: public, and so is our clock
                    others = [q for j, q in enumerate(pages) if j != i]
                    for q in others:
                        q.wait_for_selector(f'.seat-panel[data-seat="{i}"] [data-clock]',
                                            timeout=3000)  # fmt: skip
                    checked["clocks"] += 1
                with contextlib.suppress(Exception):  # the table moved on: look again
                    step(p, settle=False)
            pages[0].wait_for_timeout(20)
        raise AssertionError(f"round {rnd} did not end")

    look_and_act(0)
    for p in pages:
        p.wait_for_selector(".settlement [data-ready-button]:enabled")
    # No clock runs while the 结算 is open: none shown, none sent, for 1.5 s.
    before = [_deltas(p) for p in pages]
    assert before[0] == before[1] == before[2] and len(before[0]) == 3
    pages[0].wait_for_timeout(1500)
    for p in pages:
        assert p.locator("[data-clock], [data-countdown]:not(.ready-line *)").count() == 0
        g = p.evaluate("() => [window.__phz.game.deadline, window.__phz.game.clocks]")
        assert g == [None, [None, None, None]], g
    # A reload (the sideways page) shows the same 结算, still waiting for 准备.
    pages[1].reload()
    pages[1].wait_for_selector(".settlement [data-ready-button]:enabled")
    assert _deltas(pages[1]) == before[1]
    assert "第 1/2 局" in pages[1].locator(".settlement h2").inner_text()
    pages[1].screenshot(path=str(shots / "settlement-sideways-reloaded.png"))
    # 准备, one by one: everyone sees who is ready; the round is dealt after the last.
    for i, p in enumerate(pages):
        p.locator(".settlement [data-ready-button]").click()
        if i == 2:  # the last: dealt at once
            break
        for q in pages:
            q.wait_for_selector(f'.ready-seat.ok[data-seat="{i}"]', timeout=5000)
        assert all(q.locator(".settlement").count() for q in pages)
        assert p.locator(".settlement [data-ready-button]:disabled").count()
    for p in pages:
        p.wait_for_selector(".settlement", state="detached", timeout=10000)
        p.wait_for_selector('[data-round]:has-text("第 2/2 局")')
    look_and_act(1)
    for p in pages:
        p.locator(".settlement .btn.primary").click()
        p.wait_for_selector(".summary")
    # The summary: a column per round, the share link, 再来一局 with the same seats.
    for p in pages:
        p.wait_for_selector('.summary [data-round-col="1"]')
        assert p.locator(".summary thead th[data-round-col]").count() == 2
        assert f"#/replay/{over_id(p)}" in (p.locator("[data-share]").input_value())
    pages[2].screenshot(path=str(shots / "summary-desktop.png"))
    for p in pages:
        p.locator("[data-again]").click()
        p.wait_for_url("**/#/room/*")
    for p in pages:
        p.wait_for_selector('.table [data-round]:has-text("第 1/2 局")', timeout=15000)
    codes = {p.evaluate("() => window.__phz.game.code") for p in pages}
    assert len(codes) == 1 and code not in codes
    assert checked["claims"] >= 3 and checked["sizes"] == {0, 1, 2}, checked
    assert checked["clocks"] >= 6, checked
    match_id = httpx.get(f"{web.http}/rooms/{code}").json()["match_id"]
    record = httpx.get(f"{web.http}/matches/{match_id}/record").json()
    assert len(record["rounds"]) == 2
    for w in watches:
        assert [e for e in w.errors if "ERR_INTERNET" not in e] == []


@pytest.mark.slow
def test_a_claim_of_seven_options_leaves_the_hand_on_a_phone(
    browser: Any, web: ServerProcess, shots: Path
) -> None:
    """A claim of five or more options takes two rows on an upright phone; the whole hand
    and the claim bar stay on a 390×844 screen (the hand's fourth row fell below it under
    a claim of five). Deal 25 against two heuristic bots, played by the first option each
    time, offers seven (six 吃 and 过)."""
    code, login = bot_room(web.http, "七选", 1, 25)
    page, watch = open_page(browser, web, login, PHONE, f"#/room/{code}")
    page.get_by_role("button", name="开始").click()
    deadline = time.monotonic() + 90
    while page.locator(".claimbar .claim").count() < 5:
        assert time.monotonic() < deadline, "no claim of five options came"
        assert not page.locator(".settlement").count(), "the round ended without one"
        if step(page) is None:
            page.wait_for_timeout(100)
    b = page.evaluate(_BOXES)
    page.screenshot(path=str(shots / "claim-seven-phone.png"))
    assert len(b["bar"]) >= 6 and b["hand"], b  # the bar and its options, the hand
    for left, top, right, bottom in b["hand"] + b["bar"]:
        assert left >= -0.5 and top >= -0.5, b
        assert right <= b["w"] + 0.5 and bottom <= b["h"] + 0.5, (b["w"], b["h"], b)
    assert watch.errors == [], watch.errors
