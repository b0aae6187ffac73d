"""Game records: frozen, typed, checked on load (format in docs/record-format.md).

A round record is (rule set, seed, balances, deal, decisions): replaying the
decisions on the same deal rebuilds the identical state and event log. A match
record is the list of its round records. Loading checks the type of every field
and raises one :class:`RecordError` quoting the bad value, never a ``KeyError``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from ._wire import (
    check_keys,
    quote,
    read_dict,
    read_int,
    read_ints,
    read_list,
    read_opt_int,
    read_seat,
    read_str,
    require,
    reraise,
)
from .cards import parse_faces
from .engine import Deal, RoundResult, State, new_game
from .errors import PaohuziError, RecordError
from .rules import RuleSet

__all__ = [
    "MATCH_FORMAT",
    "ROUND_FORMAT",
    "MatchRecord",
    "RecordedAction",
    "RecordedResult",
    "RoundRecord",
    "dumps",
    "load_record",
    "loads",
    "replay",
    "replay_match",
    "round_record",
]

ROUND_FORMAT = "paohuzi-round/1"
MATCH_FORMAT = "paohuzi-match/1"

Balances = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class RecordedAction:
    """One decision: ``id`` replays it, ``text`` is for people (and replays without ``id``)."""

    seat: int
    id: int | None
    text: str = ""

    def __repr__(self) -> str:
        """Show the decision as people read it."""
        return f"<RecordedAction seat {self.seat} {self.text or '#' + str(self.id)}>"

    def to_dict(self) -> dict[str, object]:
        """Return the JSON form, ``{"seat", "id", "text"}`` (absent parts left out)."""
        d: dict[str, object] = {"seat": self.seat}
        if self.id is not None:
            d["id"] = self.id
        if self.text:
            d["text"] = self.text
        return d

    @classmethod
    def from_dict(cls, data: object, index: int = 0) -> RecordedAction:
        """Load the JSON form of decision ``index`` (the number is for messages)."""
        what = f"action {index}"
        d = read_dict(data, what)
        check_keys(d, _ACTION_KEYS, what)
        seat = read_seat(require(d, "seat", what), f"{what}'s seat")
        aid = read_opt_int(d.get("id"), f"{what}'s id")
        text = read_str(d.get("text", ""), f"{what}'s text")
        if aid is None and not text:
            raise RecordError(f"{what} needs an id or a text: {quote(dict(d))}")
        return cls(seat, aid, text)


@dataclass(frozen=True, slots=True)
class RecordedResult:
    """How the round ended, stored so that replay can check it."""

    winner: int | None  # None: 荒庄
    score: int
    huxi: int
    deltas: Balances
    balances: Balances  # after settlement
    next_dealer: int

    @classmethod
    def of(cls, result: RoundResult) -> RecordedResult:
        """Return the recorded form of an engine result."""
        win = result.win
        return cls(
            result.winner,
            win.score if win is not None else 0,
            win.huxi if win is not None else 0,
            result.deltas,
            result.balances,
            result.next_dealer,
        )

    def to_dict(self) -> dict[str, object]:
        """Return the JSON form."""
        return {
            "winner": self.winner,
            "score": self.score,
            "huxi": self.huxi,
            "deltas": list(self.deltas),
            "balances": list(self.balances),
            "next_dealer": self.next_dealer,
        }

    @classmethod
    def from_dict(cls, data: object) -> RecordedResult:
        """Load the JSON form; every key is required."""
        what = "the result"
        d = read_dict(data, what)
        check_keys(d, _RESULT_KEYS, what)
        winner = require(d, "winner", what)
        return cls(
            winner=None if winner is None else read_seat(winner, f"{what}'s winner"),
            score=read_int(require(d, "score", what), f"{what}'s score"),
            huxi=read_int(require(d, "huxi", what), f"{what}'s huxi"),
            deltas=_read_three(require(d, "deltas", what), f"{what}'s deltas"),
            balances=_read_three(require(d, "balances", what), f"{what}'s balances"),
            next_dealer=read_seat(require(d, "next_dealer", what), f"{what}'s next_dealer"),
        )


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """A round as (rules, seed, balances, deal, decisions[, result]): enough to replay it.

    Frozen and typed, like a poker hand history; ``to_json``/``from_json`` give
    the ``paohuzi-round/1`` file form and :func:`replay` rebuilds the state.
    """

    format: ClassVar[str] = ROUND_FORMAT

    rules: RuleSet
    seed: int | None  # informational once the deal is stored
    balances: Balances  # the 悟性 balances when the round began
    deal: Deal
    actions: tuple[RecordedAction, ...]
    result: RecordedResult | None = None  # None: unfinished (or not stored)

    def __repr__(self) -> str:
        """Summarise: seed, dealer, decision count and the outcome."""
        end = "unfinished" if self.result is None else _outcome(self.result)
        return (
            f"<RoundRecord seed {self.seed}, dealer {self.deal.dealer}, "
            f"{len(self.actions)} decisions, {end}>"
        )

    def to_dict(self) -> dict[str, object]:
        """Return the JSON-ready form (``result`` left out when None)."""
        d: dict[str, object] = {
            "format": ROUND_FORMAT,
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "balances": list(self.balances),
            "deal": self.deal.to_dict(),
            "actions": [a.to_dict() for a in self.actions],
        }
        if self.result is not None:
            d["result"] = self.result.to_dict()
        return d

    @classmethod
    def from_dict(cls, data: object) -> RoundRecord:
        """Load the JSON form, checking every field's type; errors are RecordErrors."""
        what = "a round record"
        d = read_dict(data, what)
        _check_format(d, ROUND_FORMAT, "round")
        check_keys(d, _ROUND_KEYS, what)
        actions = read_list(require(d, "actions", what), "the actions")
        result = d.get("result")
        return cls(
            rules=_read_rules(require(d, "rules", what)),
            seed=read_opt_int(require(d, "seed", what), "the seed"),
            balances=_read_three(require(d, "balances", what), "the balances"),
            deal=_read_deal(require(d, "deal", what)),
            actions=tuple(RecordedAction.from_dict(a, i) for i, a in enumerate(actions)),
            result=None if result is None else RecordedResult.from_dict(result),
        )

    def to_json(self) -> str:
        """Return the file form: indented UTF-8 JSON, cards as glyphs."""
        return _dump(self.to_dict())

    @classmethod
    def from_json(cls, text: str) -> RoundRecord:
        """Load the file form; anything malformed is a RecordError."""
        return cls.from_dict(loads(text))


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A match: its rules, seed and starting balances, and its rounds in order."""

    format: ClassVar[str] = MATCH_FORMAT

    rules: RuleSet
    seed: int
    rounds_total: int
    balances: Balances  # at the start of the match
    rounds: tuple[RoundRecord, ...]

    def __repr__(self) -> str:
        """Summarise: seed and rounds played."""
        return f"<MatchRecord seed {self.seed}, {len(self.rounds)}/{self.rounds_total} rounds>"

    def to_dict(self) -> dict[str, object]:
        """Return the JSON-ready form."""
        return {
            "format": MATCH_FORMAT,
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "rounds_total": self.rounds_total,
            "balances": list(self.balances),
            "rounds": [r.to_dict() for r in self.rounds],
        }

    @classmethod
    def from_dict(cls, data: object) -> MatchRecord:
        """Load the JSON form, checking every field's type; errors are RecordErrors."""
        what = "a match record"
        d = read_dict(data, what)
        _check_format(d, MATCH_FORMAT, "match")
        check_keys(d, _MATCH_KEYS, what)
        rounds = read_list(require(d, "rounds", what), "the rounds")
        total = read_int(require(d, "rounds_total", what), "rounds_total")
        if total < 1:
            raise RecordError(f"rounds_total must be at least 1, got {total!r}")
        return cls(
            rules=_read_rules(require(d, "rules", what)),
            seed=read_int(require(d, "seed", what), "the match seed"),
            rounds_total=total,
            balances=_read_three(require(d, "balances", what), "the balances"),
            rounds=tuple(_read_round(r, i) for i, r in enumerate(rounds)),
        )

    def to_json(self) -> str:
        """Return the file form: indented UTF-8 JSON, cards as glyphs."""
        return _dump(self.to_dict())

    @classmethod
    def from_json(cls, text: str) -> MatchRecord:
        """Load the file form; anything malformed is a RecordError."""
        return cls.from_dict(loads(text))


