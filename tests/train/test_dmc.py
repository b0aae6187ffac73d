"""``paohuzi train-dmc``: Deep Monte-Carlo self-play resumes exactly, learns, and exports a bot."""

from __future__ import annotations

import json
import random
import shlex
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from paohuzi.arena import ARENA_RULES  # noqa: E402
from paohuzi.bots import BOTS, make_bot  # noqa: E402
from paohuzi.bots.base import obvious_action  # noqa: E402
from paohuzi.bots.heuristic import HeuristicBot  # noqa: E402
from paohuzi.bots.learned import DMC_WEIGHTS_VAR, DMCBot, LearnedBot, Policy  # noqa: E402
from paohuzi.cli.errors import run  # noqa: E402
from paohuzi.core.engine import new_game  # noqa: E402
from paohuzi.core.views import view  # noqa: E402
from paohuzi.train.dmc import (  # noqa: E402
    DMCConfig,
    QNet,
    Replay,
    init_weights,
    new_qnet,
    play_games,
    training_deal,
)
from paohuzi.train.dmc_run import DMCRun, run_dmc  # noqa: E402
from paohuzi.train.selfplay import features  # noqa: E402


def tiny(out: Path, updates: int, **kw: object) -> DMCConfig:
    base: dict[str, object] = dict(
        out=str(out),
        seed=7,
        updates=updates,
        games=2,
        steps=2,
        batch=16,
        buffer=150,
        eval_deals=1,
        eval_every=100,
        opponents=("heuristic",),
        checkpoint_every=100,
    )
    base.update(kw)
    return DMCConfig(**base)  # type: ignore[arg-type]


def test_an_interrupted_run_resumed_equals_an_uninterrupted_one(tmp_path: Path) -> None:
    whole, split = tmp_path / "whole", tmp_path / "split"
    run_dmc(tiny(whole, 4))
    first = run_dmc(tiny(split, 2))
    assert [p["update"] for p in first["curve"]] == [0, 2]
    run_dmc(tiny(split, 4))  # the same command with a later stop: goes on from update 2
    a = torch.load(whole / "checkpoint.pt", weights_only=False)
    b = torch.load(split / "checkpoint.pt", weights_only=False)
    for k, v in a["q"].items():
        assert torch.equal(v, b["q"][k]), k
    assert a["rng"] == b["rng"] and torch.equal(a["gen"], b["gen"])
    assert (
        (a["update"], a["game"], a["samples"])
        == (b["update"], b["game"], b["samples"])
        == (4, 8, 4 * 2 * 16)
    )
    assert a["decisions"] == b["decisions"] > 0
    with np.load(whole / "replay.npz") as za, np.load(split / "replay.npz") as zb:
        for k in ("obs", "act", "ret", "pos"):
            assert np.array_equal(za[k], zb[k]), k
    # The curve was appended: the first call's points and run are still there.
    curve = json.loads((split / "curve.json").read_text(encoding="utf-8"))
    assert [p["update"] for p in curve["curve"]] == [0, 2, 4]
    assert [(r["start_update"], r["end_update"]) for r in curve["runs"]] == [(0, 2), (2, 4)]
    assert curve["compute_seconds"] > 0 and all(r["seed"] == 7 for r in curve["runs"])
    assert [r["config"]["updates"] for r in curve["runs"]] == [2, 4]
    p = curve["curve"][-1]["vs_heuristic"]
    assert p["deals"] == 1 and p["ci95"][0] <= p["mean"] <= p["ci95"][1]
    # A rerun with a target already reached adds nothing but a record of the call.
    run_dmc(tiny(split, 4))
    again = json.loads((split / "curve.json").read_text(encoding="utf-8"))
    assert len(again["curve"]) == 3 and len(again["runs"]) == 3


def test_a_run_of_another_seed_is_refused(tmp_path: Path) -> None:
    run_dmc(tiny(tmp_path, 1))
    with pytest.raises(ValueError, match="seed 7, not 8"):
        DMCRun(tiny(tmp_path, 2, seed=8))


def test_the_network_starts_as_the_learned_bot_and_exports_its_layout() -> None:
    cfg = DMCConfig(out="-")
    q = new_qnet(cfg)
    weights = init_weights(cfg.init)
    learned = LearnedBot(0)
    dmc = LearnedBot(0, Policy(q.export(weights)))
    ranker = HeuristicBot(None, ARENA_RULES, weights)
    st = new_game(ARENA_RULES, seed=11, dealer=1)
    checked = 0
    while not st.over:
        seat = st.to_act()[0]
        v = view(st, seat)
        a = learned.act(v)
        assert dmc.act(v).id == a.id
        if len(v.legal) > 1:
            x = torch.from_numpy(features(st, seat, ranker.rank(v))).float()[None]
            with torch.no_grad():
                qs, value = q(x)[0], q.net(x)[1][0]
            legal = [b.id for b in v.legal]
            assert max(legal, key=lambda i: float(qs[i])) == a.id
            # Q of the greedy action is the value head; others are lower by κ × the logit gap.
            assert float(qs[a.id]) == pytest.approx(float(value), abs=1e-5)
            assert all(float(qs[i]) <= float(qs[a.id]) for i in legal)
            checked += 1
        st.apply(seat, a.id)
    assert checked > 5


