"""The observation encoder, kept under its old name: it lives in :mod:`paohuzi.encoding`.

The bots read encodings too, and the environments import the bots, so the encoding sits
below both (see tests/test_layers.py); this module re-exports its public names.
"""

from __future__ import annotations

from ..encoding.layout import (
    BALANCE_SCALE,
    NUM_TABLE_KINDS,
    OFFSET,
    PUBLIC_SIZE,
    TABLE_KINDS,
    feature,
)
from ..encoding.observation import (
    ACCELERATED,
    FEATURES,
    OBS_SIZE,
    ORACLE_FEATURES,
    ORACLE_SIZE,
    Encoder,
    Feature,
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
    "BALANCE_SCALE",
    "FEATURES",
    "NUM_TABLE_KINDS",
    "OBS_SIZE",
    "OFFSET",
    "ORACLE_FEATURES",
    "ORACLE_SIZE",
    "PUBLIC_SIZE",
    "TABLE_KINDS",
    "Encoder",
    "Feature",
    "action_mask",
    "bounds",
    "encode",
    "encode_batch",
    "encode_oracle",
    "encode_view",
    "feature",
    "offer_hidden",
]
