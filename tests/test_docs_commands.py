"""Every command of the README and of the documentation pages runs here.

The README's first command (the server, on a fresh copy of the tree) and the terminal
game's run verbatim; its test command is what .ci/run runs. Every unmarked command of the
README and of the pages under docs/ runs, one line at a time (long measurements in their
short form); each tutorial under docs/tutorials/ runs in order, a page at a time, with the
server its ``<!-- server-start -->`` block starts; every marked block is read by name by a
test of its own (docblocks.marked).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from tests.docblocks import (
    BIN,
    README,
    ROOT,
    TUTORIALS,
    blocks,
    command_pages,
    marked,
    pages,
    rel,
    sh_commands,
)


def test_every_marked_block_has_a_test_of_its_own() -> None:
    """The generic runners skip marked blocks, so some test must read each one by name, or
    (the compiled build, which CI builds apart) a CI script must run each of its commands."""
    tests = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "tests").rglob("test_*.py"))
    ci = "".join(p.read_text(encoding="utf-8") for p in (ROOT / ".ci").iterdir() if p.is_file())
    for page in pages():
        for marker, _lang, body in blocks(page):
            if marker is None or f'"{marker}"' in tests or f"<!-- {marker} -->" in tests:
                continue
            commands = [line.split("#")[0].strip() for line in body.splitlines() if line.strip()]
            assert commands and all(c in ci for c in commands), (
                f"nothing runs <!-- {marker} --> in {rel(page)}"
            )


def test_marker_names_are_unique() -> None:
    """``marked`` finds a block by its name alone; the tutorials' runner markers repeat."""
    seen: dict[str, str] = {}
    for page in pages():
        for marker, _lang, _body in blocks(page):
            if marker is None or marker in RUNNER_MARKERS:
                continue
            assert marker not in seen, f"<!-- {marker} --> in {seen[marker]} and {rel(page)}"
            seen[marker] = rel(page)


def test_readme_opens_with_the_two_games_then_the_test_command() -> None:
    first = [m for m, _l, _b in blocks()][:3]
    assert first == ["play-command", "tui-command", "test-command"]


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


def _short(command: str) -> str:
    """A documented command as the tests run it: this venv, long measurements short."""
    cmd = command.replace(".venv/bin/", f"{BIN}/")
    cmd = re.sub(r"--deals \d+", "--deals 2", cmd)
    cmd = re.sub(r"--matches \d+", "--matches 3", cmd)
    if "benchmarks/" in cmd:
        cmd += " --quick"
    return cmd


COMMANDS = [(rel(p), c) for p in command_pages() for c in sh_commands(p)]


@pytest.mark.slow
@pytest.mark.parametrize(("page", "command"), COMMANDS, ids=[f"{p}: {c}" for p, c in COMMANDS])
def test_documented_shell_command(page: str, command: str) -> None:
    r = subprocess.run(
        ["bash", "-c", _short(command)], cwd=ROOT, capture_output=True, text=True, timeout=900
    )
    assert r.returncode == 0, f"{page}: {command}\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"
    assert r.stdout.strip(), f"{page}: {command} printed nothing"


PY_PAGES = [p for p in command_pages() if any(lang == "python" for _m, lang, _b in blocks(p))]


@pytest.mark.parametrize("page", PY_PAGES, ids=rel)
def test_documented_python_blocks(page: Path) -> None:
    for i, (_marker, lang, body) in enumerate(blocks(page)):
        if lang == "python":
            exec(compile(body, f"{rel(page)} block {i}", "exec"), {"__name__": "docs"})


# -- the tutorials: each page in order, with its server ---------------------------------

RUNNER_MARKERS = ("server-start", "same-as-readme")


def _in_tutorial(command: str, tmp: Path, port: int) -> str:
    return (
        command.replace(".venv/bin/", f"{BIN}/")
        .replace("http://127.0.0.1:8000", f"http://127.0.0.1:{port}")
        .replace("--port 8000", f"--port {port}")
        .replace("/tmp/paohuzi-", f"{tmp}/paohuzi-")
    )


