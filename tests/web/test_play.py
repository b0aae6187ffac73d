"""Whole rounds by clicks in real Chromium: three players, a match against bots, reloads."""

from __future__ import annotations

import collections
from typing import Any

import httpx
import pytest

import paohuzi
from paohuzi.server.process import ServerProcess
from paohuzi.web.screenshots import (
    DESKTOP,
    PHONE,
    bot_room,
    can_discard,
    http,
    play,
)

from ..server.steps import audience_steps
from .conftest import guest, open_page


def _deltas(page: Any) -> list[int]:
    cells = page.locator(".settlement table.deltas tbody tr").all()
    return [int(r.locator("td").nth(1).inner_text()) for r in cells]


def _public_faces(v: dict[str, Any]) -> collections.Counter[str]:
    """Every face a spectator's view shows: groups, piles, the card on offer, the 亮张."""
    c: collections.Counter[str] = collections.Counter(v["liangzhang"])
    for t in v["tables"]:
        for g in t:
            c.update(ch for ch in g.split(":")[1] if ch != "▢")
    for p in v["piles"]:
        c.update(p)
    if v["offer"]:
        c.update(v["offer"])
    return c


def _spectator_dom_matches(page: Any) -> bool:
    """The spectator's page shows exactly its view's public cards, and no hand."""
    got = page.evaluate(
        """() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(() => ok({
            view: window.__phz.game.snapshot && window.__phz.game.snapshot.view,
            faces: [...document.querySelectorAll('.table svg.card[data-face]')]
                .map((e) => e.dataset.face).filter((f) => f),
            hand: document.querySelectorAll('.hand-card, .seat-hand').length,
        }))))"""
    )
    v = got["view"]
    if v is None or v["phase"] == "over":
        return True
    assert got["hand"] == 0, "a spectator's page shows a hand"
    return collections.Counter("".join(got["faces"])) == _public_faces(v)


