"""A resumable Deep Monte-Carlo run (:mod:`paohuzi.train.dmc`): checkpoints and the curve.

``DIR/checkpoint.pt`` holds the network, the optimiser, the RNG states and the
counters; ``DIR/replay.npz`` the replay buffer; both are replaced together (written
aside, then renamed) every ``checkpoint_every`` updates and at the end. Running
the same command on the same ``DIR`` goes on from there, exactly as if the run
had not stopped. ``DIR/curve.json`` keeps every invocation (seed, start and end
update, seconds) and every curve point, appended; ``DIR/dmc.npz`` the latest
export, which the ``dmc`` bot plays.
"""

from __future__ import annotations

import json
import os
import random
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np
import torch

from .dmc import (
    DMCConfig,
    QNet,
    Replay,
    dmc_eval,
    init_weights,
    new_qnet,
    play_games,
    training_deal,
)

__all__ = ["DMCRun", "run_dmc"]


class DMCRun:
    """The state of a run: network, optimiser, RNGs, counters, buffer, curve."""

    def __init__(self, cfg: DMCConfig) -> None:
        torch.set_num_threads(1)
        torch.use_deterministic_algorithms(True)
        self.cfg = cfg
        self.out = Path(cfg.out)
        self.out.mkdir(parents=True, exist_ok=True)
        self.weights = init_weights(cfg.init)
        self.q: QNet = new_qnet(cfg)
        self.opt = torch.optim.Adam(self.q.parameters(), lr=cfg.lr)
        self.rng = random.Random(f"dmc-actors:{cfg.seed}")
        self.gen = torch.Generator().manual_seed(cfg.seed)
        self.replay = Replay(cfg.buffer)
        self.update = self.game = self.samples = self.decisions = 0
        self.seconds = 0.0  # compute so far, all invocations
        self.curve: dict[str, Any] = {"config": asdict(cfg), "runs": [], "curve": []}
        if (self.out / "checkpoint.pt").exists():
            self._resume()
        elif (self.out / "curve.json").exists():
            raise ValueError(f"{str(self.out)!r} has a curve.json but no checkpoint.pt")

    def _resume(self) -> None:
        ck = torch.load(self.out / "checkpoint.pt", weights_only=False)
        if ck["seed"] != self.cfg.seed:
            raise ValueError(
                f"{str(self.out)!r} holds a run of seed {ck['seed']}, not {self.cfg.seed}"
            )
        self.q.load_state_dict(ck["q"])
        self.opt.load_state_dict(ck["opt"])
        self.rng.setstate(ck["rng"])
        self.gen.set_state(ck["gen"])
        for k in ("update", "game", "samples", "decisions", "seconds"):
            setattr(self, k, ck[k])
        with np.load(self.out / "replay.npz") as z:
            self.replay.load(z)
        self.curve = json.loads((self.out / "curve.json").read_text(encoding="utf-8"))

    def checkpoint(self) -> None:
        """Network, optimiser, RNGs, counters and buffer, replaced together; the export."""
        ck = {
            "seed": self.cfg.seed,
            "q": self.q.state_dict(),
            "opt": self.opt.state_dict(),
            "rng": self.rng.getstate(),
            "gen": self.gen.get_state(),
            "update": self.update,
            "game": self.game,
            "samples": self.samples,
            "decisions": self.decisions,
            "seconds": self.seconds,
        }
        torch.save(ck, self.out / "checkpoint.tmp")
        with open(self.out / "replay.tmp", "wb") as f:
            np.savez(f, allow_pickle=False, **self.replay.state())
        with open(self.out / "dmc.tmp", "wb") as f:
            np.savez_compressed(f, allow_pickle=False, **self.q.export(self.weights))
        os.replace(self.out / "replay.tmp", self.out / "replay.npz")
        os.replace(self.out / "dmc.tmp", self.out / "dmc.npz")
        os.replace(self.out / "checkpoint.tmp", self.out / "checkpoint.pt")
        self._write_curve()

    def _write_curve(self) -> None:
        tmp = self.out / "curve.tmp"
        tmp.write_text(json.dumps(self.curve, indent=1), encoding="utf-8")
        os.replace(tmp, self.out / "curve.json")

    def step(self) -> float:
        """One update: ``games`` rounds of self-play into the buffer, ``steps`` minibatches."""
        cfg = self.cfg
        deals = [training_deal(cfg.seed, self.game + i) for i in range(cfg.games)]
        self.game += cfg.games
        data = play_games(self.q, deals, cfg.epsilon, self.rng, self.weights)
        self.replay.add(data["obs"], data["act"], data["ret"])
        self.decisions += data["decisions"]
        loss = 0.0
        for _ in range(cfg.steps):
            x, a, r = self.replay.sample(cfg.batch, self.gen)
            qa = self.q(x).gather(1, a[:, None]).squeeze(1)
            err = ((qa - r) ** 2).mean()
            self.opt.zero_grad()
            err.backward()
            self.opt.step()
            loss += float(err.detach())
            self.samples += cfg.batch
        self.update += 1
        return loss / max(cfg.steps, 1)

    def point(self, loss: float | None) -> dict[str, Any]:
        """Evaluate the greedy network against each fixed opponent; a curve point."""
        arrays = self.q.export(self.weights)
        t = time.perf_counter()
        p: dict[str, Any] = {
            "update": self.update,
            "games": self.game,
            "decisions": self.decisions,
            "samples": self.samples,
            "seconds": round(self.seconds, 1),
            "loss": None if loss is None else round(loss, 5),
            "kappa": round(float(arrays["kappa"][0]), 5),
            "eval_seed": self.cfg.eval_seed,
        }
        for opp in self.cfg.opponents:
            p[f"vs_{opp}"] = dmc_eval(arrays, opp, self.cfg.eval_deals, self.cfg.eval_seed)
        p["eval_seconds"] = round(time.perf_counter() - t, 1)
        self.curve["curve"].append(p)
        print(json.dumps(p), flush=True)
        return p

    def done(self, started: float) -> bool:
        cfg = self.cfg
        if cfg.updates is not None and self.update >= cfg.updates:
            return True
        return cfg.minutes is not None and time.perf_counter() - started >= cfg.minutes * 60


def run_dmc(cfg: DMCConfig) -> dict[str, Any]:
    """Train until ``cfg.updates`` (in all) or ``cfg.minutes`` (this invocation); the curve.

    A new run is evaluated first (the starting point); every ``eval_every`` updates
    and at the end a point is added (not twice at the same update).
    """
    if cfg.updates is None and cfg.minutes is None:
        raise ValueError("give a number of updates or of minutes")
    run = DMCRun(cfg)
    started = time.perf_counter()
    info = {
        "seed": cfg.seed,
        "start_update": run.update,
        "started": time.time(),
        "config": asdict(cfg),
    }  # each call's own options (a resumed call may change them)
    if not run.curve["curve"]:
        run.point(None)
    last = run.curve["curve"][-1]["update"]
    loss = None
    since = time.perf_counter()
    while not run.done(started):
        loss = run.step()
        now = time.perf_counter()
        run.seconds += now - since
        since = now
        if run.update % cfg.eval_every == 0:
            run.point(loss)
            last = run.update
        if run.update % cfg.checkpoint_every == 0:
            run.checkpoint()
        since = time.perf_counter()
    if last != run.update:
        run.point(loss)
    run.curve["runs"].append(
        {**info, "end_update": run.update, "wall_seconds": round(time.perf_counter() - started, 1)}
    )
    run.curve["compute_seconds"] = round(run.seconds, 1)
    run.checkpoint()
    return run.curve
