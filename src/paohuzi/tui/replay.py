"""``paohuzi replay``: step through a round or match record, decision by decision.

Each step is rebuilt with the core ``replay(record, upto=i)``, so the viewer
shows exactly what the engine did. The default view is full (every hand, every
face-down group, the options each seat had); ``v`` switches to what a spectator
saw.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Footer

from ..core.engine import Phase, State
from ..core.errors import RecordError
from ..core.events import Event, EventKind
from ..core.match import replay_match
from ..core.record import MATCH_FORMAT, ROUND_FORMAT, replay
from ..core.views import SeatView, ViewGroup, view
from .render import faces_text, group_text, hand_columns, render_hand
from .widgets import Panel
from .words import action_label, event_line, seat_label, win_text, word

__all__ = ["RecordBook", "ReplayApp", "load_rounds"]


def load_rounds(record: dict[str, Any]) -> list[dict[str, Any]]:
    """The round records inside a round or match record (checked by replaying them)."""
    fmt = record.get("format")
    if fmt == ROUND_FORMAT:
        replay(record)
        return [record]
    if fmt == MATCH_FORMAT:
        replay_match(record)
        rounds = record.get("rounds", [])
        if not rounds:
            raise RecordError("the match record holds no rounds")
        return list(rounds)
    raise RecordError(
        f"not a paohuzi record: format {fmt!r} (expected {ROUND_FORMAT} or {MATCH_FORMAT})"
    )


class RecordBook:
    """Random access to every decision of every round, states built on demand."""

    def __init__(self, rounds: Sequence[dict[str, Any]], lang: str = "zh") -> None:
        self.rounds = list(rounds)
        self.lang = lang
        self._cache: dict[tuple[int, int], State] = {}

    def steps(self, r: int) -> int:
        """Decisions in round ``r`` (steps run 0..steps)."""
        return len(self.rounds[r].get("actions", []))

    def state(self, r: int, i: int) -> State:
        key = (r, i)
        st = self._cache.get(key)
        if st is None:
            st = replay(self.rounds[r], upto=i)
            if len(self._cache) > 64:
                self._cache.clear()
            self._cache[key] = st
        return st

    def action_text(self, r: int, i: int) -> str:
        """The text of decision ``i`` (1-based) of round ``r``."""
        a = self.rounds[r]["actions"][i - 1]
        seat = a.get("seat")
        who = seat_label(seat, self.lang) if isinstance(seat, int) else f"seat {seat!r}"
        return f"{who} {a.get('text', a.get('id'))}"


def _table(groups: Sequence[ViewGroup]) -> Text:
    out = Text()
    for i, g in enumerate(groups):
        if i:
            out.append("  ")
        out.append_text(group_text(g))
    return out if groups else Text("—", style="dim")


class ReplayApp(App[None]):
    """The record viewer."""

    TITLE = "红拐弯跑胡子 — replay"
    CSS = """
    #head { height: auto; padding: 0 1; background: $boost; }
    #body { height: 1fr; }
    #seats { width: 3fr; }
    .seat { height: auto; border: round $secondary; padding: 0 1; }
    .seat.acting { border: double $warning; }
    #events { width: 2fr; border: round $primary; padding: 0 1; }
    """
    ENABLE_COMMAND_PALETTE = False
    # Below this height a hand is one line of cards, not columns: 80×24 shows all three.
    COMPACT_BELOW = 34
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right", "step(1)", "下一步", key_display="→", priority=True),
        Binding("l", "step(1)", show=False),
        Binding("space", "step(1)", show=False),
        Binding("left", "step(-1)", "上一步", key_display="←", priority=True),
        Binding("h", "step(-1)", show=False),
        Binding("home", "jump(0)", "开头", priority=True),
        Binding("g", "jump(0)", show=False),
        Binding("end", "jump(1)", "结尾", priority=True),
        Binding("G", "jump(1)", show=False),
        Binding("pagedown", "round(1)", "下一局", priority=True),
        Binding("n", "round(1)", show=False),
        Binding("pageup", "round(-1)", "上一局", priority=True),
        Binding("p", "round(-1)", show=False),
        Binding("v", "toggle_view", "全视角/旁观"),
        Binding("q", "quit", "退出"),
    ]

    def __init__(
        self, rounds: Sequence[dict[str, Any]], source: str = "", lang: str = "zh"
    ) -> None:
        super().__init__()
        self.lang = lang
        self._names = [seat_label(s, lang) for s in range(3)]
        self.book = RecordBook(rounds, lang)
        self.source = source
        self.round = 0
        self.step = 0
        self.full = True

    def compose(self) -> ComposeResult:
        yield Panel(id="head")
        with Horizontal(id="body"):
            with Vertical(id="seats"):
                for s in range(3):
                    yield Panel(id=f"seat{s}", classes="seat")
            with VerticalScroll(id="events"):
                yield Panel(id="log")
        yield Footer()

    def on_mount(self) -> None:
        self.show()

    def on_resize(self) -> None:
        # after the refresh: while the resize runs, the app's size may still be the old one
        self.call_after_refresh(self.show)

    # ------------------------------------------------------------- actions

    def action_step(self, d: int) -> None:
        self.step = max(0, min(self.step + d, self.book.steps(self.round)))
        self.show()

    def action_jump(self, end: int) -> None:
        self.step = self.book.steps(self.round) if end else 0
        self.show()

    def action_round(self, d: int) -> None:
        r = max(0, min(self.round + d, len(self.book.rounds) - 1))
        if r != self.round:
            self.round, self.step = r, 0
        self.show()

    def action_toggle_view(self) -> None:
        self.full = not self.full
        self.show()

    # ------------------------------------------------------------- drawing

    def _seat_view(self, st: State, s: int) -> SeatView:
        return view(st, s if self.full else None)

    def who(self, s: int) -> str:
        return seat_label(s, self.lang)

    def show(self) -> None:
        st = self.book.state(self.round, self.step)
        n = self.book.steps(self.round)
        spectator = view(st, None)
        lang = self.lang
        how = word("rp_full" if self.full else "rp_spectator", lang)
        rounds = len(self.book.rounds)
        head = Text()
        head.append(f"{self.source}  ", style="bold")
        step = word("rp_step", lang, r=self.round + 1, rt=rounds, i=self.step, n=n, how=how)
        head.append(step + "\n", style="bold")
        head.append(f"{word('dealer', lang)}:{self.who(st.dealer)} 亮张:")
        head.append_text(faces_text((st.liangzhang,)))
        head.append(f" {word('stock', lang)}:{spectator.stock_count} 悟性 ")
        bal = st.result.balances if st.result is not None else spectator.balances
        head.append(" ".join(f"{self.who(s)} {bal[s]}" for s in range(3)))
        if self.step:
            head.append("\n" + word("rp_last", lang) + self.book.action_text(self.round, self.step))
        if spectator.offer is not None and spectator.offer_source is not None:
            src = self.who(spectator.offer_source)
            how = word("drawn_by" if spectator.offer_from_draw else "discarded_by", lang, who=src)
            head.append("\n" + word("offer", lang) + ": ")
            head.append_text(faces_text((spectator.offer,)))
            head.append(f" ({how})")
        elif st.phase is Phase.DISCARD:
            head.append("\n" + word("to_discard", lang, who=self.who(st.turn)))
        self.query_one("#head", Panel).show(head)
        for s in range(3):
            self._show_seat(st, s)
        self._show_events(st)

    def _show_seat(self, st: State, s: int) -> None:
        v = self._seat_view(st, s)
        lang = self.lang
        t = Text()
        t.append(self.who(s), style="bold")
        if st.dealer == s:
            t.append(" 庄")
        bal = v.result.balances if v.result is not None else v.balances
        t.append(f" 悟性 {bal[s]} {word('hand', lang)}{v.hand_sizes[s]}{word('cards', lang)}")
        if v.dead[s]:
            t.append(" " + word("dead", lang), style="red")
        acting = s in v.to_act
        if acting:
            t.append(" " + word("rp_to_act", lang), style="bold yellow")
            if self.full and self.size.height >= self.COMPACT_BELOW:  # a small screen: the log says
                t.append(": " + " | ".join(action_label(a) for a in v.legal))
        t.append(f"\n{word('table', lang)} ", style="dim")
        t.append_text(_table(v.tables[s]))
        t.append(f"   {word('pile', lang)} ", style="dim")
        t.append_text(faces_text(v.piles[s]) if v.piles[s] else Text("—", style="dim"))
        hand = v.hands[s]
        t.append("\n")
        if hand is None:
            t.append(word("rp_hidden", self.lang, n=v.hand_sizes[s]), style="dim")
        elif self.size.height < self.COMPACT_BELOW:
            t.append(word("hand", lang) + " ", style="dim")
            t.append_text(faces_text(tuple(sorted(hand))))
        else:
            counts = [0] * 20
            for f in hand:
                counts[f] += 1
            t.append_text(render_hand(hand_columns(counts)))
        panel = self.query_one(f"#seat{s}", Panel)
        panel.show(t)
        panel.set_class(acting, "acting")

    def _show_events(self, st: State) -> None:
        prev = self.book.state(self.round, self.step - 1) if self.step else None
        start = len(prev.log) if prev is not None else 0
        seat = None
        t = Text()
        for i, e in enumerate(st.log):
            shown: Event | None = e if self.full else e.censor(seat)
            if shown is None or shown.kind is EventKind.REVEAL:
                continue
            line = event_line(shown, lang=self.lang, names=self._names)
            t.append(line + "\n", style="bold" if i >= start else "dim")
        if st.result is not None and st.result.win is not None:
            t.append("\n" + win_text(st.result.win, self.lang) + "\n", style="bold green")
        elif st.result is not None:
            t.append("\n荒庄\n", style="bold")
        self.query_one("#log", Panel).show(t)
        self.query_one("#events", VerticalScroll).scroll_end(animate=False)


class ReplayAppEnglish(ReplayApp):
    """The record viewer with the footer's key names in English (``--lang en``)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right", "step(1)", "next", key_display="→", priority=True),
        Binding("left", "step(-1)", "back", key_display="←", priority=True),
        Binding("home", "jump(0)", "start", priority=True),
        Binding("end", "jump(1)", "end", priority=True),
        Binding("pagedown", "round(1)", "next round", priority=True),
        Binding("pageup", "round(-1)", "previous round", priority=True),
        Binding("v", "toggle_view", "full/spectator"),
        Binding("q", "quit", "quit"),
    ]


def replay_app(
    rounds: Sequence[dict[str, Any]], *, source: str = "", lang: str = "zh"
) -> ReplayApp:
    """The record viewer in ``lang`` (zh or en), footer included."""
    cls = ReplayAppEnglish if lang == "en" else ReplayApp
    return cls(rounds, source=source, lang=lang)
