"""``paohuzi train``: a tiny run writes its outputs, is reproducible, and exports faithfully."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("matplotlib")

from paohuzi.bots.handeval import DEFAULT_WEIGHTS as HEURISTIC_WEIGHTS  # noqa: E402
from paohuzi.bots.handeval import Weights  # noqa: E402
from paohuzi.bots.heuristic import HeuristicBot  # noqa: E402
from paohuzi.bots.learned import (  # noqa: E402
    DEFAULT_WEIGHTS,
    WEIGHTS_KEY,
    LearnedBot,
    Policy,
    inputs,
)
from paohuzi.bots.network import ARRAYS, INPUTS, PUBLIC  # noqa: E402
from paohuzi.cli.errors import run  # noqa: E402
from paohuzi.core.actions import PENG_ID  # noqa: E402
from paohuzi.core.engine import new_game  # noqa: E402
from paohuzi.core.views import view  # noqa: E402
from paohuzi.train.selfplay import (  # noqa: E402
    LABEL_CANDIDATES,
    features,
    search_label_job,
    teacher_job,
)
from paohuzi.train.trainer import Net, export, load_exported, search_choice  # noqa: E402

TINY = ["--games", "12", "--epochs", "1", "--updates", "2", "--episodes", "2"]
TINY += ["--eval-deals", "1", "--eval-every", "1", "--workers", "1"]
TINY += ["--tune-deals", "2", "--tune-sweeps", "1"]


ROOT = Path(__file__).resolve().parents[2]


def _readme_command(marker: str = "train-command") -> list[str]:
    """The README's marked training command, as arguments of ``paohuzi``."""
    import shlex

    from tests.docblocks import marked

    words = shlex.split(marked(marker).split("#")[0])
    assert words[:2] == [".venv/bin/paohuzi", "train"]
    return words[1:]


def _train(out: Path, seed: int = 3) -> int:
    """The README's command in a tiny form: its sizes shrunk, its seed and --out replaced."""
    sizes = dict(zip(TINY[::2], TINY[1::2], strict=True))
    sizes |= {"--out": str(out), "--seed": str(seed)}
    return run(_shrunk(_readme_command(), sizes))


def _shrunk(args: list[str], sizes: dict[str, str]) -> list[str]:
    """``args`` with each option of ``sizes`` given that value (the README's must have it)."""
    assert set(sizes) <= set(args), f"the README's command lacks {set(sizes) - set(args)}"
    for i, w in enumerate(args[:-1]):
        if w in sizes:
            args[i + 1] = sizes[w]
    return args


