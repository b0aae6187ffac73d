"""The learned bot: a small policy network trained by ``paohuzi train``, run on numpy.

The network (two hidden layers; a policy head over the 317 action ids and a
value head) reads two things computed from the seat's view only, so like every
bot it sees nothing else:

- the public observation encoding (:func:`paohuzi.encoding.encode_view`,
  balances left out), and
- a *prior*: the heuristic player's value of each legal action relative to its
  best (:func:`prior`), so that the network starts from that judgement and learns
  where to depart from it. The heuristic here weighs positions with the policy's
  own :class:`~paohuzi.bots.handeval.Weights`, tuned by ``paohuzi train`` against
  the ``heuristic`` bot (see :mod:`paohuzi.train.tune`).

Inference needs numpy alone: the weights were exported from torch into
``learned.npz`` beside this module (float16, 1.6 MB). The model card in
docs/strength.md says how it was trained and how strong it is.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..core.actions import NUM_ACTIONS, Action
from ..core.rules import HONG_GUAI_WAN, RuleSet
from ..core.views import SeatView
from .base import obvious_action
from .handeval import DEFAULT_WEIGHTS as HEURISTIC_WEIGHTS
from .handeval import Weights
from .heuristic import HeuristicBot
from .network import ARRAYS, PRIOR, input_row

__all__ = [
    "DEFAULT_WEIGHTS",
    "DMC_WEIGHTS_VAR",
    "PRIOR_SPREAD",
    "PRIOR_STEPS",
    "VALUE_SCALE",
    "WEIGHTS_KEY",
    "DMCBot",
    "LearnedBot",
    "Policy",
    "inputs",
    "policy_inputs",
    "prior",
    "weights_array",
    "weights_from_array",
]

PRIOR_STEPS = 100
"""The prior's resolution: 0 (worst) to 100 (the heuristic's choice)."""
PRIOR_SPREAD = 20.0
"""Heuristic value below the best at which an action's prior reaches 0."""
VALUE_SCALE = 20.0
"""The value head predicts the seat's balance change for the round divided by this."""


def prior(ranked: list[tuple[float, Action]]) -> list[int]:
    """The heuristic's ranking as 317 small ints: 100 for its best action, 0 for illegal ones.

    ``ranked`` is :meth:`HeuristicBot.rank` of the view; a legal action scores
    ``100 × (1 − min(1, (best − value) / PRIOR_SPREAD))``, rounded.
    """
    out = [0] * NUM_ACTIONS
    if not ranked:
        return out
    best = ranked[0][0]
    for v, a in ranked:
        gap = min(1.0, max(0.0, (best - v) / PRIOR_SPREAD))
        out[a.id] = round(PRIOR_STEPS * (1.0 - gap))
    return out


DEFAULT_WEIGHTS = Path(__file__).with_name("learned.npz")
"""The shipped weights."""

WEIGHTS_KEY = "heuristic_weights"
"""The ``.npz`` entry with the prior's heuristic weights (JSON); absent: the heuristic's own."""


def weights_array(w: Weights) -> Any:
    """``w`` as the ``.npz`` entry :class:`Policy` reads back (a JSON string)."""
    return _numpy().asarray(json.dumps(w.to_dict(), sort_keys=True))


def weights_from_array(a: Any) -> Weights:
    """The weights :func:`weights_array` wrote; a ValueError for anything else."""
    return Weights.from_dict(json.loads(str(a)))


def _numpy() -> Any:
    try:
        import numpy
    except ImportError:
        raise ValueError(
            "the learned bot needs numpy: pip install 'paohuzi[rl]' (or the play/server extra)"
        ) from None
    return numpy


