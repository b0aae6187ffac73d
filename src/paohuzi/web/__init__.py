"""The browser client: static ES modules in ``static/``, served by ``paohuzi serve`` at ``/``.

Nothing here runs in the server: the client is plain files (no build step, no Node).
``python -m paohuzi.web.screenshots docs/`` drives it in Chromium to draw the README's
screenshots; the same helpers drive the browser tests.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["STATIC"]

STATIC = Path(__file__).resolve().parent / "static"
