"""``paohuzi train``: tuning the heuristic, distillation, search distillation, fine-tuning.

0. **Tuning** (``--tune-deals``): the heuristic's weights, from which the network's
   prior (and a ``heuristic`` teacher) is computed, are learned by a pattern
   search on duplicate deals against the ``heuristic`` bot
   (:mod:`paohuzi.train.tune`); ``--weights`` gives them instead; they travel in
   the exported ``learned.npz``.
1. **Data**: the teacher (``heuristic`` by default) plays itself; each decision with
   a choice is a row (the seat's encoded view, the teacher's action, the seat's
   balance change at the end). Jobs run on :func:`paohuzi.parallel.map_jobs`.
2. **Distillation**: a two-layer MLP learns the teacher's action (masked
   cross-entropy) and the round's outcome (value head, mean squared error).
3. **Search distillation** (``--search-games``): in more heuristic rounds, a third
   of the decisions are valued as the search bot values them
   (:func:`paohuzi.train.selfplay.search_label_job`); the network learns the
   action the search bot would play (:func:`search_choice`), so that it plays the
   search's moves at the cost of one forward pass.
4. **Fine-tuning** (``--updates``): the network plays one seat against two
   teachers, sampling its actions; REINFORCE with the value head as baseline, plus
   a cross-entropy pull towards the teacher's choice.
5. **Learning curve**: after each epoch and every few fine-tuning updates, the
   greedy policy plays duplicate deals against ``heuristic`` in all six seatings
   of the two on tuning deals (``curve:`` seeds, never the arena's); the score
   difference against training time goes to ``curve.json`` and ``curve.png``.

Everything follows from ``--seed`` (torch runs on one thread, deterministically).
Outputs in ``--out``: ``checkpoint-*.pt`` (torch state), ``learned.npz`` (the
numpy export the ``learned`` bot loads), ``curve.json``, ``curve.png``.
"""

from __future__ import annotations

import json
import random
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from ..arena import ARENA_RULES
from ..bots.handeval import DEFAULT_WEIGHTS, Weights
from ..bots.heuristic import HeuristicBot
from ..bots.learned import (
    PRIOR_STEPS,
    VALUE_SCALE,
    WEIGHTS_KEY,
    weights_array,
    weights_from_array,
)
from ..bots.network import ARRAYS, INPUTS, LEGAL, PRIOR, PUBLIC
from ..core.actions import NUM_ACTIONS
from ..core.engine import new_game
from ..core.views import view
from ..encoding.observation import bounds
from ..parallel import map_jobs
from .selfplay import (
    duplicate_eval,
    features,
    search_label_job,
    seat_bot,
    teacher_job,
)
from .tune import read_weights, tune

__all__ = [
    "KeptDataError",
    "Net",
    "TrainConfig",
    "export",
    "load_exported",
    "read_weights",
    "search_choice",
    "search_data_problem",
    "train",
]

RETURN_SCALE = VALUE_SCALE  # a round's balance change, divided by this, is the value target


@dataclass(frozen=True, slots=True)
class TrainConfig:
    """What ``paohuzi train`` does; every field is a command-line option."""

    out: str
    seed: int = 0
    teacher: str = "heuristic"
    games: int = 3000
    epochs: int = 6
    batch: int = 256
    lr: float = 1e-3
    hidden: tuple[int, int] = (512, 256)
    finetune_updates: int = 300
    finetune_episodes: int = 32  # per update
    finetune_lr: float = 1e-4
    search_games: int = 0  # rounds for search distillation (0: none)
    search_samples: int = 12  # determinizations per labelled decision, as the search bot
    search_rate: float = 1 / 3  # share of decisions labelled
    search_epochs: int = 3
    search_lr: float = 1e-4
    search_z: float = 1.0  # the search bot's switching rule, see search_choice
    search_heldout: float = 0.15  # last share of the labelled rows (the latest rounds) kept out
    search_data: str | None = None  # an .npz of labelled rows: read if present, else written
    init: str | None = None  # start from these exported weights (learned.npz), not at random
    tune_deals: int = 0  # duplicate deals per step of the heuristic's weights' tuning (0: none)
    tune_sweeps: int = 2
    weights: str | None = None  # the heuristic's weights (a JSON file) when not tuned here
    value_weight: float = 0.5  # the value head's squared error, in every loss
    prior_pull: float = 0.2  # fine-tuning: cross-entropy towards the prior's heuristic's choice
    eval_deals: int = 30
    eval_every: int = 10  # fine-tuning updates between curve points
    workers: int = 2
    backend: str = "process"