def test_there_are_the_six_tutorials() -> None:
    names = {p.stem for p in TUTORIALS}
    assert {
        "play-with-friends",
        "host-a-club",
        "score-a-hand",
        "write-a-bot",
        "train-an-agent",
        "several-workers",
    } <= names


def _skip_without_services(page: Path) -> None:
    """A tutorial that starts PostgreSQL or Redis skips where they are not installed, unless
    CI requires them (.ci/run sets PAOHUZI_TEST_PG_REQUIRED / _REDIS_REQUIRED)."""
    import glob

    text = page.read_text(encoding="utf-8")
    needs = [
        (tool, found, var)
        for tool, found, var in (
            ("tools/throwaway-postgres", bool(glob.glob("/usr/lib/postgresql/*/bin/initdb")),
             "PAOHUZI_TEST_PG_REQUIRED"),
            ("tools/throwaway-redis", shutil.which("redis-server") is not None,
             "PAOHUZI_TEST_REDIS_REQUIRED"),
        )
        if tool in text
    ]  # fmt: skip
    for tool, found, var in needs:
        if not found and os.environ.get(var, "") in ("", "0"):
            pytest.skip(f"{rel(page)} runs {tool}, whose server is not installed")


@pytest.mark.slow
@pytest.mark.parametrize("page", TUTORIALS, ids=rel)
def test_tutorial_runs_in_order(page: Path) -> None:
    """Every block of the tutorial, top to bottom: shell lines in bash (each must succeed
    and print), Python blocks in one namespace, a ``server-start`` block as a server on a
    free port that the later blocks' ``http://127.0.0.1:8000`` and ``--port 8000`` mean."""
    from paohuzi.server.process import ServerProcess, free_port

    _skip_without_services(page)

    port = free_port()
    # /tmp/paohuzi-… paths go to a folder of their own that other users may traverse
    # (tools/throwaway-postgres, run as root, hands its data folder to the postgres user).
    tmp_path = Path(tempfile.mkdtemp(prefix="paohuzi-docs-", dir="/tmp"))
    tmp_path.chmod(0o755)
    home = tmp_path / "home"
    home.mkdir()
    env = dict(os.environ, HOME=str(home), PYTHONPATH=str(ROOT / "src"))
    namespace: dict[str, object] = {"__name__": "tutorial"}
    server = None
    ran = 0
    try:
        for i, (marker, lang, body) in enumerate(blocks(page)):
            if marker == "same-as-readme":
                readme = [b.strip() for m, _l, b in blocks() if m is not None]
                assert body.strip() in readme, f"{rel(page)} block {i} is not the README's"
                continue
            if marker == "server-start":
                assert server is None, "one server a tutorial"
                cmd = _in_tutorial(body.strip(), tmp_path, port)
                server = ServerProcess(tmp_path / "unused.db", tmp_path / "serve.log",
                                       env=env, port=port, cmd=shlex.split(cmd))  # fmt: skip
                server.start(120)
                ran += 1
                continue
            if marker is not None:
                continue  # run by the test that reads it by name
            if lang == "python":
                exec(compile(body, f"{rel(page)} block {i}", "exec"), namespace)
                ran += 1
                continue
            for line in body.splitlines():
                if not line.strip() or line.startswith("#"):
                    continue
                cmd = _in_tutorial(line, tmp_path, port)
                r = subprocess.run(["bash", "-c", cmd], cwd=ROOT, capture_output=True,
                                   text=True, timeout=900, env=env)  # fmt: skip
                assert r.returncode == 0, (
                    f"{rel(page)}: {line}\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"
                )
                assert r.stdout.strip(), f"{rel(page)}: {line} printed nothing"
                ran += 1
    finally:
        if server is not None:
            server.stop()
        shutil.rmtree(tmp_path, ignore_errors=True)
    assert ran, f"{rel(page)} has nothing to run"


