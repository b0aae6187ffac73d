"""What one audience (a seat, or the spectators) is shown (``Audience``): its sockets, its
censored events and their encoded messages, its step numbers, and its cached view and
prompt of the state in play.

A *step* is a change this audience can see: its events grew, or what it is shown of who
acts and what it may do changed. Steps number 0, 1, 2, … per audience and never move on
another seat's private answer (a 过 in a claim window, RULES.md §14), so neither the
numbers nor the count of prompts tell who could claim a card. The match's decision
sequence (``Table.decision_seq``) stays inside the server.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from typing import Any

from ..core.events import Event
from ..core.state import Phase, State
from ..core.views import SeatView, view
from .errors import ApiError
from .outbox import Connection
from .protocol import encode, event_dict, legal_dict, prompt_dict, view_to_dict

__all__ = ["Audience", "collect", "tell_all"]


class Audience:
    """One seat's (``seat``), or the spectators' (``seat`` None: the public view), sockets
    and what they have been shown."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.conns: set[Connection] = set()
        self.events: list[tuple[int, dict[str, Any]]] = []  # (round, the censored event)
        self.texts: list[str | None] = []  # their event messages (None: not encoded yet)
        self.key: Hashable = None  # the seat's question: when it changes, ``since`` moves
        self.since = 0  # the step at which the seat's current question opened
        self.opened = 0  # the decision seq at which it opened (for the server's log only)
        self.step = 0
        self.looks: Hashable = None  # what the audience saw at ``step``
        # For the state in play (computed once per decision, on first use): the view, and
        # the prompt's legal actions and view as JSON.
        self._view: SeatView | None = None
        self._legal: list[dict[str, Any]] | None = None
        self._view_form: dict[str, Any] | None = None

    def text(self, n: int) -> str:
        """The ``event`` message of the audience's event ``n + 1``, encoded on first use."""
        t = self.texts[n]
        if t is None:
            rnd, ev = self.events[n]
            t = self.texts[n] = encode(event_dict(n + 1, rnd, ev))
        return t

    def forget_state(self) -> None:
        """The state in play changed: the cached view and prompt parts are stale."""
        self._view = self._legal = self._view_form = None

    def observe(self, st: State, rnd: int, acting: Sequence[int], decision_seq: int) -> bool:
        """After a decision (and at the start): move the step if the audience can see a
        change, and the seat's ``since`` if its question changed (which this returns)."""
        s = self.seat
        key: Hashable = None
        if s is not None:
            legal = st.legal_actions(s) if st.phase is not Phase.OVER else ()
            key = (rnd, st.phase, len(st.stock), tuple(map(len, st.discards)),
                   tuple(map(len, st.tables)), tuple(map(len, st.piles)), legal)  # fmt: skip
        shown = ((s,) if s in acting else ()) if st.phase is Phase.CLAIM else acting
        looks = (len(self.events), rnd, st.phase, st.turn, shown, key)
        if looks != self.looks:
            if self.looks is not None:
                self.step += 1
            self.looks = looks
        if s is None or key == self.key:
            return False
        self.key, self.since, self.opened = key, self.step, decision_seq
        return True

    def shown_acting(self, st: State) -> list[int]:
        """The seats this audience is shown to act: in a claim window only itself (who
        else may claim is private, RULES.md §14)."""
        acting = st.to_act()
        if st.phase is Phase.CLAIM:
            return [self.seat] if self.seat in acting else []
        return list(acting)

    def view(self, st: State) -> SeatView:
        """The audience's view of ``st``, the state in play, numbered with its step."""
        v = self._view
        if v is None:
            v = self._view = view(st, self.seat, self.step)
        return v

    def legal_form(self, st: State) -> list[dict[str, Any]]:
        """The seat's legal actions as the prompt's JSON (none for the spectators)."""
        f = self._legal
        if f is None:
            s = self.seat
            # A seat with nothing to decide needs no view (it was built for every seat
            # after every decision only to find its legal actions empty).
            f = self._legal = (
                [legal_dict(a.id, a.text()) for a in self.view(st).legal]
                if s is not None and st.phase is not Phase.OVER and st.legal_actions(s)
                else []
            )
        return f

    def view_form(self, st: State) -> dict[str, Any]:
        """The audience's view as the prompt's JSON."""
        v = self._view_form
        if v is None:
            v = self._view_form = view_to_dict(self.view(st))
        return v

    def catch_up(self, conn: Connection, start: int | None) -> None:
        """Queue on ``conn`` the events after the ``start``-th (None: none) and mark it
        as told everything up to the audience's step."""
        if start is not None:
            for n in range(start, len(self.events)):
                conn.put_text(self.text(n))
        conn.sent = len(self.events)
        conn.told = self.step

    def behind(self) -> list[Connection]:
        """The sockets not yet told the audience's step."""
        return [c for c in self.conns if c.told != self.step]

    def tell(
        self,
        conns: Iterable[Connection],
        st: State,
        rnd: int,
        clock: tuple[float | None, float | None],
        over: str | None,
        clocks: list[float | None] | None = None,
    ) -> None:
        """Queue on ``conns`` their new events and the prompt (``clock``: the seat's
        deadline and seconds left), then ``over`` (the match's end, encoded) if given.

        A seat with a decision gets its view with the prompt (a bot acts on it), and so
        does a socket that asked for ``views`` (a client drawing the table). Each prompt
        text is encoded once, shared by the sockets that get the same.
        """
        legal = self.legal_form(st)
        to_act = self.shown_acting(st)
        texts: dict[bool, str] = {}  # with the view, without
        for conn in conns:
            self.catch_up(conn, conn.sent)
            with_view = bool(legal) or conn.views
            text = texts.get(with_view)
            if text is None:
                shown = self.view_form(st) if with_view else None
                text = texts[with_view] = encode(prompt_dict(
                    rnd, self.step, self.since, to_act, legal, *clock, shown, clocks
                ))  # fmt: skip
            conn.put_text(text)
            if over is not None:
                conn.put_text(over)

    def ahead(self, step: int) -> ApiError:
        """The refusal of an intent whose ``step`` no prompt to the seat has carried yet:
        ``bad_step``, not ``stale`` (nothing overtook it; the client made the number up)."""
        return ApiError(
            "bad_step",
            f"the intent's step {step} is ahead of seat {self.seat}'s step {self.step}: "
            "send the step of the prompt it answers",
        )

    def stale(self, step: int, acting: bool, own: bool) -> ApiError:
        """The refusal of an intent made at ``step``, before the seat's open decision
        (``since``); ``acting``: the seat has a decision open now;
        ``own``: its own decision (not the table's) moved ``since``.

        ``since`` moves only when the seat's own question changes (``observe``), never
        when another seat answers the same claim window, so this is no false alarm: the
        decision the intent answered is gone. Under load it is almost always a claim
        overtaken in flight: another seat's higher claim (or the answer completing the
        window) settled it while this intent was on its way, and the prompt saying so was
        queued on the socket before this refusal. The text quotes the seat's own steps
        only, and names no other seat's answer (that may be private, RULES.md §14).
        """
        seat = self.seat
        made = f"the intent was made at step {step}"
        if own:
            why = "the seat's own decision (another socket's, or the server's at its deadline)"
        else:
            why = "the table's move (its events came before this refusal)"
        if acting:
            return ApiError(
                "stale",
                f"{made}; {why} at step {self.since} opened a new decision for seat {seat}: "
                f"answer the latest prompt (step {self.step})",
            )
        return ApiError(
            "stale",
            f"{made}; {why} at step {self.since} settled the decision it answered before it "
            f"arrived: seat {seat} has nothing to decide now",
        )


def tell_all(audiences: Iterable[Audience], text: str) -> None:
    """Queue ``text`` (one encoded message) on every socket of ``audiences``."""
    for a in audiences:
        for c in a.conns:
            c.put_text(text)


def collect(audiences: Sequence[Audience], entries: Iterable[Event], rnd: int) -> None:
    """Append round ``rnd``'s new log ``entries`` to each audience's censored events
    (each distinct censored form made into a dict once) and forget the cached view."""
    for a in audiences:
        a.forget_state()
    for e in entries:
        forms: list[tuple[Any, dict[str, Any]]] = []
        for a in audiences:
            c = e.censor(a.seat)
            if c is None:
                continue
            d = None
            for x, made in forms:  # a loop, not a generator: this runs per event and seat
                if x is c:
                    d = made
                    break
            if d is None:
                d = c.to_dict()
                forms.append((c, d))
            a.events.append((rnd, d))
            a.texts.append(None)
