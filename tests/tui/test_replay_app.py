"""The record viewer steps through a saved match, showing every hand."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from paohuzi.cli.app import app as cli
from paohuzi.core.record import dumps, loads
from paohuzi.tui.replay import ReplayApp, load_rounds, replay_app
from paohuzi.tui.widgets import Panel

from .scripted import scripted_session


def _played_record(tmp_path: Path) -> Path:
    sess = scripted_session(tmp_path)
    sess.start_round()
    for move in ["打:肆", "碰:伍", "打:十", "吃:贰柒拾 比:陆柒捌", "打:二", "胡"]:
        while (seat := sess.pending_bot()) is not None:
            sess.apply_bot(seat, sess.bots[seat].act(sess.bot_view(seat)))
        sess.apply_human(move)
    sess.finish_round()
    assert sess.saved is not None
    return sess.saved


async def test_step_through_match(tmp_path: Path) -> None:
    path = _played_record(tmp_path)
    rounds = load_rounds(loads(path.read_text(encoding="utf-8")))
    app = ReplayApp(rounds, source=path.name)
    n = len(rounds[0]["actions"])
    async with app.run_test(size=(160, 50)) as pilot:
        head = app.query_one("#head", Panel)
        assert f"第0/{n}步" in head.plain and "亮张:肆" in head.plain and "全视角" in head.plain
        # full view: the bots' hands are shown, in columns
        assert "不可见" not in app.query_one("#seat1", Panel).plain
        assert "待出手" in app.query_one("#seat0", Panel).plain
        await pilot.press("left")
        assert f"第0/{n}步" in head.plain
        await pilot.press("right")
        assert f"第1/{n}步" in head.plain and "上一步：座位0 打:肆" in head.plain
        assert "座位0 打 肆" in app.query_one("#log", Panel).plain
        await pilot.press("v")
        assert "旁观视角" in head.plain
        assert "手牌 20张（不可见）" in app.query_one("#seat1", Panel).plain
        await pilot.press("v", "end")
        assert f"第{n}/{n}步" in head.plain
        log = app.query_one("#log", Panel).plain
        assert "3 囤 × 1 番 = 3" in log and "胡息 18" in log
        await pilot.press("home")
        assert f"第0/{n}步" in head.plain
        await pilot.press("q")


async def test_english_replay(tmp_path: Path) -> None:
    path = _played_record(tmp_path)
    rounds = load_rounds(loads(path.read_text(encoding="utf-8")))
    app = ReplayApp(rounds, source=path.name, lang="en")
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("right")
        head = app.query_one("#head", Panel).plain
        assert "step 1/" in head and "last decision: seat 0 打:肆" in head
        assert "seat 0 discards 肆" in app.query_one("#log", Panel).plain


def test_replay_cli_rejects_bad_files(tmp_path: Path) -> None:
    runner = CliRunner()
    r = runner.invoke(cli, ["replay", str(tmp_path / "missing.json")])
    assert r.exit_code == 1 and "cannot read" in r.output
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    r = runner.invoke(cli, ["replay", str(bad)])
    assert r.exit_code == 1 and "must be JSON" in r.output
    other = tmp_path / "other.json"
    other.write_text(dumps({"format": "something"}), encoding="utf-8")
    r = runner.invoke(cli, ["replay", str(other)])
    assert r.exit_code == 1 and "not a paohuzi record" in r.output


def test_load_round_record(tmp_path: Path) -> None:
    rec = loads(_played_record(tmp_path).read_text(encoding="utf-8"))
    assert load_rounds(rec["rounds"][0]) == [rec["rounds"][0]]
    broken = dict(rec["rounds"][0], actions=[{"seat": 1, "id": 4}])
    with pytest.raises(ValueError, match="cannot be replayed"):
        load_rounds(broken)


def test_play_cli_rejects_unknown_bots() -> None:
    r = CliRunner().invoke(cli, ["play", "--bots", "nobody,random"])
    assert r.exit_code == 2 and "unknown bot" in r.output


@pytest.mark.parametrize(("size", "lang"), [((80, 24), "zh"), ((60, 30), "en")])
async def test_every_seat_fits_a_small_terminal(
    tmp_path: Path, size: tuple[int, int], lang: str
) -> None:
    """At 80×24 (and 60×30) the three seats, whole hands included, sit above the footer."""
    path = _played_record(tmp_path)
    rounds = load_rounds(loads(path.read_text(encoding="utf-8")))
    app = replay_app(rounds, source=path.name, lang=lang)
    async with app.run_test(size=size) as pilot:
        for _ in range(6):
            await pilot.press("right")
        await pilot.pause()
        for s in range(3):
            panel = app.query_one(f"#seat{s}", Panel)
            assert panel.region.height > 0 and panel.region.bottom <= app.size.height - 1, (s, size)
            hand = next(ln for ln in panel.plain.split("\n") if ln.startswith(("手 ", "hand")))
            assert hand, panel.plain
        footer = app.export_screenshot()
        assert ("下一步" in footer) == (lang == "zh") and ("next" in footer) == (lang == "en")


async def test_the_seats_fit_again_after_a_resize(tmp_path: Path) -> None:
    """A terminal made smaller (50 rows to 24) gets the compact hands at once, not one
    resize late (the app's size was still the old one while the resize ran)."""
    path = _played_record(tmp_path)
    rounds = load_rounds(loads(path.read_text(encoding="utf-8")))
    app = replay_app(rounds, source=path.name)
    async with app.run_test(size=(80, 50)) as pilot:
        for _ in range(6):
            await pilot.press("right")
        await pilot.pause()
        assert "手 " not in app.query_one("#seat0", Panel).plain  # tall: hands in columns
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.pause()
        for s in range(3):
            panel = app.query_one(f"#seat{s}", Panel)
            assert panel.region.bottom <= app.size.height - 1, s
            assert any(ln.startswith("手 ") for ln in panel.plain.split("\n")), panel.plain
