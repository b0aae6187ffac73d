"""The game screen's text panels: each seat's panel and the end-of-round report.

Pure functions of a seat's view (and the session, for the match's totals), kept apart
from the textual app so that one renderer serves every seat and the report can be
read and tested without a screen. Every word comes from :mod:`.words`.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from rich.text import Text

from ..core.actions import ActionKind
from ..core.cards import format_faces
from ..core.hand import Wait
from ..core.rules import RuleSet
from ..core.views import SeatView
from .render import current_waits, discard_waits_of, faces_text, group_text, waits_line
from .session import GameSession
from .words import ljust_cells, seat_word, win_text, word

__all__ = [
    "balances",
    "hint_text",
    "pile_text",
    "round_over_text",
    "seat_text",
    "table_huxi",
    "table_text",
]


def table_text(v: SeatView, seat: int) -> Text:
    """A seat's groups on the table, as the view shows them (— for none)."""
    out = Text()
    for i, g in enumerate(v.tables[seat]):
        if i:
            out.append(" ")
        out.append_text(group_text(g))
    return out if v.tables[seat] else Text("—", style="dim")


def table_huxi(v: SeatView, seat: int) -> str:
    """A seat's 胡息 on the table as the view shows it: ``9``, or ``9+`` when some of its
    groups lie face down to this seat (偎, dealt 提: RULES.md §14)."""
    groups = [g.group() for g in v.tables[seat]]
    n = sum(g.huxi for g in groups if g is not None)
    return f"{n}+" if None in groups else str(n)


def pile_text(v: SeatView, seat: int) -> Text:
    """A seat's pile (— for none)."""
    pile = v.piles[seat]
    return faces_text(pile) if pile else Text("—", style="dim")


def seat_text(
    v: SeatView, s: int, human: int, name: str = "", lang: str = "zh", one_line: bool = False
) -> Text:
    """One seat's panel, the same for every seat: who (庄, dead hand), cards in hand,
    pile, table (on its own line unless ``one_line``), 臭 sets where the view shows
    them (the human's own), and the hand once the round is over."""
    acting = s in (v.to_act if not v.over else ())
    t = Text()
    t.append(seat_word(s, human, lang), style="bold yellow" if acting and s != human else "bold")
    if name:
        t.append(f" {name}", style="dim")
    if v.dealer == s:
        t.append(" 庄", style="bold")
    t.append(f" {word('hand', lang)}{v.hand_sizes[s]}{word('cards', lang)}")
    if v.dead[s]:
        t.append(" " + word("dead_mine" if s == human else "dead", lang), style="red")
    t.append(f" {word('pile', lang)} ", style="dim")
    t.append_text(pile_text(v, s))
    t.append(f"{' ' if one_line else chr(10) + ' '}{word('table', lang)} ", style="dim")
    t.append_text(table_text(v, s))
    if v.tables[s]:
        t.append(f" {word('huxi', lang)} {table_huxi(v, s)}", style="dim")
    if s == human:
        chou = []
        if v.chou_chi:
            chou.append("臭吃 " + format_faces(sorted(v.chou_chi)))
        if v.chou_peng:
            chou.append("臭碰 " + format_faces(sorted(v.chou_peng)))
        if chou:
            t.append(" " + " ".join(chou), style="dim")
    hand = v.hands[s]
    if s != human and hand is not None and v.over:
        t.append(f"\n {word('hand', lang)} ", style="dim")
        t.append_text(faces_text(hand))
    return t


def short_path(path: Path) -> str:
    """``path`` with the home folder as ``~`` (the full one wrapped into pieces at 80 columns)."""
    home = str(Path.home())
    text = str(path)
    return "~" + text[len(home) :] if text.startswith(home + "/") else text


def balances(v: SeatView) -> tuple[int, int, int]:
    """The 悟性 balances, settled ones once the round is over."""
    return v.result.balances if v.result is not None else v.balances


