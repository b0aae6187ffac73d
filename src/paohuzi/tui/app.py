"""``paohuzi play``: one human (seat 0) against two bots, in the terminal.

Everything on screen is drawn from ``view(state, human)`` and the human's censored
event log, so the UI cannot leak the bots' hands. Bots answer first in a claim
window (they never see the human's answer), then the human is asked; the engine
applies the highest claim once every seat that could still beat it has answered.
The session (:mod:`.session`) runs the bots and paces the moves; this module lays
out the screen and turns keys into moves; every word on it comes from :mod:`.words`.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import events, on, work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Container, Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, Input

from ..core.actions import PASS_ID, Action, ActionKind
from ..core.cards import glyph, parse_faces
from ..core.engine import Phase
from ..core.errors import PaohuziError
from ..core.events import Event, EventKind
from ..core.views import SeatView
from .panels import balances, hint_text, round_over_text, seat_text
from .render import (
    faces_text,
)
from .screens import ConfirmQuit, RoundOver
from .session import DEFAULT_DELAY, PACED, BotTurn, GameSession, Refusal
from .widgets import HandView, OptionLine, Panel
from .words import (
    action_label,
    display_width,
    event_line,
    seat_word,
    win_text,
    word,
)

__all__ = [
    "DEFAULT_DELAY",
    "PlayApp",
    "PlayAppEnglish",
    "balances",
    "play_app",
    "round_over_text",
    "win_text",
]

RECENT = 3
"""Moves always shown under the offer, newest last."""


class PlayApp(App[Path | None]):
    """The game screen. Returns the path of the saved record (None if nothing was played).

    One column, built to fit 80×24 and still read at 60 columns: the status
    line (round, 庄, 亮张, 底牌, 悟性), the two other seats (table and pile), a log that
    takes whatever rows are left, then everything the human decides on, which is
    never pushed off the screen: the card on offer with the last moves, the claim
    options, his table and his whole hand.
    """

    TITLE = "红拐弯跑胡子"
    CSS = """
    Screen { layout: vertical; overflow: hidden hidden; }
    #info { height: auto; padding: 0 1; background: $boost; }
    #others { height: 1fr; min-height: 0; overflow: hidden hidden; }
    #seats { height: auto; layout: vertical; }
    #seats.wide { layout: horizontal; }
    .seat { height: auto; padding: 0 1; border-left: blank; }
    #seats.wide .seat { width: 1fr; }
    .seat.acting { border-left: thick $warning; }
    #log { height: 1fr; min-height: 0; padding: 0 1; overflow: hidden hidden; }
    #me { height: auto; }
    #offer { height: auto; padding: 0 1; background: $panel; }
    #options {
        height: auto; display: none; layout: grid; grid-size: 2; grid-rows: 1;
        grid-gutter: 0 1; border-top: heavy $warning; padding: 0 1;
    }
    #options.shown { display: block; }
    #options.one { grid-size: 1; }
    .option:hover { background: $accent; }
    #hint { height: auto; max-height: 8; padding: 0 1; display: none; background: $boost; }
    #hint.shown { display: block; }
    #mytable { height: auto; padding: 0 1; border-left: blank; }
    #mytable.acting { border-left: thick $warning; }
    #hand { padding: 0 1; }
    #cmd { height: 1; border: none; padding: 0 1; display: none; }
    #cmd.shown { display: block; }
    #status { height: 1; padding: 0 1; background: $panel; }
    #status.error { background: $error; color: $text; }
    """
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [
        # priority: no container may take the arrows for scrolling (they move the card cursor)
        Binding("left", "move(-1, 0)", "选牌", key_display="←→↑↓", priority=True),
        Binding("right", "move(1, 0)", show=False, priority=True),
        Binding("up", "move(0, -1)", show=False, priority=True),
        Binding("down", "move(0, 1)", show=False, priority=True),
        Binding("enter", "discard", "打出"),
        Binding("space", "discard", show=False),
        Binding("1", "option(1)", "吃碰胡", key_display="1-9"),
        *(Binding(str(i), f"option({i})", show=False) for i in range(2, 10)),
        Binding("p", "pass_claim", "过"),
        # 退出 before the optional keys: a narrow footer drops its last entries
        Binding("q", "request_quit", "退出"),
        Binding("s", "skip", "跳过"),
        Binding("t", "toggle_hint", "听牌"),
        Binding("colon", "focus_cmd", "输入"),
        Binding("slash", "focus_cmd", show=False),
        Binding("escape", "focus_hand", show=False),
        Binding("ctrl+c", "request_quit", show=False, priority=True),
        Binding("ctrl+q", "request_quit", show=False, priority=True),
    ]

    def __init__(
        self,
        session: GameSession,
        *,
        delay: float = DEFAULT_DELAY,
        names: Mapping[int, str] | None = None,
        notice: str | None = None,
        threaded_bots: bool = True,
        lang: str = "zh",
    ) -> None:
        super().__init__()
        self.session = session
        session.delay = delay
        session.threaded_bots = threaded_bots
        self.lang = lang
        self.names: dict[int, str] = dict(names or {})
        for s, bot in session.bots.items():
            self.names.setdefault(s, getattr(bot, "name", type(bot).__name__))
        self.names.setdefault(session.human, "you" if lang == "en" else "你")
        self.notice = notice
        self.hint_on = False
        self.error: str | None = None
        self.save_error: str | None = None
        self.report: tuple[Text, str] = (Text(), "")  # the last round's, for RoundOver
        self.log_lines: list[str] = []
        self.options: list[Action] = []
        self._hint_cache: tuple[int, Text, frozenset[int]] | None = None
        self._quitting = False
        self._mounted = False
        self._recent: deque[str] = deque(maxlen=RECENT)
        self._older: list[str] = []  # what the log panel shows: moves older than the recent ones
        self._pending: deque[Event] = deque()
        self._feeding = False
        self._shown: Event | None = None  # the last move shown while moves are paced

    _GAME_ACTIONS = frozenset(
        {"move", "discard", "option", "pass_claim", "toggle_hint", "focus_cmd", "focus_hand"}
    )

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Game keys are off under a modal; arrows and keys go to the input while typing."""
        if action in self._GAME_ACTIONS and isinstance(self.screen, ModalScreen):
            return False
        typing = isinstance(self.focused, Input)
        return not (typing and action in ("move", "skip", "pass_claim", "option"))

    def seat(self, s: int) -> str:
        """你 / 下家 / 上家."""
        return seat_word(s, self.session.human, self.lang)

    def w(self, key: str, **kw: object) -> str:
        return word(key, self.lang, **kw)

    # ---------------------------------------------------------------- layout

    def compose(self) -> ComposeResult:
        h = self.session.human
        yield Panel(id="info")
        with Vertical(id="others"):
            with Container(id="seats"):
                # 上家 first: he plays before you, 下家 after you
                yield Panel(id=f"seat{(h + 2) % 3}", classes="seat")
                yield Panel(id=f"seat{(h + 1) % 3}", classes="seat")
            yield Panel(id="log")
        with Vertical(id="me"):
            yield Panel(id="offer")
            yield Container(id="options")
            yield Panel(id="hint")
            yield Panel(id="mytable")
            yield HandView(id="hand")
            yield Input(
                placeholder="s5 / 打:五 / 碰 / 吃:三四五 比:五五伍 / 过 / 胡   (Esc: back)",
                id="cmd",
            )
            yield Panel(id="status")
        yield Footer()

    def on_mount(self) -> None:
        self._mounted = True
        self._fit_width()
        self.query_one(HandView).focus()
        if self.notice:
            self.log_line(self.notice)
        self.log_line(self.w("you_are", seat=self.session.human))
        self.start_round()

    # ------------------------------------------------------------ the game

    def start_round(self) -> None:
        self.session.start_round()
        self._older.extend(self._recent)
        self._recent.clear()
        self._pending.clear()
        m = self.session.match
        self.log_line(self.w("round_start", n=self.session.round_no, total=m.rounds_total))
        self.refresh_all()
        self.drive()

    async def _feed(self) -> None:
        """Show the moves the human has not seen, one at a time, each held as the session
        paces it (``s`` skips ahead)."""
        sess = self.session
        self._pending.extend(sess.shown_events())
        self._feeding = bool(self._pending)
        self.refresh_status()
        while self._pending:
            e = self._pending.popleft()
            self._show_event(e)
            if e.kind in PACED and sess.delay > 0 and not sess.skipping:
                self.refresh_offer()
                await sess.hold(e)
        self._feeding = False
        self.refresh_all()

    def _show_event(self, e: Event) -> None:
        self._shown = e
        line = event_line(e, self.session.human, self.lang)
        self.log_lines.append(line)
        if e.kind is EventKind.PASS:
            return
        if len(self._recent) == RECENT:
            self._older.append(self._recent[0])
            self._scroll_log()
        self._recent.append(line)

    @work(exclusive=True, group="drive")
    async def drive(self) -> None:
        """Let the bots act until the human must decide or the round ends."""
        sess = self.session
        try:
            while True:
                await self._feed()
                st = sess.state
                if st is None:
                    return
                if st.over:
                    self.round_over()
                    return
                if sess.pending_bot() is None:
                    sess.skipping = False  # the human decides: pacing resumes after
                    return
                turn = await sess.bot_turn()
                if turn is None:
                    return  # the round changed under us (quit/restart)
                self._report_bot(turn)
        finally:
            self.refresh_all()

    def _report_bot(self, turn: BotTurn) -> None:
        """Log a bot's answer that had to be replaced (it failed, or was refused)."""
        who, move = self.seat(turn.seat), turn.action.text()
        if turn.failed is not None:
            self.log_line(self.w("bot_failed", who=who, why=turn.failed, move=move))
        elif turn.refused is not None:
            self.log_line(self.w("bot_refused", who=who, why=turn.refused, move=move))

    def round_over(self) -> None:
        sess = self.session
        v = sess.view()
        saved: Path | None = None
        try:
            sess.finish_round()
            saved = sess.saved
        except OSError as e:
            self.save_error = f"{sess.record_path}: {e.strerror or e}"
            self.set_error(self.w("record_failed", why=self.save_error))
        text = round_over_text(sess, v, self.names, saved, self.lang, self.save_error)
        keys = self.w("leave_keys" if sess.match.over else "next_keys")
        self.report = (text, keys)
        self.push_screen(RoundOver(text, keys), self._after_round)

    def _after_round(self, go_on: bool | None) -> None:
        if self.session.match.over:
            self.exit(self.session.saved)
            return
        if go_on:
            self.start_round()
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self.exit(self.session.saved)
            else:  # back to the report that q closed, not on past it to the next round
                self.push_screen(RoundOver(*self.report), self._after_round)

        self.push_screen(ConfirmQuit(self._quit_message(), self.lang), answered)

    # ---------------------------------------------------------------- drawing

    def log_line(self, line: str) -> None:
        """A message for the log panel (moves go through the recent-moves lines first)."""
        self.log_lines.append(line)
        self._older.append(line)
        self._scroll_log()

    def _scroll_log(self) -> None:
        """The log shows its newest lines: as many as the rows it was given."""
        if not self._mounted:
            return
        panel = self.query_one("#log", Panel)
        rows = max(1, panel.size.height)
        del self._older[:-200]
        panel.show(Text("\n".join(self._older[-rows:]), style="dim"))

    WIDE = 110
    """From this many columns the two other seats sit side by side."""

    def _fit_width(self, width: int | None = None) -> None:
        """Seats side by side when wide; a compact key line when narrow (退出 stays on it).

        ``width``: the resize event's, since the app's own size may still be the old one
        while the event is handled (the key line was a resize behind)."""
        width = self.size.width if width is None else width
        self.query_one("#seats").set_class(width >= self.WIDE, "wide")
        self.query_one(Footer).compact = width < 80

    def on_resize(self, event: events.Resize) -> None:
        if self._mounted:
            self._fit_width(event.size.width)
            self.call_after_refresh(self._scroll_log)

    def set_error(self, message: str | None) -> None:
        self.error = message
        self.refresh_status()

    def refresh_all(self) -> None:
        sess = self.session
        if sess.state is None or not self._mounted:
            return
        v = sess.view()
        self.refresh_info(v)
        for s in range(3):
            if s != sess.human:
                self.refresh_seat(v, s)
        self.refresh_mine(v)
        self.refresh_options(v)
        self.refresh_hint(v)
        self.refresh_offer(v)
        self.refresh_status()
        self.call_after_refresh(self._scroll_log)

    def _acting(self, v: SeatView) -> tuple[int, ...]:
        return v.to_act if not v.over else ()

    def refresh_info(self, v: SeatView) -> None:
        sess = self.session
        h = sess.human
        m = sess.match
        t = Text()
        t.append(self.w("round", n=sess.round_no, total=m.rounds_total), style="bold")
        t.append(f" {self.w('dealer')}:{self.seat(v.dealer)} 亮张:")
        t.append_text(faces_text((v.liangzhang,)))
        t.append(f" {self.w('stock')}:{v.stock_count} 悟性 ")
        bal = balances(v)
        order = (h, (h + 1) % 3, (h + 2) % 3)
        t.append(" ".join(f"{self.seat(s)}{bal[s]}" for s in order))
        self.query_one("#info", Panel).show(t)

    def refresh_seat(self, v: SeatView, s: int) -> None:
        """Redraw seat ``s``'s panel (:func:`seat_text`; the human's on one line)."""
        h = self.session.human
        name = self.names.get(s, "") if s != h else ""
        panel = self.query_one("#mytable" if s == h else f"#seat{s}", Panel)
        panel.show(seat_text(v, s, h, name, self.lang, one_line=s == h))
        panel.set_class(s in self._acting(v), "acting")

    def refresh_mine(self, v: SeatView) -> None:
        """The human's panel and hand."""
        h = self.session.human
        self.refresh_seat(v, h)
        marked: frozenset[int] = frozenset()
        if self.hint_on and self._discarding(v):
            marked = self._hint(v)[2]
        self.query_one(HandView).set_hand(v.hand_counts(), marked)

    def _discarding(self, v: SeatView) -> bool:
        return v.phase is Phase.DISCARD and self.session.human_turn()

    def refresh_options(self, v: SeatView) -> None:
        box = self.query_one("#options", Container)
        claim = v.phase is Phase.CLAIM and self.session.human_turn()
        options = list(v.legal) if claim else []
        if options == self.options and len(box.children) == len(options):
            return
        self.options = options
        box.remove_children()
        lines = []
        number = 0
        for i, a in enumerate(options):
            if a.kind is ActionKind.PASS:
                label = Text.assemble(("p ", "bold"), self.w("pass"))
            else:
                number += 1
                label = Text.assemble((f"{number} ", "bold"), action_label(a))
            lines.append(OptionLine(i, label))
        if lines:
            box.mount(*lines)
        box.set_class(bool(lines), "shown")
        # two options a row while the longest fits half the width, else one a row
        longest = max((display_width(o.plain) for o in lines), default=0)
        box.set_class(longest > (self.size.width - 3) // 2, "one")

    def _numbered(self) -> list[Action]:
        return [a for a in self.options if a.kind is not ActionKind.PASS]

    def _hint(self, v: SeatView) -> tuple[int, Text, frozenset[int]]:
        if self._hint_cache is not None and self._hint_cache[0] == v.version:
            return self._hint_cache
        t, marked = hint_text(
            v, self.session.human, self.session.match.rules, self._discarding(v), self.lang
        )
        self._hint_cache = (v.version, t, marked)
        return self._hint_cache

    def refresh_hint(self, v: SeatView) -> None:
        panel = self.query_one("#hint", Panel)
        panel.set_class(self.hint_on, "shown")
        if self.hint_on:
            panel.show(self._hint(v)[1])

    def refresh_offer(self, v: SeatView | None = None) -> None:
        if self.session.state is None:
            return
        v = v or self.session.view()
        t = Text()
        e = self._shown if self._feeding else None
        if e is not None:  # paced: the card of the move just shown, not the state's (ahead)
            if e.kind in (EventKind.DRAW, EventKind.DISCARD) and e.face is not None:
                drawn = e.kind is EventKind.DRAW
                how = self.w("drawn_by" if drawn else "discarded_by", who=self.seat(e.seat))
                t.append(self.w("offer") + ": ", style="bold")
                t.append_text(faces_text((e.face,)))
                t.append(f"  ({how})")
            else:
                t.append("…")
        elif v.offer is not None and v.offer_source is not None:
            src = self.seat(v.offer_source)
            how = self.w("drawn_by" if v.offer_from_draw else "discarded_by", who=src)
            t.append(self.w("offer") + ": ", style="bold")
            t.append_text(faces_text((v.offer,)))
            t.append(f"  ({how})")
        elif v.phase is Phase.DISCARD:
            t.append(self.w("to_discard", who=self.seat(v.turn)), style="bold")
        elif v.over:
            t.append(self.w("round_over"), style="bold")
        else:
            t.append("…")
        for i in range(RECENT):
            line = self._recent[i] if i < len(self._recent) else ""
            t.append("\n  " + line, style="bold" if i == len(self._recent) - 1 else "dim")
        self.query_one("#offer", Panel).show(t)

    def prompt(self) -> str:
        sess = self.session
        st = sess.state
        if st is None:
            return ""
        if st.over:
            return self.w("round_over")
        h = sess.human
        if self._feeding:
            return self.w("playing")
        if sess.human_turn():
            v = sess.view()
            if v.phase is Phase.DISCARD:
                return self.w("your_discard")
            n = len(self._numbered())
            card = glyph(v.offer) if v.offer is not None else "?"
            keys = "1" if n == 1 else f"1–{n}"
            return self.w("claim", card=card, keys=keys)
        waiting = [s for s in st.to_act() if s != h]
        if waiting:
            return self.w(
                "waiting", who=", ".join(f"{self.seat(s)} {self.names.get(s, '')}" for s in waiting)
            )
        return ""

    def refresh_status(self) -> None:
        if not self._mounted:
            return
        panel = self.query_one("#status", Panel)
        if self.error:
            panel.show("✗ " + self.error)
            panel.add_class("error")
        else:
            panel.show(self.prompt())
            panel.remove_class("error")

    # ------------------------------------------------------------ the human

    def _refuse(self, message: str) -> None:
        self.set_error(message)
        self.bell()

    def _say(self, r: Refusal) -> str:
        """A refusal from the session, in the screen's language."""
        if r.key == "not_your_turn":
            who = "、".join(self.seat(s) for s in r.waiting) or self.w("others")
            return self.w(r.key, who=who)
        return self.w(r.key, text=r.move, legal="、".join(r.legal), why=r.why)

    def _can_act(self) -> bool:
        """The human may act now; otherwise say why."""
        refused = self.session.turn_refusal()
        if refused is not None:
            self._refuse(self._say(refused))
            return False
        return True

    def play(self, action: Action | str | int) -> bool:
        """Apply the human's move; refused moves are explained in the status line."""
        refused = self.session.try_human(action)
        if refused is not None:
            self._refuse(self._say(refused))
            return False
        self.error = None
        self._hint_cache = None
        self.drive()
        return True

    def action_move(self, dx: int, dy: int) -> None:
        self.query_one(HandView).move(dx, dy)

    def action_skip(self) -> None:
        """Show the moves still queued at once (until the human must decide again)."""
        self.session.skipping = True

    def action_discard(self) -> None:
        if not self._can_act():
            return
        v = self.session.view()
        if v.phase is not Phase.DISCARD:
            self._refuse(self.w("offer_not_discard"))
            return
        face = self.query_one(HandView).selected_face()
        if face is None:
            self._refuse(self.w("no_card"))
            return
        if v.hand_counts()[face] >= 3:
            self._refuse(self.w("kan_kept", card=glyph(face)))
            return
        self.play(face)

    def action_option(self, n: int) -> None:
        if not self._can_act():
            return
        numbered = self._numbered()
        if not numbered:
            self._refuse(self.w("nothing_to_claim"))
            return
        if not 1 <= n <= len(numbered):
            self._refuse(self.w("no_option", n=n, m=len(numbered)))
            return
        self.play(numbered[n - 1])

    def action_pass_claim(self) -> None:
        if not self._can_act():
            return
        if not any(a.id == PASS_ID for a in self.options):
            self._refuse(self.w("nothing_to_pass"))
            return
        self.play(PASS_ID)

    @on(OptionLine.Chosen)
    def _option_clicked(self, message: OptionLine.Chosen) -> None:
        if 0 <= message.index < len(self.options):
            self.play(self.options[message.index])

    @on(HandView.Picked)
    def _card_clicked(self, message: HandView.Picked) -> None:
        v = self.session.view()
        if v.phase is Phase.CLAIM and self.session.human_turn():
            self._refuse(self.w("claim_first"))
            return
        self.play(message.face)

    def action_toggle_hint(self) -> None:
        self.hint_on = not self.hint_on
        if self.session.state is not None:
            v = self.session.view()
            self.refresh_hint(v)
            self.refresh_mine(v)

    def action_focus_cmd(self) -> None:
        cmd = self.query_one("#cmd", Input)
        cmd.add_class("shown")
        cmd.focus()

    def action_focus_hand(self) -> None:
        self.query_one("#cmd", Input).remove_class("shown")
        self.query_one(HandView).focus()

    @on(Input.Submitted, "#cmd")
    def _typed(self, message: Input.Submitted) -> None:
        text = message.value.strip()
        if not text:
            self.action_focus_hand()
            return
        move: str | int = text
        try:
            faces = parse_faces(text)
        except PaohuziError:
            faces = ()
        if len(faces) == 1:
            move = faces[0]  # a bare card: discard it
            v = self.session.view() if self.session.state is not None else None
            if v is not None and v.phase is Phase.CLAIM:
                self._refuse(self.w("card_on_claim", text=text))
                return
        if self.play(move):
            message.input.value = ""
            self.action_focus_hand()

    # ------------------------------------------------------------ quitting

    def _quit_message(self) -> str:
        sess = self.session
        if sess.has_moves():
            return self.w("quit_saved", path=sess.record_path)
        return self.w("quit_nothing")

    def action_help_quit(self) -> None:
        self.action_request_quit()

    def action_request_quit(self) -> None:
        if self._quitting or isinstance(self.screen, ConfirmQuit):
            return
        if isinstance(self.screen, RoundOver):
            self.screen.dismiss(False)
            return
        self._quitting = True

        def answered(yes: bool | None) -> None:
            self._quitting = False
            if yes:
                saved: Path | None = None
                if self.session.has_moves():
                    try:
                        saved = self.session.save()
                    except OSError as e:
                        self.save_error = f"{self.session.record_path}: {e.strerror or e}"
                        self.log_line(self.w("record_failed", why=self.save_error))
                self.exit(saved)

        self.push_screen(ConfirmQuit(self._quit_message(), self.lang), answered)


class PlayAppEnglish(PlayApp):
    """The game with the footer's key names in English (``--lang en``)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1, 0)", "select", key_display="←→↑↓", priority=True),
        Binding("enter", "discard", "discard"),
        Binding("1", "option(1)", "claim", key_display="1-9"),
        Binding("p", "pass_claim", "过 pass"),
        Binding("s", "skip", "skip"),
        Binding("t", "toggle_hint", "听 hint"),
        Binding("colon", "focus_cmd", "type"),
        Binding("q", "request_quit", "quit"),
    ]


def play_app(
    session: GameSession,
    *,
    lang: str = "zh",
    delay: float = DEFAULT_DELAY,
    names: Mapping[int, str] | None = None,
    notice: str | None = None,
    threaded_bots: bool = True,
) -> PlayApp:
    """The game screen in ``lang`` (zh or en), footer included."""
    cls = PlayAppEnglish if lang == "en" else PlayApp
    return cls(
        session,
        lang=lang,
        delay=delay,
        names=names,
        notice=notice,
        threaded_bots=threaded_bots,
    )
