"""How cards, hands and groups look on screen (rich ``Text``, no textual).

Kept apart from the widgets so that the layout rules (columns of 坎, pairs,
same-number big/small, runs) and the colours can be tested without a terminal
and shared by the game and the record viewer.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rich.text import Text

from ..core.cards import NUM_FACES, faces_of_counts, glyph, is_big, is_red
from ..core.groups import Group
from ..core.hand import Wait, waits_counts
from ..core.rules import HONG_GUAI_WAN, RuleSet
from ..core.views import ViewGroup

__all__ = [
    "CARD_WIDTH",
    "COLUMN_GAP",
    "LEGEND",
    "Column",
    "card_style",
    "card_text",
    "current_waits",
    "discard_waits_of",
    "faces_text",
    "group_text",
    "hand_columns",
    "hand_hit",
    "hanging",
    "render_hand",
    "seat_name",
    "waits_line",
]

CARD_WIDTH = 4
"""Cells a card takes: pad, the glyph (two cells wide), pad."""
COLUMN_GAP = 1

_SMALL_BG = "#f4f0e4"
_BIG_BG = "#e6b94c"
_RED_FG = "#c1121f"
_BLACK_FG = "#111111"


@dataclass(frozen=True, slots=True)
class Column:
    """One column of the hand: a label (坎, 对, 搭, 句, 散) and its cards top-down."""

    label: str
    faces: tuple[int, ...]


def _other(face: int) -> int:
    return face + 10 if face < 10 else face - 10


def hand_columns(counts: Sequence[int]) -> list[Column]:
    """Arrange a hand the way 跑胡子 players do: 坎, pairs, 大小 by number, runs, the rest.

    Every 坎 is its own column and is never split; a pair takes the other-size
    copies of its number with it (八八捌 is one column, as a 大小三搭 would be);
    a lone big and small of one number share a column; the remaining singles are
    gathered into 二七十 / 一二三 / runs of one size, and what is left is packed
    three to a column in number order, so nearby numbers sit together.
    """
    c = [int(x) for x in counts]
    if len(c) != NUM_FACES:
        raise ValueError(f"a hand is {NUM_FACES} counts, got {len(c)}")
    cols: list[Column] = []
    for f in range(NUM_FACES):
        if c[f] >= 3:
            cols.append(Column("坎", (f,) * c[f]))
            c[f] = 0
    for n in range(10):
        s, b = n, n + 10
        if c[s] == 2 or c[b] == 2:
            cols.append(Column("对", (s,) * c[s] + (b,) * c[b]))
            c[s] = c[b] = 0
    for n in range(10):
        s, b = n, n + 10
        if c[s] and c[b]:
            cols.append(Column("搭", (s,) * c[s] + (b,) * c[b]))
            c[s] = c[b] = 0
    for off in (10, 0):
        shapes: list[tuple[int, ...]] = [(1, 6, 9), (0, 1, 2)]
        shapes += [(i, i + 1, i + 2) for i in range(1, 8)]
        for shape in shapes:
            faces = tuple(off + i for i in shape)
            while all(c[f] for f in faces):
                cols.append(Column("句", faces))
                for f in faces:
                    c[f] -= 1
    rest = sorted(faces_of_counts(c), key=lambda f: (f % 10, f))
    for i in range(0, len(rest), 3):
        cols.append(Column("散", tuple(rest[i : i + 3])))
    return cols


def card_style(face: int, selected: bool = False) -> str:
    """Red faces in red, black ones in black; 大字 bold on gold, 小字 on cream."""
    fg = _RED_FG if is_red(face) else _BLACK_FG
    style = f"bold {fg} on {_BIG_BG}" if is_big(face) else f"{fg} on {_SMALL_BG}"
    return style + (" reverse" if selected else "")


def card_text(face: int, selected: bool = False, marked: bool = False) -> Text:
    """One card, four cells: ``[五]`` when selected, ``*五 `` when marked (leaves 听),
    ``*五]`` when both (the mark was hidden on the card selected, usually the one it
    points at)."""
    left = "*" if marked else "[" if selected else " "
    right = "]" if selected else " "
    return Text(f"{left}{glyph(face)}{right}", style=card_style(face, selected))


def faces_text(faces: Iterable[int], sep: str = "") -> Text:
    """Glyphs coloured as cards (red/black, big bold), without card padding."""
    out = Text()
    for i, f in enumerate(faces):
        if i and sep:
            out.append(sep)
        fg = _RED_FG if is_red(f) else "default"
        out.append(glyph(f), style=f"bold underline {fg}" if is_big(f) else fg)
    return out


def group_text(group: ViewGroup | Group) -> Text:
    """``碰:贰贰贰`` with coloured cards; face-down groups as ``偎:▢▢▢``."""
    faces = group.faces
    kind = group.kind
    out = Text(f"{kind.value}:", style="dim")
    if faces is None:
        out.append("▢" * kind.size, style="dim")
    else:
        out.append_text(faces_text(faces))
    return out


def render_hand(
    cols: Sequence[Column],
    selected: tuple[int, int] | None = None,
    marked: frozenset[int] = frozenset(),
) -> Text:
    """The hand as a label row and up to four card rows (the hit map is :func:`hand_hit`)."""
    height = max((len(c.faces) for c in cols), default=0)
    lines: list[Text] = []
    head = Text()
    for i, col in enumerate(cols):
        if i:
            head.append(" " * COLUMN_GAP)
        head.append(f" {col.label} ", style="dim")
    lines.append(head)
    for r in range(height):
        line = Text()
        for i, col in enumerate(cols):
            if i:
                line.append(" " * COLUMN_GAP)
            if r < len(col.faces):
                f = col.faces[r]
                line.append_text(card_text(f, selected == (i, r), f in marked))
            else:
                line.append(" " * CARD_WIDTH)
        lines.append(line)
    return Text("\n").join(lines)


def hand_hit(cols: Sequence[Column], x: int, y: int) -> tuple[int, int] | None:
    """The (column, row) of the card at cell (x, y) of :func:`render_hand`, if any."""
    if y < 1:
        return None
    step = CARD_WIDTH + COLUMN_GAP
    i, within = divmod(x, step)
    r = y - 1
    if x < 0 or within >= CARD_WIDTH or i >= len(cols) or r >= len(cols[i].faces):
        return None
    return (i, r)


def seat_name(seat: int, human: int = 0) -> str:
    """Seats as the human calls them: 你 (you), 下家 (next), 上家 (previous)."""
    rel = (seat - human) % 3
    return ("你", "下家", "上家")[rel] + f" seat {seat}"


def waits_line(ws: Sequence[Wait]) -> Text:
    """``三 18胡息 3分 (自摸 4分)`` for each waiting face."""
    out = Text()
    for i, w in enumerate(sorted(ws, key=lambda w: w.face)):
        if i:
            out.append("  ")
        out.append_text(faces_text((w.face,)))
        parts = []
        if w.other is not None:
            parts.append(f"{w.other.huxi}胡息 {w.other.score}分")
        if w.self_drawn is not None:
            parts.append(f"自摸 {w.self_drawn.huxi}胡息 {w.self_drawn.score}分")
        out.append(" " + ", ".join(parts))
    return out


def _table(groups: Iterable[ViewGroup]) -> list[Group]:
    out = []
    for g in groups:
        grp = g.group()
        if grp is not None:
            out.append(grp)
    return out


def current_waits(
    table: Iterable[ViewGroup], counts: Sequence[int], rules: RuleSet = HONG_GUAI_WAN
) -> list[Wait]:
    """The faces that would win for this hand as it is (empty if it is not 听)."""
    return waits_counts(_table(table), list(counts), rules)


def discard_waits_of(
    table: Iterable[ViewGroup],
    counts: Sequence[int],
    discards: Iterable[int],
    rules: RuleSet = HONG_GUAI_WAN,
) -> dict[int, list[Wait]]:
    """For each legal discard, the waits it leaves (only discards that leave a 听)."""
    groups = _table(table)
    out: dict[int, list[Wait]] = {}
    for f in discards:
        h = list(counts)
        if h[f] <= 0:
            continue
        h[f] -= 1
        ws = waits_counts(groups, h, rules)
        if ws:
            out[f] = ws
    return out


LEGEND = Text.assemble(
    ("小字", f"{_BLACK_FG} on {_SMALL_BG}"),
    " small  ",
    ("大字", f"bold {_BLACK_FG} on {_BIG_BG}"),
    " big (bold, gold)  ",
    ("红", f"{_RED_FG} on {_SMALL_BG}"),
    " red 二七十贰柒拾",
)
"""A one-line key to the card colours."""


def _cells(ch: str) -> int:
    """Terminal cells of one character (汉字 and full-width forms take two)."""
    import unicodedata

    if unicodedata.combining(ch):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def hanging(text: Text, width: int, indent: int = 4) -> Text:
    """``text`` wrapped to ``width`` cells, each line's continuations indented.

    A continuation starts ``indent`` cells further in than its line's own leading
    spaces, so a wrapped 结算 or 名堂 line reads as one item. Breaks fall after a space
    where the line has one in reach, else between any two characters (Chinese has no
    spaces). Styles are kept.
    """
    out = Text()
    for i, line in enumerate(text.split("\n", allow_blank=True)):
        if i:
            out.append("\n")
        plain = line.plain
        pad = len(plain) - len(plain.lstrip(" ")) + indent
        if width - pad < 8:  # too narrow to indent: wrap flush
            pad = 0
        start, room, first = 0, width, True
        while True:
            used, end, space = 0, start, -1
            while end < len(plain) and used + _cells(plain[end]) <= room:
                used += _cells(plain[end])
                if plain[end] == " " and end > start:
                    space = end
                end += 1
            if end < len(plain) and space > start:
                end = space + 1  # break after the last space in reach
            if not first:
                out.append("\n" + " " * pad)
            piece = line[start:end]
            if end < len(plain):
                piece.rstrip()  # in place
            out.append_text(piece)
            if end >= len(plain):
                break
            start, room, first = end, width - pad, False
            while start < len(plain) and plain[start] == " ":
                start += 1
            if start >= len(plain):
                break
    return out