@pytest.mark.slow
def test_the_readmes_command_writes_checkpoints_curve_and_weights_and_repeats_itself(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _train(tmp_path / "a") == 0
    out = capsys.readouterr().out
    assert "done: learned - heuristic" in out
    a = tmp_path / "a"
    curve = json.loads((a / "curve.json").read_text(encoding="utf-8"))
    phases = [p["phase"] for p in curve["curve"]]
    assert phases == ["tune", "tune", "distill", "finetune", "finetune"]
    assert curve["config"]["seed"] == 3 and curve["config"]["games"] == 12
    assert curve["curve"][0]["score_vs_heuristic"] == 0.0  # the start: the heuristic itself
    tuned = json.loads((a / "weights.json").read_text(encoding="utf-8"))
    assert tuned["log"][-1] == {"check_mean": tuned["check_mean"], "check_se": tuned["check_se"]}
    first = curve["curve"][2]
    assert 0 < first["acc"] <= 1 and first["loss"] > 0 and first["deals"] == 1
    lo, hi = first["ci95"]
    assert lo <= first["score_vs_heuristic"] <= hi
    assert (a / "curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert sorted(p.name for p in a.glob("checkpoint-*.pt")) == [
        f"checkpoint-00{i}.pt" for i in range(3)
    ]
    policy = Policy.load(a / "learned.npz")
    assert policy.inputs == INPUTS
    assert policy.weights == Weights.from_dict(tuned["weights"])  # the prior's weights travel
    # the exported weights play a whole round through the bot interface
    bot = LearnedBot(0, policy)
    st = new_game(seed=4)
    while not st.over:
        seat = st.to_act()[0]
        st.apply(seat, bot.act(view(st, seat)).id)
    # the same seed trains the same network
    assert _train(tmp_path / "b") == 0
    with np.load(tmp_path / "a" / "learned.npz") as x, np.load(tmp_path / "b" / "learned.npz") as y:
        assert sorted(x.files) == sorted(y.files)
        for k in x.files:
            np.testing.assert_array_equal(x[k], y[k])


def test_numpy_export_computes_what_torch_computes() -> None:
    torch.manual_seed(0)
    net = Net((64, 32))
    policy = Policy(export(net))
    st = new_game(seed=5)
    ranker = HeuristicBot(0)
    xs = np.stack([features(st, s, ranker.rank(view(st, s))) for s in range(3)]).astype(np.float32)
    with torch.no_grad():
        logits, value = net(torch.from_numpy(xs))
    np_logits, np_value = policy.forward(xs)
    np.testing.assert_allclose(np_logits, logits.numpy(), atol=2e-2)
    np.testing.assert_allclose(np_value, value.numpy(), atol=2e-2)


def test_export_and_load_exported_are_inverse_over_the_declared_arrays(tmp_path: Path) -> None:
    """Both sides read bots.network.ARRAYS: every array the bot reads is written, and
    loading the file back gives the same arrays (float16 kept as float16)."""
    torch.manual_seed(1)
    arrays = export(Net((16, 8)))
    assert set(arrays) == {e.name for e in ARRAYS} | {WEIGHTS_KEY}
    np.savez(tmp_path / "w.npz", **arrays)
    net = Net((16, 8))
    load_exported(net, str(tmp_path / "w.npz"))
    again = export(net)
    for e in ARRAYS:
        assert again[e.name].dtype == np.dtype(e.dtype)
        np.testing.assert_array_equal(again[e.name], arrays[e.name])


def test_the_bot_and_the_trainer_build_the_same_input() -> None:
    """The learned bot's input from a view equals the trainer's from the state."""
    st = new_game(seed=11)
    ranker = HeuristicBot(0)
    for seat in range(3):
        v = view(st, seat)
        ranked = ranker.rank(v)
        row = features(st, seat, ranked)
        assert row.shape == (INPUTS,)
        np.testing.assert_array_equal(inputs(v, ranked), row.astype(np.float32))


def test_teacher_data_rows_hold_together() -> None:
    d = teacher_job((7, 0, 3, "heuristic", HEURISTIC_WEIGHTS.to_dict()))
    n = len(d["act"])
    assert n > 20 and d["obs"].shape == (n, INPUTS) and d["obs"].dtype == np.uint8
    assert len(d["ret"]) == n
    legal = d["obs"][:, PUBLIC - 317 : PUBLIC]
    assert all(legal[i, a] == 1 for i, a in enumerate(d["act"]))  # the teacher played legally
    assert (legal.sum(axis=1) > 1).all()  # only decisions with a choice
    prior = d["obs"][:, PUBLIC:]
    assert ((prior > 0) <= (legal > 0)).all()  # the prior covers legal actions only
    assert all(prior[i, a] == 100 for i, a in enumerate(d["act"]))  # the teacher's choice
    again = teacher_job((7, 0, 3, "heuristic", HEURISTIC_WEIGHTS.to_dict()))
    np.testing.assert_array_equal(d["obs"], again["obs"])


def test_a_tuned_teacher_plays_and_ranks_with_its_weights() -> None:
    """With other weights the heuristic teacher plays other moves, and the prior (the same
    weights) still gives its choice the top mark."""
    eager = {"margin_peng": -50.0, "margin_chi": -50.0}
    d = teacher_job((7, 0, 3, "heuristic", eager))
    base = teacher_job((7, 0, 3, "heuristic", HEURISTIC_WEIGHTS.to_dict()))
    prior = d["obs"][:, PUBLIC:]
    assert all(prior[i, a] == 100 for i, a in enumerate(d["act"]))
    claims = [a for a in d["act"] if a >= PENG_ID]  # 碰, then the 吃 ids
    assert len(claims) > len([a for a in base["act"] if a >= PENG_ID])


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["--backend", "spark"], "--backend 'spark'"),
        (["--teacher", "nobody"], "--teacher 'nobody'"),
        (["--teacher", "learned"], "--teacher 'learned'"),
        (["--games", "0"], "--games"),
        (["--out", "/proc/nonexistent/run"], "/proc/nonexistent/run"),
        (["--init", "/nonexistent/learned.npz"], "/nonexistent/learned.npz"),
        (["--weights", "/nonexistent/weights.json"], "/nonexistent/weights.json"),
        (["--weights", "/etc/hostname"], "/etc/hostname"),
    ],
)
def test_bad_options_are_one_line(
    args: list[str], named: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["train", *args]) == 2
    err = capsys.readouterr().err
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and named in lines[0] and "Traceback" not in err


