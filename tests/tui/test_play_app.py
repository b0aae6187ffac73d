"""The game screen, driven by the pilot through a whole scripted round.

The human discards by mouse (clicking a card twice), by keyboard (arrows and
Enter) and by typing; claims a 碰 by number, a 吃 with 比 by clicking its option,
and wins; refused inputs must be explained in the status line.
"""

from __future__ import annotations

import re
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Input

from paohuzi.core.cards import parse_faces
from paohuzi.core.match import replay_match
from paohuzi.core.record import loads
from paohuzi.tui.app import PlayApp, play_app
from paohuzi.tui.screens import ConfirmQuit, RoundOver
from paohuzi.tui.widgets import HandView, OptionLine, Panel
from paohuzi.tui.words import display_width

from .scripted import scripted_session

SIZE = (160, 50)


def _app(tmp_path: Path, rounds: int = 1) -> PlayApp:
    return PlayApp(scripted_session(tmp_path, rounds), delay=0, threaded_bots=False)


async def _settle(pilot: Pilot[object]) -> None:
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def _text(app: PlayApp, selector: str) -> str:
    return app.query_one(selector, Panel).plain


def _options(app: PlayApp) -> list[str]:
    return [o.plain for o in app.query(OptionLine)]


def _status(app: PlayApp) -> str:
    return _text(app, "#status")


async def _click_card(pilot: Pilot[object], app: PlayApp, glyph: str) -> None:
    hand = app.query_one(HandView)
    face = parse_faces(glyph)[0]
    for i, col in enumerate(hand.cols):
        if face in col.faces:
            await pilot.click("#hand", offset=(1 + i * 5 + 1, 1 + col.faces.index(face)))
            return
    raise AssertionError(f"{glyph} not in the hand: {hand.plain}")


async def test_scripted_round(tmp_path: Path) -> None:
    app = _app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await _settle(pilot)
        # the table: 亮张, stock, balances, the hand in columns with its 坎 kept together
        info = _text(app, "#info")
        assert "亮张:肆" in info and "底牌:19" in info and "墩" not in info
        assert "悟性 你100 下家100 上家100" in info
        hand = app.query_one(HandView).plain
        assert hand.split("\n")[0].split()[:2] == ["坎", "坎"]
        assert "你出牌" in _status(app)

        # refused: a 坎 card cannot be discarded
        app.query_one(HandView).select_face(parse_faces("壹")[0])
        await pilot.press("enter")
        assert "壹 是坎：坎不能拆" in _status(app)
        # refused: no claim to choose
        await pilot.press("1")
        assert "现在没有可吃碰的牌" in _status(app)

        # discard the 亮张 by mouse: click selects, a second click plays it
        await _click_card(pilot, app, "肆")
        assert "[肆]" in app.query_one(HandView).plain
        await _click_card(pilot, app, "肆")
        await _settle(pilot)

        # seat 1 drew 伍: the bots (offered 吃) passed, the human may 碰
        assert "桌面: 伍" in _text(app, "#offer")
        assert _options(app) == ["1 碰:伍伍伍", "p 过"]  # groups in full
        await pilot.press("enter")  # refused: a card is on offer
        assert "桌面有牌" in _status(app)
        await pilot.press("7")
        assert "没有第 7 项" in _status(app)
        await pilot.press("1")
        await _settle(pilot)
        assert "碰:伍伍伍" in _text(app, "#mytable")
        assert "你 碰:伍伍伍 ← 下家" in app.log_lines

        # discard 十 by keyboard: select, arrows, Enter
        hv = app.query_one(HandView)
        hv.select_face(parse_faces("十")[0])
        await pilot.press("right", "left")
        assert hv.selected_face() == parse_faces("十")[0]
        await pilot.press("enter")
        await _settle(pilot)

        # seat 2 drew 柒: 吃 options spell out each 比
        assert "桌面: 柒" in _text(app, "#offer")
        opts = _options(app)
        # the same two groups are one option, whichever takes the card (§7)
        joined = "\n".join(opts)
        assert "吃:陆柒捌 比:贰柒拾" in joined and "吃:贰柒拾 比:陆柒捌" not in joined
        assert opts[-1] == "p 过"
        chosen = next(o for o in app.query(OptionLine) if o.plain.endswith("吃:陆柒捌 比:贰柒拾"))
        await pilot.click(chosen)
        await _settle(pilot)
        mine = _text(app, "#mytable")
        assert "吃:贰柒拾" in mine and "吃:陆柒捌" in mine and "碰:伍伍伍" in mine

        # the 听 hint: discarding 二 leaves a wait on 八
        await pilot.press("t")
        hint = _text(app, "#hint")
        assert "打二 → " in hint and "八" in hint
        assert "*二" in app.query_one(HandView).plain

        # discard 二 by typing its ASCII name
        await pilot.press("colon")
        await pilot.press("s", "2", "enter")
        await _settle(pilot)

        # the human drew 八 and may win
        assert "桌面: 八" in _text(app, "#offer")
        assert _options(app)[0] == "1 胡"
        await pilot.press("1")
        await _settle(pilot)

        # the end of the round: arrangement, 胡息, 囤 × 番, settlement, hands, record
        assert isinstance(app.screen, RoundOver)
        result = app.screen.query_one("#result", Panel).plain
        pieces = ["你 胡牌", "碰:伍伍伍", "3 胡息", "胡息 18", "囤 3", "3 囤 × 1 番 = 3"]
        for piece in [*pieces, "+6", "→  悟性 106"]:
            assert piece in result, piece
        assert "记录已保存" in result and "比赛结束" in result
        # every hand is revealed on the main screen too
        assert "\n 手 " in _text(app, "#seat1") and "\n 手 " in _text(app, "#seat2")
        await pilot.press("enter")
        await _settle(pilot)
    saved = app.return_value
    assert saved is not None and saved.exists()
    states = replay_match(loads(saved.read_text(encoding="utf-8")))
    assert states[0].result is not None and states[0].result.winner == 0


