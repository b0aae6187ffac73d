"""A fixed deal and scripted bots, so a whole round can be played move by move.

With the bots passing every claim, the human (seat 0, dealer) gets, in order:
a discard; a 碰 on 伍 drawn by seat 1 (seat 1 and 2 are offered 吃 in the same
window); a discard; a 吃 on 柒 drawn by seat 2 whose options need a 比
(吃:贰柒拾 比:陆柒捌 and 吃:陆柒捌 比:贰柒拾, besides 胡 and 吃:七柒柒); a discard;
and a 胡 on his own draw of 八 (胡息 18, 3 囤 × 1 番 = 3).
"""

from __future__ import annotations

from pathlib import Path

from paohuzi.core.actions import Action, ActionKind
from paohuzi.core.cards import full_deck, parse_faces
from paohuzi.core.engine import Deal, State, new_game
from paohuzi.core.match import Match
from paohuzi.core.views import SeatView
from paohuzi.tui.session import GameSession


def _deal() -> Deal:
    h0 = parse_faces("壹壹壹九九九伍伍贰拾柒陆捌三四五六七十二肆")  # 亮张 肆 last
    head = parse_faces("伍一柒叁玖八")
    rest = list(full_deck())
    for f in h0 + head:
        rest.remove(f)
    h1 = [f for i, f in enumerate(rest) if i % 2 == 0]
    h2 = [f for i, f in enumerate(rest) if i % 2 == 1]
    tail = h1[-7:] + h2[-6:]
    return Deal(0, (h0, tuple(h1[:-7]), tuple(h2[:-6])), head + tuple(tail))


DEAL = _deal()


def fixed_round(match: Match) -> State:
    """A round factory that deals :data:`DEAL` into the match."""
    match.current = new_game(match.rules, deal=DEAL, balances=match.balances)
    return match.current


class ScriptedBot:
    """Plays its script's next move when it is legal, else 过, else its first legal move."""

    name = "scripted"

    def __init__(self, script: list[str] | None = None) -> None:
        self.script = list(script or [])
        self.seen: list[SeatView] = []

    def act(self, view: SeatView) -> Action:
        self.seen.append(view)
        legal = {a.text(): a for a in view.legal}
        if self.script and self.script[0] in legal:
            return legal[self.script.pop(0)]
        for a in view.legal:
            if a.kind is ActionKind.PASS:
                return a
        return view.legal[0]


def scripted_bots() -> dict[int, ScriptedBot]:
    return {1: ScriptedBot(["打:二", "打:三"]), 2: ScriptedBot()}


def scripted_session(tmp_path: Path, rounds: int = 1) -> GameSession:
    """A match of :data:`DEAL` rounds against :func:`scripted_bots`, records in ``tmp_path``."""
    match = Match(seed=5, rounds=rounds)
    return GameSession(match, scripted_bots(), round_factory=fixed_round, records_dir=tmp_path)