class Net(nn.Module):
    """MLP: scaled inputs -> two ReLU layers -> logits over action ids (plus α × prior), value."""

    def __init__(self, hidden: tuple[int, int] = (512, 256)) -> None:
        super().__init__()
        self.scale: torch.Tensor
        _low, high = bounds()
        scale = np.concatenate(
            [1.0 / np.maximum(high[:PUBLIC], 1.0), np.full(NUM_ACTIONS, 1.0 / PRIOR_STEPS)]
        ).astype(np.float32)
        self.register_buffer("scale", torch.from_numpy(scale))
        self.l1 = nn.Linear(INPUTS, hidden[0])
        self.l2 = nn.Linear(hidden[0], hidden[1])
        self.pi = nn.Linear(hidden[1], NUM_ACTIONS)
        self.v = nn.Linear(hidden[1], 1)
        # The prior passes straight to the logits: the network starts as the heuristic.
        self.alpha = nn.Parameter(torch.tensor(10.0))

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        xs = x * self.scale
        h = torch.relu(self.l1(xs))
        h = torch.relu(self.l2(h))
        return self.pi(h) + self.alpha * xs[:, PRIOR:], self.v(h).squeeze(-1)


def load_exported(net: Net, path: str) -> None:
    """Set ``net``'s weights from an ``.npz`` that :func:`export` wrote (the inverse)."""
    shapes = {k: v.shape for k, v in net.state_dict().items()}
    sd = {}
    with np.load(path) as z:
        for e in ARRAYS:
            t = torch.from_numpy(z[e.name].astype(np.float32))
            sd[e.parameter] = (t.T if e.transposed else t).reshape(shapes[e.parameter])
    net.load_state_dict(sd)


