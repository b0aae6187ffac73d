"""docs/groups/*.svg are what tools/group_pictures.py draws from the browser client's card
today (the page's <!-- group-pictures --> command, into a temporary folder)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.docblocks import BIN, ROOT, marked


def test_group_pictures_are_current(tmp_path: Path) -> None:
    cmd = marked("group-pictures")
    assert cmd.endswith(" docs/groups")
    cmd = cmd.replace(".venv/bin/", f"{BIN}/").replace(" docs/groups", f" {tmp_path}")
    r = subprocess.run(["bash", "-c", cmd], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    drawn = sorted(p.name for p in tmp_path.glob("*.svg"))
    kept = sorted(p.name for p in (ROOT / "docs" / "groups").glob("*.svg"))
    assert drawn == kept and len(drawn) == 11
    for name in drawn:
        assert (tmp_path / name).read_text("utf-8") == (ROOT / "docs" / "groups" / name).read_text(
            "utf-8"
        ), f"docs/groups/{name} is stale: run the command in docs/groups.md"
    svg = (tmp_path / "erqishi-big.svg").read_text("utf-8")
    assert svg.count("<rect") == 3 and svg.count("#c8102e") == 6  # three red big cards
    assert "#f3dfa2" in svg  # big cards on gold, as style.css draws them
