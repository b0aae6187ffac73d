"""The match loop of ``paohuzi play`` without any screen.

The textual app only draws and forwards input; everything that decides who acts,
asks the bots (:meth:`GameSession.bot_turn`), paces the moves the human watches
(:meth:`GameSession.hold`), applies answers and saves records lives here so it can
be driven (and tested) headless. The human's seat sees only ``view(state, human)``
and the censored event log. The round in play is held once, by the match
(``match.current``); :attr:`GameSession.state` reads it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from ..bots.base import Bot
from ..core.actions import PASS_ID, Action
from ..core.cards import NUM_FACES, glyph
from ..core.engine import State
from ..core.errors import NotationError, PaohuziError
from ..core.events import Event, EventKind
from ..core.match import Match
from ..core.record import dumps
from ..core.views import SeatView, censored_log, view

__all__ = [
    "DEFAULT_DELAY",
    "PACED",
    "BotTurn",
    "GameSession",
    "Refusal",
    "RoundFactory",
    "default_records_dir",
    "start_next_round",
]

DEFAULT_DELAY = 0.4
"""Seconds each draw, discard, pile and claim stays on screen before the next one."""

PACED = frozenset(
    {
        EventKind.DRAW,
        EventKind.DISCARD,
        EventKind.PILE,
        EventKind.PENG,
        EventKind.CHI,
        EventKind.PAO,
        EventKind.TI,
        EventKind.WEI,
        EventKind.HU,
    }
)
"""The moves held on screen for the delay (a 过 or the deal is not)."""

_UNSHOWN = frozenset({EventKind.REVEAL, EventKind.DEAL})  # the 亮张 deal is in the header

RoundFactory = Callable[[Match], State]
"""Deals a match's next round and makes it ``match.current`` (tests inject fixed deals)."""


def start_next_round(match: Match) -> State:
    """The default :data:`RoundFactory`: the match's own seeded deal."""
    return match.start_round()


def default_records_dir() -> Path:
    """Where match records go unless ``--records-dir`` says otherwise."""
    return Path.home() / ".paohuzi" / "records"


def fallback(v: SeatView) -> Action:
    """What a bot that failed or was refused plays: 过 if it may, else its first legal move."""
    return next((a for a in v.legal if a.id == PASS_ID), v.legal[0])


@dataclass(frozen=True)
class Refusal:
    """Why the human's move is refused: a ``words.py`` key and what it names, for the
    screen to say in its language."""

    key: str
    waiting: tuple[int, ...] = ()  # not_your_turn: the seats the table waits for
    move: str = ""  # unreadable, illegal_move: the move as given
    legal: tuple[str, ...] = ()  # illegal_move: the moves that are legal now
    why: str = ""  # the engine's reason


class BotTurn:
    """What one bot did: its seat, the action applied, and why it was replaced, if it was.

    ``failed``: the bot raised (its exception's repr); ``refused``: the engine refused
    its answer (the reason). Either way ``action`` is what was played instead
    (:func:`fallback`).
    """

    __slots__ = ("action", "failed", "refused", "seat")

    def __init__(
        self, seat: int, action: Action, failed: str | None = None, refused: str | None = None
    ) -> None:
        self.seat = seat
        self.action = action
        self.failed = failed
        self.refused = refused


