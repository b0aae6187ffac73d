"""What a room's host may set: the allowed values of each RuleSet field, which rooms play
on the shared 悟性 ledger, and the bound that keeps a match's points in a 64-bit column.

A host used to be able to set any field to any non-negative int: with the caps off and a
huge 番 a match moved thousands of 悟性 between guest accounts, and values near 2⁶³ made
the settling commit fail for good. Now each field has a table of allowed values, anything
else is refused at room creation, and only rooms on the standard rules (``LEDGER_RULES``)
settle onto accounts; the rest keep room-local scores.
"""

from __future__ import annotations

from typing import Literal

from ..core.cards import DECK_SIZE
from ..core.errors import PaohuziError
from ..core.rules import HONG_GUAI_WAN, MINGTANG_NAMES, RuleSet
from .errors import ApiError

__all__ = [
    "ALLOWED",
    "INT64_MAX",
    "LEDGER_RULES",
    "Scoring",
    "check_points",
    "points_bound",
    "room_rules",
    "scoring_of",
]

Scoring = Literal["ledger", "local"]

INT64_MAX = 2**63 - 1
# The rules the shared 悟性 balance is played under (rounds_per_match apart).
LEDGER_RULES = HONG_GUAI_WAN

# Per host-settable field: an inclusive range of ints, or the allowed choices. The ranges
# are what tables of this variant play (RULES.md §11, §12, §15): a win below 12 胡息 would
# have negative 囤 (settlement refuses a negative score), a threshold outside its range
# either always or never applies. The caps stay on: no balance goes below zero.
# rounds_per_match comes from the room's ``rounds``; starting_balance is not the host's.
ALLOWED: dict[str, range | tuple[bool | str, ...]] = {
    "min_huxi": range(12, 31),
    "min_huxi_with_mingtang": range(12, 31),
    "zimo_bonus_tun": range(0, 4),
    "fan_combine": ("add", "multiply"),
    **{name: range(0, 11) for name in MINGTANG_NAMES},  # each 名堂's 番 (0: off)
    "honghu_min_red": range(7, 21),
    "dazi_min_big": range(14, 28),
    "xiaozi_min_small": range(12, 28),
    "tianhu": (True, False),
    "cap_winner_gain": (True,),
    "cap_loser_payment": (True,),
    "dead_hand": (True, False),
}

_QUOTE = 40  # characters of a refused value or name quoted back


def _quote(value: object) -> str:
    """``value`` as a refusal quotes it: repr, at most ``_QUOTE`` characters."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 128:
        return f"an integer of {value.bit_length()} bits"
    text = repr(value)
    return text if len(text) <= _QUOTE else text[: _QUOTE - 1] + "…"


def _describe(allowed: range | tuple[bool | str, ...]) -> str:
    """The allowed values as a refusal states them."""
    if isinstance(allowed, range):
        return f"an integer from {allowed.start} to {allowed.stop - 1}"
    return " or ".join(
        ("true" if a else "false") if isinstance(a, bool) else repr(a) for a in allowed
    )


def _fits(value: object, allowed: range | tuple[bool | str, ...]) -> bool:
    """Whether ``value`` is one of ``allowed`` (of the same type: True is not 1)."""
    if isinstance(allowed, range):
        return isinstance(value, int) and not isinstance(value, bool) and value in allowed
    return any(type(value) is type(a) and value == a for a in allowed)


def _check_field(name: object, value: object) -> None:
    """Refuse a field the host may not set, or a value outside its allowed ones."""
    allowed = ALLOWED.get(name) if isinstance(name, str) else None
    if allowed is None:
        raise ApiError(
            "bad_rules",
            f"a host may not set the rule {_quote(name)}; "
            f"the rules a host may set are {', '.join(ALLOWED)}",
        )
    if not _fits(value, allowed):
        raise ApiError(
            "bad_rules",
            f"rule {name}: {_quote(value)} is not allowed; it must be {_describe(allowed)}",
        )


def room_rules(changes: dict[str, object], rounds: int) -> RuleSet:
    """The rule set of a new room: the standard rules with the host's ``changes``, each
    checked against ``ALLOWED`` and the whole against the 64-bit bound (400 ``bad_rules``
    naming the field otherwise)."""
    for name, value in changes.items():
        _check_field(name, value)
    try:
        rules = LEDGER_RULES.with_(**changes, rounds_per_match=rounds)
    except (PaohuziError, TypeError) as e:  # pragma: no cover - ALLOWED is stricter
        raise ApiError("bad_rules", str(e)[:200]) from None
    check_points(rules)
    return rules


def scoring_of(rules: RuleSet) -> Scoring:
    """``"ledger"`` for the standard rules (any number of rounds): the match settles onto
    the players' 悟性 balances; ``"local"`` otherwise: room-local scores, accounts untouched."""
    standard = rules.with_(rounds_per_match=LEDGER_RULES.rounds_per_match) == LEDGER_RULES
    return "ledger" if standard else "local"


def _max_fan(rules: RuleSet) -> int:
    """The most 番 any win can have: every 名堂 at once, each grown by the most cards a
    winner could own above its threshold (no more than the deck)."""
    grows = {"honghu": rules.honghu_min_red, "dazi": rules.dazi_min_big,
             "xiaozi": rules.xiaozi_min_small}  # fmt: skip
    fans = []
    for name in MINGTANG_NAMES:
        fan: int = getattr(rules, name)
        if fan and name in grows:
            fan += max(0, DECK_SIZE - grows[name])
        fans.append(fan)
    if rules.fan_combine == "multiply":
        total = 1
        for fan in fans:
            total *= max(fan, 1)
        return total
    return max(sum(fans), 1)


def points_bound(rules: RuleSet) -> int:
    """An upper bound of any seat's |balance| during a match under ``rules`` (caps or not).

    A card is worth at most 3 胡息 (a big 提: 12 for 4 cards), so no win has more than
    3 × the deck; its 囤 × 番 is the most one loser pays, the winner gains twice that.
    """
    tun = (3 * DECK_SIZE - 12) // 3 + rules.zimo_bonus_tun
    score = tun * _max_fan(rules)
    return rules.starting_balance + rules.rounds_per_match * 2 * score


def check_points(rules: RuleSet) -> None:
    """Refuse, before play, rules under which a match's points could pass a 64-bit column."""
    bound = points_bound(rules)
    if bound > INT64_MAX:
        raise ApiError(
            "bad_rules",
            f"these rules could move up to {_quote(bound)} points in a match, more than a "
            f"64-bit balance holds ({INT64_MAX}); lower the 番 or 囤 values",
        )
