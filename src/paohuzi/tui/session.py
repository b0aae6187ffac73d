"""The match loop of ``paohuzi play`` without any screen.

The textual app only draws and forwards input; everything that decides who acts,
asks the bots, applies answers and saves records lives here so it can be driven
(and tested) headless. The human's seat sees only ``view(state, human)`` and the
censored event log.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from pathlib import Path

from ..bots.base import Bot
from ..core.actions import PASS_ID, Action
from ..core.engine import State
from ..core.errors import PaohuziError
from ..core.events import Event
from ..core.match import Match
from ..core.record import dumps
from ..core.views import SeatView, censored_log, view

__all__ = ["GameSession", "RoundFactory", "default_records_dir", "start_next_round"]

RoundFactory = Callable[[Match], State]
"""Deals a match's next round and makes it ``match.current`` (tests inject fixed deals)."""


def start_next_round(match: Match) -> State:
    """The default :data:`RoundFactory`: the match's own seeded deal."""
    return match.start_round()


def default_records_dir() -> Path:
    """Where match records go unless ``--records-dir`` says otherwise."""
    return Path.home() / ".paohuzi" / "records"


class GameSession:
    """One human seat against bots over a :class:`Match`."""

    def __init__(
        self,
        match: Match,
        bots: Mapping[int, Bot],
        human: int = 0,
        round_factory: RoundFactory | None = None,
        records_dir: Path | None = None,
    ) -> None:
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
        self.state: State | None = None
        self._cursor = 0
        self.saved: Path | None = None

    # ------------------------------------------------------------ the round

    @property
    def round_no(self) -> int:
        """1-based number of the round on screen."""
        return len(self.match.finished) + (1 if self.match.current is not None else 0)

    def start_round(self) -> State:
        """Deal the next round of the match."""
        self.state = self.round_factory(self.match)
        self.match.current = self.state
        self._cursor = 0
        return self.state

    def view(self) -> SeatView:
        """What the human may know now."""
        assert self.state is not None
        return view(self.state, self.human)

    def new_events(self) -> list[Event]:
        """Censored events for the human since the last call (the log pane's feed)."""
        assert self.state is not None
        out = censored_log(self.state, self.human, self._cursor)
        self._cursor = len(self.state.log)
        return out

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

    def apply_bot(self, seat: int, action: Action) -> tuple[list[Event], str | None]:
        """Apply a bot's answer; a refused one is replaced by 过 (or its first legal move).

        Returns the events and, when the bot's answer was refused, why.
        """
        st = self.state
        assert st is not None
        try:
            return st.apply(seat, action), None
        except PaohuziError as e:
            legal = st.legal_actions(seat)
            fallback = PASS_ID if PASS_ID in legal else legal[0]
            return st.apply(seat, fallback), f"bot seat {seat}: {e}; played {fallback} instead"

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