class GameSession:
    """One human seat against bots over a :class:`Match`."""

    def __init__(
        self,
        match: Match,
        bots: Mapping[int, Bot],
        human: int = 0,
        round_factory: RoundFactory | None = None,
        records_dir: Path | None = None,
        delay: float = DEFAULT_DELAY,
        threaded_bots: bool = True,
    ) -> None:
        """``delay``: seconds a paced move stays on screen; ``threaded_bots``: bots think
        in a thread, so that the screen stays live (tests turn it off)."""
        if human not in (0, 1, 2):
            raise ValueError(f"the human seat must be 0, 1 or 2, got {human!r}")
        missing = sorted({0, 1, 2} - {human} - set(bots))
        if missing:
            raise ValueError(f"no bot for seat(s) {missing}")
        self.match = match
        self.bots = dict(bots)
        self.human = human
        self.round_factory = round_factory or start_next_round
        self.records_dir = records_dir if records_dir is not None else default_records_dir()
        stamp = time.strftime("%Y%m%d-%H%M%S")
        self.record_path = self.records_dir / f"match-{stamp}-{match.seed}.json"
        self.delay = delay
        self.threaded_bots = threaded_bots
        self.skipping = False  # the human asked to see the queued moves at once
        self._settled = False  # the round on screen is the match's last finished one
        self._cursor = 0
        self.saved: Path | None = None

    @property
    def state(self) -> State | None:
        """The round on screen: the match's current round, or the one just settled
        (until the next is dealt). The match holds it; the session keeps no copy."""
        m = self.match
        if m.current is not None:
            return m.current
        return m.finished[-1] if self._settled and m.finished else None

    # ------------------------------------------------------------ the round

    @property
    def round_no(self) -> int:
        """1-based number of the round on screen."""
        return len(self.match.finished) + (1 if self.match.current is not None else 0)

    def start_round(self) -> State:
        """Deal the next round of the match."""
        st = self.round_factory(self.match)
        self.match.current = st
        self._settled = False
        self._cursor = 0
        return st

    def view(self) -> SeatView:
        """What the human may know now."""
        assert self.state is not None
        return view(self.state, self.human)

    def new_events(self) -> list[Event]:
        """Censored events for the human since the last call (the log pane's feed)."""
        st = self.state
        assert st is not None
        out = censored_log(st, self.human, self._cursor)
        self._cursor = len(st.log)
        return out

    def shown_events(self) -> list[Event]:
        """:meth:`new_events` that the screen shows as moves (not the deal or the 亮张)."""
        if self.state is None:
            return []
        return [e for e in self.new_events() if e.kind not in _UNSHOWN]

    async def hold(self, e: Event) -> None:
        """Keep move ``e`` on screen for the delay (paced moves only; the human may skip)."""
        if e.kind not in PACED or self.delay <= 0:
            return
        waited = 0.0
        while waited < self.delay and not self.skipping:
            await asyncio.sleep(0.05)
            waited += 0.05

    def pending_bot(self) -> int | None:
        """The first bot seat that must answer now, if any (bots answer before the human)."""
        st = self.state
        if st is None or st.over:
            return None
        for s in st.to_act():
            if s != self.human:
                return s
        return None

    def human_turn(self) -> bool:
        """True when the game waits for the human and no bot is still to answer."""
        st = self.state
        if st is None or st.over or self.pending_bot() is not None:
            return False
        return self.human in st.to_act()

    def bot_view(self, seat: int) -> SeatView:
        """The censored view a bot decides on (never the state)."""
        assert self.state is not None
        return view(self.state, seat)

    async def bot_turn(self) -> BotTurn | None:
        """Ask the first bot that must answer and apply its answer; None when no bot must.

        The bot decides on its own view (in a thread unless ``threaded_bots`` is off); a
        bot that raises plays 过 (or its first legal move) instead, so a broken bot
        cannot end the human's match. Returns None too if the round changed meanwhile.
        """
        st = self.state
        seat = self.pending_bot()
        if st is None or seat is None:
            return None
        v = self.bot_view(seat)
        bot = self.bots[seat]
        failed = None
        try:
            action = await asyncio.to_thread(bot.act, v) if self.threaded_bots else bot.act(v)
        except Exception as e:  # a broken bot must not end the human's match
            action = fallback(v)
            failed = repr(e)
        if self.state is not st or st.version != v.version:
            return None  # the round changed under us (quit/restart)
        _events, refused = self.apply_bot(seat, action)
        return BotTurn(seat, fallback(v) if refused else action, failed, refused)

    def apply_bot(self, seat: int, action: Action) -> tuple[list[Event], str | None]:
        """Apply a bot's answer; a refused one is replaced by 过 (or its first legal move).

        Returns the events and, when the bot's answer was refused, why (the engine's words).
        """
        st = self.state
        assert st is not None
        try:
            return st.apply(seat, action), None
        except PaohuziError as e:
            return st.apply(seat, fallback(view(st, seat))), str(e)

    def turn_refusal(self) -> Refusal | None:
        """Why the human cannot act now (None: it can)."""
        st = self.state
        if st is None or st.over:
            return Refusal("no_round")
        if not self.human_turn():
            return Refusal(
                "not_your_turn", waiting=tuple(s for s in st.to_act() if s != self.human)
            )
        return None

    def try_human(self, action: Action | str | int) -> Refusal | None:
        """Apply the human's move, or say why not (then nothing is applied)."""
        refused = self.turn_refusal()
        if refused is not None:
            return refused
        try:
            self.apply_human(action)
        except PaohuziError as e:
            text = action.text() if isinstance(action, Action) else str(action)
            if isinstance(action, int) and not isinstance(action, bool) and 0 <= action < NUM_FACES:
                text = glyph(action)  # a card picked to discard
            if isinstance(e, NotationError):
                return Refusal("unreadable", move=text, why=str(e))
            legal = tuple(a.text() for a in self.view().legal)
            return Refusal("illegal_move", move=text, legal=legal, why=_short_why(str(e)))
        return None

    def apply_human(self, action: Action | str | int) -> list[Event]:
        """Apply the human's answer; raises :class:`IllegalActionError` with the reason."""
        st = self.state
        assert st is not None
        return st.apply(self.human, action)

    def finish_round(self) -> State:
        """Settle the finished round into the match and save the record."""
        st = self.state
        assert st is not None and st.over
        if self.match.current is st:
            self.match.end_round()
            self._settled = True
        self.save()
        return st

    # --------------------------------------------------------------- records

    def has_moves(self) -> bool:
        """Whether anything was played that is worth a record."""
        return bool(self.match.finished) or (self.state is not None and bool(self.state.decisions))

    def save(self) -> Path:
        """Write the match record (rounds so far, the current one included)."""
        self.records_dir.mkdir(parents=True, exist_ok=True)
        self.record_path.write_text(dumps(self.match.record()), encoding="utf-8")
        self.saved = self.record_path
        return self.record_path


def _short_why(message: str) -> str:
    """The engine's reason without its prefix and its list of legal moves (the screen's
    line cut it mid-list): "illegal action '打:壹' for seat 0: 壹 is not in the hand;
    legal: …" -> "壹 is not in the hand"."""
    why = message.split("; legal", 1)[0]
    head, sep, tail = why.partition(": ")
    return tail if sep and head.startswith("illegal action") else why
