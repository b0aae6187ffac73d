"""Regenerate the table screenshots in ``docs/``: ``python -m paohuzi.tui.screenshots docs/``.

A seeded match against the heuristic bots is played headless by a plain player
(he passes every claim and discards left of the cursor) until, after four
decisions, he is to discard or choose between claims; then the screen is
exported as SVG at 80×24 and 120×40. Deal, bots and player are all seeded, so
the pictures only change when the screen does.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

from ..bots import make_bot
from ..core.actions import ActionKind
from ..core.engine import Phase
from ..core.match import Match
from .app import PlayApp
from .session import GameSession
from .words import bot_word

__all__ = ["SIZES", "main", "screenshot"]

SIZES = ((80, 24), (120, 40))
SEED = 5


async def screenshot(width: int, height: int, seed: int = SEED, lang: str = "zh") -> str:
    """The SVG of the table at ``width``×``height`` once the player, after four decisions,
    is to discard or offered two claims or more."""
    match = Match(seed=seed, rounds=8)
    bots = {s: make_bot("heuristic", seed + s) for s in (1, 2)}
    session = GameSession(match, bots, records_dir=Path(tempfile.mkdtemp(prefix="paohuzi-shot-")))
    app = PlayApp(
        session,
        delay=0,
        threaded_bots=False,
        names={s: bot_word("heuristic", lang) for s in (1, 2)},  # 普通, as `paohuzi play` says
        lang=lang,
    )
    async with app.run_test(size=(width, height)) as pilot:
        for decisions in range(200):
            await pilot.pause()
            await app.workers.wait_for_complete()
            await pilot.pause()
            st = session.state
            if st is None or st.over or not session.human_turn():
                break
            v = session.view()
            claims = [a for a in v.legal if a.kind not in (ActionKind.PASS, ActionKind.HU)]
            if decisions >= 4 and (v.phase is Phase.DISCARD or len(claims) >= 2):
                break
            if v.phase is Phase.DISCARD:
                await pilot.press("left", "enter")
                if session.view().version == v.version:  # a 坎 card: take the first legal one
                    app.play(next(a for a in v.legal if a.kind is ActionKind.DISCARD))
            else:
                await pilot.press("p")
        await pilot.pause()
        return app.export_screenshot(title=f"paohuzi play — {width}×{height}")


def main(argv: list[str] | None = None) -> int:
    """Write ``table-80x24.svg`` and ``table-120x40.svg`` into the folder given (``docs/``)."""
    args = sys.argv[1:] if argv is None else argv
    folder = Path(args[0] if args else "docs")
    if not folder.is_dir():
        print(f"error: {folder}: not a folder", file=sys.stderr)
        return 2
    for w, h in SIZES:
        path = folder / f"table-{w}x{h}.svg"
        path.write_text(asyncio.run(screenshot(w, h)), encoding="utf-8")
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
