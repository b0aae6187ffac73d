"""The wording of the screen: seat words, one group notation, columns by display width."""

from __future__ import annotations

from pathlib import Path

from paohuzi.core.actions import Action, ActionKind
from paohuzi.core.cards import parse_faces
from paohuzi.core.events import Event, EventKind
from paohuzi.core.groups import parse_group
from paohuzi.core.hand import evaluate_win
from paohuzi.tui.app import PlayAppEnglish, play_app
from paohuzi.tui.words import (
    action_label,
    display_width,
    event_line,
    ljust_cells,
    seat_word,
    win_text,
    word,
)

from .scripted import scripted_session


def test_seats_are_named_from_the_human() -> None:
    assert [seat_word(s, 0) for s in range(3)] == ["你", "下家", "上家"]
    assert [seat_word(s, 1) for s in range(3)] == ["上家", "你", "下家"]
    assert seat_word(1, 0, "en") == "next"


def test_display_width() -> None:
    assert display_width("对:三三") == 7 and display_width("碰:伍伍伍") == 9
    assert display_width(ljust_cells("对:三三", 12)) == display_width(ljust_cells("碰:伍伍伍", 12))


def test_claim_options_write_groups_in_full() -> None:
    peng = Action(ActionKind.PENG, face=parse_faces("玖")[0])
    assert action_label(peng) == "碰:玖玖玖"


def test_event_lines_in_chinese_and_english() -> None:
    peng = Event(EventKind.PENG, seat=1, source=2, groups=(parse_group("碰:伍伍伍"),), face=None)
    assert event_line(peng, 0) == "下家 碰:伍伍伍 ← 上家"
    assert event_line(peng, 0, "en") == "next 碰:伍伍伍 from prev"
    draw = Event(EventKind.DRAW, seat=0, face=parse_faces("八")[0])
    assert event_line(draw, 0) == "你 翻 八"
    assert "seat" not in event_line(draw, 0)


def test_english_says_you_draw_and_your_pile() -> None:
    """ "you draws 三", "九 to you's pile": the English log spoke of "you" as of a third seat."""
    draw = Event(EventKind.DRAW, seat=0, face=parse_faces("三")[0])
    pile = Event(EventKind.PILE, seat=0, face=parse_faces("九")[0])
    discard = Event(EventKind.DISCARD, seat=0, face=parse_faces("九")[0])
    passed = Event(EventKind.PASS, seat=0, face=None)
    assert event_line(draw, 0, "en") == "you draw 三"
    assert event_line(discard, 0, "en") == "you discard 九"
    assert event_line(passed, 0, "en") == "you pass (过)"
    assert event_line(pile, 0, "en") == "九 to your pile"
    assert event_line(draw, 1, "en") == "prev draws 三"
    assert event_line(pile, 1, "en") == "九 to prev's pile"


def test_bots_are_named_by_their_level() -> None:
    """The Chinese screen called the default bot "heuristic"; every name of a level shows
    the level, in the screen's language."""
    from paohuzi.tui.words import bot_word

    assert [bot_word(n) for n in ("heuristic", "putong", "普通", "learned", "dashi", "入门")] == [
        "普通", "普通", "普通", "高手", "大师", "入门"
    ]  # fmt: skip
    assert bot_word("heuristic", "en") == "Normal" and bot_word("random") == "随机"
    assert word("by_other", "zh") == "他家翻出"  # a 胡 is on a drawn card (RULES.md §4)


def test_settlement_columns_line_up() -> None:
    # the pair 对:三三 (two cards, seven cells) beside three- and four-card groups
    win = evaluate_win(table="跑:二二二二", hand="三 四五六 七八九 壹贰叁 肆伍陆 贰柒拾", card="三")
    assert win is not None
    lines = [ln for ln in win_text(win).split("\n") if ln.endswith("胡息") and ":" in ln]
    assert any(display_width(ln.split()[0]) == 7 for ln in lines)  # a two-card group
    ends = {display_width(ln[: ln.rindex(" 胡息")]) for ln in lines}
    assert len(ends) == 1, lines


async def test_english_screen(tmp_path: Path) -> None:
    app = play_app(scripted_session(tmp_path), delay=0, threaded_bots=False, lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert word("your_discard", "en") in app.query_one("#status").plain  # type: ignore[attr-defined]
        assert "Round 1/1" in app.query_one("#info").plain  # type: ignore[attr-defined]
        assert isinstance(app, PlayAppEnglish)
        shown = {b.binding.description for b in app.active_bindings.values() if b.binding.show}
        assert "discard" in shown and "打出" not in shown


def test_face_down_groups_say_so() -> None:
    ti = Event(EventKind.TI, seat=2, detail="dealt")
    assert event_line(ti, 0) == "上家 提（暗·起手）"
    assert event_line(ti, 0, "en") == "prev 提 [face down, dealt]"


def test_a_saved_records_path_is_short() -> None:
    """The full path wrapped into three pieces at 80 columns: the home folder is ``~``."""
    from paohuzi.tui.panels import short_path

    home = Path.home()
    assert short_path(home / ".paohuzi" / "records" / "m.json") == "~/.paohuzi/records/m.json"
    assert short_path(Path("/srv/records/m.json")) == "/srv/records/m.json"
