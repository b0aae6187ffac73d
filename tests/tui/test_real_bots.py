"""The default set-up: real bots answering in worker threads, with a delay."""

from __future__ import annotations

from pathlib import Path

from paohuzi.bots import BOTS, make_bot
from paohuzi.cli.play import choose_bots
from paohuzi.core.actions import ActionKind
from paohuzi.core.match import Match
from paohuzi.tui.app import PlayApp
from paohuzi.tui.screens import RoundOver
from paohuzi.tui.session import GameSession


def test_default_bots() -> None:
    names, notice = choose_bots(None)
    if "heuristic" in BOTS:
        assert names == ["heuristic", "heuristic"] and notice is None
    else:
        assert names == ["random", "random"] and notice is not None and "random" in notice
    assert choose_bots("random") == (["random", "random"], None)


async def test_round_against_real_bots(tmp_path: Path) -> None:
    names, _ = choose_bots(None)
    bots = {s: make_bot(n, 10 + s) for s, n in zip((1, 2), names, strict=True)}
    sess = GameSession(Match(seed=11, rounds=1), bots, records_dir=tmp_path)
    app = PlayApp(sess, delay=0.01, notice="hello")
    async with app.run_test(size=(140, 45)) as pilot:
        for _ in range(400):
            await pilot.pause()
            await app.workers.wait_for_complete()
            await pilot.pause()
            if isinstance(app.screen, RoundOver):
                break
            assert sess.human_turn()
            legal = sess.view().legal
            # prefer 胡, then the first discard / 过: a plain but legal player
            pick = next((a for a in legal if a.kind is ActionKind.HU), None)
            pick = pick or next((a for a in legal if a.kind is ActionKind.PASS), legal[-1])
            assert app.play(pick), app.error
        assert isinstance(app.screen, RoundOver)
        assert "结算" in app.screen.query_one("#result").plain  # type: ignore[attr-defined]
        assert "hello" in app.log_lines
        await pilot.press("enter")
        await pilot.pause()
    assert app.return_value is not None and app.return_value.exists()