@pytest.mark.slow
def test_train_install_block_resolves() -> None:
    """The training tutorial's install line, resolved by pip without installing anything
    (``--dry-run``: the tests' own environment is left as it is), for the extra that
    carries torch, as the README's extras table says."""
    import tomllib

    cmd = marked("train-install")
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "optional-dependencies"
    ]
    assert "'.[train]'" in cmd and any(d.startswith("torch") for d in extras["train"])
    assert "| `train`, `ray` | `paohuzi train` (torch" in README
    r = subprocess.run(
        ["bash", "-c", cmd.replace(".venv/bin/", f"{BIN}/") + " --dry-run"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]


# -- the README's play commands, verbatim on a fresh copy of the tree -------------------


def _fresh_checkout(tmp_path: Path) -> Path:
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
    return work


def _serve_on_a_fresh_checkout(work: Path, home: Path) -> None:
    """The first README command, verbatim: venv, install, serve; the URL it prints works."""
    import socket
    import urllib.request

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = dict(os.environ, HOME=str(home), PAOHUZI_PORT=str(port))  # a free port, not 8000
    env.pop("PYTHONPATH", None)
    proc = subprocess.Popen(
        ["bash", "-c", marked("play-command")],
        cwd=work,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    out: list[str] = []
    try:
        assert proc.stdout is not None
        deadline = time.time() + 600
        url = None
        while time.time() < deadline and url is None:
            line = proc.stdout.readline()
            if not line:
                break
            out.append(line)
            m = re.search(r"open (http://\S+) in a browser", line)
            url = m.group(1) if m else None
        assert url == f"http://127.0.0.1:{port}/", "".join(out)[-3000:]
        page = ""
        while time.time() < deadline and '<script type="module"' not in page:
            try:
                with urllib.request.urlopen(url, timeout=2) as r:
                    page = r.read().decode()
            except OSError:
                time.sleep(0.2)
        assert "跑胡子" in page and "/static/app.js" in page
        with urllib.request.urlopen(f"{url}static/app.js", timeout=2) as r:
            assert r.status == 200
        assert (home / ".paohuzi" / "server.db").is_file()  # the embedded database
    finally:
        os.killpg(proc.pid, 15)  # the session started for this command only
        proc.wait(30)


def _play_in_tmux(work: Path, home: Path) -> None:
    """The terminal game's README command, verbatim, in tmux: 亮张 on screen, then quit."""
    session = f"paohuzi-readme-{os.getpid()}"
    cmd = marked("tui-command")
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
            f"HOME={home} bash -c {shlex_quote(cmd + '; echo EXITED $?; sleep 30')}",
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


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_readme_play_commands_on_a_fresh_checkout(tmp_path: Path) -> None:
    """The README's first command (the server and its browser client) and the terminal
    game's, each verbatim, in one fresh copy of the tree (the second reuses the venv)."""
    work = _fresh_checkout(tmp_path)
    home = tmp_path / "home"
    home.mkdir()
    _serve_on_a_fresh_checkout(work, home)
    _play_in_tmux(work, home)


@pytest.mark.slow
def test_readme_web_screenshots_command(tmp_path: Path) -> None:
    """The screenshot command, into a temporary folder instead of docs/."""
    pytest.importorskip("playwright")
    if not Path("/usr/bin/chromium").exists() and not os.environ.get("CI"):
        pytest.skip("Debian's chromium is not installed")
    cmd = marked("web-screenshots").replace(".venv/bin/", f"{BIN}/").replace("docs/", str(tmp_path))
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    r = subprocess.run(["bash", "-c", cmd], cwd=ROOT, capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    for name, size in (("web-table.png", (1366, 768)), ("web-settlement.png", (390, 844))):
        head = (tmp_path / name).read_bytes()[:24]
        assert head[:8] == b"\x89PNG\r\n\x1a\n"
        assert (int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")) == size
        assert (ROOT / "docs" / name).is_file() and f"docs/{name}" in README


def shlex_quote(s: str) -> str:
    import shlex

    return shlex.quote(s)
