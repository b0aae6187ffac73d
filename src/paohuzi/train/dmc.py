"""``paohuzi train-dmc``: Deep Monte-Carlo self-play (DouZero's method) on this machine.

- **Network**: an action value ``Q(s, a)`` read off the learned bot's network in
  dueling form, ``Q(s, a) = V(s) + κ·(ℓ(s, a) − max_legal ℓ(s, ·))`` (:class:`QNet`):
  ``V`` its value head, ``ℓ`` its logits, ``κ > 0`` learned. Started from the
  shipped ``learned.npz``, its greedy action is the learned bot's (κ > 0 keeps
  the argmax of ``Q`` that of ``ℓ``), so the run starts at the learned bot's
  strength, not at random; the export is the learned bot's own ``.npz`` layout.
- **Actors**: every seat is the network, ε-greedy; the games of an update are
  played in lock-step so each step's decisions go through one batched forward
  pass (:func:`play_games`). A decision with one sensible action
  (:func:`~paohuzi.bots.base.obvious_action`) is not a sample, as the bot skips it.
- **Targets**: the Monte-Carlo return, the seat's balance change for the round
  (÷ ``RETURN_SCALE``); the loss is the squared error of ``Q`` of the taken action,
  on minibatches drawn from a replay buffer of the most recent samples.
- **Runs** (:mod:`paohuzi.train.dmc_run`): checkpoints with the optimiser, the
  RNG states, the counters and the buffer, resumed by re-running the command;
  the curve (duplicate deals against ``heuristic`` and ``learned`` on ``curve:``
  seeds, never training deals, which are ``dmc:`` seeds) appended across runs.

Everything follows from the seed; torch runs on one thread, deterministically.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch
from torch import nn

from ..arena import ARENA_RULES, RoundOutcome, play_bots, seatings, summarize
from ..bots.base import obvious_action
from ..bots.handeval import DEFAULT_WEIGHTS, Weights
from ..bots.heuristic import HeuristicBot
from ..bots.learned import DEFAULT_WEIGHTS as LEARNED_NPZ
from ..bots.learned import WEIGHTS_KEY, LearnedBot, Policy, weights_from_array
from ..bots.network import INPUTS, LEGAL
from ..core.actions import NUM_ACTIONS
from ..core.engine import State, new_game
from ..core.views import view
from .selfplay import features, seat_bot
from .trainer import RETURN_SCALE, Net, export, load_exported

__all__ = [
    "DMCConfig",
    "QNet",
    "Replay",
    "dmc_eval",
    "dmc_eval_job",
    "init_weights",
    "play_games",
]


@dataclass(frozen=True, slots=True)
class DMCConfig:
    """A Deep Monte-Carlo run; every field is a ``paohuzi train-dmc`` option."""

    out: str
    seed: int = 0
    updates: int | None = None  # stop when the run's update counter reaches this
    minutes: float | None = None  # or after this much wall time in this invocation
    games: int = 8  # rounds of self-play per update (played in lock-step)
    steps: int = 4  # minibatches learned per update
    batch: int = 256
    buffer: int = 20_000  # replay: the most recent samples kept
    lr: float = 1e-4
    epsilon: float = 0.05  # share of exploratory (uniformly random legal) actions
    # κ held at this value (None: learned). Learned, it fell from 0.05 to 0.013 in 60,000
    # rounds: the squared error shrinks κ rather than reshape ℓ, and the policy (argmax ℓ)
    # learns only through κ·∂ℓ. Held, the error must be met by ℓ (and V) themselves.
    kappa: float | None = None
    init: str | None = str(LEARNED_NPZ)  # None: a random network
    hidden: tuple[int, int] = (512, 256)
    eval_deals: int = 30  # duplicate deals per opponent per curve point
    eval_every: int = 50  # updates between curve points
    eval_seed: int = 0  # the ``curve:`` seed of the evaluation deals
    opponents: tuple[str, ...] = ("heuristic", "learned")
    checkpoint_every: int = 10  # updates between checkpoints


class QNet(nn.Module):
    """The learned bot's network read as an action value (dueling form, see the module doc)."""

    def __init__(self, hidden: tuple[int, int] = (512, 256)) -> None:
        super().__init__()
        self.net = Net(hidden)
        # κ = exp(log_kappa): a value step per logit unit, in return/RETURN_SCALE units.
        self.log_kappa = nn.Parameter(torch.tensor(float(np.log(0.05))))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """Q of every action id (illegal ones very low) for a batch of inputs."""
        logits, v = self.net(x)
        legal = x[:, LEGAL : LEGAL + NUM_ACTIONS] > 0
        masked = logits.masked_fill(~legal, -1e9)
        adv = masked - masked.max(-1, keepdim=True).values
        q: torch.Tensor = v[:, None] + torch.exp(self.log_kappa) * adv
        return q

    def export(self, weights: Weights) -> dict[str, np.ndarray[Any, Any]]:
        """The learned bot's ``.npz`` arrays (its greedy action is this network's), plus κ."""
        out = export(self.net, weights)
        out["kappa"] = np.exp(self.log_kappa.detach().numpy()).reshape(1).astype(np.float32)
        return out


