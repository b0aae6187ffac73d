"""The real ``paohuzi play`` in a real terminal (tmux), a whole round by keys only.

At 80×24 (the classic terminal) and 60×30 (a phone's SSH client) the human plays
with arrows, Enter, digits and ``p``; every captured screen must show the whole
hand, and whenever a claim is asked the card on offer and every option. The
discards chosen with the cursor must be the ones the saved record holds.
"""

from __future__ import annotations

import os
import random
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

import paohuzi
from paohuzi.core.cards import glyph
from paohuzi.core.record import loads

TMUX = shutil.which("tmux")
SRC = Path(paohuzi.__file__).resolve().parents[1]

pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed")

GLYPHS = "".join(glyph(f) for f in range(20))
CARD = re.compile(rf"[{GLYPHS}]")


class Term:
    """One tmux server running one command in a window of a fixed size."""

    def __init__(self, tmp: Path, width: int, height: int, command: str) -> None:
        assert TMUX is not None
        self.sock = f"paohuzi-test-{os.getpid()}-{width}x{height}"
        self.env = dict(
            os.environ,
            HOME=str(tmp),
            TERM="xterm-256color",
            PYTHONPATH=os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")]),
        )
        r = self.tmux("new-session", "-d", "-x", str(width), "-y", str(height), "-s", "t", command)
        assert r.returncode == 0, r.stderr

    def tmux(self, *args: str) -> subprocess.CompletedProcess[str]:
        assert TMUX is not None
        return subprocess.run(
            [TMUX, "-L", self.sock, *args], capture_output=True, text=True, env=self.env, timeout=20
        )

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", "t").stdout

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", "t", *keys)

    def close(self) -> None:
        self.tmux("kill-server")


def _status(screen: str) -> str:
    lines = [ln for ln in screen.split("\n") if ln.strip()]
    return lines[-2] if len(lines) >= 2 else ""


def _decision(screen: str) -> str | None:
    """ "discard", "claim", "over", or None while the bots play."""
    if "Enter 离开" in screen or ("结算" in screen and "各家手牌" in screen):
        return "over"  # the round-over report (its keys sit in the frame, see test_play_app)
    status = _status(screen)
    if "你出牌" in status:
        return "discard"
    if re.search(r"要 \S 吗", status):
        return "claim"
    return None


def _wait_decision(term: Term, before: str | None, timeout: float = 30.0) -> str:
    """The next stable screen on which the human must decide (not ``before``)."""
    end = time.monotonic() + timeout
    last = ""
    while time.monotonic() < end:
        s = term.screen()
        if s == last and s != before and _decision(s) is not None:
            return s
        last = s
        time.sleep(0.15)
    raise AssertionError("no decision screen:\n" + term.screen())


def _hand_rows(screen: str) -> tuple[int, list[str]]:
    """The hand size the screen announces and the rows of cards under the column labels."""
    lines = screen.split("\n")
    mine = next(i for i, ln in enumerate(lines) if re.match(r"\W*你 (庄 )?手\d+张", ln))
    size = int(re.search(r"手(\d+)张", lines[mine]).group(1))  # type: ignore[union-attr]
    label = next(i for i in range(mine + 1, len(lines)) if re.search(r"(坎|对|搭|句|散)", lines[i]))
    rows = []
    for ln in lines[label + 1 :]:
        if not CARD.search(ln) or "吗" in ln or "你出牌" in ln:
            break
        rows.append(ln)
    return size, rows


def _check_hand(screen: str) -> list[str]:
    size, rows = _hand_rows(screen)
    cards = [c for row in rows for c in CARD.findall(row)]
    assert len(cards) == size, f"hand of {size} shows {len(cards)} cards:\n{screen}"
    assert len(rows) <= 4, screen
    return cards


def _check_claim(screen: str) -> list[tuple[str, str]]:
    """The offer and every option are on screen; returns the numbered options."""
    status = _status(screen)
    m = re.search(r"要 (\S) 吗？(\d)(?:–(\d))?", status)
    assert m is not None, screen
    card, n = m.group(1), int(m.group(3) or m.group(2))
    assert re.search(rf"桌面: {card}", screen), screen
    options = re.findall(r"(?:^|\s)([1-9]) ((?:胡|碰:\S+|吃:\S+(?: 比:\S+)*))", screen, re.M)
    assert [int(k) for k, _ in options] == list(range(1, n + 1)), screen
    assert re.search(r"(?:^|\s)p 过", screen), screen
    for _, text in options:
        if text.startswith("碰:"):
            assert text == "碰:" + card * 3, text  # groups written out in full
    return options