class Policy:
    """The network's forward pass in numpy (float32): see ``paohuzi.train.trainer.Net``."""

    def __init__(self, arrays: dict[str, Any]) -> None:
        np = _numpy()
        missing = [a.name for a in ARRAYS if a.name not in arrays]
        if missing:
            raise ValueError(f"policy weights lack {', '.join(missing)}")
        self.p = {a.name: np.asarray(arrays[a.name], dtype=np.float32) for a in ARRAYS}
        self.inputs = int(self.p["w1"].shape[0])
        self.weights = HEURISTIC_WEIGHTS
        """The weights of the heuristic that gives the prior (tuned by ``paohuzi train``)."""
        if WEIGHTS_KEY in arrays:
            try:
                self.weights = weights_from_array(arrays[WEIGHTS_KEY])
            except ValueError as e:
                raise ValueError(f"policy weights: {WEIGHTS_KEY}: {e}") from None

    @classmethod
    def load(cls, path: Path | str = DEFAULT_WEIGHTS) -> Policy:
        """Weights from an ``.npz`` written by ``paohuzi train``."""
        np = _numpy()
        try:
            with np.load(path) as z:
                return cls({k: z[k] for k in z.files})
        except (OSError, ValueError) as e:
            raise ValueError(f"cannot read policy weights {str(path)!r}: {e}") from None

    def forward(self, x: Any) -> tuple[Any, Any]:
        """Logits over the action ids and the value, for a batch ``x`` of inputs."""
        np = _numpy()
        p = self.p
        # One position: einsum, not BLAS, whose threads cost more than they save here
        # (and far more on a busy machine).
        mm = (lambda a, w: np.einsum("i,ij->j", a, w)) if x.ndim == 1 else np.matmul
        xs = x * p["scale"]
        h = np.maximum(0.0, mm(xs, p["w1"]) + p["b1"])
        h = np.maximum(0.0, mm(h, p["w2"]) + p["b2"])
        logits = mm(h, p["wp"]) + p["bp"] + p["alpha"][0] * xs[..., PRIOR:]
        return logits, (mm(h, p["wv"]) + p["bv"])[..., 0]

    def best(self, x: Any, legal: list[int]) -> int:
        """The legal id with the highest logit."""
        logits, _v = self.forward(x)
        return max(legal, key=lambda a: float(logits[a]))


def policy_inputs(view: SeatView, policy: Policy, rules: RuleSet) -> Any:
    """:func:`inputs` for ``view``, its prior ranked by the heuristic with ``policy``'s weights."""
    return inputs(view, HeuristicBot(None, rules, policy.weights).rank(view))


def inputs(view: SeatView, ranked: list[tuple[float, Action]]) -> Any:
    """The network's input for ``view`` (:func:`~paohuzi.bots.network.input_row`): its
    encoding, then the prior of ``ranked``."""
    np = _numpy()
    from ..encoding.observation import encode_view

    return input_row(encode_view(view), prior(ranked), np.float32)


_SHARED: dict[str, Policy] = {}


class LearnedBot:
    """Plays the policy network's most likely legal action; deterministic."""

    name = "learned"

    def __init__(
        self, seed: int | None = None, policy: Policy | None = None, rules: RuleSet = HONG_GUAI_WAN
    ) -> None:
        self.seed = seed
        self.rules = rules
        if policy is None:
            policy = _SHARED.get("default")
            if policy is None:
                policy = _SHARED["default"] = Policy.load(DEFAULT_WEIGHTS)
        self.policy = policy

    def act(self, view: SeatView) -> Action:
        sure = obvious_action(view)
        if sure is not None:
            return sure
        x = policy_inputs(view, self.policy, self.rules)
        aid = self.policy.best(x, [a.id for a in view.legal])
        return next(a for a in view.legal if a.id == aid)


DMC_WEIGHTS_VAR = "PAOHUZI_DMC_WEIGHTS"
"""The environment variable naming a ``paohuzi train-dmc`` export (``DIR/dmc.npz``): when
set, the ``dmc`` bot is offered (:data:`paohuzi.bots.BOTS`) and plays it."""


class DMCBot(LearnedBot):
    """The self-play network of ``paohuzi train-dmc``: the greedy action of its action value.

    Its export is the learned bot's layout (the argmax of ``Q`` is that of the
    logits), so it plays like :class:`LearnedBot` with other weights, read once per
    process from the file :data:`DMC_WEIGHTS_VAR` names.
    """

    name = "dmc"

    def __init__(self, seed: int | None = None, rules: RuleSet = HONG_GUAI_WAN) -> None:
        import os

        path = os.environ.get(DMC_WEIGHTS_VAR)
        if not path:
            raise ValueError(f"the dmc bot needs {DMC_WEIGHTS_VAR}=DIR/dmc.npz (paohuzi train-dmc)")
        policy = _SHARED.get(f"dmc:{path}")
        if policy is None:
            policy = _SHARED[f"dmc:{path}"] = Policy.load(path)
        super().__init__(seed, policy, rules)
