"""Lint, format and types are part of the test suite, so CI enforces them."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=600)


@pytest.mark.parametrize("target", ["src", "tests", "benchmarks"])
def test_ruff_check(target: str) -> None:
    r = _run(str(BIN / "ruff"), "check", target)
    assert r.returncode == 0, r.stdout + r.stderr


def test_ruff_format() -> None:
    r = _run(str(BIN / "ruff"), "format", "--check", "src", "tests", "benchmarks")
    assert r.returncode == 0, r.stdout + r.stderr


@pytest.mark.slow
def test_mypy_strict() -> None:
    r = _run(str(BIN / "mypy"), "--strict", "src")
    assert r.returncode == 0, r.stdout + r.stderr


def test_core_imports_only_stdlib() -> None:
    """paohuzi.core points at nothing but the standard library and itself."""
    std = set(sys.stdlib_module_names) | {"__future__"}
    bad = []
    for f in (ROOT / "src/paohuzi/core").rglob("*.py"):
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for n in names:
                top = n.split(".")[0]
                if (top == "paohuzi" and not n.startswith("paohuzi.core")) or (
                    top not in std and top != "paohuzi"
                ):
                    bad.append(f"{f.name}: {n}")
    assert not bad, bad


def test_core_import_is_fast() -> None:
    """Importing the core builds no big table up front (CPU time: the machine may be busy)."""
    code = (
        "import time; t=time.process_time(); import paohuzi.core.engine, paohuzi.core.hand; "
        "print(time.process_time()-t)"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert float(r.stdout) < 0.5, r.stdout


def test_docs_rules_match_shared_rules() -> None:
    """docs/ holds byte-identical copies of the shared rules: RULES.md and the files it cites."""
    shared = ROOT.parent / "shared" / "rules"
    if not (shared / "RULES.md").exists():
        pytest.skip("no ../shared/rules beside this checkout")
    names = sorted(f.name for f in shared.iterdir() if f.is_file())
    assert "RULES.md" in names
    for name in names:
        ours = ROOT / "docs" / name
        assert ours.is_file(), f"docs/{name} is missing (copy it from {shared / name})"
        assert ours.read_bytes() == (shared / name).read_bytes(), f"docs/{name} differs from shared"
