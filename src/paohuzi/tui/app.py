"""``paohuzi play``: one human (seat 0) against two bots, in the terminal.

Everything on screen is drawn from ``view(state, human)`` and the human's censored
event log, so the UI cannot leak the bots' hands. Bots answer first in a claim
window (they never see the human's answer), then the human is asked; the engine
applies the highest claim once every seat that could still beat it has answered.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Input, RichLog

from ..core.actions import PASS_ID, Action, ActionKind
from ..core.cards import format_faces, glyph, parse_faces
from ..core.engine import Phase
from ..core.errors import PaohuziError
from ..core.events import Event, EventKind
from ..core.hand import Wait
from ..core.views import SeatView
from .render import (
    LEGEND,
    current_waits,
    discard_waits_of,
    faces_text,
    group_text,
    seat_name,
    waits_line,
)
from .screens import ConfirmQuit, RoundOver
from .session import GameSession
from .widgets import HandView, OptionLine, Panel

__all__ = ["PlayApp", "balances", "round_over_text"]


def _groups_line(label: str, groups: Text) -> Text:
    return Text.assemble((label, "dim"), groups)


def _table_text(v: SeatView, seat: int) -> Text:
    out = Text()
    for i, g in enumerate(v.tables[seat]):
        if i:
            out.append("  ")
        out.append_text(group_text(g))
    return out if v.tables[seat] else Text("—", style="dim")


def _pile_text(v: SeatView, seat: int) -> Text:
    pile = v.piles[seat]
    return faces_text(pile, " ") if pile else Text("—", style="dim")


def balances(v: SeatView) -> tuple[int, int, int]:
    """The 悟性 balances, settled ones once the round is over."""
    return v.result.balances if v.result is not None else v.balances


def round_over_text(
    session: GameSession, v: SeatView, names: Mapping[int, str], saved: Path | None
) -> Text:
    """The end-of-round report: result, 胡息/囤/番 breakdown, settlement, every hand."""
    res = v.result
    assert res is not None
    human = session.human
    m = session.match
    out = Text()
    out.append(f"Round {len(m.finished)}/{m.rounds_total}\n", style="bold")
    if res.winner is None or res.win is None:
        out.append(f"荒庄 — the stock ran out: no payments, seat {res.next_dealer} deals again.\n")
    else:
        who = seat_name(res.winner, human)
        out.append(f"{who} wins ({names.get(res.winner, '')}).\n", style="bold green")
        out.append(res.win.explain() + "\n")
    out.append("\nSettlement\n", style="bold")
    for s in range(3):
        d = res.deltas[s]
        out.append(f"  {seat_name(s, human):<12} {d:+d}  →  悟性 {res.balances[s]}\n")
    out.append("\nHands\n", style="bold")
    for s in range(3):
        hand = v.hands[s] or ()
        out.append(f"  {seat_name(s, human):<12} ")
        out.append_text(_table_text(v, s))
        out.append("  | hand ", style="dim")
        out.append_text(faces_text(hand) if hand else Text("—", style="dim"))
        out.append("\n")
    if saved is not None:
        out.append(f"\nRecord saved: {saved}\n", style="italic")
    if m.over:
        t = m.totals()
        out.append(f"\nMatch over after {len(m.finished)} round(s).\n", style="bold")
        for s in range(3):
            out.append(f"  {seat_name(s, human):<12} {t[s]:+d}  (悟性 {m.balances[s]})\n")
        out.append("\n[Enter] leave   [q] leave", style="reverse")
    else:
        out.append("\n[Enter] next round   [q] quit", style="reverse")
    return out


class PlayApp(App[Path | None]):
    """The game screen. Returns the path of the saved record (None if nothing was played)."""

    TITLE = "红拐弯跑胡子"
    CSS = """
    Screen { layout: vertical; }
    #top { height: auto; }
    .seat { width: 1fr; height: auto; min-height: 6; border: round $secondary; padding: 0 1; }
    .seat.acting { border: double $warning; }
    #middle { height: 1fr; }
    #main { width: 3fr; height: 1fr; }
    #info { height: auto; padding: 0 1; background: $boost; }
    #offer { height: auto; min-height: 3; padding: 0 1; border: round $primary; }
    #mine { height: auto; border: round $success; padding: 0 1; }
    #mine.acting { border: double $warning; }
    #side { width: 2fr; height: 1fr; }
    #options { height: auto; max-height: 14; border: double $warning; display: none; }
    #options.shown { display: block; }
    .option { padding: 0 1; }
    .option:hover { background: $accent; }
    #hint { height: auto; max-height: 12; padding: 0 1; border: round $accent; display: none; }
    #hint.shown { display: block; }
    #log { height: 1fr; min-height: 4; border: round $secondary; }
    #cmd { height: 3; }
    #status { height: 1; padding: 0 1; background: $panel; }
    #status.error { background: $error; color: $text; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1, 0)", "select", key_display="←→↑↓"),
        Binding("right", "move(1, 0)", show=False),
        Binding("up", "move(0, -1)", show=False),
        Binding("down", "move(0, 1)", show=False),
        Binding("enter", "discard", "discard"),
        Binding("space", "discard", show=False),
        Binding("1", "option(1)", "claim", key_display="1-9"),
        *(Binding(str(i), f"option({i})", show=False) for i in range(2, 10)),
        Binding("p", "pass_claim", "过 pass"),
        Binding("t", "toggle_hint", "听 hint"),
        Binding("colon", "focus_cmd", "type a move"),
        Binding("slash", "focus_cmd", show=False),
        Binding("escape", "focus_hand", show=False),
        Binding("q", "request_quit", "quit"),
        Binding("ctrl+c", "request_quit", show=False, priority=True),
        Binding("ctrl+q", "request_quit", show=False, priority=True),
    ]

    def __init__(
        self,
        session: GameSession,
        *,
        delay: float = 0.6,
        names: Mapping[int, str] | None = None,
        notice: str | None = None,
        threaded_bots: bool = True,
    ) -> None:
        super().__init__()
        self.session = session
        self.delay = delay
        self.names: dict[int, str] = dict(names or {})
        for s, bot in session.bots.items():
            self.names.setdefault(s, getattr(bot, "name", type(bot).__name__))
        self.names.setdefault(session.human, "you")
        self.notice = notice
        self.threaded_bots = threaded_bots
        self.hint_on = False
        self.error: str | None = None
        self.log_lines: list[str] = []
        self.options: list[Action] = []
        self._hint_cache: tuple[int, Text, frozenset[int]] | None = None
        self._quitting = False
        self._mounted = False
        self._last_events: list[str] = []

    _GAME_ACTIONS = frozenset(
        {"move", "discard", "option", "pass_claim", "toggle_hint", "focus_cmd", "focus_hand"}
    )

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Game keys are off while a modal (quit, round over) is up: app bindings reach there."""
        return not (action in self._GAME_ACTIONS and isinstance(self.screen, ModalScreen))

    # ---------------------------------------------------------------- layout

    def compose(self) -> ComposeResult:
        h = self.session.human
        # Round, 亮张, stock, turn and balances stay on screen at any terminal size.
        yield Panel(id="info")
        with Horizontal(id="top"):
            yield Panel(id=f"seat{(h + 2) % 3}", classes="seat")
            yield Panel(id=f"seat{(h + 1) % 3}", classes="seat")
        with Horizontal(id="middle"):
            with VerticalScroll(id="main"):
                yield Panel(id="offer")
                with Vertical(id="mine"):
                    yield Panel(id="mytable")
                    yield HandView(id="hand")
            with Vertical(id="side"):
                with VerticalScroll(id="options"):
                    pass
                yield Panel(id="hint")
                yield RichLog(id="log", wrap=True, markup=False, highlight=False, min_width=10)
        yield Input(
            placeholder="type a move (: to focus): s5 / 打:五 / 碰 / 吃:三四五 比:五五伍 / 过 / 胡",
            id="cmd",
        )
        yield Panel(id="status")
        yield Footer()

    def on_mount(self) -> None:
        self._mounted = True
        self.query_one("#mine").border_subtitle = LEGEND.markup
        self.query_one(HandView).focus()
        if self.notice:
            self.log_line(self.notice)
        self.log_line(f"You are {seat_name(self.session.human)}.")
        self.start_round()

    # ------------------------------------------------------------ the game

    def start_round(self) -> None:
        self.session.start_round()
        self.log_line(f"— round {self.session.round_no}/{self.session.match.rounds_total} —")
        self.refresh_all()
        self.drive()

    @work(exclusive=True, group="drive")
    async def drive(self) -> None:
        """Let the bots act until the human must decide or the round ends."""
        sess = self.session
        try:
            while True:
                st = sess.state
                if st is None:
                    return
                if st.over:
                    self.refresh_all()
                    self.round_over()
                    return
                seat = sess.pending_bot()
                if seat is None:
                    return
                if self.delay > 0 and sess.human not in st.to_act():
                    self.refresh_all()
                    await asyncio.sleep(self.delay)
                bot_view = sess.bot_view(seat)
                bot = sess.bots[seat]
                try:
                    if self.threaded_bots:
                        action = await asyncio.to_thread(bot.act, bot_view)
                    else:
                        action = bot.act(bot_view)
                except Exception as e:  # a broken bot must not end the human's match
                    legal = bot_view.legal
                    action = next((a for a in legal if a.id == PASS_ID), legal[0])
                    self.log_line(f"! bot seat {seat} failed ({e!r}); played {action.text()}")
                if sess.state is not st or st.version != bot_view.version:
                    return  # the round changed under us (quit/restart)
                _events, problem = sess.apply_bot(seat, action)
                if problem:
                    self.log_line("! " + problem)
                self.refresh_all()
        finally:
            self.refresh_all()

    def round_over(self) -> None:
        sess = self.session
        v = sess.view()
        try:
            sess.finish_round()
            saved: Path | None = sess.saved
        except OSError as e:
            saved = None
            self.set_error(f"could not save the record: {e}")
        text = round_over_text(sess, v, self.names, saved)
        self.push_screen(RoundOver(text), self._after_round)

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
            else:
                self.start_round()

        self.push_screen(ConfirmQuit(self._quit_message()), answered)

    # ---------------------------------------------------------------- drawing

    def log_line(self, line: str) -> None:
        self.log_lines.append(line)
        if self._mounted:
            self.query_one(RichLog).write(Text(line))

    def set_error(self, message: str | None) -> None:
        self.error = message
        self.refresh_status()

    def refresh_all(self) -> None:
        sess = self.session
        if sess.state is None:
            return
        v = sess.view()
        for e in sess.new_events():
            if e.kind is not EventKind.REVEAL:
                self._event(e)
        self.refresh_info(v)
        for s in range(3):
            if s != sess.human:
                self.refresh_seat(v, s)
        self.refresh_mine(v)
        self.refresh_options(v)
        self.refresh_hint(v)
        self.refresh_offer(v)
        self.refresh_status()

    def _event(self, e: Event) -> None:
        line = e.text()
        self.log_line(line)
        if e.kind is not EventKind.DEAL:
            self._last_events = [*self._last_events[-2:], line]

    def _acting(self, v: SeatView) -> tuple[int, ...]:
        return v.to_act if not v.over else ()

    def refresh_info(self, v: SeatView) -> None:
        sess = self.session
        h = sess.human
        m = sess.match
        t = Text()
        t.append(f"Round {sess.round_no}/{m.rounds_total}", style="bold")
        t.append(f" · 庄 {seat_name(v.dealer, h)} · 亮张 ")
        t.append_text(faces_text((v.liangzhang,)))
        t.append(f" · 墩 stock {v.stock_count}")
        acting = self._acting(v)
        if acting:
            who = ", ".join(seat_name(s, h).split()[0] for s in acting)
            t.append(f" · to act: {who}", style="bold")
        elif v.over:
            t.append(" · round over", style="bold")
        t.append(" · 悟性 ")
        bal = balances(v)
        order = (h, (h + 1) % 3, (h + 2) % 3)
        t.append(" ".join(f"{seat_name(s, h).split()[0]} {bal[s]}" for s in order))
        self.query_one("#info", Panel).show(t)

    def refresh_seat(self, v: SeatView, s: int) -> None:
        h = self.session.human
        panel = self.query_one(f"#seat{s}", Panel)
        t = Text()
        t.append(f"{seat_name(s, h)} · {self.names.get(s, '')}", style="bold")
        if v.dealer == s:
            t.append(" · 庄")
        if s in self._acting(v):
            t.append(" · ▶ acting", style="bold yellow")
        t.append(f"\n悟性 {balances(v)[s]} · hand {v.hand_sizes[s]} cards")
        if v.dead[s]:
            t.append(" · dead hand", style="red")
        hand = v.hands[s]
        if hand is not None and v.over:
            t.append("\n")
            t.append_text(_groups_line("hand  ", faces_text(hand)))
        t.append("\n")
        t.append_text(_groups_line("table ", _table_text(v, s)))
        t.append("\n")
        t.append_text(_groups_line("pile  ", _pile_text(v, s)))
        panel.show(t)
        panel.set_class(s in self._acting(v), "acting")

    def refresh_mine(self, v: SeatView) -> None:
        h = self.session.human
        t = Text()
        t.append(f"{seat_name(h, h)}", style="bold")
        if v.dealer == h:
            t.append(" · 庄")
        t.append(f" · 悟性 {balances(v)[h]} · hand {v.hand_sizes[h]} cards")
        if v.dead[h]:
            t.append(" · dead hand: no 胡/吃/碰 this round", style="red")
        t.append("\n")
        t.append_text(_groups_line("table ", _table_text(v, h)))
        t.append("   ")
        t.append_text(_groups_line("pile ", _pile_text(v, h)))
        chou = []
        if v.chou_chi:
            chou.append("臭吃 " + format_faces(sorted(v.chou_chi)))
        if v.chou_peng:
            chou.append("臭碰 " + format_faces(sorted(v.chou_peng)))
        if chou:
            t.append("   " + "  ".join(chou), style="dim")
        self.query_one("#mytable", Panel).show(t)
        marked: frozenset[int] = frozenset()
        if self.hint_on and self._discarding(v):
            marked = self._hint(v)[2]
        self.query_one(HandView).set_hand(v.hand_counts(), marked)
        self.query_one("#mine").set_class(h in self._acting(v), "acting")

    def _discarding(self, v: SeatView) -> bool:
        return v.phase is Phase.DISCARD and self.session.human_turn()

    def refresh_options(self, v: SeatView) -> None:
        box = self.query_one("#options", VerticalScroll)
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
                label = Text.assemble(("p  ", "bold"), "过 pass")
            else:
                number += 1
                label = Text.assemble((f"{number}  ", "bold"), a.text())
            lines.append(OptionLine(i, label))
        if lines:
            box.mount(*lines)
        box.border_title = "your options" if lines else ""
        box.set_class(bool(lines), "shown")

    def _numbered(self) -> list[Action]:
        return [a for a in self.options if a.kind is not ActionKind.PASS]

    def _hint(self, v: SeatView) -> tuple[int, Text, frozenset[int]]:
        if self._hint_cache is not None and self._hint_cache[0] == v.version:
            return self._hint_cache
        rules = self.session.match.rules
        mine = v.tables[self.session.human]
        counts = v.hand_counts()
        t = Text()
        marked: frozenset[int] = frozenset()
        if v.over:
            t.append("round over")
        elif self._discarding(v):
            discards = [
                a.face for a in v.legal if a.kind is ActionKind.DISCARD and a.face is not None
            ]
            dw = discard_waits_of(mine, counts, discards, rules)
            marked = frozenset(dw)
            if dw:
                t.append("听 after discarding (marked * in the hand):\n", style="bold")
                for f, ws in sorted(dw.items()):
                    t.append("打")
                    t.append_text(faces_text((f,)))
                    t.append(" → ")
                    t.append_text(waits_line(ws))
                    t.append("\n")
            else:
                t.append("No discard leaves a 听牌 yet.")
        else:
            now: list[Wait] = current_waits(mine, counts, rules)
            if now:
                t.append("听牌 — waiting for:\n", style="bold")
                t.append_text(waits_line(now))
            else:
                t.append("Not 听 (no card completes this hand).")
        self._hint_cache = (v.version, t, marked)
        return self._hint_cache

    def refresh_hint(self, v: SeatView) -> None:
        panel = self.query_one("#hint", Panel)
        panel.set_class(self.hint_on, "shown")
        if self.hint_on:
            panel.show(self._hint(v)[1])

    def refresh_offer(self, v: SeatView) -> None:
        h = self.session.human
        t = Text()
        if v.offer is not None and v.offer_source is not None:
            how = "drawn by" if v.offer_from_draw else "discarded by"
            t.append("On offer: ", style="bold")
            t.append_text(faces_text((v.offer,)))
            t.append(f"  ({how} {seat_name(v.offer_source, h)})")
        elif v.phase is Phase.DISCARD:
            t.append(f"{seat_name(v.turn, h)} to discard", style="bold")
        elif v.over:
            t.append("Round over", style="bold")
        else:
            t.append("…")
        for line in self._last_events:
            t.append("\n  " + line, style="dim")
        self.query_one("#offer", Panel).show(t)

    def prompt(self) -> str:
        sess = self.session
        st = sess.state
        if st is None:
            return ""
        if st.over:
            return "Round over."
        h = sess.human
        if sess.human_turn():
            v = sess.view()
            if v.phase is Phase.DISCARD:
                return "Your discard: ←→↑↓ + Enter, click a card twice, or type it (:). t = 听 hint"
            n = len(self._numbered())
            card = glyph(v.offer) if v.offer is not None else "?"
            keys = "1" if n == 1 else f"1–{n}"
            return f"Claim {card}? {keys} (or click) to choose, p = 过 pass"
        waiting = [s for s in st.to_act() if s != h]
        if waiting:
            return (
                "Waiting for "
                + ", ".join(f"{seat_name(s, h)} ({self.names.get(s, '')})" for s in waiting)
                + " …"
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

    def _can_act(self) -> bool:
        """The human may act now; otherwise say why."""
        sess = self.session
        if sess.state is None or sess.state.over:
            self._refuse("the round is over")
            return False
        if not sess.human_turn():
            h = sess.human
            waiting = [s for s in sess.state.to_act() if s != h]
            who = ", ".join(seat_name(s, h) for s in waiting) or "the other seats"
            self._refuse(f"not your turn: waiting for {who}")
            return False
        return True

    def play(self, action: Action | str | int) -> bool:
        """Apply the human's move; refused moves are explained in the status line."""
        if not self._can_act():
            return False
        try:
            self.session.apply_human(action)
        except PaohuziError as e:
            self._refuse(str(e))
            return False
        self.error = None
        self._hint_cache = None
        self.refresh_all()
        self.drive()
        return True

    def action_move(self, dx: int, dy: int) -> None:
        self.query_one(HandView).move(dx, dy)

    def action_discard(self) -> None:
        if not self._can_act():
            return
        v = self.session.view()
        if v.phase is not Phase.DISCARD:
            self._refuse("a card is on offer: choose a claim with 1–9 or p (过), not a discard")
            return
        face = self.query_one(HandView).selected_face()
        if face is None:
            self._refuse("no card selected")
            return
        if v.hand_counts()[face] >= 3:
            self._refuse(f"{glyph(face)} is in a 坎: a 坎 is never split or discarded")
            return
        self.play(face)

    def action_option(self, n: int) -> None:
        if not self._can_act():
            return
        numbered = self._numbered()
        if not numbered:
            self._refuse("nothing to claim now: discard a card (Enter)")
            return
        if not 1 <= n <= len(numbered):
            self._refuse(f"no option {n}: choose 1–{len(numbered)} or p (过)")
            return
        self.play(numbered[n - 1])

    def action_pass_claim(self) -> None:
        if not self._can_act():
            return
        if not any(a.id == PASS_ID for a in self.options):
            self._refuse("nothing to pass: it is your discard")
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
            self._refuse("a card is on offer: choose a claim (1–9, p = 过) before discarding")
            return
        self.play(message.face)

    def action_toggle_hint(self) -> None:
        self.hint_on = not self.hint_on
        if self.session.state is not None:
            v = self.session.view()
            self.refresh_hint(v)
            self.refresh_mine(v)

    def action_focus_cmd(self) -> None:
        self.query_one("#cmd", Input).focus()

    def action_focus_hand(self) -> None:
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
                self._refuse(
                    f"{text!r} names a card; on a claim type 碰, 吃:…, 胡 or 过 (or 1–9/p)"
                )
                return
        if self.play(move):
            message.input.value = ""
            self.action_focus_hand()

    # ------------------------------------------------------------ quitting

    def _quit_message(self) -> str:
        sess = self.session
        if sess.has_moves():
            return f"Quit the match? The record so far will be saved to\n{sess.record_path}"
        return "Quit the match? Nothing has been played yet."

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
                        self.log_line(f"could not save the record: {e}")
                self.exit(saved)

        self.push_screen(ConfirmQuit(self._quit_message()), answered)
