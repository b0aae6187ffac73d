"""The terminal game (``paohuzi play``) and record viewer (``paohuzi replay``).

Only :mod:`paohuzi.tui.render` and :mod:`paohuzi.tui.session` are free of textual,
so the rendering rules and the game loop can be tested (and reused) without a
terminal; :mod:`paohuzi.tui.app` and :mod:`paohuzi.tui.replay` import textual.
"""

from __future__ import annotations
