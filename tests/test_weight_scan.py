"""tools/weight_scan.py: paired gains of weight changes on tuning deals, and clear errors."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))

import weight_scan

from paohuzi.bots.handeval import DEFAULT_WEIGHTS, Weights
from paohuzi.train.tune import deal_scores

ROOT = Path(__file__).resolve().parents[1]


def test_a_scan_reports_paired_gains_and_keeps_the_best(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = tmp_path / "base.json"
    base.write_text(json.dumps({"weights": {"huxi": 3.2}}), encoding="utf-8")
    out = tmp_path / "scan.json"
    args = ["--base", str(base), "--deals", "3", "--tag", "t", "--workers", "1"]
    variants = ['{"red": 8, "size": 3}', '{"huxi": 0.1}']
    assert weight_scan.main([*args, "--write", str(out), *variants]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [x["variant"] for x in lines] == ["base", {"red": 8.0, "size": 3.0}, {"huxi": 0.1}]
    # The figures are the tuning's own scores, deal by deal, differenced.
    w0 = Weights.from_dict({"huxi": 3.2})
    w1 = Weights.from_dict({"huxi": 3.2, "red": 8, "size": 3})
    xs0, xs1 = deal_scores(w0, 7, "t", 3), deal_scores(w1, 7, "t", 3)
    assert lines[0]["mean"] == pytest.approx(sum(xs0) / 3, abs=1e-4)
    gain = sum(a - b for a, b in zip(xs1, xs0, strict=True)) / 3
    assert lines[1]["gain"] == pytest.approx(gain, abs=1e-4)
    kept = json.loads(out.read_text(encoding="utf-8"))
    best = max(kept["variants"], key=lambda v: v["gain"])
    assert kept["weights"] == best["weights"] and kept["tag"] == "t" and kept["deals"] == 3
    assert weight_scan.read_weights(str(out)) == Weights.from_dict(best["weights"])


@pytest.mark.parametrize(
    ("variant", "says"),
    [
        ("{red: 8}", "{red: 8}"),
        ("[1, 2]", "[1, 2]"),
        ("{}", "{}"),
        ('{"redd": 8}', "redd"),
        ('{"red": "many"}', "many"),
    ],
)
def test_a_bad_variant_is_one_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], variant: str, says: str
) -> None:
    base = tmp_path / "base.json"
    base.write_text(json.dumps(DEFAULT_WEIGHTS.to_dict()), encoding="utf-8")
    assert weight_scan.main(["--base", str(base), "--tag", "t", variant]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and says in err and "Traceback" not in err


def test_a_bad_base_or_deal_count_is_one_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nope.json"
    assert weight_scan.main(["--base", str(missing), "--tag", "t", '{"red": 1}']) == 2
    assert str(missing) in capsys.readouterr().err
    base = tmp_path / "base.json"
    base.write_text("{not json", encoding="utf-8")
    assert weight_scan.main(["--base", str(base), "--tag", "t", '{"red": 1}']) == 2
    assert "cannot read heuristic weights" in capsys.readouterr().err
    args = ["--base", str(ROOT / "docs" / "learned-weights.json"), "--tag", "t", "--deals", "1"]
    assert weight_scan.main([*args, '{"red": 1}']) == 2
    assert "--deals must be at least 2" in capsys.readouterr().err
    args[-1] = "2"
    assert weight_scan.main([*args, "--workers", "0", '{"red": 1}']) == 2
    assert "--workers must be at least 1" in capsys.readouterr().err
    nowhere = tmp_path / "no" / "scan.json"
    assert weight_scan.main([*args, "--write", str(nowhere), '{"red": 1}']) == 2
    assert str(tmp_path / "no") in capsys.readouterr().err


@pytest.mark.parametrize(
    ("block", "base", "kept"),
    [
        ("lean-scan-command", "docs/learned-weights.json", "docs/learned-lean.json"),
        ("mingtang-scan-command", "docs/learned-lean.json", "docs/learned-mingtang.json"),
    ],
)
def test_the_readmes_scan_command_in_a_tiny_form(
    block: str, base: str, kept: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The README's scans, on 2 deals and one worker, writing to tmp_path instead of docs/."""
    import shlex

    from tests.docblocks import marked

    words = shlex.split(marked(block))
    assert words[:2] == [".venv/bin/python", "tools/weight_scan.py"]
    args = words[2:]
    assert args[args.index("--base") + 1] == base
    assert args[args.index("--write") + 1] == kept
    sizes = {"--deals": "2", "--write": str(tmp_path / "scan.json"), "--base": str(ROOT / base)}
    for i, w in enumerate(args[:-1]):
        if w in sizes:
            args[i + 1] = sizes[w]
    assert weight_scan.main([*args, "--workers", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 1 + 4  # the base and the four variants
    got = json.loads((tmp_path / "scan.json").read_text(encoding="utf-8"))
    shipped = json.loads((ROOT / kept).read_text(encoding="utf-8"))
    assert [v["variant"] for v in got["variants"]] == [v["variant"] for v in shipped["variants"]]
    # (A file written before a weight was added lacks it: compared as Weights, it is 0.)
    assert Weights.from_dict(got["base"]["weights"]) == Weights.from_dict(
        shipped["base"]["weights"]
    )
    assert shipped["command"] == shlex.join(["python", *words[1:]])
