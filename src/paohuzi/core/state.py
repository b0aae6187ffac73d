"""The round as a pure, seeded, replayable state machine (RULES.md §3–§13).

``new_game`` deals (chance is the seed, or a fixed :class:`~.deal.Deal`), then the
engine runs every forced step itself — dealt 提, draws, forced 提/偎/跑, cards nobody
claims — and stops only where a seat must decide: a discard, or a claim window
(§5, §6) in which every eligible seat answers at once and the highest claim is
applied. Each transition returns its events and appends them to ``state.log``.

The rules themselves live one function each in :mod:`.claims` (windows, priority,
forced 跑, 臭 marks), :mod:`.chi` (吃 and 比), :mod:`.facts` (八块, win candidates)
and :mod:`.hand` (winning). The round is built in three layers: :mod:`.roundstate`
(the state, its caches and the questions asked of it), :mod:`.play` (the transitions,
in the order of §4–§6) and this module (:class:`State`: the checked interface, copies,
and :func:`new_game`).
"""

from __future__ import annotations

import random
from typing import Final

from .actions import (
    HU_ID,
    NUM_ACTIONS,
    PASS_ID,
    PENG_ID,
    Action,
    ActionKind,
    canonical_id,
    parse_action,
)
from .cards import NUM_FACES, glyph
from .claims import (
    claim_rank,
)
from .deal import Deal, check_seat, check_seed, deal_from_seed
from .errors import IllegalActionError, NotationError, RecordError
from .events import Event
from .groups import GroupKind
from .play import _EV_PASS, Play
from .roundstate import _DISCARD, _OVER, Phase, RoundResult
from .rules import HONG_GUAI_WAN, RuleSet

_T = GroupKind

__all__ = ["Phase", "RoundResult", "State", "new_game"]


# Why an action is refused, with the rule it breaks (for :meth:`State.verify`).
_WHY_NOT: Final = {
    ActionKind.DISCARD: "only a free card may be discarded, never one of a 坎 (§3, §9)",
    ActionKind.PENG: "碰 needs a pair of the card, not a 臭碰 face, no dead hand, "
    "and a free card left to discard (§5 step 4, §6 step 2, §7, §8)",
    ActionKind.CHI: "that 吃 is not offered: 比 is compulsory — every copy of the card left "
    "in hand must go into a 比 group — 坎 cards are never used, a 臭吃 face cannot be "
    "taken, and only the 下家 may 吃 a discard (§5 step 5, §6 step 3, §7, §8)",
    ActionKind.HU: "the card does not complete the hand with enough 胡息 (§10)",
    ActionKind.PASS: "there is no claim to pass on",
}


def _counts(faces: tuple[int, ...]) -> list[int]:
    """:func:`~.cards.counts_of` of a checked deal's hand (its faces are known good)."""
    c = [0] * NUM_FACES
    for f in faces:
        c[f] = c[f] + 1  # not +=: compiled, an augmented item assignment is generic
    return c


def _seat(seat: object) -> int:
    """``seat`` as 0, 1 or 2, or an IllegalActionError quoting it."""
    if isinstance(seat, bool) or not isinstance(seat, int) or seat not in (0, 1, 2):
        raise IllegalActionError(f"no seat {seat!r}")
    return seat


