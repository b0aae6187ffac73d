"""tools/encoding_equivalence.py, as docs/env.md runs it: against a tree (here this one)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TOOL = ROOT / "tools" / "encoding_equivalence.py"


def test_the_tool_finds_a_tree_identical_to_itself() -> None:
    out = subprocess.run(
        [sys.executable, str(TOOL), str(ROOT / "src"), "--rounds", "2"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    r = json.loads(out)
    assert r["identical"] and r["python"]["this"]["accelerated"] is False
    assert r["default"]["this"]["positions"] > 20


def test_the_digests_change_with_the_positions() -> None:
    """The digest is of the bytes: another seed (other positions) gives other digests."""
    cmd = [sys.executable, str(TOOL), "--digest", "--rounds", "1"]
    env = {"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"}
    a = json.loads(
        subprocess.run(
            [*cmd, "--seed", "1"], env=env, capture_output=True, text=True, check=True
        ).stdout
    )
    b = json.loads(
        subprocess.run(
            [*cmd, "--seed", "2"], env=env, capture_output=True, text=True, check=True
        ).stdout
    )
    assert a["encode"] != b["encode"] and a["observe"] != b["observe"]