# ------------------------------------------------------------------ writing


def round_record(state: State) -> RoundRecord:
    """Return the record of a round, finished or not."""
    actions = []
    replayer = new_game(
        state.rules, seed=state.seed, deal=state.deal, balances=state.balances_at_start
    )
    for seat, aid in state.decisions:
        actions.append(RecordedAction(seat, aid, replayer.action(seat, aid).text()))
        replayer.apply_fast(seat, aid)
    return RoundRecord(
        rules=state.rules,
        seed=state.seed,
        balances=state.balances_at_start,
        deal=state.deal,
        actions=tuple(actions),
        result=None if state.result is None else RecordedResult.of(state.result),
    )


# ---------------------------------------------------------------- replaying


def replay(record: RoundRecord | Mapping[str, object], upto: int | None = None) -> State:
    """Rebuild a round from its record; checks every action and the stored result.

    ``record`` may also be the JSON-ready dict (it is loaded and checked first).
    ``upto`` stops after that many decisions (for stepping through a record).
    """
    rec = record if isinstance(record, RoundRecord) else RoundRecord.from_dict(record)
    if upto is not None and (not isinstance(upto, int) or upto < 0):
        raise RecordError(f"upto must be a decision count (0 or more), got {upto!r}")
    try:
        state = new_game(rec.rules, seed=rec.seed, deal=rec.deal, balances=rec.balances)
    except PaohuziError as e:
        raise reraise(e, "the round cannot start") from None
    for i, a in enumerate(rec.actions[:upto]):
        try:
            state.apply(a.seat, a.id if a.id is not None else a.text)
        except PaohuziError as e:
            raise RecordError(f"action {i} ({a.text or a.id}) cannot be replayed: {e}") from None
    if upto is None and rec.result is not None:
        _check_result(state, rec.result)
    return state


