"""Winning and waiting (RULES.md §9–§12): the public face of win evaluation.

The work is split by job, and every name is importable from here:

* :mod:`.solver` — the most 胡息 of arranging free cards (tables, memo), and
  :func:`decompose`;
* :mod:`.evaluation` — every use of the winning card, scored; :func:`evaluate_counts`
  (the unchecked fast path);
* :mod:`.holdings` — parsing and checking inputs (:func:`validate`);
* :mod:`.waits` — waiting cards (:func:`waits`, :func:`waits_counts`, :func:`discard_waits`);
* :mod:`.winresult` — :class:`WinResult` and :func:`complete_size`.

This module adds :func:`evaluate_win` (checked, on notation or parsed values) and the
caches' reporting and clearing.
"""

from __future__ import annotations

from typing import Final

from . import evaluation, solver
from .cards import glyph
from .evaluation import TableInfo, evaluate, evaluate_counts, hand_summary, rule_info, table_info
from .groups import _parsed as _parsed_groups
from .groups import parse_groups
from .holdings import HandInput, TableInput, check_size, parse_card, parse_hand, validate
from .kernels import HandInfo
from .rules import HONG_GUAI_WAN, RuleSet
from .solver import build_tables, decompose
from .waits import Wait, discard_waits, waits, waits_counts
from .winresult import WinResult, complete_size

__all__ = [
    "HandInput",
    "TableInput",
    "Wait",
    "WinResult",
    "build_tables",
    "cache_info",
    "clear_cache",
    "complete_size",
    "decompose",
    "discard_waits",
    "evaluate_counts",
    "evaluate_win",
    "validate",
    "waits",
    "waits_counts",
]


def cache_info() -> dict[str, float]:
    """Report the memo sizes and limits, and the decomposition tables' size and build time."""
    info = solver.stats()
    return {
        "entries": info["entries"],
        "limit": info["limit"],
        "input_entries": len(_inputs),
        "input_limit": _INPUTS_LIMIT,
        "table_entries": info["table_entries"],
        "table_build_seconds": info["table_build_seconds"],
    }


def clear_cache(*, tables: bool = False) -> None:
    """Forget the memos (with ``tables``, the decomposition tables too), for timing or memory."""
    solver.clear(tables=tables)
    evaluation.clear()
    _inputs.clear()
    _parsed_groups.clear()


_Checked = tuple[TableInfo, HandInfo, int]
_inputs: Final[dict[tuple[str | tuple[()], str, object], _Checked]] = {}
_INPUTS_LIMIT: Final = 16384


def _checked_win(table: TableInput, hand: HandInput, card: object) -> _Checked:
    """Parse and check the inputs of a win (§3, §5, §9), summarised for evaluation."""
    groups = parse_groups(table)
    counts = parse_hand(hand)
    x = parse_card(card)
    validate(groups, counts, x)
    check_size(groups, counts, -1, f"a win on {glyph(x)}")
    return table_info(groups), hand_summary(counts), x


def evaluate_win(
    *,
    table: TableInput = (),
    hand: HandInput,
    card: object,  # int or notation, checked in _parse_card (the compiled build needs object)
    self_drawn: bool = False,
    last_card: bool = False,
    rules: RuleSet = HONG_GUAI_WAN,
) -> WinResult | None:
    """Tell whether ``card`` wins for this table and hand, and what it is worth.

    Accepts notation strings or parsed values. Returns ``None`` when the card does
    not win; raises a :class:`~paohuzi.core.errors.HandError` for holdings that
    cannot exist or a card count that is not one short of a complete hand (§9: a
    waiting hand holds W(k) − 1 cards, k the table's 提/跑). Notation inputs are
    parsed and checked once and remembered (bounded), so asking again costs about
    what :func:`evaluate_counts` does; inputs that fail are never remembered.

    >>> r = evaluate_win(
    ...     table="碰:贰贰贰 吃:壹贰叁", hand="捌捌捌二七十四五六一一壹陆柒", card="伍"
    ... )
    >>> r.huxi, r.tun, r.fan, r.score, dict(r.mingtang)
    (18, 2, 1, 2, {})
    """
    if (type(table) is str or table == ()) and type(hand) is str and type(card) in (str, int):
        key = (table, hand, card)
        hit = _inputs.get(key)
        if hit is None:
            hit = _checked_win(table, hand, card)
            if len(_inputs) >= _INPUTS_LIMIT:
                _inputs.clear()
            _inputs[key] = hit
    else:
        hit = _checked_win(table, hand, card)
    return evaluate(hit[0], hit[1], hit[2], self_drawn, last_card, rule_info(rules))