class State(Play):
    """One round. Mutate only through :meth:`apply` / :meth:`apply_fast`."""

    __slots__ = ()

    def __new__(cls, *args: object, **kwargs: object) -> State:
        """Allocate only; ``State.__new__(State)`` is how :meth:`clone` skips ``__init__``.

        Written out so that the compiled build, whose native classes otherwise
        run ``__init__`` inside ``__new__``, allows the same shortcut.
        """
        return super().__new__(cls)

    def __init__(
        self,
        rules: RuleSet,
        deal: Deal,
        *,
        seed: int | None = None,
        balances: tuple[int, int, int] | None = None,
    ) -> None:
        """A round dealt but not started; :func:`new_game` also plays the opening."""
        self.rules = rules
        self.seed = seed
        self.deal = deal
        self.dealer = deal.dealer
        self.hands = [_counts(deal.hands[0]), _counts(deal.hands[1]), _counts(deal.hands[2])]
        self.tables = [[], [], []]
        self.piles = [[], [], []]
        self.discards = [[], [], []]
        self.stock = list(reversed(deal.stock))
        self.chou_chi = [0, 0, 0]
        self.chou_peng = [0, 0, 0]
        self.dead = [False, False, False]
        self.phase = _DISCARD
        self.turn = deal.dealer
        self.window = None
        self.log = []
        self.decisions = []
        self.version = 0
        if balances is None:
            balances = (rules.starting_balance,) * 3
        self.balances = balances
        self.balances_at_start = balances
        self.result = None
        self.draws = 0
        self.win_card = -1
        self.facts = [None, None, None]
        self.tfacts = [None, None, None]
        self.tgroups = [None, None, None]

    def clone(self, history: bool = True) -> State:
        """A cheap independent copy.

        ``history=False`` starts an empty log and decision list (what a search
        playout needs; a few microseconds).
        """
        s = State.__new__(State)
        s.rules = self.rules
        s.seed = self.seed
        s.deal = self.deal
        s.dealer = self.dealer
        # Three seats, written out: a comprehension costs more than the copies.
        h, t, p, d = self.hands, self.tables, self.piles, self.discards
        s.hands = [h[0][:], h[1][:], h[2][:]]
        s.tables = [t[0][:], t[1][:], t[2][:]]
        s.piles = [p[0][:], p[1][:], p[2][:]]
        s.discards = [d[0][:], d[1][:], d[2][:]]
        s.stock = self.stock[:]
        s.chou_chi = self.chou_chi[:]
        s.chou_peng = self.chou_peng[:]
        s.dead = self.dead[:]
        s.phase = self.phase
        s.turn = self.turn
        s.window = self.window.copy() if self.window is not None else None
        s.log = self.log[:] if history else []
        s.decisions = self.decisions[:] if history else []
        s.version = self.version
        s.balances = self.balances
        s.result = self.result
        s.draws = self.draws
        s.win_card = self.win_card
        s.balances_at_start = self.balances_at_start
        s.facts = self.facts[:]
        s.tfacts = self.tfacts[:]
        s.tgroups = self.tgroups[:]
        return s

    def __repr__(self) -> str:
        """Where the round stands, in words."""
        who = ",".join(map(str, self.to_act()))
        return (
            f"<State seed={self.seed} dealer={self.dealer} {self.phase.value} "
            f"to_act=[{who}] stock={len(self.stock)} version={self.version}>"
        )

    # ------------------------------------------------------------ transitions

    def verify(self, seat: object, action: object, *, version: int | None = None) -> int:
        """The id of ``action`` if ``seat`` may take it now, else an IllegalActionError.

        The error says why, with the RULES.md section: out of turn, stale (``version``
        is not ``state.version``), or not among the legal actions, and which rule.
        """
        if version is not None and version != self.version:
            raise IllegalActionError(
                f"stale action {action!s}: state is at version {self.version}, not {version}"
            )
        if self.phase is _OVER:
            raise IllegalActionError(f"the round is over; cannot apply {action!s}")
        seat = _seat(seat)
        acting = self.to_act()
        if seat not in acting:
            raise IllegalActionError(
                f"seat {seat} is not to act now (waiting for {list(acting)}); got {action!s}"
            )
        aid = self._action_id(seat, action)
        legal = self.legal_actions(seat)
        if aid not in legal:
            txt = action if isinstance(action, str) else self._describe(seat, aid)
            raise IllegalActionError(
                f"illegal action {txt!r} for seat {seat}: {self._why_not(seat, aid)}; legal: "
                + ", ".join(self.action(seat, a).text() for a in legal)
            )
        return aid

    def can_apply(self, seat: object, action: object) -> bool:
        """Whether :meth:`verify` would accept ``action`` (bad notation included: False)."""
        try:
            self.verify(seat, action)
        except IllegalActionError:
            return False
        except NotationError:
            return False
        return True

    def apply(self, seat: object, action: object, *, version: int | None = None) -> list[Event]:
        """Checked apply: :meth:`verify`, then :meth:`apply_fast`; returns the new events.

        ``seat`` is an int and ``action`` an :class:`Action`, id or notation; they are
        typed ``object`` because they are checked here, so that a wrong type is an
        IllegalActionError on both builds (compiled code would raise TypeError first).
        """
        aid = self.verify(seat, action, version=version)
        return self.apply_fast(_seat(seat), aid)

    def _action_id(self, seat: int, action: object) -> int:
        """The id of an action given as an object, an id or text (§5–§7 notation)."""
        if isinstance(action, str):
            return parse_action(action, self.window.card if self.window is not None else None).id
        if isinstance(action, Action):
            return action.id
        if isinstance(action, int) and not isinstance(action, bool):
            return canonical_id(action)
        raise IllegalActionError(f"not an action: {action!r}")

    def _describe(self, seat: int, aid: int) -> str:
        try:
            return self.action(seat, aid).text()
        except NotationError:
            return f"id {aid}"

    def _why_not(self, seat: int, aid: int) -> str:
        """The rule an illegal id breaks, for the error message."""
        if not 0 <= aid < NUM_ACTIONS:
            return f"action ids are 0–{NUM_ACTIONS - 1}"
        if self.phase is _DISCARD:
            if aid >= NUM_FACES:
                return "it is a discard turn: discard a card (§4, §9)"
            if not self.hands[seat][aid]:
                return f"{glyph(aid)} is not in the hand"
            return _WHY_NOT[ActionKind.DISCARD]
        if aid < NUM_FACES:
            return "a claim is pending: answer it before discarding (§5, §6)"
        kind = (
            ActionKind.PASS
            if aid == PASS_ID
            else ActionKind.HU
            if aid == HU_ID
            else ActionKind.PENG
            if aid == PENG_ID
            else ActionKind.CHI
        )
        return _WHY_NOT[kind]

    def apply_fast(self, seat: int, aid: int) -> list[Event]:
        """Unchecked apply for simulations: ``aid`` must be in ``legal_actions(seat)``."""
        start = len(self.log)
        self.decisions.append((seat, aid))
        self.version += 1
        if self.phase is _DISCARD:
            self._discard(seat, aid)
        else:
            w = self.window
            assert w is not None
            w.answers[seat] = aid
            if aid == PASS_ID:
                # Private: a pass tells the others the seat had an option (§14).
                self.log.append(_EV_PASS[seat][w.card])
            if len(w.options) == 1:  # one seat decides alone (the common case)
                self._resolve(w, seat, aid, claim_rank(w.order, seat, aid))
            else:
                best = w.best()
                if best is not None:  # unpacked by name: a starred call is a generic one
                    by, best_aid, rank = best
                    self._resolve(w, by, best_aid, rank)
        return self.log[start:]


