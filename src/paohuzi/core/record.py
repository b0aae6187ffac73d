"""Game records: load, dump, replay (format in docs/record-format.md).

A round record is (rule set, seed, balances, deal, decisions): replaying the
decisions on the same deal rebuilds the identical state and event log. A match
record is the list of its round records.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from .engine import Deal, State, new_game
from .errors import PaohuziError, RecordError
from .rules import RuleSet

__all__ = [
    "MATCH_FORMAT",
    "ROUND_FORMAT",
    "RecordedAction",
    "dumps",
    "loads",
    "replay",
    "round_record",
]

ROUND_FORMAT = "paohuzi-round/1"
MATCH_FORMAT = "paohuzi-match/1"


@dataclass(frozen=True, slots=True)
class RecordedAction:
    seat: int
    id: int
    text: str


def round_record(state: State) -> dict[str, Any]:
    """The record of a round (finished or not) as a JSON-ready dict."""
    actions = []
    replayer = new_game(
        state.rules, seed=state.seed, deal=state.deal, balances=state.balances_at_start
    )
    for seat, aid in state.decisions:
        actions.append({"seat": seat, "id": aid, "text": replayer.action(seat, aid).text()})
        replayer.apply_fast(seat, aid)
    rec: dict[str, Any] = {
        "format": ROUND_FORMAT,
        "rules": state.rules.to_dict(),
        "seed": state.seed,
        "balances": list(state.balances_at_start),
        "deal": state.deal.to_dict(),
        "actions": actions,
    }
    if state.result is not None:
        r = state.result
        rec["result"] = {
            "winner": r.winner,
            "score": r.win.score if r.win is not None else 0,
            "huxi": r.win.huxi if r.win is not None else 0,
            "deltas": list(r.deltas),
            "balances": list(r.balances),
            "next_dealer": r.next_dealer,
        }
    return rec


def replay(record: dict[str, Any], upto: int | None = None) -> State:
    """Rebuild a round from its record; checks every action and the stored result.

    ``upto`` stops after that many decisions (for stepping through a record).
    """
    if not isinstance(record, dict) or record.get("format") != ROUND_FORMAT:
        got = record.get("format") if isinstance(record, dict) else type(record).__name__
        raise RecordError(f"not a round record (format {ROUND_FORMAT!r} expected, got {got!r})")
    try:
        rules = RuleSet.from_dict(record["rules"])
        deal = Deal.from_dict(record["deal"])
        balances = record.get("balances")
        state = new_game(rules, seed=record.get("seed"), deal=deal, balances=balances)
        actions = record["actions"]
    except KeyError as e:
        raise RecordError(f"record lacks {e.args[0]!r}") from None
    except PaohuziError as e:
        raise RecordError(f"bad record: {e}") from None
    for i, a in enumerate(actions[:upto] if upto is not None else actions):
        try:
            seat = a["seat"]
            if "id" in a:
                state.apply(seat, int(a["id"]))
            else:
                state.apply(seat, str(a["text"]))
        except (KeyError, TypeError) as e:
            raise RecordError(f"action {i} {a!r} is malformed: {e}") from None
        except PaohuziError as e:
            raise RecordError(f"action {i} {a!r} cannot be replayed: {e}") from None
    res = record.get("result")
    if res is not None and upto is None:
        if state.result is None:
            raise RecordError("the record has a result but its actions do not finish the round")
        got = list(state.result.deltas)
        if got != list(res.get("deltas", got)) or state.result.winner != res.get("winner"):
            raise RecordError(
                f"replayed result {got} / winner {state.result.winner} "
                f"differs from the record's {res}"
            )
    return state


def dumps(record: dict[str, Any]) -> str:
    return json.dumps(record, ensure_ascii=False, indent=1)


def loads(text: str) -> dict[str, Any]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise RecordError(f"a record must be JSON: {e}") from None
    if not isinstance(data, dict):
        raise RecordError(f"a record is a JSON object, got {type(data).__name__}")
    return data