def test_self_play_samples_carry_the_seats_return() -> None:
    cfg = DMCConfig(out="-")
    q = new_qnet(cfg)
    deals = [training_deal(1, i) for i in range(2)]
    d = play_games(q, deals, 0.2, random.Random(0), init_weights(cfg.init))
    assert d["decisions"] == len(d["act"]) == len(d["obs"]) == len(d["ret"]) > 0
    assert d["obs"].dtype == np.uint8
    # Replay the rounds with the recorded actions: each sample's return is its seat's
    # balance change, and its input is the seat's features at that decision.
    acts = iter(d["act"].tolist())
    want: list[float] = []
    ranker = HeuristicBot(None, ARENA_RULES, init_weights(cfg.init))
    k = 0
    for seed, dealer in deals:
        st = new_game(ARENA_RULES, seed=seed, dealer=dealer)
        seats = []
        while not st.over:
            seat = st.to_act()[0]
            v = view(st, seat)
            sure = obvious_action(v)
            if sure is None:
                assert np.array_equal(d["obs"][k], features(st, seat, ranker.rank(v)))
                k += 1
                seats.append(seat)
                st.apply(seat, next(acts))
            else:
                st.apply(seat, sure.id)
        assert st.result is not None
        want += [float(st.result.deltas[s]) for s in seats]
    assert d["ret"].tolist() == want and k == d["decisions"]
    again = play_games(q, deals, 0.2, random.Random(0), init_weights(cfg.init))
    assert np.array_equal(d["act"], again["act"]) and np.array_equal(d["ret"], again["ret"])
    greedy = play_games(q, deals, 0.0, random.Random(0), init_weights(cfg.init))
    assert not np.array_equal(d["act"][:30], greedy["act"][:30])


def test_training_deals_are_not_curve_deals() -> None:
    train = {training_deal(0, i) for i in range(200)}
    curve = set()
    for i in range(200):
        rng = random.Random(f"curve:0:{i}")
        curve.add((rng.randrange(2**63), rng.randrange(3)))
    assert len(train) == 200 and not train & curve


def test_replay_keeps_the_most_recent_samples() -> None:
    r = Replay(3)
    obs = np.arange(5, dtype=np.uint8)[:, None].repeat(4, 1)
    obs = np.pad(obs, ((0, 0), (0, r.obs.shape[1] - 4)))
    r.add(obs, np.arange(5), np.arange(5, dtype=np.float32) * 20)
    assert r.size == 3 and r.pos == 2
    assert sorted(r.act.tolist()) == [2, 3, 4] and sorted(r.obs[:, 0].tolist()) == [2, 3, 4]
    x, a, ret = r.sample(50, torch.Generator().manual_seed(0))
    assert set(a.tolist()) == {2, 3, 4}
    assert torch.equal(ret, a.float())  # returns scaled by 1/20, rows kept together
    assert torch.equal(x[:, 0], a.float())


def test_the_loss_falls_on_a_fixed_buffer() -> None:
    cfg = DMCConfig(out="-")
    q = new_qnet(cfg)
    d = play_games(
        q, [training_deal(2, i) for i in range(2)], 0.1, random.Random(1), init_weights(cfg.init)
    )
    r = Replay(len(d["act"]))
    r.add(d["obs"], d["act"], d["ret"])
    opt = torch.optim.Adam(q.parameters(), lr=1e-4)
    x, a, ret = r.sample(len(d["act"]), torch.Generator().manual_seed(0))

    def loss() -> float:
        with torch.no_grad():
            return float(((q(x).gather(1, a[:, None]).squeeze(1) - ret) ** 2).mean())

    before = loss()
    for _ in range(15):
        err = ((q(x).gather(1, a[:, None]).squeeze(1) - ret) ** 2).mean()
        opt.zero_grad()
        err.backward()
        opt.step()
    assert loss() < 0.7 * before