def init_weights(path: str | None) -> Weights:
    """The prior's heuristic weights: those in the ``--init`` file, else the default ones."""
    if path is None:
        return DEFAULT_WEIGHTS
    with np.load(path) as z:
        return weights_from_array(z[WEIGHTS_KEY]) if WEIGHTS_KEY in z.files else DEFAULT_WEIGHTS


def new_qnet(cfg: DMCConfig) -> QNet:
    """A fresh network: the ``--init`` weights, or random ones from the seed."""
    torch.manual_seed(cfg.seed)
    q = QNet(cfg.hidden)
    if cfg.init is not None:
        load_exported(q.net, cfg.init)
    if cfg.kappa is not None:
        with torch.no_grad():
            q.log_kappa.fill_(float(np.log(cfg.kappa)))
        q.log_kappa.requires_grad_(False)
    return q


class Replay:
    """A ring buffer of the most recent samples: input (uint8), action id, return."""

    def __init__(self, capacity: int) -> None:
        self.obs = np.zeros((capacity, INPUTS), np.uint8)
        self.act = np.zeros(capacity, np.int64)
        self.ret = np.zeros(capacity, np.float32)
        self.size = 0
        self.pos = 0

    def add(
        self, obs: np.ndarray[Any, Any], act: np.ndarray[Any, Any], ret: np.ndarray[Any, Any]
    ) -> None:
        cap = len(self.act)
        for i in range(len(act)):
            self.obs[self.pos], self.act[self.pos], self.ret[self.pos] = obs[i], act[i], ret[i]
            self.pos = (self.pos + 1) % cap
            self.size = min(self.size + 1, cap)

    def sample(self, n: int, gen: torch.Generator) -> tuple[torch.Tensor, ...]:
        """``n`` samples drawn uniformly (with replacement) by ``gen``."""
        idx = torch.randint(0, self.size, (n,), generator=gen).numpy()
        return (
            torch.from_numpy(self.obs[idx]).float(),
            torch.from_numpy(self.act[idx]),
            torch.from_numpy(self.ret[idx] / RETURN_SCALE),
        )

    def state(self) -> dict[str, np.ndarray[Any, Any]]:
        n = self.size
        return {
            "obs": self.obs[:n],
            "act": self.act[:n],
            "ret": self.ret[:n],
            "pos": np.asarray([self.pos]),
        }

    def load(self, z: Any) -> None:
        n = len(z["act"])
        self.obs[:n], self.act[:n], self.ret[:n] = z["obs"], z["act"], z["ret"]
        self.size, self.pos = n, int(z["pos"][0])