@pytest.mark.slow
def test_three_players_play_a_round_by_clicks_and_a_spectator_sees_no_hidden_card(
    browser: Any, web: ServerProcess
) -> None:
    logins = [guest(web, n) for n in ("东", "南", "西")]
    tok = [x["token"] for x in logins]
    code = http(web.http, "POST", "/rooms", {"rounds": 1, "public": True}, tok[0])["code"]
    http(web.http, "POST", f"/rooms/{code}/seed", {"seed": 7}, tok[0])
    pages, watches = [], []
    for i, login in enumerate(logins):
        p, w = open_page(browser, web, login, PHONE, f"#/room/{code}")
        p.get_by_role("button", name="坐下").nth(0).click()  # the first free seat: seat i
        p.wait_for_selector(f'.seat-row[data-seat="{i}"] >> text={login["account"]["nickname"]}')
        pages.append(p)
        watches.append(w)
    spec_login = guest(web, "看客")
    spec, spec_watch = open_page(browser, web, spec_login, PHONE, f"#/watch/{code}")
    pages[0].get_by_role("button", name="开始").click()
    for p in [*pages, spec]:
        p.wait_for_selector(".table")
    checks = {"dom": 0, "step": -1, "claims": 0}
    hidden_hands: list[str] = []

    def over(_: list[str]) -> bool:
        step = spec.evaluate("() => (window.__phz.game.snapshot || {}).step")
        if step != checks["step"] and _spectator_dom_matches(spec):
            checks["dom"] += 1
            checks["step"] = step
        for p in pages:  # with a claim's buttons up, the hand is on screen without scrolling,
            # even with the own panel 900 px taller (many groups): it gives the room back
            foot = p.evaluate(
                """() => {
                  const hand = document.querySelector('div.hand');  // (the offer is a .card.hand)
                  const own = document.querySelector('.table > .seat-panel.bottom');
                  if (!document.querySelector('.claimbar .claim') || !hand || !own) return null;
                  const tall = own.getBoundingClientRect().height;  // a row of groups in sight
                  const pad = document.createElement('div');
                  pad.style.height = '900px';
                  own.appendChild(pad);
                  const cards = [...hand.querySelectorAll('.hand-card .card')];
                  if (!cards.length) return null;
                  const low = Math.max(...cards.map((c) => c.getBoundingClientRect().bottom));
                  const foot = [low + scrollY, innerHeight, tall];
                  pad.remove();
                  return foot;
                }"""
            )
            if foot is not None:
                checks["claims"] += 1
                if foot[0] > foot[1] + 1:
                    hidden_hands.append(f"the hand ends at {foot[0]:.0f} px of {foot[1]}")
                if foot[2] < min(100, 0.11 * foot[1]):  # it was squeezed to a 12 px strip
                    hidden_hands.append(f"the own panel is {foot[2]:.0f} px tall")
        return all(p.locator(".settlement").count() for p in pages)

    made = play(pages, over, seconds=90, settle=False)
    assert checks["dom"] >= 5  # the spectator's DOM was checked along the way
    assert checks["claims"] >= 3 and hidden_hands == [], (checks, hidden_hands)
    deltas = [_deltas(p) for p in pages]
    # Each page names itself 你: the rows are seats 0, 1, 2 on every page.
    assert deltas[0] == deltas[1] == deltas[2] and sum(deltas[0]) == 0
    for p in pages:
        p.locator(".settlement .btn.primary").click()
        p.wait_for_selector(".summary")
    match_id = httpx.get(f"{web.http}/rooms/{code}").json()["match_id"]
    record = paohuzi.MatchRecord.from_dict(
        httpx.get(f"{web.http}/matches/{match_id}/record").json()
    )
    (states,) = paohuzi.replay_match(record)
    # Every decision of the round was a click on one of the three pages, in order; a
    # click missing from the record is a claim another seat's higher claim overtook in
    # flight (refused as stale: docs/protocol.md), never a discard.
    recorded = [a.text for a in record.rounds[0].actions]
    rest = iter(made)
    overtaken = []
    for text in recorded:
        for clicked in rest:
            if clicked == text:
                break
            overtaken.append(clicked)
        else:
            raise AssertionError(f"{text} was recorded but never clicked: {made}")
    overtaken += list(rest)
    assert all(not t.startswith("打") for t in overtaken) and len(overtaken) <= 2, overtaken
    assert list(states.result.deltas) == deltas[0]
    # The spectator's websocket frames: nothing §14 hides (checked against the record).
    # The pages draw the table from the views their prompts carry: one snapshot on connect,
    # not one per decision.
    # One prompt per step of the page's audience (none for another seat's private 过).
    for w, who in [*zip(watches, (0, 1, 2), strict=True), (spec_watch, None)]:
        kinds = [m["type"] for m in w.frames]
        steps = len(audience_steps([states], who)) - 1
        assert kinds.count("prompt") >= steps and kinds.count("snapshot") <= 2, kinds
    views = [m for m in spec_watch.frames if m["type"] in ("snapshot", "prompt")]
    assert any(m["type"] == "snapshot" for m in views)
    public = audience_steps([states], None)
    for m in views:
        assert m["view"] == public[m["step"]].view
        assert m.get("seat") is None and m["legal"] == []
    for m in spec_watch.frames:
        if m["type"] == "event" and m["event"]["kind"] == "deal":
            assert m["event"]["hands"] == [None, None, None]
        if m["type"] == "event" and m["event"].get("hidden"):
            assert "face" not in m["event"], m
    for w in [*watches, spec_watch]:
        assert w.errors == []


