"""The ``learned`` network's input and exported arrays, defined once for the bot and the trainer.

The input (:data:`INPUTS` numbers) is the public observation encoding without the
balances (:data:`PUBLIC`, from :mod:`paohuzi.encoding.layout`), then the heuristic's
*prior* over the action ids (:data:`NUM_ACTIONS` numbers, 0–100). The bot builds it
from a view, the trainer from the state (the same bytes: the encodings are equal);
both call :func:`input_row`.

The exported ``.npz`` holds the arrays of :data:`ARRAYS`: each names the torch
parameter it comes from (``paohuzi.train.trainer.Net``), whether it is stored
transposed (numpy's ``x @ w`` for torch's ``w @ x``) and its stored dtype. The bot's
:class:`~paohuzi.bots.learned.Policy` reads them, the trainer's ``export`` and
``load_exported`` write and read them, from this one list.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from ..core.actions import NUM_ACTIONS
from ..encoding.layout import OFFSET, PUBLIC_SIZE

__all__ = ["ARRAYS", "INPUTS", "LEGAL", "PRIOR", "PUBLIC", "Exported", "input_row"]

PUBLIC: Final = PUBLIC_SIZE
"""The public encoding without the balances (one round is one episode: they are constant)."""
PRIOR: Final = PUBLIC
"""Where the prior starts in the input."""
INPUTS: Final = PUBLIC + NUM_ACTIONS
"""The network's input size: the public part, then the prior."""
LEGAL: Final = OFFSET["legal"]
"""Where the legal-action block lies, in the encoding and so in the input (the mask)."""


def input_row(public: Any, prior: Sequence[int], dtype: Any) -> Any:
    """The network's input: ``public`` (an encoding, its first :data:`PUBLIC` entries
    taken) then ``prior``, as one numpy row of ``dtype``."""
    import numpy as np

    out = np.empty(INPUTS, dtype)
    out[:PUBLIC] = public[:PUBLIC]
    out[PRIOR:] = prior
    return out


@dataclass(frozen=True, slots=True)
class Exported:
    """One array of the exported ``.npz``: its name, the torch parameter, its storage."""

    name: str
    parameter: str  # the state_dict key in paohuzi.train.trainer.Net
    transposed: bool  # stored as the parameter's transpose (numpy multiplies x @ w)
    dtype: str  # stored as (float16 halves the file; scale and alpha stay exact)


ARRAYS: Final = (
    Exported("w1", "l1.weight", True, "float16"),
    Exported("b1", "l1.bias", False, "float16"),
    Exported("w2", "l2.weight", True, "float16"),
    Exported("b2", "l2.bias", False, "float16"),
    Exported("wp", "pi.weight", True, "float16"),
    Exported("bp", "pi.bias", False, "float16"),
    Exported("wv", "v.weight", True, "float16"),
    Exported("bv", "v.bias", False, "float16"),
    Exported("scale", "scale", False, "float32"),
    Exported("alpha", "alpha", False, "float32"),  # a scalar, stored with shape (1,)
)
"""Every array the bot reads, in order."""
