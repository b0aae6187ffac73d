"""The files of deploy/ agree with docs/deploy.md and with each other (nginx itself runs
the site in tests/server/test_nginx.py): every deploy/ file the guide names exists, the
unit serves where the nginx site's upstream points and trusts that proxy alone, the
backup unit runs ``paohuzi db backup``, and the guide's administrator commands name only
files that exist."""

from __future__ import annotations

import configparser
import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "deploy"
GUIDE = (ROOT / "docs" / "deploy.md").read_text(encoding="utf-8")


def _unit(name: str) -> configparser.ConfigParser:
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str  # type: ignore[assignment,method-assign]
    unit.read_string((DEPLOY / name).read_text(encoding="utf-8"))
    return unit


def test_every_deploy_file_the_guide_names_exists() -> None:
    named = set(re.findall(r"deploy/([\w.@-]+)", GUIDE))
    assert named >= {"paohuzi.service", "nginx-paohuzi.conf", "paohuzi-backup.service",
                     "paohuzi-backup.timer", "logrotate-paohuzi"}  # fmt: skip
    missing = sorted(n for n in named if not (DEPLOY / n).is_file())
    assert not missing, missing
    assert sorted(p.name for p in DEPLOY.iterdir()) == sorted(named)  # none undocumented


def test_unit_serves_behind_the_site_and_trusts_only_it() -> None:
    service = _unit("paohuzi.service")["Service"]
    assert "paohuzi serve --host 127.0.0.1 --port 8000" in service["ExecStart"]
    site = (DEPLOY / "nginx-paohuzi.conf").read_text(encoding="utf-8")
    assert re.search(r"^\s*server 127\.0\.0\.1:8000;", site, re.M)
    envs = (ROOT / "deploy" / "paohuzi.service").read_text(encoding="utf-8")
    assert "Environment=PAOHUZI_TRUSTED_PROXIES=127.0.0.1\n" in envs
    assert "proxy_set_header X-Forwarded-For $remote_addr;" in site  # replaced, not appended
    assert service["Restart"] == "on-failure" and service["KillSignal"] == "SIGTERM"


def test_backup_unit_and_timer() -> None:
    backup = _unit("paohuzi-backup.service")["Service"]
    assert "/bin/paohuzi db backup /var/backups/paohuzi/server-" in backup["ExecStart"]
    assert "%%Y" in backup["ExecStart"]  # systemd's escape for the date's %
    timer = _unit("paohuzi-backup.timer")
    assert timer["Timer"]["OnCalendar"] and timer["Install"]["WantedBy"] == "timers.target"


def test_admin_commands_name_existing_files() -> None:
    blocks = re.findall(r"```text\n(.*?)```", GUIDE, re.S)
    assert blocks
    for block in blocks:
        for name in re.findall(r"\bdeploy/([\w.@-]+)", block):
            assert (DEPLOY / name).is_file(), name


def test_operator_serve_command_is_the_units_and_starts(tmp_path: Path) -> None:
    """The guide's <!-- deploy-serve-operator --> is what the unit runs (its ExecStart with
    the proxy the unit trusts, nginx on 127.0.0.1), and it starts: run here on a free port
    with a temporary database, from this checkout instead of /opt/paohuzi/.venv."""
    import shlex
    import sys

    from paohuzi.server.process import ServerProcess, free_port

    from .docblocks import marked

    words = shlex.split(marked("deploy-serve-operator"))
    unit = (DEPLOY / "paohuzi.service").read_text(encoding="utf-8")
    trusted = re.search(r"^Environment=PAOHUZI_TRUSTED_PROXIES=(\S+)$", unit, re.M)
    assert trusted and trusted.group(1) == "127.0.0.1"
    execstart = _unit("paohuzi.service")["Service"]["ExecStart"]
    assert words == [*shlex.split(execstart), "--trusted-proxy", trusted.group(1)], words
    port = free_port()
    words[words.index("--port") + 1] = str(port)
    cmd = [sys.executable, "-m", "paohuzi", *words[1:], "--db", f"sqlite:///{tmp_path / 's.db'}"]
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    log = tmp_path / "serve.log"
    with ServerProcess(tmp_path / "s.db", log, env=env, port=port, cmd=cmd) as srv:
        assert srv.alive()