def _check_report_wraps_with_indent(screen: str) -> None:
    """In the 结算 report, a line of the hands that wraps goes on indented past its seat."""
    rows = [ln[2:] if ln[:1] == "█" else ln for ln in screen.split("\n")]  # frame, padding
    heads = [i for i, r in enumerate(rows) if r.strip().strip("█") == "各家手牌"]
    if not heads:
        return  # scrolled below the frame (80×24): the 60×30 run sees it
    for r in rows[heads[0] + 1 :]:
        body = r.rstrip().rstrip("█").rstrip()
        if not body.strip() or "Enter" in body or "▄" in body:
            break
        assert body.startswith("  "), screen  # a seat line (2) or its continuation (6)


@pytest.mark.parametrize(("width", "height", "seed"), [(80, 24, 4), (60, 30, 3)])
def test_a_round_by_keys(tmp_path: Path, width: int, height: int, seed: int) -> None:
    records = tmp_path / "records"
    args = ["play", "--seed", str(seed), "--rounds", "1", "--records-dir", str(records)]
    play = shlex.join([sys.executable, "-m", "paohuzi", *args, "--delay", "0.02"])
    term = Term(tmp_path, width, height, f"{play}; sleep 60")
    rng = random.Random(seed)
    discards: list[str] = []
    claims = 0
    asked = 0
    try:
        screen = _wait_decision(term, None, timeout=60)
        keys = [ln for ln in screen.split("\n") if ln.strip()][-1]
        assert "q 退出" in keys, screen  # the key line keeps 退出 however narrow
        assert "墩" not in screen and "底牌:" in screen, screen  # one word for the stock
        for _ in range(80):
            kind = _decision(screen)
            if kind == "over":
                break
            _check_hand(screen)
            if kind == "discard":
                for _ in range(rng.randrange(1, 6)):
                    term.keys(rng.choice(["Left", "Right", "Up", "Down"]))
                time.sleep(0.3)
                moved = term.screen()
                picked = re.findall(rf"\[([{GLYPHS}])\]", moved)
                assert len(picked) == 1, moved  # the cursor is on one visible card
                counts = _check_hand(moved)
                if counts.count(picked[0]) >= 3:  # a 坎 cannot be thrown: step aside
                    term.keys("Right")
                    time.sleep(0.3)
                    moved = term.screen()
                    picked = re.findall(rf"\[([{GLYPHS}])\]", moved)
                    if _check_hand(moved).count(picked[0]) >= 3:
                        continue
                discards.append(picked[0])
                term.keys("Enter")
                screen = _wait_decision(term, moved)
            else:
                options = _check_claim(screen)
                asked += 1
                win = next((k for k, t in options if t == "胡"), None)
                peng = next((k for k, t in options if t.startswith("碰")), None)
                key = win or (peng if claims < 1 else None) or "p"
                claims += key != "p"
                term.keys(key)
                screen = _wait_decision(term, screen)
        assert _decision(screen) == "over", screen
        assert "胡息" in screen or "荒庄" in screen, screen
        _check_report_wraps_with_indent(screen)
        term.keys("Enter")
        end = time.monotonic() + 20
        while "回放：" not in term.screen().replace("\n", "") and time.monotonic() < end:
            time.sleep(0.2)
        out = term.screen()
    finally:
        term.close()
    assert "-m paohuzi replay" in out.replace("\n", ""), out  # long paths wrap
    saved = next(records.glob("match-*.json"))
    rec = loads(saved.read_text(encoding="utf-8"))
    mine = [a["text"] for a in rec["rounds"][0]["actions"] if a["seat"] == 0]
    thrown = [t.split(":")[1] for t in mine if t.startswith("打:")]
    assert thrown == discards, (thrown, discards)
    assert len(discards) >= 2 and asked >= 2, (discards, asked)
    print(f"{width}x{height}: {len(discards)} discards, {asked} claims asked, {claims} taken")