def _check_balances(balances: object) -> tuple[int, int, int]:
    """Three integer 悟性 balances, or a :class:`RecordError` quoting what came instead."""
    if (
        not isinstance(balances, (tuple, list))
        or len(balances) != 3
        or any(isinstance(b, bool) or not isinstance(b, int) for b in balances)
    ):
        raise RecordError(f"three integer balances expected, got {balances!r}")
    return (balances[0], balances[1], balances[2])


def new_game(
    rules: object = HONG_GUAI_WAN,
    *,
    seed: object = None,
    dealer: object = None,
    deal: object = None,
    balances: object = None,
) -> State:
    """Start a round: a seeded deal (or a fixed ``deal``), dealt 提 and the opening.

    Without ``dealer`` the seed picks the dealer; without ``seed`` and ``deal`` the
    round is seeded from the system's randomness (and the seed stored).
    """
    if not isinstance(rules, RuleSet):
        raise RecordError(f"rules must be a RuleSet, got {rules!r}")
    the_seed = check_seed(seed)
    if deal is not None and not isinstance(deal, Deal):
        raise RecordError(f"deal must be a Deal, got {deal!r}")
    the_dealer = None if dealer is None else check_seat(dealer, "dealer")
    if deal is None:
        if the_seed is None:
            the_seed = random.SystemRandom().randrange(2**63)
        if the_dealer is None:
            the_dealer = random.Random(f"dealer:{the_seed}").randrange(3)
        deal = deal_from_seed(the_seed, the_dealer)
    elif the_dealer is not None and the_dealer != deal.dealer:
        raise RecordError(f"dealer {the_dealer} does not match the deal's dealer {deal.dealer}")
    start = None if balances is None else _check_balances(balances)
    s = State(rules, deal, seed=the_seed, balances=start)
    s._start()
    return s


assert NUM_ACTIONS == 317
