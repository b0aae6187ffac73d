"""tools/compiled_equivalence.py: it passes equal builds and catches a differing round."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from paohuzi.core import COMPILED

ROOT = Path(__file__).resolve().parents[1]
TOOL = ROOT / "tools" / "compiled_equivalence.py"

# A stand-in "compiled" side: the real dump, but claiming to be compiled, with one
# round's digest changed when asked to ("tamper"); or, run on the compiled build, a
# stand-in pure side claiming to be pure ("pure"): the tool's comparison is under test.
FAKE = """
import contextlib, io, json, runpy, sys
mode = sys.argv.pop(1)
tamper = mode == "tamper"
sys.argv = sys.argv[1:]
buf = io.StringIO()
with contextlib.redirect_stdout(buf), contextlib.suppress(SystemExit):
    runpy.run_path(sys.argv[0], run_name="__main__")
for n, line in enumerate(buf.getvalue().splitlines()):
    d = json.loads(line)
    if n == 0:
        d["compiled"] = mode != "pure"
    elif tamper and d["round"] == 3:
        d["sha256"] = "0" * 64
    print(json.dumps(d, ensure_ascii=False))
"""


def _run(compiled: str, *extra: str) -> tuple[int, dict[str, object]]:
    pure = sys.executable
    if COMPILED and " " in compiled:  # a compiled interpreter: a stand-in pure side too
        pure = f"{sys.executable} {compiled.split()[1]} pure"
    cmd = [sys.executable, str(TOOL), "--pure", pure, "--compiled", compiled]
    r = subprocess.run(
        [*cmd, "--random", "6", "--heuristic", "1", *extra],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    return r.returncode, json.loads(r.stdout)


def test_same_rounds_are_identical(tmp_path: Path) -> None:
    fake = tmp_path / "fake.py"
    fake.write_text(FAKE, encoding="utf-8")
    rc, out = _run(f"{sys.executable} {fake} honest")
    assert rc == 0 and out["identical"] is True
    assert out["rounds"] == {"random": 6, "heuristic": 1}


def test_a_differing_round_is_reported(tmp_path: Path) -> None:
    fake = tmp_path / "fake.py"
    fake.write_text(FAKE, encoding="utf-8")
    rc, out = _run(f"{sys.executable} {fake} tamper")
    assert rc == 1 and out["identical"] is False
    diff = out["first_difference"]
    assert isinstance(diff, dict) and diff["compiled"]["round"] == 3


def test_two_pure_builds_are_refused_unless_allowed() -> None:
    rc, out = _run(sys.executable)
    assert rc == 1 and "build_mismatch" in out
    rc, out = _run(sys.executable, "--same-build-ok")
    assert rc == 0 and out["identical"] is True
