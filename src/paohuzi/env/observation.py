"""The observation encoder, kept under its old name: it lives in :mod:`paohuzi.encoding`.

The bots read encodings too, and the environments import the bots, so the encoding sits
below both (see tests/test_layers.py); this module re-exports its public names (the
encoder's ``__all__`` and the layout constants the environments' users read), so a name
added there is exported here without being listed twice.
"""

from __future__ import annotations

from ..encoding import observation as _observation
from ..encoding.layout import BALANCE_SCALE, OFFSET, PUBLIC_SIZE, feature
from ..encoding.observation import *  # noqa: F403  (every name in its __all__)

__all__ = [*_observation.__all__, "BALANCE_SCALE", "OFFSET", "PUBLIC_SIZE", "feature"]
