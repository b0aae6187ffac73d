"""Checking a win's or a wait's inputs: notation parsed, holdings that cannot occur refused.

RULES.md §3 (坎 stay whole), §5 (four in a hand are a declared 提), §7 (four copies of
a face), §9 (a waiting hand holds W(k) − 1 cards). Every refusal is a
:class:`~paohuzi.core.errors.HandError` that quotes what it refused.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from .cards import (
    NUM_FACES,
    check_counts,
    counts_of,
    faces_of_counts,
    format_faces,
    glyph,
    parse_faces,
)
from .errors import HandError
from .groups import Group, GroupKind
from .winresult import complete_size

__all__ = ["HandInput", "TableInput", "check_size", "parse_card", "parse_hand", "validate"]

TableInput = str | Iterable[str | Group]
HandInput = str | Iterable[int]

_TI: Final = GroupKind.TI
_PAO: Final = GroupKind.PAO
_KAN: Final = GroupKind.KAN
_JU: Final = GroupKind.JU
_DUI: Final = GroupKind.DUI


def parse_hand(hand: HandInput) -> list[int]:
    """Count a hand given as notation or as faces."""
    if isinstance(hand, str):
        return counts_of(parse_faces(hand))
    return counts_of(hand)


def parse_card(card: object) -> int:
    """Parse the winning card: one glyph or alias, or a face index 0–19."""
    if isinstance(card, str):
        faces = parse_faces(card)
        if len(faces) != 1:
            raise HandError(f"the winning card must be one card, got {card!r}")
        return faces[0]
    if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < NUM_FACES:
        raise HandError(f"not a card: {card!r} (give a glyph like '伍' or a face index 0-19)")
    return card


def validate(table: Sequence[Group], hand: Sequence[int], card: int | None) -> None:
    """Reject holdings that cannot occur in play (RULES.md §3, §5, §7).

    Five copies of a face; four in the hand (a 提 is declared); a 坎 face also in a
    table group (坎 cards are never used elsewhere, §3); a table group that only
    exists in the hand (坎, 句, 对).
    """
    _check_table_kinds(table)
    total = list(hand)
    for g in table:
        for f in g.faces:
            total[f] += 1
    if card is not None:
        total[card] += 1
    check_counts(total, "hand, table and card together")
    _check_hand_copies(table, hand)


def _check_table_kinds(table: Sequence[Group]) -> None:
    """坎, 句 and 对 stay in the hand (§3, §10): they are never table groups."""
    for g in table:
        if g.kind in (_JU, _DUI, _KAN):
            raise HandError(f"{g.notation()} is not a table group (坎, 句 and 对 stay in the hand)")


def _check_hand_copies(table: Sequence[Group], hand: Sequence[int]) -> None:
    """Four in a hand are a declared 提 (§5); a 坎 face is in no table group (§3)."""
    for f in range(NUM_FACES):
        c = hand[f]
        if c >= 4:
            raise HandError(f"four {glyph(f)} in a hand must be declared as a 提")
        if c == 3:
            for g in table:
                if f in g.faces:
                    raise HandError(
                        f"the 坎 {glyph(f) * 3} cannot share its face with the table group "
                        f"{g.notation()}"
                    )


def check_size(groups: Sequence[Group], counts: Sequence[int], want: int, what: str) -> None:
    """Raise unless table + hand hold W(k) + ``want`` cards (§9)."""
    k = sum(1 for g in groups if g.kind is _TI or g.kind is _PAO)
    n = sum(len(g.faces) for g in groups) + sum(counts)
    need = complete_size(k) + want
    if n != need:
        raise HandError(
            f"{what} needs {need} cards in table and hand with {k} 提/跑, got {n} "
            f"(table {' '.join(g.notation() for g in groups) or 'empty'}, "
            f"hand {format_faces(faces_of_counts(counts)) or 'empty'})"
        )