async def test_quit_asks_first(tmp_path: Path) -> None:
    app = _app(tmp_path, rounds=2)
    async with app.run_test(size=SIZE) as pilot:
        await _settle(pilot)
        await pilot.press("q")
        assert isinstance(app.screen, ConfirmQuit)
        assert "还没有出过牌" in app.screen.query_one("#confirm", Panel).plain
        await pilot.press("n")
        assert not isinstance(app.screen, ConfirmQuit)
        await pilot.press("colon", "打", ":", "肆", "enter")  # a typed discard in glyphs
        await _settle(pilot)
        assert "碰:伍" in "\n".join(_options(app))
        await pilot.press("ctrl+c")
        assert isinstance(app.screen, ConfirmQuit)
        decisions = list(app.session.state.decisions)  # type: ignore[union-attr]
        await pilot.press("1", "enter", "p")  # game keys do nothing under the modal
        await _settle(pilot)
        assert isinstance(app.screen, ConfirmQuit)
        assert app.session.state.decisions == decisions  # type: ignore[union-attr]
        assert "目前的记录将保存到" in app.screen.query_one("#confirm", Panel).plain
        await pilot.press("y")
        await _settle(pilot)
    saved = app.return_value
    assert saved is not None and saved.parent == tmp_path
    rec = loads(saved.read_text(encoding="utf-8"))
    assert rec["rounds"][0]["actions"][0]["text"] == "打:肆"


async def test_refusals_speak_the_screens_language(tmp_path: Path) -> None:
    """Every refusal goes through words.py: Chinese without an English sentence, and the
    English screen keeps the engine's own reason."""
    app = _app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await _settle(pilot)
        for keys in (
            ("7",),
            ("p",),
            ("colon", "x", "y", "enter"),
            ("escape", "colon", "b", "1", "enter"),
        ):
            await pilot.press(*keys)
            status = _status(app)
            assert status.startswith("✗") and not re.search(r"[A-Za-z]{3,} [A-Za-z]{3,}", status)
            app.query_one("#cmd", Input).value = ""
    app = play_app(scripted_session(tmp_path / "en"), lang="en", delay=0, threaded_bots=False)
    async with app.run_test(size=SIZE) as pilot:
        await _settle(pilot)
        await pilot.press("colon", "b", "1", "enter")
        # the engine's reason, without its list of legal moves (cut mid-list at 80 columns)
        status = _status(app)
        assert "'壹' cannot be played now: only a free card" in status, status
        assert "legal:" not in status and "illegal action" not in status, status
        await pilot.press("escape", "p")
        assert "nothing to pass" in _status(app)


async def test_typed_errors_are_explained(tmp_path: Path) -> None:
    app = _app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await _settle(pilot)
        await pilot.press("colon", "x", "y", "enter")
        assert "看不懂“xy”" in _status(app)
        cmd = app.query_one("#cmd", Input)
        assert cmd.value == "xy"  # kept for correcting
        cmd.value = ""
        await pilot.press("b", "1", "enter")  # typed 壹 (a 坎 card): the engine refuses
        assert "“壹”现在不能走；可走：打:" in _status(app)
        await pilot.press("escape", "p")
        assert "现在轮到你出牌，不能过" in _status(app)


class _BrokenBot:
    name = "broken"

    def act(self, view: object) -> object:
        raise RuntimeError("boom")


async def test_broken_bot_does_not_end_the_match(tmp_path: Path) -> None:
    app = _app(tmp_path)
    app.session.bots[1] = _BrokenBot()  # type: ignore[assignment]
    async with app.run_test(size=SIZE) as pilot:
        await _settle(pilot)
        await pilot.press("colon", "s", "1", "0", "enter")  # 打:十; seat 1 must answer 吃
        await _settle(pilot)
        assert any("下家 出错（RuntimeError" in line for line in app.log_lines)
        assert app.session.human_turn()


def _inside(app: PlayApp, selector: str) -> bool:
    """The widget lies wholly on the screen, above the status line and the footer."""
    region = app.query_one(selector).region
    return region.height > 0 and region.bottom <= app.size.height - 1 and region.y >= 0


