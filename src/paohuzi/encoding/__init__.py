"""The observation encoding: one seat's view as a fixed-length vector (needs numpy).

:mod:`~paohuzi.encoding.layout` declares the blocks once; :mod:`~paohuzi.encoding.observation`
computes them (with the C accelerator ``_obsc.c`` where it is built). It sits between
the core and the packages that read encodings — the bots (the ``learned`` network's
input), the environments and the trainer — so that none of those imports another for it.
"""

from __future__ import annotations

from .layout import FEATURES, OBS_SIZE, ORACLE_FEATURES, ORACLE_SIZE, PUBLIC_SIZE, Feature
from .observation import (
    ACCELERATED,
    Encoder,
    action_mask,
    bounds,
    encode,
    encode_batch,
    encode_oracle,
    encode_view,
    offer_hidden,
)

__all__ = [
    "ACCELERATED",
    "FEATURES",
    "OBS_SIZE",
    "ORACLE_FEATURES",
    "ORACLE_SIZE",
    "PUBLIC_SIZE",
    "Encoder",
    "Feature",
    "action_mask",
    "bounds",
    "encode",
    "encode_batch",
    "encode_oracle",
    "encode_view",
    "offer_hidden",
]
