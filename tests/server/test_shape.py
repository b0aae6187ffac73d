"""The server's shape (issue 29): no file in src/paohuzi/server over 400 lines and no
function over 60 (tools/shape.py). Alembic's migrations are left out: a released
migration is never edited, and a table's columns are one long ``upgrade``."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))

import shape

ROOT = Path(__file__).resolve().parents[2]
SERVER = ROOT / "src" / "paohuzi" / "server"


def test_no_server_file_or_function_is_over_the_bar() -> None:
    assert list(shape.long_files(SERVER, 400, ["migrations"])) == []
    assert list(shape.long_functions(SERVER, 60, ["migrations"])) == []


def test_the_check_finds_what_is_over(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    body = "".join(f"    x{i} = {i}\n" for i in range(60))
    (tmp_path / "big.py").write_text(
        f"class A:\n    @staticmethod\n    def f():\n{body.replace('    ', '        ')}"
        + "\n" * 340,
        encoding="utf-8",
    )
    (tmp_path / "old").mkdir()
    (tmp_path / "old" / "m.py").write_text(f"async def g():\n{body}", encoding="utf-8")
    assert list(shape.long_files(tmp_path, 400)) == [("big.py", 403)]
    assert list(shape.long_functions(tmp_path, 60)) == [
        ("big.py", "A.f", 62),
        ("old/m.py", "g", 61),
    ]
    assert list(shape.long_functions(tmp_path, 60, ["old"])) == [("big.py", "A.f", 62)]
    assert shape.main([str(tmp_path), "--exclude", "old"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out == ["big.py: 403 lines (over 400)", "big.py: A.f is 62 lines (over 60)"]
    assert shape.main([str(SERVER), "--exclude", "migrations"]) == 0
    assert shape.main([str(tmp_path / "nowhere")]) == 2


def test_docs_say_what_each_server_module_owns() -> None:
    """docs/server.md's list names every module of the server, and only those (each
    item's modules are named before its colon)."""
    text = (ROOT / "docs" / "server.md").read_text(encoding="utf-8")
    listed = text.split("## What each module owns", 1)[1].split("\n## ", 1)[0]
    heads = [x.split(": ", 1)[0] for x in listed.splitlines() if x.startswith("- ")]
    named = {m for h in heads for m in re.findall(r"`([\w/]+\.py)`", h)}
    modules = {
        str(f.relative_to(SERVER))
        for f in SERVER.rglob("*.py")
        if f.relative_to(SERVER).parts[0] != "migrations"
    }
    assert sorted(modules - named) == [], "not listed in docs/server.md"
    assert sorted(named - modules) == [], "listed in docs/server.md, but no such module"
