"""The documentation site: ``mkdocs build --strict`` (the README's <!-- docs-build -->
command) passes, every page under docs/ is in its navigation, and the API reference lists
and renders every public name (``__all__``) of the public modules."""

from __future__ import annotations

import importlib
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.docblocks import BIN, ROOT, marked

PUBLIC = ("paohuzi", "paohuzi.core", "paohuzi.bots", "paohuzi.env", "paohuzi.server.client")
REFERENCE = ROOT / "docs" / "reference.md"
DIRECTIVE = re.compile(r"^::: ([\w.]+)\n    options:\n      members:\n((?:        - \w+\n)+)", re.M)


def listed() -> list[tuple[str, str]]:
    """(module, name) of every member the reference page renders."""
    text = REFERENCE.read_text(encoding="utf-8")
    return [
        (mod, line.strip()[2:])
        for mod, members in DIRECTIVE.findall(text)
        for line in members.splitlines()
    ]


def test_the_reference_lists_every_public_name() -> None:
    pytest.importorskip("gymnasium")
    pytest.importorskip("fastapi")
    shown = listed()
    assert len(shown) == len(set(shown)), "a name is listed twice"
    for mod_name in PUBLIC:
        mod = importlib.import_module(mod_name)
        for name in mod.__all__:
            obj = getattr(mod, name)
            where = [
                m
                for m, n in shown
                if n == name
                and (m == mod_name or m.startswith(f"{mod_name}."))
                and getattr(importlib.import_module(m), name) is obj
            ]
            assert where, f"docs/reference.md does not list {mod_name}.{name}"
    for mod_name, name in shown:
        assert hasattr(importlib.import_module(mod_name), name), f"{mod_name}.{name} is gone"


def test_every_page_is_in_the_navigation() -> None:
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    for page in (ROOT / "docs").rglob("*.md"):
        rel = page.relative_to(ROOT / "docs").as_posix()
        assert f": {rel}\n" in nav, f"mkdocs.yml's nav lacks {rel}"


@pytest.mark.slow
def test_mkdocs_build_strict(tmp_path: Path) -> None:
    """The README's command, into a temporary folder; then the reference has an anchor
    for every listed name (mkdocstrings found and rendered it)."""
    pytest.importorskip("mkdocs")
    pytest.importorskip("mkdocstrings_handlers.python")
    cmd = marked("docs-build")
    assert "--strict" in cmd and "/tmp/paohuzi-site" in cmd
    site = tmp_path / "site"
    cmd = cmd.replace(".venv/bin/", f"{BIN}/").replace("/tmp/paohuzi-site", str(site))
    env = {"NO_MKDOCS_2_WARNING": "1", "PATH": f"{BIN}:/usr/bin:/bin"}
    r = subprocess.run(["bash", "-c", cmd], cwd=ROOT, capture_output=True, text=True, env=env,
                       timeout=600)  # fmt: skip
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    html = (site / "reference" / "index.html").read_text(encoding="utf-8")
    missing = [f"{m}.{n}" for m, n in listed() if f'id="{m}.{n}"' not in html]
    assert not missing, f"the reference renders no entry for {missing}"
    assert (site / "tutorials" / "play-with-friends" / "index.html").is_file()
    assert (site / "groups" / "index.html").read_text("utf-8").count(".svg") >= 11
    shutil.rmtree(site)
