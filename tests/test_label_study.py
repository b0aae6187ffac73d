"""tools/label_study.py: the study of kept search labels reads them right and fails clearly."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")  # the study reads the trainer's search_choice

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))

import label_study

from paohuzi.train.selfplay import search_label_job


def test_study_of_a_small_labels_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    d = search_label_job((3, 0, 6, 3, 0.5, {}))
    path = tmp_path / "labels.npz"
    np.savez(path, meta=np.asarray([3, 6, 3, 0.5]), **d)
    assert label_study.main([str(path), "--gap", "20", "--min-rows", "3"]) == 0
    out = json.loads(capsys.readouterr().out)
    n = len(d["n"])
    assert out["rows"] == n > 20
    assert 0 <= out["search_departs"] <= 1 and out["median_se_of_a_paired_gain"] >= 0
    pairs = out["kinds_within_20_points"]
    assert pairs and sum(p["rows"] for p in pairs) <= 2 * n
    for p in pairs:  # each line recomputed from the file
        j = p["rank"] - 1
        k0, kj = (
            label_study.kind(d["cand"][:, 0]),
            label_study.kind(np.clip(d["cand"][:, j], 0, None)),
        )
        m = (d["cand"][:, j] >= 0) & (k0 == label_study.KINDS.index(p["heuristic"]))
        m &= kj == label_study.KINDS.index(p["instead"])
        assert p["rows"] == m.sum()  # a gap of 20 points keeps every row
        assert p["gain"] == round(float((d["q"][m, j] - d["q"][m, 0]).mean()), 3)
    ridge = out["ridge"]
    assert ridge["heldout_rows"] == int(n * 0.15) and 0 <= ridge["heldout_departs"] <= 1


def test_a_file_that_is_not_labels_is_one_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "weights.npz"
    np.savez(bad, w1=np.zeros(2))
    assert label_study.main([str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: cannot study") and "weights.npz" in err and err.count("\n") == 1


def test_the_readmes_study_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The README's command, on a small labels file in place of the kept one."""
    import shlex

    from tests.docblocks import marked

    words = shlex.split(marked("label-study-command"))
    assert words[:2] == [".venv/bin/python", "tools/label_study.py"]
    assert words[2] == "runs/labels-seed1.npz"  # what the search-distill command keeps
    path = tmp_path / "labels.npz"
    np.savez(path, meta=np.asarray([4, 2, 2, 0.5]), **search_label_job((4, 0, 2, 2, 0.5, {})))
    assert label_study.main([str(path), *words[3:]]) == 0
    assert json.loads(capsys.readouterr().out)["rows"] > 0
