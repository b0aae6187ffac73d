"""Chinese everywhere: every error code the server can send has words in both languages,
and a Chinese page shows none of the server's English reasons."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx

from paohuzi.server.errors import ERROR_CODES
from paohuzi.server.process import ServerProcess
from paohuzi.web.screenshots import PHONE, bot_room

from .conftest import guest, open_page

SERVER = Path(__file__).resolve().parents[2] / "src" / "paohuzi" / "server"
I18N = SERVER.parent / "web" / "static" / "i18n.js"
# An English sentence: two or more Latin words in a row.
SENTENCE = re.compile(r"[A-Za-z]{2,}(?:[ ,'-]+[A-Za-z]+)+")
# Where the server's source names an error code.
CODE_SITES = (
    re.compile(r'ApiError\(\s*"([a-z_]+)"'),
    re.compile(r'super\(\).__init__\(\s*"([a-z_]+)"'),
    re.compile(r'code="([a-z_]+)"'),
    re.compile(r'"code":\s*"([a-z_]+)"'),
    re.compile(r'error_dict\(\s*"([a-z_]+)"'),
    re.compile(r'return "([a-z_]+)", "'),  # validation.describe
    re.compile(r'\d{3}: "([a-z_]+)"'),  # validation._HTTP_CODES
    re.compile(r'": "(bad_[a-z]+)"'),  # validation.FIELD_CODES
    re.compile(r'get\([^)]*, "([a-z_]+)"\)'),
)


def _words() -> dict[str, tuple[str, str]]:
    text = I18N.read_text(encoding="utf-8")
    return {k: (zh, en) for k, zh, en in re.findall(r'(\w+): \["([^"]*)", "([^"]*)"\]', text)}


def test_every_code_the_server_names_is_listed() -> None:
    found = set()
    for path in SERVER.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for site in CODE_SITES:
            found |= set(site.findall(text))
    found -= {"type", "error", "text"}  # message types and fields, not codes
    assert found - ERROR_CODES == set(), "codes missing from errors.ERROR_CODES"
    assert len(found & ERROR_CODES) >= 40  # the scan sees the codes (it cannot go blind)


def test_both_languages_have_every_error_code() -> None:
    words = _words()
    for code in sorted(ERROR_CODES):
        zh, en = words.get(f"err_{code}", ("", ""))
        assert zh and en, f"err_{code} has no words in i18n.js"
        assert not SENTENCE.search(zh), (code, zh)


def _toast(page: Any) -> str:
    page.wait_for_selector(".toast")
    text = str(page.locator(".toast").inner_text())
    page.evaluate("() => { window.__phz.toast = null; }")
    return text


def test_a_chinese_page_shows_no_english_sentence_for_any_error(
    browser: Any, web: ServerProcess
) -> None:
    code, login = bot_room(web.http, "中文", 1, 3)
    page, _ = open_page(browser, web, login, PHONE, f"#/room/{code}")
    page.get_by_role("button", name="开始").click()
    page.wait_for_selector(".table")
    # Every code, as the socket sends it (with the server's English reason).
    for c in sorted(ERROR_CODES):
        page.evaluate(
            "(c) => window.__phz.game.onError({type: 'error', code: c, client_id: null,"
            " reason: 'the intent was made at version 8 and no room 000000 exists'})",
            c,
        )
        text = _toast(page)
        assert text and not SENTENCE.search(text), (c, text)
    # Real refusals from the server, through the page's own calls.
    page.goto(f"{web.http}/#/room/000000")
    # Only the hash changes, so the table's page may still be on screen (or 加载中…) when
    # an element of class error first shows: wait for the refusal itself.
    page.wait_for_selector(".error:has-text('没有这个房间')")
    shown = str(page.locator("main").inner_text())
    assert "没有这个房间" in shown and not SENTENCE.search(shown), shown
    bad = httpx.post(f"{web.http}/accounts/guest", json={"nickname": "x" * 40})
    assert bad.json()["code"] in ERROR_CODES
    # The bots' names say their level in Chinese; seats count from 1.
    room = httpx.get(f"{web.http}/rooms/{code}").json()
    assert [bool(s["bot"]) for s in room["seats"]].count(True) == 2
    page.goto(f"{web.http}/#/")
    names = page.evaluate(
        "() => import('/static/app.js').then((m) => [m.seatName({bot: 'heuristic'}, 1),"
        " m.seatName({bot: 'rumen'}, 2), m.seatName({bot: 'learned'}, 0),"
        " m.seatName({bot: '大师'}, 1), m.seatName({bot: 'random'}, 2)])"
    )
    assert names == [
        "普通机器人2号",
        "入门机器人3号",
        "高手机器人1号",
        "大师机器人2号",
        "随机机器人3号",
    ]


def test_the_login_form_states_its_limits(browser: Any, web: ServerProcess) -> None:
    page, _ = open_page(browser, web, None, PHONE, "#/")
    assert page.locator('input[name="nickname"]').get_attribute("maxlength") == "32"
    page.get_by_role("tab", name="注册").click()
    assert "至少 8 个字符" in page.locator("[data-password-rule]").inner_text()
    assert page.locator('input[name="password"]').get_attribute("minlength") == "8"
    login = guest(web, "满员")
    code, host = bot_room(web.http, "房主", 1, None)
    page2, _ = open_page(browser, web, login, PHONE, f"#/room/{code}")
    page2.wait_for_selector("[data-full]")
    assert "已满" in page2.locator("[data-full]").inner_text()
    assert host["token"] != login["token"]


def test_no_emoji_that_renders_as_an_empty_box() -> None:
    """The page's fonts (a CJK font, no colour emoji) draw every character it uses: no
    emoji such as 🀄 or 🔊, which showed as empty boxes."""
    emoji = re.compile("[\U0001f000-\U0001faff\u2600-\u27bf]")
    for f in sorted((SERVER.parent / "web" / "static").glob("*.*")):
        if f.suffix in (".js", ".html", ".css", ".webmanifest"):
            assert not emoji.search(f.read_text(encoding="utf-8")), f.name


def test_a_chi_in_the_log_shows_faces_not_notation(browser: Any, web: ServerProcess) -> None:
    """The log said "吃 六：吃:六六陆" (the groups' notation): the faces, then the 比 groups."""
    page, _ = open_page(browser, web, None, PHONE, "#/")
    words = page.evaluate(
        "() => import('/static/table.js').then((m) => ["
        " m.eventWords({kind: 'chi', seat: 1, face: '六', groups: ['吃:六六陆']}, 0, null),"
        " m.eventWords({kind: 'chi', seat: 0, face: '贰', groups: ['吃:贰柒拾', '比:二二贰']},"
        " 0, null)])"
    )
    assert ":" not in "".join(words), words
    assert words[0].endswith("吃 六：六六陆"), words
    assert words[1].endswith("吃 贰：贰柒拾，比 二二贰"), words


def test_english_lines_about_you_are_in_the_second_person(browser: Any, web: ServerProcess) -> None:
    """The event lines are written for a seat's name ("Seat 2 turns up 叁"): about the
    player they read "You turn up 叁" and "your pile", not "You turns up" or "You's"."""
    page, watch = open_page(browser, web, None, PHONE, "")
    page.wait_for_selector("main")
    page.evaluate("() => localStorage.setItem('phz.lang', 'en')")
    page.reload()
    page.wait_for_selector("main")
    got = page.evaluate(
        """async () => {
      const { t } = await import('/static/i18n.js');
      const you = t('you');
      return [t('ev_draw', { who: you, card: '叁' }), t('ev_pile', { who: you, card: '叁' }),
        t('ev_pass', { who: you, card: '叁' }), t('ev_dead', { who: you }),
        t('ev_hu', { who: you, card: '叁' }), t('on_offer', { who: you, how: 'draw' }),
        t('ev_draw', { who: 'Seat 2', card: '叁' })];
    }"""
    )
    assert got == [
        "You turn up 叁",
        "叁 goes to your pile",
        "You pass on 叁",
        "You have a dead hand",
        "You win on 叁!",
        "Your draw",
        "Seat 2 turns up 叁",
    ], got
    assert watch.errors == [], watch.errors