def test_search_labels_are_the_search_bots_valuations() -> None:
    """Each row: legal candidates led by the heuristic's choice, paired means, their errors."""
    d = search_label_job((5, 0, 2, 3, 0.5, HEURISTIC_WEIGHTS.to_dict()))
    n = len(d["n"])
    assert n > 5 and d["obs"].shape == (n, INPUTS) and d["cand"].shape == (n, LABEL_CANDIDATES)
    legal = d["obs"][:, PUBLIC - 317 : PUBLIC]
    prior = d["obs"][:, PUBLIC:]
    for i in range(n):
        cands = [int(a) for a in d["cand"][i] if a >= 0]
        assert len(cands) >= 2 and all(legal[i, a] == 1 for a in cands)
        assert prior[i, cands[0]] == 100  # the heuristic's first choice leads
        assert [prior[i, a] for a in cands] == sorted((prior[i, a] for a in cands), reverse=True)
        assert (d["cand"][i, len(cands) :] == -1).all()
    assert ((d["n"] >= 1) & (d["n"] <= 3)).all()
    assert (d["se"][:, 0] == 0).all() and (d["se"] >= 0).all()
    assert np.abs(d["q"]).max() < 1000  # balance changes of one round
    again = search_label_job((5, 0, 2, 3, 0.5, HEURISTIC_WEIGHTS.to_dict()))
    for k in d:
        np.testing.assert_array_equal(d[k], again[k])


def test_search_choice_is_the_search_bots_rule() -> None:
    """search_choice on recorded means picks what bots.search._choose picks on the samples."""
    from paohuzi.bots.search import _choose

    rng = np.random.default_rng(0)
    cands, qs, ses, expected = [], [], [], []
    for _ in range(300):
        k = int(rng.integers(2, 4))
        outs = rng.normal(0, 3, (8, k)) + rng.normal(0, 1.5, k)
        outcomes = [list(map(float, outs[:, j])) for j in range(k)]
        ids = list(rng.choice(317, k, replace=False))
        expected.append(ids[_choose(outcomes, 1.0)])
        diffs = outs - outs[:, :1]
        se = diffs.std(axis=0, ddof=1) / np.sqrt(len(outs))
        pad = 3 - k
        cands.append(ids + [-1] * pad)
        qs.append(list(outs.mean(axis=0)) + [0.0] * pad)
        ses.append(list(se) + [0.0] * pad)
    got = search_choice(np.asarray(cands), np.asarray(qs), np.asarray(ses), 1.0)
    assert list(got) == expected
    assert len(set(expected) - {c[0] for c in cands}) > 10  # some switches were tested


@pytest.mark.slow
def test_search_distillation_phase_runs_from_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["train", "--out", str(tmp_path), "--seed", "1", *TINY, "--updates", "0"]
    args += ["--search-games", "2", "--search-samples", "2", "--search-epochs", "2"]
    assert run(args) == 0
    curve = json.loads((tmp_path / "curve.json").read_text(encoding="utf-8"))
    assert [p["phase"] for p in curve["curve"]] == ["tune", "tune", "distill", "search", "search"]
    assert curve["config"]["search_games"] == 2
    last = curve["curve"][-1]
    assert 0 < last["acc"] <= 1
    assert last["heldout_rows"] >= 1 and 0 <= last["heldout_departs"] <= 1
    assert "search-data" in capsys.readouterr().out


