"""Cards that travel (motion.js) and 提示 in practice games (tip.js), in Debian's Chromium.

A recorder installed before the page's own scripts watches every flying copy the page adds
(``.flying`` under ``<body>``): its first box as inserted, its box at every frame until it is
removed, the discarding seat's panel and the box of the card it lands on. A discard must
start inside its source (the picked hand card itself, or the other seat's panel) and end on
the played card's box; a context that prefers reduced motion must never make one.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from paohuzi.server.process import ServerProcess
from paohuzi.web.screenshots import DESKTOP, PHONE, SIDEWAYS, bot_room, http, step

from .conftest import guest
from .test_a11y import _critical

_RECORDER = """(() => {
  window.__flights = [];
  const rect = (e) => { if (!e) return null; const r = e.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom]; };
  const lastOf = (sel, face) => { const a = [...document.querySelectorAll(sel)]
    .filter((e) => e.dataset.face === face); return a.length ? a[a.length - 1] : null; };
  const watch = (n) => {
    const seat = n.dataset.seat, face = n.dataset.face || null, kind = n.dataset.flight;
    const f = { kind, seat: Number(seat), face, first: rect(n), boxes: [], t0: performance.now(),
      pointer: getComputedStyle(n).pointerEvents, hidden: n.getAttribute('aria-hidden'),
      area: rect(document.querySelector(`.seat-panel[data-seat="${seat}"]`)),
      chosen: window.__chosen || null, target: null, t1: null };
    if (kind === 'discard' || kind === 'draw') f.target = rect(
      document.querySelector(`.offer .card[data-face="${face}"]`)
      || lastOf(`.seat-panel[data-seat="${seat}"] .seat-pile .card`, face));
    window.__flights.push(f);
    const sample = () => {
      if (!n.isConnected) { f.t1 = performance.now(); return; }
      f.boxes.push(rect(n));
      requestAnimationFrame(sample);
    };
    requestAnimationFrame(sample);
  };
  const start = () => new MutationObserver((ms) => {
    for (const m of ms) for (const n of m.addedNodes)
      if (n instanceof Element && n.classList.contains('flying')) watch(n);
  }).observe(document.body, { childList: true });
  if (document.body) start(); else document.addEventListener('DOMContentLoaded', start);
})();"""


_PICKED = """() => { const r = document.querySelector('.hand-card.selected .card')
  .getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }"""


def _context(browser: Any, login: dict[str, Any], **kw: Any) -> Any:
    """A phone-sized context signed in as ``login``, with the flight recorder."""
    ctx = browser.new_context(viewport=PHONE, **kw)
    ctx.set_default_timeout(8000)
    token, account = json.dumps(login["token"]), json.dumps(json.dumps(login["account"]))
    ctx.add_init_script(
        f"localStorage.setItem('phz.token', {token});"
        f" localStorage.setItem('phz.account', {account});"
    )
    ctx.add_init_script(_RECORDER)
    return ctx


def _start(page: Any, srv: ServerProcess, code: str) -> None:
    page.goto(f"{srv.http}/#/room/{code}")
    page.get_by_role("button", name="开始").click()
    page.wait_for_selector(".hand-card")


def _discard(page: Any) -> bool:
    """Pick a discardable card, note its box (the flight's source), then discard it."""
    card = page.locator(".hand-card.can").first
    try:
        card.click(timeout=2000)
        page.wait_for_timeout(150)  # the picked card's lift (.12 s) has ended
        box = page.evaluate(_PICKED)
        page.evaluate(f"() => {{ window.__chosen = {json.dumps(box)}; }}")
        page.locator(".hand-card.can.selected").click(timeout=2000)
    except Exception:  # the table moved on under the click: look again
        return False
    return True


def _play_until(page: Any, done: Any, seconds: float = 90) -> None:
    """Decide at every turn (our own discards by hand, claims by ``step``) until ``done()``."""
    for _ in range(int(seconds * 10)):
        if done():
            return
        if page.locator(".settlement").count():  # a round's 结算: 准备 for the next, if any
            ready = page.locator(".settlement [data-ready-button]:enabled")
            if not ready.count():
                return  # the match is over (or this seat is ready already)
            ready.click()
            page.wait_for_timeout(300)
            continue
        if page.locator("button.claim:enabled").count():
            step(page, settle=False)
        elif page.locator(".hand-card.can").count() and not page.locator(".overlay").count():
            _discard(page)
        page.wait_for_timeout(100)


def _near(a: list[float], b: list[float], px: float) -> bool:
    return all(abs(x - y) <= px for x, y in zip(a, b, strict=True))


def _inside(a: list[float], area: list[float]) -> bool:
    return (a[0] >= area[0] - 0.5 and a[1] >= area[1] - 0.5
            and a[2] <= area[2] + 0.5 and a[3] <= area[3] + 0.5)  # fmt: skip


def _landed(f: dict[str, Any]) -> bool:
    """A flight that ran to its end: several frames, the last on its target (one pushed out
    early by a newer flight, as bots answering at once do, stops short of it). Judged by
    where it stopped, not how long it took: frames come late on a busy machine."""
    return (f["t1"] is not None and len(f["boxes"]) >= 3 and bool(f["target"])
            and _near(f["boxes"][-1], f["target"], 3))  # fmt: skip


def test_a_discard_flies_from_its_source_to_the_played_card(
    browser: Any, web: ServerProcess, shots: Path
) -> None:
    code, login = bot_room(web.http, "飞牌", 3, 11)  # rounds to spare: one may end early
    ctx = _context(browser, login, bypass_csp=True)  # axe is injected mid-flight
    page = ctx.new_page()
    _start(page, web, code)
    me = page.evaluate("() => window.__phz.game.snapshot.seat")
    flights = lambda: page.evaluate("() => window.__flights")  # noqa: E731

    def enough() -> bool:
        fs = [f for f in flights() if f["kind"] == "discard" and f["target"]]
        return (any(f["seat"] == me and f["chosen"] for f in fs)
                and any(f["seat"] != me for f in fs)
                and any(_landed(f) for f in fs))  # fmt: skip

    # A reload at our turn: the snapshot and the events caught up with fly nothing.
    page.wait_for_selector(".hand-card.can, button.claim:enabled", timeout=15000)
    page.reload()
    page.wait_for_selector(".hand-card.can, button.claim:enabled", timeout=15000)
    page.wait_for_timeout(800)
    assert flights() == []
    _play_until(page, enough)
    fs = flights()
    assert fs, "no card flew"
    for f in fs:
        assert f["pointer"] == "none" and f["hidden"] == "true", f
    # Bots answer at once, so a flight is often pushed out by the next before it lands:
    # every discard must start on its source, and those that ran their course end on
    # their target (at least one of them).
    discards = [f for f in fs if f["kind"] == "discard" and f["target"]]
    mine = [f for f in discards if f["seat"] == me and f["chosen"]]
    theirs = [f for f in discards if f["seat"] != me]
    landed = [f for f in discards if _landed(f)]
    assert mine and theirs and landed, fs
    for f in mine:  # from the picked hand card itself, towards the card shown played
        assert _near(f["first"], f["chosen"], 3), f
        assert not _near(f["first"], f["target"], 20), f  # it has somewhere to travel
    for f in theirs:  # from inside the other seat's panel
        assert _inside(f["first"], f["area"]), f
    for f in landed:  # and it travelled: it ends on the card shown played
        assert not _near(f["first"], f["boxes"][-1], 20), f
    # Transform only, and bounded: at most three copies at once, none left behind.
    assert page.locator(".flying").count() <= 3
    page.wait_for_timeout(600)
    assert page.locator(".flying").count() == 0
    # Mid-flight at phone size, slowed down (the page's own timing is 280 ms).
    cdp = ctx.new_cdp_session(page)
    cdp.send("Animation.enable")
    cdp.send("Animation.setPlaybackRate", {"playbackRate": 0.05})

    def in_air() -> bool:
        return bool(page.locator(".flying").count())

    _play_until(page, in_air, 30)
    assert in_air()
    page.screenshot(path=str(shots / "motion-phone-midflight.png"))
    _critical(page, "mid-flight")
    ctx.close()


def test_reduced_motion_never_flies_a_card(browser: Any, web: ServerProcess) -> None:
    code, login = bot_room(web.http, "不动", 1, 11)
    ctx = _context(browser, login, reduced_motion="reduce")
    page = ctx.new_page()
    _start(page, web, code)
    assert page.evaluate("() => matchMedia('(prefers-reduced-motion: reduce)').matches")
    moves = {"n": 0}

    def played() -> bool:
        moves["n"] = len(page.evaluate("() => window.__phz.log"))
        return moves["n"] >= 12

    _play_until(page, played)
    assert moves["n"] >= 12
    assert page.evaluate("() => window.__flights") == []
    ctx.close()


def _hand_in_view(page: Any) -> None:
    """With 提示 open, the whole hand and the claim bar are still on the screen."""
    boxes = page.locator(".hand-card, .claimbar .claim").evaluate_all(
        "(els) => els.map((e) => { const r = e.getBoundingClientRect();"
        " return [r.left, r.top, r.right, r.bottom]; })"
    )
    w, h = page.evaluate("() => [innerWidth, innerHeight]")
    assert boxes
    for left, top, right, bottom in boxes:
        assert left >= -0.5 and top >= -0.5 and right <= w + 0.5 and bottom <= h + 0.5, (
            w,
            h,
            boxes,
        )


def _tip_texts(page: Any) -> list[str]:
    page.wait_for_selector("[data-tip-option]", timeout=60000)
    return [str(x) for x in page.locator("[data-tip-option]").evaluate_all(
        "(els) => els.map((e) => e.dataset.text)")]  # fmt: skip


def test_tip_in_a_practice_game_shows_every_option_valued(
    browser: Any, web: ServerProcess, shots: Path
) -> None:
    code, login = bot_room(web.http, "练习", 1, 5)
    ctx = _context(browser, login, bypass_csp=True)  # axe is injected with 提示 open
    page = ctx.new_page()
    _start(page, web, code)
    # Wait for a decision of ours with a choice (a discard turn, or a claim).
    page.wait_for_function("() => { const s = window.__phz.game.snapshot;"
                           " return s && s.legal.length >= 2; }", timeout=30000)  # fmt: skip
    button = page.get_by_role("button", name="提示：这一步每个选择的期望得分（快捷键 h）")
    assert button.count() == 1
    button.focus()  # keyboard reachable: focused and pressed with Enter
    page.keyboard.press("Enter")
    shown = _tip_texts(page)
    legal = page.evaluate("() => window.__phz.game.snapshot.legal.map((a) => a.text)")
    assert sorted(shown) == sorted(legal), (shown, legal)
    values = page.locator("[data-tip-option] [data-value]").evaluate_all(
        "(els) => els.map((e) => Number(e.dataset.value))"
    )
    assert values == sorted(values, reverse=True), values  # best first
    assert page.locator("[data-tip-option].best .tip-best").count() == 1
    # "最佳" only when the next option is behind by more than twice its error
    badge = page.locator(".tip-best").inner_text()
    assert badge in ("最佳", "难分高下"), badge
    assert ("close" in (page.locator(".tip-best").get_attribute("class") or "")) == (
        badge == "难分高下"
    )
    # each other option shows how far behind the best it is, the gap between the values
    # shown (never negative, never 0 beside a lower value), with its error
    losses = page.locator("[data-tip-option] [data-loss]").evaluate_all(
        "(els) => els.map((e) => [Number(e.dataset.loss), e.textContent])"
    )
    assert losses and all(f"{x:.2f} ± " in text for x, text in losses), losses
    gaps = [values[0] - v for v in values[1:]]
    assert [x for x, _ in losses] == pytest.approx(gaps), (losses, values)
    assert page.locator("[data-tip-left]").count() == 0  # every option valued here
    assert "±" in page.locator("[data-tip-option]").first.inner_text()
    page.screenshot(path=str(shots / "tip-phone.png"))
    _hand_in_view(page)
    _critical(page, "提示")
    # The same in English.
    page.locator(".tip-panel button").click()  # closed (the page redraws after the click)
    page.locator("[data-tip]").wait_for(state="detached", timeout=5000)
    page.evaluate("() => localStorage.setItem('phz.lang', 'en')")
    page.set_viewport_size(SIDEWAYS)  # and on a phone turned sideways
    page.reload()
    page.wait_for_function("() => { const s = window.__phz.game && window.__phz.game.snapshot;"
                           " return s && s.legal.length >= 2; }", timeout=30000)  # fmt: skip
    page.keyboard.press("h")
    assert sorted(_tip_texts(page)) == sorted(legal)
    english = page.locator("[data-tip]").inner_text()
    assert "Best" in english or "Too close to call" in english, english
    page.screenshot(path=str(shots / "tip-sideways-en.png"))
    _hand_in_view(page)
    # And on a desktop: the panel floats over the right-hand seat, wholly on the screen
    # (below the status line it pushed the hand off the screen, its last options too).
    page.set_viewport_size(DESKTOP)
    page.wait_for_timeout(300)
    _hand_in_view(page)
    w, h = page.evaluate("() => [innerWidth, innerHeight]")
    panel = page.locator("[data-tip]").bounding_box()
    assert panel is not None and panel["y"] >= 0 and panel["y"] + panel["height"] <= h + 0.5, panel
    assert panel["x"] + panel["width"] <= w + 0.5, panel
    page.screenshot(path=str(shots / "tip-desktop-en.png"))
    ctx.close()


def test_no_tip_when_another_person_is_seated(browser: Any, web: ServerProcess) -> None:
    logins = [guest(web, n) for n in ("甲", "乙", "丙")]
    tok = [x["token"] for x in logins]
    code = http(web.http, "POST", "/rooms", {"rounds": 1, "public": True}, tok[0])["code"]
    http(web.http, "POST", f"/rooms/{code}/seed", {"seed": 5}, tok[0])
    for i, t in enumerate(tok):
        http(web.http, "POST", f"/rooms/{code}/join", {"seat": i}, t)
    http(web.http, "POST", f"/rooms/{code}/start", {}, tok[0])
    # The seat with a decision open: its page has everything but the 提示 button.
    ctx = page = None
    for login in logins:
        ctx = _context(browser, login)
        page = ctx.new_page()
        page.goto(f"{web.http}/#/room/{code}")
        page.wait_for_selector(".table")
        page.wait_for_timeout(300)
        if page.evaluate("() => window.__phz.game.snapshot.legal.length") >= 2:
            break
        ctx.close()
    else:
        pytest.fail("no seat has a decision")
    assert page.locator(".hand-card.can, button.claim:enabled").count()
    assert page.locator("[data-tip-button]").count() == 0
    page.keyboard.press("h")
    page.wait_for_timeout(300)
    assert page.locator("[data-tip]").count() == 0
    seat = page.evaluate("() => window.__phz.game.snapshot.seat")
    with pytest.raises(Exception, match="403"):  # and the server says no as well
        http(web.http, "POST", f"/rooms/{code}/hint", None, tok[seat])
    ctx.close()