def masked_logits(logits: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    """Illegal actions (the encoding's ``legal`` block is 0) get a very low logit."""
    legal = x[:, LEGAL : LEGAL + NUM_ACTIONS] > 0
    return logits.masked_fill(~legal, -1e9)


def export(net: Net, weights: Weights = DEFAULT_WEIGHTS) -> dict[str, np.ndarray[Any, Any]]:
    """The weights as numpy arrays, in the layout :class:`paohuzi.bots.learned.Policy` reads,
    with the prior's heuristic ``weights``."""
    sd = {k: v.detach().cpu().numpy() for k, v in net.state_dict().items()}
    out: dict[str, np.ndarray[Any, Any]] = {WEIGHTS_KEY: weights_array(weights)}
    for e in ARRAYS:
        a = sd[e.parameter]
        a = (a.T if e.transposed else a).astype(e.dtype)
        out[e.name] = a.reshape(1) if a.ndim == 0 else a
    return out


def _weights(cfg: TrainConfig, run: _Run) -> Weights:
    """The prior's heuristic weights: tuned now, or given, or the --init file's, or the default."""
    start = DEFAULT_WEIGHTS
    if cfg.weights is not None:
        start = read_weights(cfg.weights)
    elif cfg.init is not None:
        with np.load(cfg.init) as z:
            if WEIGHTS_KEY in z.files:
                start = weights_from_array(z[WEIGHTS_KEY])
    if cfg.tune_deals <= 0:
        return start

    def report(e: dict[str, Any]) -> None:
        print(json.dumps({"phase": "tune", **e}), flush=True)
        # The current weights on a sweep's fresh deals, and the last check: unbiased points.
        if e.get("weights") == "current":
            run.tune_point(int(e["sweep"]), e["mean"], e["se"], cfg.tune_deals)
        elif "check_mean" in e:
            run.tune_point(cfg.tune_sweeps, e["check_mean"], e["check_se"], cfg.tune_deals)

    res = tune(
        cfg.seed,
        cfg.tune_deals,
        cfg.tune_sweeps,
        start=start,
        workers=cfg.workers,
        backend=cfg.backend,
        report=report,
    )
    (Path(cfg.out) / "weights.json").write_text(
        json.dumps(res.to_dict(), indent=1), encoding="utf-8"
    )
    return res.weights


def _data(cfg: TrainConfig, weights: Weights) -> dict[str, np.ndarray[Any, Any]]:
    per = 25
    w = weights.to_dict()
    jobs = [
        (cfg.seed, s, min(per, cfg.games - s), cfg.teacher, w) for s in range(0, cfg.games, per)
    ]
    parts = list(map_jobs(teacher_job, jobs, backend=cfg.backend, workers=cfg.workers))
    return {k: np.concatenate([p[k] for p in parts]) for k in ("obs", "act", "ret")}


_SEARCH_KEYS = ("obs", "cand", "q", "se", "n")


class KeptDataError(ValueError):
    """A kept ``--search-data`` file that does not hold this run's labels."""


def search_data_problem(cfg: TrainConfig) -> str | None:
    """Why ``cfg.search_data`` cannot serve this run (None: it can, or it is to be made)."""
    if cfg.search_games <= 0 or not cfg.search_data or not Path(cfg.search_data).exists():
        return None
    meta = _search_meta(cfg)
    try:
        with np.load(cfg.search_data) as z:
            missing = [k for k in (*_SEARCH_KEYS, "meta") if k not in z.files]
            if missing:
                return f"{cfg.search_data!r} is not a file of labels: it lacks {', '.join(missing)}"
            if not np.array_equal(z["meta"], meta):
                return (
                    f"{cfg.search_data!r} holds the labels of seed, games, samples, rate "
                    f"{z['meta'].tolist()}, not {meta.tolist()}"
                )
    except (OSError, ValueError) as e:
        return f"cannot read {cfg.search_data!r}: {e}"
    return None


def _search_meta(cfg: TrainConfig) -> np.ndarray[Any, Any]:
    return np.asarray([cfg.seed, cfg.search_games, cfg.search_samples, cfg.search_rate])


def _search_data(cfg: TrainConfig, weights: Weights) -> dict[str, np.ndarray[Any, Any]]:
    """The labelled rows: from ``cfg.search_data`` when it holds this run's, else made.

    The labels depend on the heuristic's ``weights`` too (it plays, ranks and plays
    out): a kept file records them, and one made with others is refused.
    """
    path = Path(cfg.search_data) if cfg.search_data else None
    if path is not None and path.is_file():
        problem = search_data_problem(cfg)
        if problem is not None:
            raise KeptDataError(problem)
        with np.load(path) as z:
            kept = DEFAULT_WEIGHTS
            if WEIGHTS_KEY in z.files:
                kept = weights_from_array(z[WEIGHTS_KEY])
            if kept != weights:
                raise KeptDataError(
                    f"{str(path)!r} holds labels made with other heuristic weights "
                    f"({kept.to_dict()}, not {weights.to_dict()})"
                )
            return {k: z[k] for k in _SEARCH_KEYS}
    data = _label(cfg, weights)
    if path is not None:
        _save(path, {**data, "meta": _search_meta(cfg), WEIGHTS_KEY: weights_array(weights)})
    return data


def _label(cfg: TrainConfig, weights: Weights) -> dict[str, np.ndarray[Any, Any]]:
    per = 10
    w = weights.to_dict()
    jobs = [
        (cfg.seed, s, min(per, cfg.search_games - s), cfg.search_samples, cfg.search_rate, w)
        for s in range(0, cfg.search_games, per)
    ]
    parts = list(map_jobs(search_label_job, jobs, backend=cfg.backend, workers=cfg.workers))
    return {k: np.concatenate([p[k] for p in parts]) for k in _SEARCH_KEYS}


def search_choice(
    cand: np.ndarray[Any, Any], q: np.ndarray[Any, Any], se: np.ndarray[Any, Any], z: float
) -> np.ndarray[Any, Any]:
    """The action id the search bot plays at each labelled decision.

    As :func:`paohuzi.bots.search._choose`: the first candidate (the heuristic's
    choice) unless another's mean gain over it exceeds ``z`` standard errors of the
    paired differences, and then the one with the largest such gain.
    """
    n = len(cand)
    rows = np.arange(n)
    best = np.zeros(n, np.int64)
    best_gain = np.zeros(n, np.float64)
    for j in range(1, cand.shape[1]):
        gain = q[:, j] - q[:, 0]
        ok = (cand[:, j] >= 0) & (gain > 0) & (gain > z * se[:, j]) & (gain > best_gain)
        best[ok] = j
        best_gain[ok] = gain[ok]
    out: np.ndarray[Any, Any] = cand[rows, best].astype(np.int64)
    return out


class _Run:
    """A training run's state: network, optimiser, clock, curve."""

    def __init__(self, cfg: TrainConfig) -> None:
        self.cfg = cfg
        self.out = Path(cfg.out)
        self.out.mkdir(parents=True, exist_ok=True)
        torch.manual_seed(cfg.seed)
        torch.set_num_threads(1)
        torch.use_deterministic_algorithms(True)
        self.net = Net(cfg.hidden)
        if cfg.init is not None:
            load_exported(self.net, cfg.init)
        self.t0 = time.perf_counter()
        self.curve: list[dict[str, Any]] = []
        self.points = 0
        self.weights = DEFAULT_WEIGHTS  # the prior's heuristic: set by train()

    def elapsed(self) -> float:
        return time.perf_counter() - self.t0

    def point(self, phase: str, step: int, extra: dict[str, Any]) -> None:
        """Evaluate the greedy policy, save a checkpoint and the curve so far."""
        arrays = export(self.net, self.weights)
        seconds = self.elapsed()
        stats = duplicate_eval(
            arrays,
            self.cfg.eval_deals,
            self.cfg.seed,
            workers=self.cfg.workers,
            backend=self.cfg.backend,
        )
        d = stats["diff"]
        p = {
            "phase": phase,
            "step": step,
            "seconds": round(seconds, 1),
            "score_vs_heuristic": d["mean"],
            "ci95": d["ci95"],
            "deals": stats["deals"],
            **extra,
        }
        self.curve.append(p)
        name = f"checkpoint-{self.points:03d}"
        torch.save(self.net.state_dict(), self.out / f"{name}.pt")
        _save(self.out / f"{name}.npz", arrays)
        _save(self.out / "learned.npz", arrays)
        self.points += 1
        self._write_curve()
        print(json.dumps(p), flush=True)

    def tune_point(self, step: int, mean: float, se: float, deals: int) -> None:
        """A curve point of the tuning: the heuristic with the weights so far (no network)."""
        half = 1.96 * se
        p = {
            "phase": "tune",
            "step": step,
            "seconds": round(self.elapsed(), 1),
            "score_vs_heuristic": round(mean, 3),
            "ci95": [round(mean - half, 3), round(mean + half, 3)],
            "deals": deals,
        }
        self.curve.append(p)
        self._write_curve()

    def _write_curve(self) -> None:
        (self.out / "curve.json").write_text(
            json.dumps({"config": asdict(self.cfg), "curve": self.curve}, indent=1),
            encoding="utf-8",
        )
        plot_curve(self.curve, self.out / "curve.png")

    def distill(self, data: dict[str, np.ndarray[Any, Any]]) -> None:
        cfg = self.cfg
        x_all = torch.from_numpy(data["obs"])  # uint8: made float a batch at a time
        a_all = torch.from_numpy(data["act"].astype(np.int64))
        r_all = torch.from_numpy(data["ret"] / RETURN_SCALE)
        n = len(a_all)
        opt = torch.optim.AdamW(self.net.parameters(), lr=cfg.lr, weight_decay=1e-4)
        gen = torch.Generator().manual_seed(cfg.seed)
        for epoch in range(cfg.epochs):
            tot, acc = self._epoch(opt, torch.randperm(n, generator=gen), x_all, a_all, r_all)
            self.point("distill", epoch + 1, {"loss": round(tot / n, 4), "acc": round(acc / n, 4)})

    def _epoch(
        self,
        opt: torch.optim.Optimizer,
        order: torch.Tensor,
        x_all: torch.Tensor,
        a_all: torch.Tensor,
        r_all: torch.Tensor | None = None,
    ) -> tuple[float, float]:
        """One pass over the rows in ``order``, in batches: masked cross-entropy towards the
        actions ``a_all`` (plus ``value_weight`` × the value head's squared error towards
        ``r_all``).

        Returns the summed loss and the number of rows whose action the policy picked.
        """
        tot = acc = 0.0
        for i in range(0, len(order), self.cfg.batch):
            idx = order[i : i + self.cfg.batch]
            x, a = x_all[idx].float(), a_all[idx]
            logits, v = self.net(x)
            logits = masked_logits(logits, x)
            loss = nn.functional.cross_entropy(logits, a)
            if r_all is not None:
                loss = loss + self.cfg.value_weight * ((v - r_all[idx]) ** 2).mean()
            opt.zero_grad()
            torch.autograd.backward(loss)
            opt.step()
            tot += float(loss.detach()) * len(idx)
            acc += float((logits.argmax(-1) == a).sum())
        return tot, acc

    def distill_search(self, data: dict[str, np.ndarray[Any, Any]]) -> None:
        """Learn the search bot's choice at each labelled decision (masked cross-entropy).

        The last ``search_heldout`` of the rows (later rounds) are kept out; each
        curve point reports the network's gain on them: the recorded value of the
        candidate it picks minus the heuristic's choice's. The network picks without
        seeing those values, so the mean is an unbiased estimate of what its
        departures from the heuristic are worth, in points a decision.
        """
        cfg = self.cfg
        x_all = torch.from_numpy(data["obs"])
        a_all = torch.from_numpy(search_choice(data["cand"], data["q"], data["se"], cfg.search_z))
        n = len(a_all)
        held = int(n * cfg.search_heldout)
        n -= held
        if n <= 0:
            return
        opt = torch.optim.AdamW(self.net.parameters(), lr=cfg.search_lr, weight_decay=1e-4)
        gen = torch.Generator().manual_seed(cfg.seed + 2)
        if held:  # the starting network's gain, for comparison
            before = {f"{k}_before": v for k, v in self.heldout_gain(data, n).items()}
            print(json.dumps({"phase": "search-start", **before}), flush=True)
        for epoch in range(cfg.search_epochs):
            tot, acc = self._epoch(opt, torch.randperm(n, generator=gen), x_all, a_all)
            extra = {"loss": round(tot / n, 4), "acc": round(acc / n, 4)}
            if held:
                extra |= self.heldout_gain(data, n)
                if epoch == 0:
                    extra |= before
            self.point("search", epoch + 1, extra)

    def heldout_gain(self, data: dict[str, np.ndarray[Any, Any]], start: int) -> dict[str, Any]:
        """The greedy policy's recorded gain over the heuristic's choice on rows ``start:``."""
        x = torch.from_numpy(data["obs"][start:]).float()
        with torch.no_grad():
            pick = masked_logits(self.net(x)[0], x).argmax(-1).numpy()
        cand, q = data["cand"][start:], data["q"][start:]
        hit = cand == pick[:, None]
        gain = np.where(hit.any(1), (q * hit).sum(1) - q[:, 0], 0.0)
        m = len(gain)
        return {
            "heldout_rows": m,
            "heldout_gain": round(float(gain.mean()), 4),
            "heldout_se": round(float(gain.std(ddof=1) / np.sqrt(m)), 4) if m > 1 else None,
            "heldout_departs": round(float((pick != cand[:, 0]).mean()), 4),
        }

    def finetune(self) -> None:
        cfg = self.cfg
        opt = torch.optim.AdamW(self.net.parameters(), lr=cfg.finetune_lr, weight_decay=1e-4)
        rng = random.Random(f"finetune:{cfg.seed}")
        gen = torch.Generator().manual_seed(cfg.seed + 1)
        update = 0
        game = 0
        # The opponents: the teacher bot as it is (the ``heuristic`` bot, the reference);
        # the pull goes towards the prior's heuristic (with the run's weights).
        teacher = seat_bot(cfg.teacher, 0, ARENA_RULES)
        ranker = HeuristicBot(None, ARENA_RULES, self.weights)
        while update < cfg.finetune_updates:
            xs: list[np.ndarray[Any, Any]] = []
            acts: list[int] = []
            teach: list[int] = []
            rets: list[float] = []
            total = 0.0
            for _ in range(cfg.finetune_episodes):
                r, ep = self._episode(rng, gen, teacher, ranker, game)
                game += 1
                total += r
                for x, a, t in ep:
                    xs.append(x)
                    acts.append(a)
                    teach.append(t)
                    rets.append(r / RETURN_SCALE)
            if xs:
                bx = torch.from_numpy(np.stack(xs))
                ba = torch.tensor(acts)
                bt = torch.tensor(teach)
                ret = torch.tensor(rets)
                logits, v = self.net(bx)
                logp = torch.log_softmax(masked_logits(logits, bx), -1)
                adv = (ret - v).detach()
                pg = -(adv * logp.gather(1, ba[:, None]).squeeze(1)).mean()
                value = ((v - ret) ** 2).mean()
                pull = nn.functional.nll_loss(logp, bt)
                loss = pg + cfg.value_weight * value + cfg.prior_pull * pull
                opt.zero_grad()
                loss.backward()
                opt.step()
            update += 1
            if update % cfg.eval_every == 0:
                self.point(
                    "finetune",
                    update,
                    {"episodes": game, "mean_return": round(total / cfg.finetune_episodes, 3)},
                )
        if update % cfg.eval_every:
            self.point("finetune", update, {"episodes": game})

    def _episode(
        self, rng: random.Random, gen: torch.Generator, teacher: Any, ranker: Any, game: int
    ) -> tuple[float, list[tuple[np.ndarray[Any, Any], int, int]]]:
        """One round: the network (sampling) at one seat, the teacher at the others."""
        st = new_game(ARENA_RULES, seed=rng.randrange(2**63), dealer=rng.randrange(3))
        me = game % 3
        rows: list[tuple[np.ndarray[Any, Any], int, int]] = []
        while not st.over:
            seat = st.to_act()[0]
            v = view(st, seat)
            if seat != me or len(v.legal) == 1:
                st.apply(seat, teacher.act(v).id)
                continue
            ranked = ranker.rank(v)
            x = features(st, seat, ranked).astype(np.float32)
            xt = torch.from_numpy(x)[None]
            with torch.no_grad():
                logits, _v = self.net(xt)
                probs = torch.softmax(masked_logits(logits, xt), -1)
            aid = int(torch.multinomial(probs[0], 1, generator=gen))
            rows.append((x, aid, ranked[0][1].id))
            st.apply(seat, aid)
        assert st.result is not None
        return float(st.result.deltas[me]), rows


def _save(path: Path, arrays: dict[str, np.ndarray[Any, Any]]) -> None:
    np.savez_compressed(path, allow_pickle=False, **arrays)


_PHASE_LABELS = {"tune": "tune (the heuristic's weights)", "distill": "distill (the network)"}


def plot_curve(curve: list[dict[str, Any]], path: Path) -> None:
    """Score against the heuristic bot (95% CI) against training time, as a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4), dpi=100)
    for phase, color in (
        ("tune", "tab:purple"),
        ("distill", "tab:blue"),
        ("search", "tab:green"),
        ("finetune", "tab:orange"),
    ):
        pts = [p for p in curve if p["phase"] == phase]
        if not pts:
            continue
        t = [p["seconds"] / 60 for p in pts]
        m = [p["score_vs_heuristic"] for p in pts]
        lo = [p["ci95"][0] for p in pts]
        hi = [p["ci95"][1] for p in pts]
        ax.plot(t, m, "o-", color=color, label=_PHASE_LABELS.get(phase, phase))
        ax.fill_between(t, lo, hi, color=color, alpha=0.2)
    ax.axhline(0, color="gray", lw=0.8)
    ax.set_xlabel("training time (minutes, data generation included)")
    ax.set_ylabel("minus heuristic, points per round")
    parts = []
    tuned = [p["deals"] for p in curve if p["phase"] == "tune"]
    nets = [p["deals"] for p in curve if p["phase"] != "tune"]
    if tuned:
        parts.append(f"tuned heuristic: {tuned[-1]} deals × 3 seatings")
    if nets:
        parts.append(f"network: {nets[-1]} deals × 6 seatings")
    ax.set_title("vs the heuristic on tuning deals, 95% CI\n" + "; ".join(parts), fontsize=10)
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def train(cfg: TrainConfig) -> list[dict[str, Any]]:
    """Run the whole recipe; returns the learning curve (also in ``cfg.out``)."""
    run = _Run(cfg)
    run.weights = _weights(cfg, run)
    if cfg.epochs > 0:
        data = _data(cfg, run.weights)
        rows = len(data["act"])
        print(
            json.dumps({"phase": "data", "rows": rows, "seconds": round(run.elapsed(), 1)}),
            flush=True,
        )
        run.distill(data)
    if cfg.search_games > 0:
        sdata = _search_data(cfg, run.weights)
        print(
            json.dumps(
                {
                    "phase": "search-data",
                    "rows": len(sdata["n"]),
                    "seconds": round(run.elapsed(), 1),
                }
            ),
            flush=True,
        )
        run.distill_search(sdata)
    if cfg.finetune_updates > 0:
        run.finetune()
    return run.curve