def replay_match(record: MatchRecord | Mapping[str, object]) -> list[State]:
    """Replay every round of a match record; checks rules and balances carry over.

    Dealers are not checked against the rotation: a match may be fed fixed deals.
    """
    rec = record if isinstance(record, MatchRecord) else MatchRecord.from_dict(record)
    if len(rec.rounds) > rec.rounds_total:
        raise RecordError(f"{len(rec.rounds)} rounds recorded, the match has {rec.rounds_total}")
    states: list[State] = []
    balances = rec.balances
    for i, r in enumerate(rec.rounds):
        if states and states[-1].result is None:
            raise RecordError(f"round {i - 1} is unfinished but later rounds follow")
        if r.rules != rec.rules:
            raise RecordError(f"round {i} is played under other rules than the match")
        if r.balances != balances:
            raise RecordError(
                f"round {i} starts with balances {list(r.balances)}, expected {list(balances)}"
            )
        try:
            st = replay(r)
        except RecordError as e:
            raise RecordError(f"round {i}: {e}") from None
        states.append(st)
        balances = st.result.balances if st.result is not None else st.balances
    return states


def _check_result(state: State, want: RecordedResult) -> None:
    if state.result is None:
        raise RecordError("the record has a result but its actions do not finish the round")
    got = RecordedResult.of(state.result)
    if got != want:
        raise RecordError(
            f"replayed result ({_outcome(got)}, deltas {list(got.deltas)}) differs from "
            f"the record's ({_outcome(want)}, deltas {list(want.deltas)}): {want.to_dict()}"
        )


def _outcome(r: RecordedResult) -> str:
    return "荒庄" if r.winner is None else f"seat {r.winner} won {r.score}"


# -------------------------------------------------------------- JSON helpers


def load_record(text: str) -> RoundRecord | MatchRecord:
    """Load a round or a match record from its file form, whichever it is."""
    data = loads(text)
    if data.get("format") == MATCH_FORMAT:
        return MatchRecord.from_dict(data)
    return RoundRecord.from_dict(data)


def dumps(record: RoundRecord | MatchRecord | Mapping[str, object]) -> str:
    """Return a record's file form (also takes the JSON-ready dict)."""
    if isinstance(record, RoundRecord | MatchRecord):
        return record.to_json()
    return _dump(record)


def loads(text: str) -> dict[str, object]:
    """Parse a record file into its JSON object, unchecked (see ``from_dict``)."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as e:  # JSONDecodeError is a ValueError
        raise RecordError(f"a record must be JSON: {e}") from None
    if not isinstance(data, dict):
        raise RecordError(f"a record is a JSON object, got {quote(data)}")
    return data


def _dump(data: Mapping[str, object]) -> str:
    return json.dumps(data, ensure_ascii=False, indent=1)


# ---------------------------------------------------------------- loading

_ACTION_KEYS = frozenset(("seat", "id", "text"))
_RESULT_KEYS = frozenset(("winner", "score", "huxi", "deltas", "balances", "next_dealer"))
_ROUND_KEYS = frozenset(("format", "rules", "seed", "balances", "deal", "actions", "result"))
_MATCH_KEYS = frozenset(("format", "rules", "seed", "rounds_total", "balances", "rounds"))
_DEAL_KEYS = frozenset(("dealer", "hands", "stock"))


def _check_format(d: Mapping[str, object], want: str, name: str) -> None:
    got = d.get("format")
    if got != want:
        raise RecordError(f"not a {name} record (format {want!r} expected, got {quote(got)})")


def _read_three(value: object, what: str) -> Balances:
    a, b, c = read_ints(value, what, 3)
    return (a, b, c)


def _read_rules(value: object) -> RuleSet:
    try:
        return RuleSet.from_dict(dict(read_dict(value, "the rules")))
    except RecordError:
        raise
    except PaohuziError as e:
        raise reraise(e, "the rules") from None


def _read_deal(value: object) -> Deal:
    what = "the deal"
    d = read_dict(value, what)
    check_keys(d, _DEAL_KEYS, what)
    dealer = read_seat(require(d, "dealer", what), "the deal's dealer")
    listed = read_list(require(d, "hands", what), "the deal's hands", 3)
    hands = [read_str(h, "a dealt hand") for h in listed]
    stock = read_str(require(d, "stock", what), "the stock")
    try:
        h0, h1, h2 = (parse_faces(h) for h in hands)
        return Deal(dealer, (h0, h1, h2), parse_faces(stock))
    except RecordError:
        raise
    except PaohuziError as e:
        raise reraise(e, what) from None


def _read_round(value: object, index: int) -> RoundRecord:
    try:
        return RoundRecord.from_dict(value)
    except RecordError as e:
        raise RecordError(f"round {index}: {e}") from None
