"""The replay viewer's 分析: the analysis of one seat asked for, its graph and options."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from paohuzi.server.process import ServerProcess
from paohuzi.web.screenshots import DESKTOP, http

from .conftest import guest, open_page


def _bots_match(web: ServerProcess, login: dict[str, Any]) -> int:
    """A private one-round match: the guest in seat 1 under 托管 (the server plays it, as
    for a player who asked), random bots in seats 0 and 2, played to its end."""
    tok = login["token"]
    code = http(web.http, "POST", "/rooms", {"rounds": 1, "public": False}, token=tok)["code"]
    http(web.http, "POST", f"/rooms/{code}/join", {"seat": 1}, token=tok)
    http(web.http, "POST", f"/rooms/{code}/bots", {"bot": "random"}, token=tok)
    ws_url = web.http.replace("http", "ws", 1) + f"/ws/{code}"
    with connect(ws_url) as ws:
        ws.send(json.dumps({"type": "auth", "token": tok}))
        match_id = int(http(web.http, "POST", f"/rooms/{code}/start", token=tok)["match_id"])
        ws.send(json.dumps({"type": "tuoguan", "on": True}))
        deadline = time.monotonic() + 60
        h = {"Authorization": f"Bearer {tok}"}
        while httpx.get(f"{web.http}/rooms/{code}", headers=h).json()["status"] != "finished":
            assert time.monotonic() < deadline, "the match did not finish"
            time.sleep(0.1)
    return match_id


@pytest.mark.slow
def test_replay_analysis_graph_and_options(browser: Any, web: ServerProcess) -> None:
    login = guest(web, "复盘")
    match_id = _bots_match(web, login)
    page, watch = open_page(browser, web, login, DESKTOP, f"#/replay/{match_id}")
    page.wait_for_selector(".replay .table")
    # the player's own replay opens at their seat, its 分析 at hand
    page.wait_for_function("() => document.querySelector('[data-view-as]').value === '1'")
    assert page.get_by_role("button", name="分析").is_enabled()
    page.select_option("select[aria-label='视角']", index=0)  # as a spectator
    assert page.get_by_role("button", name="分析").is_disabled()  # a seat first, said so
    assert "先选择一个座位视角" in page.locator("[data-pick-seat]").inner_text()
    page.select_option("select[aria-label='视角']", "1")
    page.locator("[data-analyse]").click()
    page.wait_for_selector("[data-analysis]", timeout=180_000)
    assert "一致率" in page.locator("[data-analysis]").inner_text()
    legend = page.locator("[data-legend]").inner_text()  # what the graph and its marks mean
    assert "期望得分" in legend and all(v in legend for v in ("欠佳", "失误", "大错")), legend
    got = http(web.http, "GET", f"/matches/{match_id}/analysis?seat=1", token=login["token"])
    decisions = got["result"]["rounds"][0]["decisions"]
    marked = [d for d in decisions if d["verdict"] != "good"]
    assert page.locator("[data-mistake]").count() == len(marked)
    if marked:
        page.locator(f"[data-mistake='{marked[0]['index']}']").click()
        box = page.locator(f"[data-options='{marked[0]['index']}']")
        assert box.locator(".analysis-option").count() == len(marked[0]["options"])
        shown = box.inner_text()
        assert marked[0]["chosen"]["text"].replace(":", " ") in shown, shown
        # numbered among the seat's decisions (not by the round's step: "decision 12" was
        # the seat's fourth), with the step beside it
        n = decisions.index(marked[0]) + 1
        assert f"第 {n} 个决定（第 {marked[0]['index']} 步）" in shown, shown
        assert not re.search(r"\d\.\d{2}", shown), shown  # points to one decimal
        # The replay moved to the table as the seat saw it when it decided (step i: after
        # the round's first i actions), the step the panel names.
        slider = page.locator(".stepper input[type=range]")
        assert slider.input_value() == str(marked[0]["index"]), slider.input_value()
    # the record, downloaded for `paohuzi analyse` (a link would not send the token)
    with page.expect_download() as dl:
        page.locator("[data-download]").click()
    assert dl.value.suggested_filename == f"paohuzi-match-{match_id}.json"
    saved = json.loads(Path(dl.value.path()).read_text(encoding="utf-8"))
    assert saved == http(web.http, "GET", f"/matches/{match_id}/record", token=login["token"])
    page.goto(f"{web.http}/#/account")
    page.wait_for_selector("[data-analysis-stats]")
    stats = page.locator("[data-analysis-stats]").inner_text()
    assert "一致率" in stats and "复盘" in stats and "共 1 次分析" in stats, stats
    assert not re.search(r"损失 -", stats), stats  # never a negative loss
    assert watch.errors == [], watch.errors