async def test_nothing_below_the_fold(tmp_path: Path) -> None:
    # at 80×24 and on a phone (60 columns) the claim, its offer and the whole hand stay on screen
    for size in ((80, 24), (60, 30), (60, 24)):
        app = _app(tmp_path)
        async with app.run_test(size=size) as pilot:
            await _settle(pilot)
            await pilot.press("colon", "s", "4", "enter")  # 打:四; then 伍 is on offer
            await _settle(pilot)
            assert "桌面: 伍" in _text(app, "#offer"), size
            for sel in ("#info", "#offer", "#options", "#mytable", "#hand", "#status"):
                assert _inside(app, sel), (size, sel)
            for opt in app.query(OptionLine):
                assert opt.region.bottom <= app.size.height - 2 and opt.region.width > 8, size
            for seat in ("#seat1", "#seat2"):
                assert app.query_one(seat).region.height >= 2, (size, seat)
            # arrows move the card cursor, never a scroll container
            hv = app.query_one(HandView)
            before = hv.sel
            await pilot.press("down", "down", "up", "left")
            assert hv.sel != before and hv.selected_face() is not None
            # the 吃 on 柒 with its 比: 胡, two 吃 and 过, each whole on its row
            await pilot.press("1")
            await _settle(pilot)
            await pilot.press("colon", "s", "1", "0", "enter")
            await _settle(pilot)
            assert "桌面: 柒" in _text(app, "#offer"), size
            opts = list(app.query(OptionLine))
            assert len(opts) >= 3
            for opt in opts:
                assert opt.region.bottom <= app.size.height - 1, size
                assert opt.region.width >= display_width(opt.plain), (size, opt.plain)


async def test_moves_are_paced_and_s_skips(tmp_path: Path) -> None:
    import time

    app = PlayApp(scripted_session(tmp_path), delay=0.3, threaded_bots=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await _settle(pilot)
        t0 = time.monotonic()
        await pilot.press("colon", "s", "4", "enter")  # 打:四, 四 to the pile, a draw: paced
        await _settle(pilot)
        assert time.monotonic() - t0 >= 0.5
        recent = _text(app, "#offer").split("\n")[1:]
        assert [r.strip() for r in recent] == ["你 打 四", "四 无人要，归你", "下家 翻 伍"]
        await pilot.press("p")  # pass the 碰: the moves that follow are paced again …
        await pilot.pause()
        t0 = time.monotonic()
        await pilot.press("s")  # … until s shows them at once
        await _settle(pilot)
        assert time.monotonic() - t0 < 0.5


async def test_a_record_that_cannot_be_saved_is_reported(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    app = PlayApp(scripted_session(blocker / "records"), delay=0, threaded_bots=False)
    async with app.run_test(size=SIZE) as pilot:
        await _settle(pilot)
        await pilot.press("colon", "s", "4", "enter")
        await _settle(pilot)
        await pilot.press("q", "y")
        await _settle(pilot)
    assert app.return_value is None
    assert app.save_error is not None and "records" in app.save_error


async def test_q_on_a_round_report_then_no_returns_to_the_report(tmp_path: Path) -> None:
    # A round's report closed by q and "no, keep playing" went on to the next round: the
    # report (the hands, the settlement) was lost unread. It comes back instead.
    from rich.text import Text

    app = _app(tmp_path, rounds=2)
    async with app.run_test(size=SIZE) as pilot:
        await _settle(pilot)
        app.report = (Text("第 1 局的结算"), "⏎ 下一局")
        app.push_screen(RoundOver(*app.report), app._after_round)
        await pilot.pause()
        await pilot.press("q")
        assert isinstance(app.screen, ConfirmQuit)
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, RoundOver)
        assert "第 1 局的结算" in app.screen.query_one("#result", Panel).plain
        assert app.session.match.finished == []  # no round was started behind it


async def test_the_key_line_follows_each_resize(tmp_path: Path) -> None:
    """Narrower than 80 columns the key line turns compact (退出 stays on it) and wider
    than ``PlayApp.WIDE`` the two other seats sit side by side, after every resize, not
    one resize late (the app's own size was still the old one while a resize ran)."""
    from textual.widgets import Footer

    app = _app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await _settle(pilot)
        seats = app.query_one("#seats")
        for width, compact, wide in ((60, True, False), (120, False, True), (80, False, False)):
            await pilot.resize_terminal(width, 24)
            await pilot.pause()
            assert app.query_one(Footer).compact is compact, width
            assert seats.has_class("wide") is wide, width


async def test_a_round_report_rewraps_to_each_resize(tmp_path: Path) -> None:
    """The report's lines are wrapped to the frame: made narrower, a long line wraps to
    the new width (the game screen's key line was a resize late; the report never was)."""
    from rich.text import Text

    app = _app(tmp_path, rounds=2)
    async with app.run_test(size=SIZE) as pilot:
        await _settle(pilot)
        app.push_screen(RoundOver(Text("结算 " + "壹贰叁肆伍 " * 14), "⏎ 下一局"))
        await pilot.pause()
        await pilot.resize_terminal(60, 24)
        await pilot.pause()
        await pilot.pause()
        result = app.screen.query_one("#result", Panel).plain
        assert max(display_width(ln) for ln in result.split("\n")) <= 60 - 5, result
