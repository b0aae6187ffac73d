"""Every command in the README is run here (the test command is what .ci/run runs)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
README = (ROOT / "README.md").read_text(encoding="utf-8")

BLOCK = re.compile(r"(<!-- ([a-z-]+) -->\n)?```(sh|python)\n(.*?)```", re.S)


def blocks() -> list[tuple[str | None, str, str]]:
    return [(m.group(2), m.group(3), m.group(4)) for m in BLOCK.finditer(README)]


def sh_commands() -> list[str]:
    out = []
    for marker, lang, body in blocks():
        if lang == "sh" and marker is None:
            out += [line for line in body.splitlines() if line.strip() and not line.startswith("#")]
    return out


def marked(name: str) -> str:
    for marker, _lang, body in blocks():
        if marker == name:
            return body.strip()
    raise AssertionError(f"README has no <!-- {name} --> block")


def test_readme_opens_with_play_then_test_command() -> None:
    first = [m for m, _l, _b in blocks()][:2]
    assert first == ["play-command", "test-command"]


def test_ci_runs_the_readme_test_command() -> None:
    script = (
        "awk '/<!-- test-command -->/{found=1; next} "
        "found && /^```/{if (inblock) exit; inblock=1; next} "
        "found && inblock {print; exit}' README.md"
    )
    got = subprocess.run(
        ["bash", "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert got.stdout.strip() == marked("test-command")
    assert script.split("'")[1] in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


@pytest.mark.parametrize("command", sh_commands())
def test_readme_shell_command(command: str) -> None:
    cmd = command.replace(".venv/bin/", f"{BIN}/")
    # Long measurements run in their short form here; the figures come from the full ones.
    cmd = re.sub(r"--deals \d+", "--deals 2", cmd)
    if "benchmarks/" in cmd:
        cmd += " --quick"
    r = subprocess.run(["bash", "-c", cmd], cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, f"{command}\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"
    assert r.stdout.strip(), f"{command} printed nothing"


def test_readme_python_blocks() -> None:
    for _marker, lang, body in blocks():
        if lang == "python":
            exec(compile(body, "README.md", "exec"), {})


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_readme_play_command_on_a_fresh_checkout(tmp_path: Path) -> None:
    """The first README command, verbatim, in a fresh copy of the tree: venv, install, play."""
    files = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    work = tmp_path / "checkout"
    for f in files:
        src = ROOT / f
        if src.is_file():
            dst = work / f
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dst)
    session = f"paohuzi-readme-{os.getpid()}"
    cmd = marked("play-command")
    env_home = tmp_path / "home"
    env_home.mkdir()
    subprocess.run(
        [
            "tmux",
            "new-session",
            "-d",
            "-s",
            session,
            "-x",
            "160",
            "-y",
            "50",
            "-c",
            str(work),
            f"HOME={env_home} bash -c {shlex_quote(cmd + '; echo EXITED $?; sleep 30')}",
        ],
        check=True,
    )
    try:
        screen = ""
        deadline = time.time() + 600
        while time.time() < deadline:
            screen = subprocess.run(
                ["tmux", "capture-pane", "-p", "-t", session], capture_output=True, text=True
            ).stdout
            if "亮张" in screen or "EXITED" in screen:
                break
            time.sleep(1)
        assert "亮张" in screen, screen
        assert "EXITED" not in screen, screen
        subprocess.run(["tmux", "send-keys", "-t", session, "q"], check=True)
        deadline = time.time() + 30
        while time.time() < deadline and "退出比赛？" not in screen:
            time.sleep(0.5)
            screen = subprocess.run(
                ["tmux", "capture-pane", "-p", "-t", session], capture_output=True, text=True
            ).stdout
        assert "退出比赛？" in screen, screen
        subprocess.run(["tmux", "send-keys", "-t", session, "y"], check=True)
        deadline = time.time() + 30
        while time.time() < deadline:
            screen = subprocess.run(
                ["tmux", "capture-pane", "-p", "-t", session], capture_output=True, text=True
            ).stdout
            if "EXITED 0" in screen:
                break
            time.sleep(0.5)
        assert "EXITED 0" in screen, screen
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)


def shlex_quote(s: str) -> str:
    import shlex

    return shlex.quote(s)