def round_over_text(
    session: GameSession,
    v: SeatView,
    names: Mapping[int, str],
    saved: Path | None,
    lang: str = "zh",
    save_error: str | None = None,
) -> Text:
    """The end-of-round report: result, 胡息/囤/番 breakdown, settlement, every hand."""
    res = v.result
    assert res is not None
    human = session.human
    m = session.match
    order = (human, (human + 1) % 3, (human + 2) % 3)

    def who(s: int) -> str:
        return ljust_cells(seat_word(s, human, lang), 8)

    out = Text()
    out.append(word("round", lang, n=len(m.finished), total=m.rounds_total) + "\n", style="bold")
    if res.winner is None or res.win is None:
        if m.over:  # no next deal to stay the dealer for
            out.append(word("huangzhuang_last", lang) + "\n")
        else:
            out.append(
                word("huangzhuang", lang, who=seat_word(res.next_dealer, human, lang)) + "\n"
            )
    else:
        name = names.get(res.winner, "")
        shown = "" if not name else f" ({name})" if lang == "en" else f"（{name}）"
        out.append(
            word("wins", lang, who=seat_word(res.winner, human, lang), name=shown) + "\n",
            style="bold green",
        )
        out.append(win_text(res.win, lang) + "\n")
    out.append("\n" + word("settlement", lang) + "\n", style="bold")
    for s in order:
        out.append(f"  {who(s)}{res.deltas[s]:>+4d}  →  悟性 {res.balances[s]:>3}\n")
    out.append("\n" + word("hands", lang) + "\n", style="bold")
    for s in order:
        hand = v.hands[s] or ()
        out.append(f"  {who(s)}")
        out.append_text(table_text(v, s))
        out.append(f"  | {word('hand', lang)} ", style="dim")
        out.append_text(faces_text(hand) if hand else Text("—", style="dim"))
        out.append("\n")
    if saved is not None:
        out.append("\n" + word("record_saved", lang, path=short_path(saved)) + "\n", style="italic")
    if save_error is not None:
        out.append("\n" + word("record_failed", lang, why=save_error) + "\n", style="bold red")
    if m.over:
        t = m.totals()
        out.append("\n" + word("match_over", lang, n=len(m.finished)) + "\n", style="bold")
        for s in order:
            out.append(f"  {who(s)}{t[s]:>+4d}  (悟性 {m.balances[s]})\n")
        out.append("\n" + word("leave_keys", lang), style="reverse")
    else:
        out.append("\n" + word("next_keys", lang), style="reverse")
    return out


def hint_text(
    v: SeatView, human: int, rules: RuleSet, discarding: bool, lang: str = "zh"
) -> tuple[Text, frozenset[int]]:
    """The 听牌 hint: when discarding, which discards leave the hand waiting (and on what),
    those faces marked in the hand; otherwise what the hand waits for now."""
    mine = v.tables[human]
    counts = v.hand_counts()
    t = Text()
    marked: frozenset[int] = frozenset()
    if v.over:
        t.append(word("round_over", lang))
    elif discarding:
        discards = [a.face for a in v.legal if a.kind is ActionKind.DISCARD and a.face is not None]
        dw = discard_waits_of(mine, counts, discards, rules)
        marked = frozenset(dw)
        if dw:
            t.append(word("hint_after", lang) + "\n", style="bold")
            for i, (f, ws) in enumerate(sorted(dw.items())):
                if i:
                    t.append("\n")
                t.append("打")
                t.append_text(faces_text((f,)))
                t.append(" → ")
                t.append_text(waits_line(ws))
        else:
            t.append(word("hint_none", lang))
    else:
        now: list[Wait] = current_waits(mine, counts, rules)
        if now:
            t.append(word("hint_wait", lang) + "\n", style="bold")
            t.append_text(waits_line(now))
        else:
            t.append(word("hint_not", lang))
    return t, marked
