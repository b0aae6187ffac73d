"""The pure core: standard library only, no I/O, no global randomness.

The same source also ships compiled with mypyc (``HATCH_BUILD_HOOK_ENABLE_MYPYC=1
pip install .``); :data:`COMPILED` says which build is running. The pure build is
the reference: both play the same games and raise the same errors.
"""

from __future__ import annotations

from typing import Final

from . import cards as _cards

# A module mypyc compiled is an extension module: its file is not a .py.
COMPILED: Final[bool] = not str(_cards.__file__).endswith(".py")

__all__ = ["COMPILED"]
