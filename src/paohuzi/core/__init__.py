"""The pure core: standard library only, no I/O, no global randomness.

The same source also ships compiled with mypyc (``HATCH_BUILD_HOOK_ENABLE_MYPYC=1
pip install .``); :data:`COMPILED` says which build is running. The pure build is
the reference: both play the same games and raise the same errors.
"""

from __future__ import annotations

from typing import Final

from . import kernels as _kernels

# The one build flag, worked out in the kernels module (where the two builds' ways are).
COMPILED: Final[bool] = _kernels.COMPILED

__all__ = ["COMPILED"]