def test_the_dmc_bot_plays_an_export(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(DMC_WEIGHTS_VAR, raising=False)
    with pytest.raises(ValueError, match=DMC_WEIGHTS_VAR):
        DMCBot(0)
    run_dmc(tiny(tmp_path, 1))
    monkeypatch.setenv(DMC_WEIGHTS_VAR, str(tmp_path / "dmc.npz"))
    from paohuzi.bots import _dmc

    monkeypatch.setitem(BOTS, "dmc", _dmc)
    bot = make_bot("dmc", 1, ARENA_RULES)
    assert bot.name == "dmc"
    st = new_game(ARENA_RULES, seed=3, dealer=0)
    seat = st.to_act()[0]
    assert st.can_apply(seat, bot.act(view(st, seat)).id)
    with np.load(tmp_path / "dmc.npz") as z:
        assert float(z["kappa"][0]) > 0


def test_the_command_needs_a_stop_and_resumes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    assert run(["train-dmc", "--out", str(out)]) == 2
    assert "--updates" in capsys.readouterr().err
    args = ["train-dmc", "--out", str(out), "--updates", "1", "--games", "1", "--steps", "1"]
    args += ["--batch", "8", "--eval-deals", "1", "--seed", "5"]
    assert run(args) == 0
    assert "dmc minus heuristic" in capsys.readouterr().out
    assert run([*args[:4], "2", *args[5:]]) == 0
    curve = json.loads((out / "curve.json").read_text(encoding="utf-8"))
    assert [p["update"] for p in curve["curve"]] == [0, 1, 2]
    assert set(curve["curve"][0]) >= {"vs_heuristic", "vs_learned"}
    assert curve["curve"][0]["vs_learned"]["mean"] == 0.0  # it starts as the learned bot
    assert run([*args[:-1], "6"]) == 2
    assert "seed 5, not 6" in capsys.readouterr().err


def test_qnet_kappa_stays_positive() -> None:
    q = QNet((8, 8))
    with torch.no_grad():
        q.log_kappa.fill_(-30.0)
    assert float(q.export(init_weights(None))["kappa"][0]) > 0


def test_a_held_kappa_does_not_move(tmp_path: Path) -> None:
    """``--kappa``: κ held (the learned one shrank, and with it what ℓ learns)."""
    held = run_dmc(tiny(tmp_path / "held", 2, kappa=0.05))
    learned = run_dmc(tiny(tmp_path / "learned", 2))
    assert held["curve"][-1]["kappa"] == pytest.approx(0.05, rel=1e-6)
    assert learned["curve"][-1]["kappa"] != pytest.approx(0.05, rel=1e-6)
    with np.load(tmp_path / "held" / "dmc.npz") as z:
        assert float(z["kappa"][0]) == pytest.approx(0.05, rel=1e-6)


def _documented(name: str, tmp: Path) -> list[str]:
    """The arguments of the one ``paohuzi`` command in ``<!-- name -->`` of docs/selfplay.md,
    shortened: one update, one deal, the run's directory under ``tmp``."""
    from tests.docblocks import marked

    lines = [ln for ln in marked(name).splitlines() if ln.strip() and not ln.startswith("#")]
    assert len(lines) == 1
    words = shlex.split(lines[0])
    words = [w for w in words if "=" not in w or w.startswith("-")]  # the env assignment
    assert words[0] == ".venv/bin/paohuzi"
    args = words[1:]
    short = {"--minutes": None, "--deals": "1", "--eval-deals": "1"}
    out: list[str] = []
    i = 0
    while i < len(args):
        a = args[i]
        if a in short:
            if short[a] is not None:
                out += [a, str(short[a])]
            i += 2
            continue
        out.append(a.replace("runs/dmc-pilot", str(tmp)))
        i += 1
    return out


def test_the_documented_commands_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """<!-- dmc-pilot --> (twice: the second call resumes), <!-- dmc-arena --> and
    <!-- dmc-arena-pilot -->, short."""
    pilot = _documented("dmc-pilot", tmp_path)
    assert pilot[0] == "train-dmc" and "--seed" in pilot
    assert run([*pilot, "--updates", "1", "--games", "1", "--steps", "1"]) == 0
    assert run([*pilot, "--updates", "2", "--games", "1", "--steps", "1"]) == 0
    curve = json.loads((tmp_path / "curve.json").read_text(encoding="utf-8"))
    assert [r["end_update"] for r in curve["runs"]] == [1, 2]
    from tests.docblocks import marked

    assert "PAOHUZI_DMC_WEIGHTS=runs/dmc-pilot/dmc.npz" in marked("dmc-arena")
    monkeypatch.setenv(DMC_WEIGHTS_VAR, str(tmp_path / "dmc.npz"))
    from paohuzi.bots import _dmc

    monkeypatch.setitem(BOTS, "dmc", _dmc)
    for name in ("dmc-arena", "dmc-arena-pilot"):
        assert "PAOHUZI_DMC_WEIGHTS=runs/dmc-pilot/dmc.npz" in marked(name)
        arena = _documented(name, tmp_path)
        assert arena[:3] == ["arena", "--bots", "dmc,learned"] and "--seed" in arena
        assert run(arena) == 0
