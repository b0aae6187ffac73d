"""The game screen's text panels: each seat's panel and the end-of-round report.

Pure functions of a seat's view (and the session, for the match's totals), kept apart
from the textual app so that one renderer serves every seat and the report can be
read and tested without a screen. Every word comes from :mod:`.words`.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from rich.text import Text

from ..core.cards import format_faces
from ..core.views import SeatView
from .render import faces_text, group_text
from .session import GameSession
from .words import ljust_cells, seat_word, win_text, word

__all__ = ["balances", "pile_text", "round_over_text", "seat_text", "table_text"]


def table_text(v: SeatView, seat: int) -> Text:
    """A seat's groups on the table, as the view shows them (— for none)."""
    out = Text()
    for i, g in enumerate(v.tables[seat]):
        if i:
            out.append(" ")
        out.append_text(group_text(g))
    return out if v.tables[seat] else Text("—", style="dim")


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
        out.append(word("huangzhuang", lang, who=seat_word(res.next_dealer, human, lang)) + "\n")
    else:
        name = names.get(res.winner, "")
        out.append(
            word("wins", lang, who=seat_word(res.winner, human, lang), name=name) + "\n",
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
        out.append("\n" + word("record_saved", lang, path=saved) + "\n", style="italic")
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
