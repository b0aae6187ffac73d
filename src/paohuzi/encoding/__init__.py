"""The observation encoding: one seat's view as a fixed-length vector (needs numpy).

:mod:`~paohuzi.encoding.layout` declares the blocks once; :mod:`~paohuzi.encoding.observation`
computes them (with the C accelerator ``_obsc.c`` where it is built). It sits between
the core and the packages that read encodings — the bots (the ``learned`` network's
input), the environments and the trainer — so that none of those imports another for it.
The names exported here are the encoder's ``__all__`` (and ``PUBLIC_SIZE``), so a name
added there is not listed twice.
"""

from __future__ import annotations

from . import observation as _observation
from .layout import PUBLIC_SIZE
from .observation import *  # noqa: F403  (every name in its __all__)

__all__ = [*_observation.__all__, "PUBLIC_SIZE"]