@pytest.mark.slow
def test_search_distillation_from_given_weights_and_kept_labels(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--init starts from shipped weights (no teacher data with --epochs 0); --search-data
    keeps the labelled rows, is read back by the same options and refused by others."""
    labels = tmp_path / "labels.npz"

    def train(out: str, games: str = "3") -> int:
        args = ["train", "--out", str(tmp_path / out), "--seed", "2", *TINY, "--updates", "0"]
        args += ["--epochs", "0", "--init", str(DEFAULT_WEIGHTS), "--search-data", str(labels)]
        return run(
            [*args, "--search-games", games, "--search-samples", "2", "--search-epochs", "1"]
        )

    assert train("a") == 0
    out = capsys.readouterr().out
    assert '"phase": "data"' not in out and "search-data" in out
    with np.load(labels) as z:
        assert z["meta"].tolist() == [2, 3, 2, 1 / 3] and len(z["n"]) > 3
    stamp = labels.stat().st_mtime_ns
    curve = json.loads((tmp_path / "a" / "curve.json").read_text(encoding="utf-8"))["curve"]
    assert [p["phase"] for p in curve] == ["tune", "tune", "search"]
    assert curve[2]["heldout_rows_before"] == curve[2]["heldout_rows"] >= 1
    assert '"phase": "search-start"' in out
    assert train("b") == 0
    assert labels.stat().st_mtime_ns == stamp  # read, not made again
    with np.load(tmp_path / "a" / "learned.npz") as x, np.load(tmp_path / "b" / "learned.npz") as y:
        for k in x.files:
            np.testing.assert_array_equal(x[k], y[k])
    capsys.readouterr()
    assert train("c", games="4") == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: --search-data:") and "labels.npz" in err and "\n" not in err
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"weights": {"huxi": 9.0}}), encoding="utf-8")
    assert (
        run(
            [
                "train",
                "--out",
                str(tmp_path / "d"),
                "--seed",
                "2",
                *TINY,
                "--updates",
                "0",
                "--epochs",
                "0",
                "--init",
                str(DEFAULT_WEIGHTS),
                "--search-data",
                str(labels),
                "--search-games",
                "3",
                "--search-samples",
                "2",
                "--search-epochs",
                "1",
                "--weights",
                str(other),
                "--tune-deals",
                "0",
            ]
        )
        == 2
    )
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: --search-data:") and "other heuristic weights" in err
    assert "'huxi': 9.0" in err and "\n" not in err


def test_the_readmes_search_distillation_command_in_a_tiny_form(tmp_path: Path) -> None:
    """Its sizes shrunk and its files moved to tmp_path; it starts from the shipped weights."""
    args = _readme_command("search-distill-command")
    init = args[args.index("--init") + 1]
    assert (ROOT / init).resolve() == DEFAULT_WEIGHTS.resolve()
    sizes = {
        "--out": str(tmp_path / "run"),
        "--search-data": str(tmp_path / "labels.npz"),
        "--init": str(DEFAULT_WEIGHTS),
        "--search-games": "2",
        "--search-epochs": "1",
        "--eval-deals": "1",
        "--workers": "1",
    }
    assert run(_shrunk(args, sizes)) == 0
    curve = json.loads((tmp_path / "run" / "curve.json").read_text(encoding="utf-8"))
    assert [p["phase"] for p in curve["curve"]] == ["search"]
    assert curve["config"]["init"] == str(DEFAULT_WEIGHTS)
    assert (tmp_path / "labels.npz").is_file()


@pytest.mark.parametrize(
    ("block", "weights", "kept_curve"),
    [
        ("lean-train-command", "docs/learned-lean.json", "docs/learned-lean-curve.json"),
        (
            "mingtang-train-command",
            "docs/learned-mingtang.json",
            "docs/learned-mingtang-curve.json",
        ),
    ],
)
def test_the_readmes_lean_distillation_commands_in_a_tiny_form(
    block: str, weights: str, kept_curve: str, tmp_path: Path
) -> None:
    """The networks distilled from a scan's weights, no tuning (the last one is shipped)."""
    args = _readme_command(block)
    given = args[args.index("--weights") + 1]
    assert given == weights and "--tune-deals" not in args
    sizes = {
        "--out": str(tmp_path / "run"),
        "--weights": str(ROOT / given),
        "--games": "3",
        "--epochs": "1",
        "--eval-deals": "1",
        "--workers": "1",
    }
    assert run(_shrunk(args, sizes)) == 0
    curve = json.loads((tmp_path / "run" / "curve.json").read_text(encoding="utf-8"))
    assert [p["phase"] for p in curve["curve"]] == ["distill"]
    scan = json.loads((ROOT / given).read_text(encoding="utf-8"))
    assert Policy.load(tmp_path / "run" / "learned.npz").weights == Weights.from_dict(
        scan["weights"]
    )
    assert not (tmp_path / "run" / "weights.json").exists()  # nothing was tuned
    kept = json.loads((ROOT / kept_curve).read_text(encoding="utf-8"))
    assert kept["config"]["weights"] == given and kept["config"]["games"] == 4000


def test_a_run_that_only_tunes_says_so_and_writes_the_weights(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["train", "--out", str(tmp_path), "--seed", "1", "--tune-deals", "2"]
    args += ["--tune-sweeps", "1", "--epochs", "0", "--updates", "0", "--workers", "1"]
    assert run(args) == 0
    out = capsys.readouterr().out
    assert "done: tuned heuristic - heuristic" in out and "weights.json" in out
    tuned = json.loads((tmp_path / "weights.json").read_text(encoding="utf-8"))
    Weights.from_dict(tuned["weights"])
    assert not (tmp_path / "learned.npz").exists()  # no network was trained
