"""The duplicate-deal arena and its command."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from paohuzi.arena import ARENA_RULES, deal_seed, run_arena, seatings
from paohuzi.cli.app import app
from paohuzi.core.record import loads, replay

KEYS = (
    "mean_score",
    "ci95",
    "win_rate",
    "draw_rate",
    "mean_win_huxi",
    "decision_ms_p50",
    "decision_ms_p95",
)


def test_seatings_rotate_every_bot_through_every_seat() -> None:
    three = seatings(["a", "b", "c"])
    assert len(three) == 3
    for name in "abc":
        assert {s.index(name) for s in three} == {0, 1, 2}
    two = seatings(["a", "b"])
    assert len(two) == 6 and len(set(two)) == 6
    for name in "ab":
        assert {i for s in two for i in range(3) if s[i] == name} == {0, 1, 2}


def test_caps_are_off_by_default() -> None:
    assert not ARENA_RULES.cap_winner_gain and not ARENA_RULES.cap_loser_payment


def test_json_shape_and_pooling() -> None:
    out = run_arena(["heuristic", "random", "random"], deals=4, seed=3)
    assert out["deals"] == 4 and out["rounds"] == 12
    assert set(out["bots"]) == {"heuristic", "random"}
    for b in out["bots"].values():
        for k in KEYS:
            assert k in b
        lo, hi = b["ci95"]
        assert lo <= b["mean_score"] <= hi
        assert 0 <= b["win_rate"] <= 1 and 0 <= b["draw_rate"] <= 1
    d = out["diff"]
    assert (d["a"], d["b"]) == ("heuristic", "random")
    assert (
        abs(
            d["mean"]
            - (out["bots"]["heuristic"]["mean_score"] - out["bots"]["random"]["mean_score"])
        )
        < 1e-3
    )
    # zero-sum with caps off: the heuristic seat's gain is what the two random seats lose
    h = out["bots"]["heuristic"]["mean_score"]
    r = out["bots"]["random"]["mean_score"]
    assert abs(h + 2 * r) < 1e-3


def test_workers_give_the_same_result() -> None:
    a = run_arena(["random", "heuristic"], deals=3, seed=9, workers=1)
    b = run_arena(["random", "heuristic"], deals=3, seed=9, workers=2)
    for k in ("bots", "diff", "draw_rate"):
        if k == "bots":
            for name in a["bots"]:
                for key in ("mean_score", "ci95", "win_rate", "draw_rate", "mean_win_huxi"):
                    assert a["bots"][name][key] == b["bots"][name][key]
        else:
            assert a[k] == b[k]


def test_cli_json_and_records(tmp_path: Path) -> None:
    r = CliRunner().invoke(
        app,
        [
            "arena",
            "--bots",
            "heuristic,random,random",
            "--deals",
            "2",
            "--seed",
            "1",
            "--json",
            "--records",
            str(tmp_path),
        ],
    )
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["deals"] == 2 and set(data["bots"]) == {"heuristic", "random"}
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 6
    recs = [loads(f.read_text(encoding="utf-8")) for f in files]
    # duplicate deals: every rotation of a deal replays the same cards
    assert recs[0]["deal"] == recs[1]["deal"] == recs[2]["deal"]
    assert recs[0]["deal"] != recs[3]["deal"]
    st = replay(recs[0])
    assert st.over
    assert deal_seed(1, 0) == deal_seed(1, 0)


def test_cli_text() -> None:
    r = CliRunner().invoke(app, ["arena", "--bots", "heuristic,random", "--deals", "1"])
    assert r.exit_code == 0, r.output
    assert "heuristic - random" in r.output and "caps off" in r.output and "p95" in r.output


def test_cli_rejects_unknown_bot() -> None:
    r = CliRunner().invoke(app, ["arena", "--bots", "heuristic,nobody", "--deals", "1"])
    assert r.exit_code == 2


def _reversed_network(tmp_path: Path) -> Path:
    """The shipped network with its policy head negated: a different, worse player."""
    import numpy as np

    from paohuzi.bots.learned import DEFAULT_WEIGHTS

    with np.load(DEFAULT_WEIGHTS) as z:
        arrays = {k: z[k] for k in z.files}
    for k in ("wp", "bp", "alpha"):
        arrays[k] = -arrays[k]
    path = tmp_path / "trained.npz"
    np.savez(path, **arrays)
    return path


def test_weights_are_the_network_the_learned_and_guided_bots_play(tmp_path: Path) -> None:
    """``--weights`` measures the file it names, not the shipped network: both bots that play
    the network load it, the others are unchanged, and the results follow the file."""
    import numpy as np

    from paohuzi.arena import arena_bot
    from paohuzi.bots import HeuristicBot
    from paohuzi.bots.learned import DEFAULT_WEIGHTS, LearnedBot

    path = _reversed_network(tmp_path)
    with np.load(path) as z:
        wp = z["wp"].astype(np.float32)
    learned = arena_bot("learned", 1, ARENA_RULES, str(path))
    guided = arena_bot("guided", 1, ARENA_RULES, str(path))
    assert isinstance(learned, LearnedBot)
    assert np.array_equal(learned.policy.p["wp"], wp)
    assert np.array_equal(guided.learned.policy.p["wp"], wp)  # type: ignore[attr-defined]
    assert isinstance(arena_bot("heuristic", 1, ARENA_RULES, str(path)), HeuristicBot)
    shipped = arena_bot("learned", 1, ARENA_RULES)
    with np.load(DEFAULT_WEIGHTS) as z:
        assert np.array_equal(shipped.policy.p["wp"], z["wp"].astype(np.float32))  # type: ignore[attr-defined]

    names = ["learned", "heuristic"]
    trained = run_arena(names, deals=2, seed=4, weights=str(path), workers=2)
    default = run_arena(names, deals=2, seed=4)
    assert trained["weights"] == str(path) and "weights" not in default
    assert trained["bots"]["learned"]["mean_score"] != default["bots"]["learned"]["mean_score"]


def test_cli_weights(tmp_path: Path) -> None:
    path = _reversed_network(tmp_path)
    args = ["arena", "--bots", "learned,heuristic", "--deals", "1", "--weights", str(path)]
    r = CliRunner().invoke(app, [*args, "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["weights"] == str(path)
    r = CliRunner().invoke(app, args)
    assert r.exit_code == 0, r.output
    assert f"learned and guided played the network in {path}" in r.output
