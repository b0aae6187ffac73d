"""Every command, fed bad input: one line on stderr naming the input, a non-zero
exit status (2, or 1 where documented: ``replay`` on an unreadable record), and
never a traceback. Run in-process through the console script's own entry point.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from paohuzi.cli.errors import run

NO_DIR = "/proc/nonexistent/records"  # cannot be created, even by root


def _record(tmp: Path, name: str, data: object) -> str:
    p = tmp / name
    p.write_text(json.dumps(data) if not isinstance(data, str) else data, encoding="utf-8")
    return str(p)


def _cases(tmp: Path) -> list[tuple[list[str], int, str]]:
    a_file = tmp / "a-file"
    a_file.write_text("x", encoding="utf-8")
    good = {"format": "paohuzi-round/1"}
    return [
        # simulate
        (["simulate", "--records", str(a_file), "-n", "1"], 2, str(a_file)),
        (["simulate", "--records", NO_DIR, "-n", "1"], 2, NO_DIR),
        (["simulate", "-n", "0"], 2, "--games"),
        (["simulate", "-n", "abc"], 2, "--games"),
        (["simulate", "--seed", "x"], 2, "--seed"),
        (["simulate", "--nope"], 2, "--nope"),
        # arena
        (["arena", "--bots", "foo", "-n", "1"], 2, "unknown bot foo"),
        (["arena", "--bots", "random,random,random,random", "-n", "1"], 2, "--bots"),
        (["arena", "--deals", "0"], 2, "--deals"),
        (["arena", "--workers", "0", "-n", "1"], 2, "--workers"),
        (["arena", "--bots", "random", "-n", "1", "--records", str(a_file)], 2, str(a_file)),
        (["arena", "--bots", "random", "-n", "1", "--records", NO_DIR], 2, NO_DIR),
        (["arena", "--bots", "learned", "-n", "1", "--weights", NO_DIR], 2, NO_DIR),
        (["arena", "--bots", "learned", "-n", "1", "--weights", str(a_file)], 2, str(a_file)),
        (["arena", "--bots", "random", "-n", "1", "--weights", str(a_file)], 2, "--weights"),
        # play (every check happens before the screen starts)
        (["play", "--bots", "foo"], 2, "unknown bot foo"),
        (["play", "--bots", "random,random,random"], 2, "--bots"),
        (["play", "--rounds", "0"], 2, "--rounds"),
        (["play", "--delay", "-1"], 2, "--delay"),
        (["play", "--seed", "abc"], 2, "--seed"),
        (["play", "--lang", "fr"], 2, "--lang"),
        (["play", "--records-dir", str(a_file)], 2, str(a_file)),
        (["play", "--records-dir", NO_DIR], 2, NO_DIR),
        # replay: status 1 for a file that is not a readable record (documented)
        (["replay", str(tmp / "missing.json")], 1, "missing.json"),
        (["replay", str(tmp)], 1, str(tmp)),
        (["replay", _record(tmp, "text.json", "not json")], 1, "text.json"),
        (["replay", _record(tmp, "list.json", [1, 2])], 1, "list.json"),
        (["replay", _record(tmp, "fmt.json", {"format": "nope"})], 1, "fmt.json"),
        (["replay", _record(tmp, "empty.json", good)], 1, "empty.json"),
        (["replay", _record(tmp, "id.json", _bad_id_record())], 1, "id.json"),
        (["replay"], 2, "file"),
        # score and waits
        (["score", "--hand", "x", "--card", "一"], 2, "'x'"),
        (["score", "--hand", "一二三"], 2, "--card"),
        (["score", "--hand", "一二三", "--card", "一", "--table", "碰:"], 2, "碰:"),
        (["waits", "--hand", "zz"], 2, "'zz'"),
        (["waits", "--hand", "一二三", "--table", "oops:一"], 2, "oops"),
        (["waits", "--hand", "一"], 2, "hold"),
        # the root
        (["nope"], 2, "nope"),
    ]


def _bad_id_record() -> object:
    """A real round record whose first action id is a string."""
    from paohuzi.core.engine import new_game
    from paohuzi.core.record import round_record

    st = new_game(seed=4)
    seat = st.to_act()[0]
    st.apply(seat, st.legal_actions(seat)[0])
    rec = round_record(st).to_dict()
    rec["actions"][0]["id"] = "seven"  # type: ignore[index]
    return rec


def test_every_bad_input_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    failures = []
    for args, code, named in _cases(tmp_path):
        rc = run(args)
        out, err = capsys.readouterr()
        lines = [ln for ln in err.splitlines() if ln.strip()]
        problem = None
        if "Traceback" in out + err:
            problem = "traceback"
        elif rc != code:
            problem = f"exit {rc}, want {code}"
        elif len(lines) != 1:
            problem = f"{len(lines)} lines on stderr"
        elif named not in lines[0]:
            problem = f"{named!r} not named"
        if problem:
            failures.append(f"{args}: {problem}: {err!r}")
    assert not failures, "\n".join(failures)


def test_unknown_bot_named_once(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["play", "--bots", "foo"]) == 2
    assert capsys.readouterr().err.count("foo") == 1


def test_waits_help_is_its_own(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["waits", "--help"]) == 0
    out = capsys.readouterr().out
    assert "winner" not in out and "waiting" in out


def test_workers_capped(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["arena", "--bots", "random", "-n", "1", "-w", "1000", "--json"]) == 0
    out, err = capsys.readouterr()
    assert "--workers 1000: using 1" in err and json.loads(out)["deals"] == 1


def test_play_suggests_a_replay_that_needs_no_venv() -> None:
    import sys

    from paohuzi.cli.play import replay_hint

    hint = replay_hint(Path("/tmp/x y.json"))
    assert hint.startswith(sys.executable) and "-m paohuzi replay '/tmp/x y.json'" in hint
    assert replay_hint(Path("/tmp/a.json"), "en").endswith("replay /tmp/a.json --lang en")


def test_play_reports_a_lost_record_on_exit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import paohuzi.tui.app as tui_app

    class Lost:
        save_error = "/x/match.json: No space left on device"

        def run(self) -> None:
            return None

    monkeypatch.setattr(tui_app, "play_app", lambda *a, **k: Lost())
    assert run(["play", "--records-dir", str(tmp_path), "--bots", "random"]) == 1
    err = capsys.readouterr().err
    assert "记录未能保存" in err and "No space left" in err and len(err.strip().splitlines()) == 1
    assert run(["play", "--records-dir", str(tmp_path), "--bots", "random", "--lang", "en"]) == 1
    err = capsys.readouterr().err
    assert "not saved" in err and "No space left" in err