def test_one_player_plays_a_match_against_two_bots_with_the_keyboard(
    browser: Any, web: ServerProcess
) -> None:
    code, login = bot_room(web.http, "键盘", 2, 3)
    page, watch = open_page(browser, web, login, DESKTOP, f"#/room/{code}")
    page.get_by_role("button", name="开始").click()
    page.wait_for_selector(".table")
    settlements = 0
    fetched: list[str] = []  # each round's 结算, as the page asked for it
    page.on("response", lambda r: "/rounds/" in r.url and r.ok and fetched.append(r.url))
    keys = 0
    for _ in range(2000):
        if page.locator(".summary").count():
            break
        if page.locator(".settlement").count():
            settlements += 1
            page.keyboard.press("Enter")
            page.wait_for_selector(".settlement", state="detached")
            continue
        # The claim buttons read in one go: a window may close between two separate reads.
        offer = page.evaluate(
            """() => {
                const hu = document.querySelector("button.claim.hu:enabled");
                const first = document.querySelector("button.claim:enabled");
                if (hu) return hu.getAttribute("aria-keyshortcuts");
                if (first) return first.getAttribute("data-text") !== "过" ? "1" : "p";
                return null;
            }"""
        )
        if offer is not None:
            page.keyboard.press(str(offer).split()[0])
            keys += 1
        elif page.locator(".hand-card.can").count():
            page.keyboard.press("ArrowRight")
            page.keyboard.press("Enter")
            keys += 1
        page.wait_for_timeout(40)
    assert page.locator(".summary").count(), "no match summary"
    assert watch.errors == []
    assert settlements >= 1 and keys > 0  # an Enter may also close a sheet as it opens
    # (each round's 结算 as it ended; the summary asks for them again for its table)
    assert sorted({u.rsplit("/", 1)[1] for u in fetched}) == ["0", "1"]
    match_id = httpx.get(f"{web.http}/rooms/{code}").json()["match_id"]
    mine = httpx.get(
        f"{web.http}/accounts/me/matches", headers={"Authorization": f"Bearer {login['token']}"}
    ).json()
    net = next(m["net"] for m in mine if m["match_id"] == match_id)
    shown = page.locator('.summary tr[data-seat="0"] td[data-total]').inner_text()
    assert int(shown) == net
    assert watch.errors == []


def test_reload_and_a_lost_connection_keep_the_seat(browser: Any, web: ServerProcess) -> None:
    code, login = bot_room(web.http, "重连", 1, 29)
    page, watch = open_page(browser, web, login, PHONE, f"#/room/{code}")
    page.get_by_role("button", name="开始").click()
    page.wait_for_selector(".table")
    play([page], lambda d: len(d) >= 3 and can_discard(page))

    def hand() -> list[str]:
        return sorted(
            page.locator(".hand-card").evaluate_all("(es) => es.map((e) => e.dataset.face)")
        )

    def log() -> list[str]:
        return page.locator(".log li").all_inner_texts()

    before, moves = hand(), log()
    assert moves and any(w in m for m in moves for w in ("你", "上家", "下家")), moves
    page.reload()
    page.wait_for_selector(".hand-card.can")
    assert hand() == before
    # The recent moves read the same after the reload (seat words and names) as live.
    page.wait_for_function(
        "(n) => document.querySelectorAll('.log li').length >= n", arg=len(moves)
    )
    assert log() == moves
    assert page.locator('.seat-panel.bottom[data-seat="0"]').count() == 1
    # A lost connection: a banner while it is down, then the same seat and view again.
    page.context.set_offline(True)
    page.evaluate("window.__phz.game.ws.close()")
    page.wait_for_selector(".banner")
    page.wait_for_timeout(700)
    assert page.locator(".banner").count() == 1
    page.context.set_offline(False)
    page.wait_for_selector(".banner", state="detached", timeout=10000)
    assert hand() == before
    done = play([page], lambda d: page.locator(".settlement, .summary").count() > 0)
    assert done
    # Offline on purpose (a poll in flight when the page reloads is aborted: Watch.aborted).
    errors = [e for e in watch.errors if "ERR_INTERNET_DISCONNECTED" not in e]
    assert errors == []


