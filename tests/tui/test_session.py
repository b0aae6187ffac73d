"""The match loop without a screen: bots first, then the human; records saved."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from paohuzi.core.actions import PASS_ID
from paohuzi.core.errors import IllegalActionError
from paohuzi.core.events import EventKind
from paohuzi.core.match import Match, replay_match
from paohuzi.core.record import loads
from paohuzi.tui.session import GameSession

from .scripted import scripted_bots, scripted_session


def _drive(sess: GameSession) -> None:
    while (seat := sess.pending_bot()) is not None:
        _events, problem = sess.apply_bot(seat, sess.bots[seat].act(sess.bot_view(seat)))
        assert problem is None


def test_scripted_round_headless(tmp_path: Path) -> None:
    sess = scripted_session(tmp_path)
    bots = sess.bots
    sess.start_round()
    moves = ["打:肆", "碰:伍", "打:十", "吃:陆柒捌 比:贰柒拾", "打:二", "胡"]
    for move in moves:
        _drive(sess)
        assert sess.human_turn()
        legal = [a.text() for a in sess.view().legal]
        assert move in legal, (move, legal)
        sess.apply_human(move)
    _drive(sess)
    st = sess.state
    assert st is not None and st.over and st.result is not None and st.result.winner == 0
    assert st.result.win is not None and (st.result.win.huxi, st.result.win.score) == (18, 3)
    # bots saw their own seat's view only
    for seat, bot in bots.items():
        assert all(v.seat == seat and v.hands[0] is None for v in bot.seen)
    path = sess.finish_round()
    assert sess.match.over and path is st
    assert sess.saved is not None and sess.saved.parent == tmp_path
    states = replay_match(loads(sess.saved.read_text(encoding="utf-8")))
    assert states[0].result is not None and states[0].result.deltas == st.result.deltas


def test_human_out_of_turn_is_refused(tmp_path: Path) -> None:
    sess = scripted_session(tmp_path)
    sess.start_round()
    with pytest.raises(IllegalActionError, match="illegal action"):
        sess.apply_human("打:壹")  # a 坎 card
    sess.apply_human("打:肆")
    assert not sess.human_turn() and sess.pending_bot() == 1


def test_missing_bot_is_an_error() -> None:
    with pytest.raises(ValueError, match="no bot for seat"):
        GameSession(Match(seed=1), {1: scripted_bots()[1]})


def test_cli_does_not_import_textual() -> None:
    """``paohuzi score`` and friends must work where textual is not installed."""
    import subprocess
    import sys

    code = "import sys, paohuzi.cli.app; sys.exit('textual' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


def test_the_session_runs_the_bots_headless(tmp_path: Path) -> None:
    """bot_turn asks the bot that must answer and applies it; None when the human must."""
    sess = scripted_session(tmp_path)
    sess.threaded_bots = False
    sess.start_round()
    assert asyncio.run(sess.bot_turn()) is None  # the dealer (the human) discards first
    sess.apply_human("打:肆")
    turns = []
    while (turn := asyncio.run(sess.bot_turn())) is not None:
        turns.append(turn)
    assert turns and all(t.failed is None and t.refused is None for t in turns)
    assert sess.human_turn()


class _Broken:
    name = "broken"

    def act(self, view: object) -> object:
        raise RuntimeError("boom")


def test_a_broken_bot_passes_and_says_why(tmp_path: Path) -> None:
    sess = scripted_session(tmp_path)
    sess.threaded_bots = False
    sess.bots[1] = _Broken()  # type: ignore[assignment]
    sess.start_round()
    sess.apply_human("打:十")  # seat 1 may 吃 it
    turn = asyncio.run(sess.bot_turn())
    assert turn is not None and turn.seat == 1 and turn.failed == "RuntimeError('boom')"
    assert turn.action.id == PASS_ID


def test_paced_moves_are_held_unless_skipping(tmp_path: Path) -> None:
    sess = scripted_session(tmp_path)
    sess.delay = 0.2
    sess.start_round()
    sess.apply_human("打:肆")
    shown = sess.shown_events()
    assert shown and all(e.kind not in (EventKind.DEAL, EventKind.REVEAL) for e in shown)
    t0 = time.monotonic()
    asyncio.run(sess.hold(shown[0]))
    assert time.monotonic() - t0 >= 0.2
    sess.skipping = True
    t0 = time.monotonic()
    asyncio.run(sess.hold(shown[0]))
    assert time.monotonic() - t0 < 0.1


def test_the_round_is_held_once_by_the_match(tmp_path: Path) -> None:
    """session.state is the match's current round, then the settled one until the next."""
    sess = scripted_session(tmp_path)
    assert sess.state is None
    st = sess.start_round()
    assert sess.state is st is sess.match.current
    moves = ["打:肆", "碰:伍", "打:十", "吃:陆柒捌 比:贰柒拾", "打:二", "胡"]
    for move in moves:
        _drive(sess)
        sess.apply_human(move)
    _drive(sess)
    sess.finish_round()
    assert sess.match.current is None and sess.state is st and sess.match.finished[-1] is st


def test_the_session_says_why_a_move_is_refused_and_applies_nothing(tmp_path: Path) -> None:
    # The input checks live in the session; the screen only words them (words.py).
    from paohuzi.tui.session import Refusal

    sess = scripted_session(tmp_path)
    assert sess.try_human(0) == Refusal("no_round")
    st = sess.start_round()
    before = len(st.log)
    assert sess.try_human("打:壹") == Refusal(  # a 坎 card
        "illegal_move",
        move="打:壹",
        legal=tuple(a.text() for a in sess.view().legal),
        why=sess.try_human("打:壹").why,  # type: ignore[union-attr]
    )
    unreadable = sess.try_human("吃:nonsense")
    assert unreadable is not None and unreadable.key == "unreadable" and unreadable.why
    assert len(st.log) == before  # nothing applied
    assert sess.try_human("打:肆") is None and len(st.log) > before
    refused = sess.try_human("打:伍")
    assert refused == Refusal("not_your_turn", waiting=tuple(st.to_act())) and 0 not in st.to_act()