def training_deal(seed: int, game: int) -> tuple[int, int]:
    """Deal seed and dealer of training round ``game`` (``dmc:`` seeds, never ``curve:``)."""
    rng = random.Random(f"dmc:{seed}:{game}")
    return rng.randrange(2**63), rng.randrange(3)


def play_games(
    q: QNet, deals: list[tuple[int, int]], epsilon: float, rng: random.Random, weights: Weights
) -> dict[str, Any]:
    """Self-play of ``deals`` in lock-step, every seat ε-greedy on ``q``; the samples.

    At each step every unfinished round plays its forced moves, then the pending
    decisions of all of them go through one forward pass. Returns the inputs
    (uint8), the actions taken, each sample's return (its seat's balance change)
    and the number of decisions the network made.
    """
    ranker = HeuristicBot(None, ARENA_RULES, weights)
    states: list[State] = [new_game(ARENA_RULES, seed=s, dealer=d) for s, d in deals]
    rows: list[list[tuple[np.ndarray[Any, Any], int, int]]] = [[] for _ in deals]
    while True:
        pending: list[tuple[int, int, np.ndarray[Any, Any], list[int]]] = []
        for g, st in enumerate(states):
            while not st.over:
                seat = st.to_act()[0]
                v = view(st, seat)
                sure = obvious_action(v)
                if sure is None:
                    pending.append(
                        (g, seat, features(st, seat, ranker.rank(v)), [a.id for a in v.legal])
                    )
                    break
                st.apply(seat, sure.id)
        if not pending:
            break
        with torch.no_grad():
            qs = q(torch.from_numpy(np.stack([p[2] for p in pending])).float()).numpy()
        for (g, seat, x, legal), qrow in zip(pending, qs, strict=True):
            if rng.random() < epsilon:
                aid = legal[rng.randrange(len(legal))]
            else:
                aid = max(legal, key=lambda a: float(qrow[a]))
            rows[g].append((x, aid, seat))
            states[g].apply(seat, aid)
    obs, act, ret = [], [], []
    for st, rs in zip(states, rows, strict=True):
        assert st.result is not None
        for x, aid, seat in rs:
            obs.append(x)
            act.append(aid)
            ret.append(float(st.result.deltas[seat]))
    return {
        "obs": np.stack(obs) if obs else np.zeros((0, INPUTS), np.uint8),
        "act": np.asarray(act, np.int64),
        "ret": np.asarray(ret, np.float32),
        "decisions": len(act),
    }


def dmc_eval_job(job: tuple[dict[str, Any], str, int, int]) -> list[list[RoundOutcome]]:
    """Duplicate deal ``index`` of the ``curve:`` seed: ``dmc`` (these arrays) against two
    ``opponent`` bots, in every seating."""
    arrays, opponent, seed, index = job
    policy = Policy(arrays)
    rng = random.Random(f"curve:{seed}:{index}")
    dseed, dealer = rng.randrange(2**63), rng.randrange(3)
    out: list[RoundOutcome] = []
    for r, names in enumerate(seatings(["dmc", opponent])):
        brng = random.Random(f"curve-bots:{seed}:{index}:{r}")
        bots = [
            LearnedBot(brng.randrange(2**31), policy, ARENA_RULES)
            if n == "dmc"
            else seat_bot(n, brng.randrange(2**31), ARENA_RULES)
            for n in names
        ]
        res = play_bots(bots, ARENA_RULES, dseed, dealer)
        huxi = res.win.huxi if res.win is not None else 0
        out.append(RoundOutcome(index, r, names, res.deltas, res.winner, huxi))
    return [out]


def dmc_eval(arrays: dict[str, Any], opponent: str, deals: int, seed: int) -> dict[str, Any]:
    """``dmc`` − ``opponent`` in points a round on ``deals`` duplicate deals (95 % interval)."""
    results = [d for i in range(deals) for d in dmc_eval_job((arrays, opponent, seed, i))]
    diff = summarize(["dmc", opponent], results)["diff"]
    return {"mean": diff["mean"], "ci95": diff["ci95"], "deals": deals}