def test_an_act_the_sockets_rate_dropped_goes_again(browser: Any, web: ServerProcess) -> None:
    """``rate_limited`` drops a message unread and cannot say which: the page sends its act
    in flight again after a pause (one act, once), rather than wait for an ack forever."""
    code, login = bot_room(web.http, "限速", 1, 7)
    page, _ = open_page(browser, web, login, PHONE, f"#/room/{code}")
    page.get_by_role("button", name="开始").click()
    page.wait_for_selector(".table")
    sent = page.evaluate(
        """() => new Promise((done) => {
          const g = window.__phz.game, sent = [];
          g.send = (m) => { if (m.type === "act") sent.push(m); };  // kept from the server
          g.pending = {type: "act", action: 20, step: 1, client_id: "dropped"};
          g.receive({type: "error", code: "rate_limited", reason: "dropped", client_id: null});
          const early = sent.length;  // nothing at once: the bucket refills first
          setTimeout(() => done({early, sent}), 1200);
        })"""
    )
    act = {"type": "act", "action": 20, "step": 1, "client_id": "dropped"}
    assert sent == {"early": 0, "sent": [act]}, sent


def test_countdown_tuoguan_and_dissolve(browser: Any, web: ServerProcess) -> None:
    login = guest(web, "托管")
    tok = login["token"]

    def room(rounds: int) -> str:
        body = {"rounds": rounds, "public": True, "time_limit": 30}
        code = str(http(web.http, "POST", "/rooms", body, tok)["code"])
        http(web.http, "POST", f"/rooms/{code}/join", {"seat": 0}, tok)
        http(web.http, "POST", f"/rooms/{code}/bots", {"seat": None, "bot": "heuristic"}, tok)
        http(web.http, "POST", f"/rooms/{code}/seed", {"seed": 29}, tok)
        return code

    code = room(1)
    page, watch = open_page(browser, web, login, PHONE, f"#/room/{code}")
    page.get_by_role("button", name="开始").click()
    page.wait_for_selector("[data-countdown]")
    left = int(page.locator("[data-countdown]").get_attribute("data-countdown") or -1)
    assert 0 < left <= 30
    # 托管: the server plays the seat; the round ends with no click of ours.
    page.locator("[data-tuoguan]").click()
    page.wait_for_selector(".seat-panel.bottom .badge.tuoguan, .settlement")
    page.wait_for_selector(".settlement", timeout=30000)
    page.locator(".settlement .btn.primary").click()
    page.wait_for_selector(".summary")
    # 解散: the bots agree at once, so the proposer's vote ends the match.
    code = room(2)
    page.goto(f"{web.http}/#/room/{code}")
    page.get_by_role("button", name="开始").click()
    page.wait_for_selector("[data-dissolve]:enabled")
    page.locator("[data-dissolve]").click()
    page.wait_for_selector(".summary")
    assert "本场已解散" in page.locator(".summary").inner_text()
    assert watch.errors == []


def test_a_decision_the_clock_took_is_told(browser: Any, web: ServerProcess) -> None:
    """When the seat's time runs out the server answers for it (过, or the heuristic's
    card); the page said nothing of it. Now a toast says the server decided."""
    login = guest(web, "超时")
    tok = login["token"]
    code = str(http(web.http, "POST", "/rooms", {"rounds": 1, "time_limit": 1}, tok)["code"])
    http(web.http, "POST", f"/rooms/{code}/join", {"seat": 0}, tok)
    http(web.http, "POST", f"/rooms/{code}/bots", {"seat": None, "bot": "heuristic"}, tok)
    page, watch = open_page(browser, web, login, PHONE, f"#/room/{code}")
    page.get_by_role("button", name="开始").click()
    page.wait_for_selector(".toast:has-text('时间到')", timeout=20_000)
    assert "系统已替你操作" in page.locator(".toast").inner_text()
    assert watch.errors == [], watch.errors
