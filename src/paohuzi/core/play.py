"""The round's transitions in the order of RULES.md §4–§6, and its end (§12, §13).

:class:`Play` runs every forced step itself — dealt 提, draws, forced 提/偎/跑, cards
nobody claims — and stops only where a seat must decide: a discard, or a claim window
in which every eligible seat answers at once and the highest claim is applied. Each
step appends its events to ``log``. The rules themselves are in :mod:`.claims`,
:mod:`.chi`, :mod:`.facts` and :mod:`.hand`.
"""

from __future__ import annotations

from functools import cache
from typing import Final

from .actions import (
    CHI_BASE,
    HU_ID,
    PASS_ID,
    PENG_ID,
    Action,
)
from .cards import NUM_FACES, faces_of_counts
from .chi import chi_action
from .claims import (
    SEATS_FOR,
    Window,
    chou_marks,
    forced_pao_on_discard,
    forced_pao_on_draw,
)
from .events import Event, EventDetail, EventKind
from .groups import Group, GroupKind, TableGroup, same_face_groups
from .hand import WinResult, evaluate_counts
from .kernels import has_four
from .roundstate import _CLAIM, _DISCARD, _OVER, RoundData, RoundResult
from .scoring import settle

_T = GroupKind

__all__ = ["Play"]


# Pre-built same-face groups by kind and face: immutable, so tables share them.
_TI_G: Final = same_face_groups(_T.TI)
_PAO_G: Final = same_face_groups(_T.PAO)
_WEI_G: Final = same_face_groups(_T.WEI)
_CHOUWEI_G: Final = same_face_groups(_T.CHOUWEI)
_PENG_G: Final = same_face_groups(_T.PENG)
_PENG_TG: Final = tuple(TableGroup(g) for g in _PENG_G)


# The commonest events, built once: immutable, so the logs can share them.
def _events(kind: EventKind) -> list[list[Event]]:
    return [[Event(kind, s, face=f) for f in range(NUM_FACES)] for s in range(3)]


_EV_DRAW: Final = _events(EventKind.DRAW)
_EV_DISCARD: Final = _events(EventKind.DISCARD)
_EV_PILE: Final = _events(EventKind.PILE)


# Private: a pass tells the others the seat had an option (§14); so are 臭 marks.
def _chou_events(kind: EventDetail) -> list[list[Event]]:
    return [
        [Event(EventKind.CHOU, s, face=f, detail=kind, private=True) for f in range(NUM_FACES)]
        for s in range(3)
    ]


_EV_CHOU_PENG: Final = _chou_events(EventDetail.PENG)
_EV_CHOU_CHI: Final = _chou_events(EventDetail.CHI)
_CHOU_PENG: Final = EventDetail.PENG
_EV_PASS: Final = [
    [Event(EventKind.PASS, s, face=f, private=True) for f in range(NUM_FACES)] for s in range(3)
]


def _event(
    kind: EventKind,
    seat: int = -1,
    face: int | None = None,
    groups: tuple[Group, ...] = (),
    source: int = -1,
    detail: EventDetail = EventDetail.NONE,
    hidden: bool = False,
    hands: tuple[tuple[int, ...] | None, ...] = (),
    numbers: tuple[int, ...] = (),
    private: bool = False,
) -> Event:
    """``Event(...)``, built as the tuple it is.

    The named tuple's ``__new__`` is an interpreted function, which compiled code
    would call through the interpreter.
    """
    fields = (kind, seat, face, groups, source, detail, hidden, hands, numbers, private)
    return _TUPLE_NEW(Event, fields)


_TUPLE_NEW: Final = tuple.__new__


@cache
def _chi_parts(aid: int, x: int) -> tuple[tuple[int, ...], tuple[TableGroup, ...], int]:
    """The hand cards a 吃 takes, the table groups it lays down and their 胡息."""
    act = chi_action(aid, x)
    groups = tuple(TableGroup(g) for g in act.groups)
    return act.hand_cards(), groups, sum(g.huxi for g in act.groups)


class Play(RoundData):
    """The transitions of a round (see the module)."""

    __slots__ = ()

    # ----------------------------------------------------------------- phases

    def _start(self) -> None:
        """Deal event, dealt 提 (§3), then 天胡 or the dealer's opening (§4)."""
        d = self.deal
        self.log.append(
            _event(
                EventKind.DEAL,
                d.dealer,
                face=d.liangzhang,
                hands=(
                    faces_of_counts(self.hands[0]),
                    faces_of_counts(self.hands[1]),
                    faces_of_counts(self.hands[2]),
                ),
                numbers=tuple(len(h) for h in d.hands),
            )
        )
        for i in range(3):
            s = (d.dealer + i) % 3
            if has_four(self.hands[s]):
                self._dealt_ti(s)
        if self.rules.tianhu and self._offer_tianhu():
            return
        self._after_own(d.dealer)

    def _dealt_ti(self, s: int) -> None:
        """Dealt 提 (§3): four of a face in a dealt hand go face down on the table."""
        h = self.hands[s]
        for f in range(NUM_FACES):
            if h[f] == 4:
                h[f] = 0
                g = _TI_G[f]
                self._lay(s, TableGroup(g, hidden=True))
                self.log.append(
                    _event(
                        EventKind.TI, s, face=f, groups=(g,), detail=EventDetail.DEALT, hidden=True
                    )
                )

    def _offer_tianhu(self) -> bool:
        """天胡 (rule-set field): the dealer may win on his 亮张 before the opening."""
        dealer = self.dealer
        x = self.deal.liangzhang
        h = self.hands[dealer]
        h[x] = h[x] - 1
        res = evaluate_counts(self.table_groups(dealer), h, x, False, False, self.rules)
        h[x] = h[x] + 1
        if res is None or h[x] >= 3:
            return False
        self._open_own(x, dealer, False, False, res)
        return True

    def _open_own(self, x: int, seat: int, from_draw: bool, last: bool, res: WinResult) -> None:
        """The 提胡/偎胡 (or 天胡) window: the seat alone may 胡 or pass."""
        self.phase = _CLAIM
        self.window = Window(
            x,
            seat,
            from_draw,
            last,
            {seat: (HU_ID, PASS_ID)},
            hu={seat: res},
            order=(seat,),
            after_own=True,
        )

    def _after_own(self, seat: int) -> None:
        """After a seat's own action: discard if §9 says so, else its 下家 draws."""
        if self.owes_discard(seat) and not self.dead[seat]:
            h = self.hands[seat]
            if 1 in h or 2 in h or (not self.rules.dead_hand and sum(h) > 0):
                self.phase = _DISCARD
                self.turn = seat
                self.window = None
                return
            if self.rules.dead_hand:  # §9 ruling: only 坎 cards left
                self.dead[seat] = True
                self.log.append(_event(EventKind.DEAD, seat))
        self._draw((seat + 1) % 3)

    def _open_claims(
        self,
        x: int,
        source: int,
        from_draw: bool,
        last: bool,
        options: dict[int, list[int]],
        chi: dict[int, dict[int, Action]],
        hu: dict[int, WinResult] | None = None,
        forced_pao: int = -1,
    ) -> None:
        """Open the claim window on a drawn or discarded card; every seat may pass."""
        offers: dict[int, tuple[int, ...]] = {}
        for s, a in options.items():  # a loop, not a comprehension: no extra frame
            offers[s] = (*a, PASS_ID)
        self.phase = _CLAIM
        self.window = Window(
            x,
            source,
            from_draw,
            last,
            offers,
            {},
            hu if hu is not None else {},
            chi,
            SEATS_FOR[not from_draw][source][0],
            forced_pao,
        )

    def _draw(self, seat: int) -> None:
        """Draw and resolve cards until some seat must decide (§4, §5)."""
        while True:
            if not self.stock:
                self._huangzhuang()
                return
            x = self.stock.pop()
            self.draws += 1
            last = not self.stock
            # §5 step 1: a 坎 or a pair of x in hand, or a 偎 of x on the table.
            t = self.tfacts[seat] or self.table_facts(seat)
            if self.hands[seat][x] >= 2 or (t.wei >> x) & 1:
                self._drawer_ti_wei(seat, x, last)
                return
            self.log.append(_EV_DRAW[seat][x])
            if self._draw_claims(seat, x, last):  # steps 2–6
                return
            seat = (seat + 1) % 3

    def _drawer_ti_wei(self, d: int, x: int, last: bool) -> None:
        """§5 step 1: the drawer's forced 提 (坎, table 偎) or 偎/臭偎 (a pair), then 提胡/偎胡."""
        res = self._win(d, x, True, last)
        h = self.hands[d]
        if h[x] == 3 or h[x] < 2:
            g = _TI_G[x]
            self.log.append(_EV_DRAW[d][x])
            if h[x] == 3:
                h[x] = 0
                self._lay(d, TableGroup(g))
                detail = EventDetail.KAN
            else:
                self._upgrade(d, x, (_T.WEI, _T.CHOUWEI), g)
                detail = EventDetail.WEI
            self.log.append(_event(EventKind.TI, d, face=x, groups=(g,), detail=detail))
        else:
            h[x] = 0
            chou = bool((self.chou_peng[d] >> x) & 1)  # 臭偎: shown (§8)
            g = (_CHOUWEI_G if chou else _WEI_G)[x]
            self._lay(d, TableGroup(g, hidden=not chou))
            self.log.append(_event(EventKind.DRAW, d, face=x, hidden=not chou))
            self.log.append(
                _event(
                    EventKind.WEI,
                    d,
                    face=x,
                    groups=(g,),
                    detail=EventDetail.CHOU if chou else EventDetail.NONE,
                    hidden=not chou,
                )
            )
        if res is not None:
            self._open_own(x, d, True, last, res)
        else:
            self._after_own(d)

    def _draw_claims(self, d: int, x: int, last: bool) -> bool:
        """§5 steps 2–6 for a drawn card nobody was forced to take into a 提/偎."""
        order, peng_seats, chi_seats = SEATS_FOR[0][d]
        cached = self.facts
        f0 = cached[d] or self.seat_facts(d)
        f1 = cached[order[1]] or self.seat_facts(order[1])
        f2 = cached[order[2]] or self.seat_facts(order[2])
        bit = 1 << x
        options: dict[int, list[int]] = {}
        # Step 2: 胡 (the cached candidate masks reject most seats without a call).
        hu: dict[int, WinResult] = {}
        if (f0.wins | f1.wins | f2.wins) & bit:
            for s, f in zip(order, (f0, f1, f2), strict=True):
                if f.wins & bit:
                    r = self._win(s, x, s == d, last)
                    if r is not None:
                        hu[s] = r
                        options[s] = [HU_ID]
        # Step 3: forced 跑 (rare: one mask test first).
        pao = -1
        if (f0.peng | f1.kan_wei | f1.peng | f2.kan_wei | f2.peng) & bit:
            pao = forced_pao_on_draw(order, (f0, f1, f2), bit)
        chi: dict[int, dict[int, Action]] = {}
        # Step 4: 碰, step 5: 吃.
        if pao < 0 and ((f1.pairs | f2.pairs) & bit or (f0.chi | f1.chi) & bit):
            self._claims(x, peng_seats, chi_seats, options, chi)
        if options:
            self._open_claims(x, d, True, last, options, chi, hu, pao)
            return True
        if pao >= 0:
            self._pao(pao, x, d, True)
            return True
        # Step 6: nobody takes it.
        self.piles[d].append(x)
        self.log.append(_EV_PILE[d][x])
        return False

    def _claims(
        self,
        x: int,
        peng_seats: tuple[int, ...],
        chi_seats: tuple[int, ...],
        options: dict[int, list[int]],
        chi: dict[int, dict[int, Action]],
    ) -> None:
        """Add the optional 碰 and 吃 claims on ``x`` (§5 steps 4–5, §6 steps 2–3).

        ``peng_seats`` and ``chi_seats`` are :func:`~.claims.peng_seats` and
        :func:`~.claims.chi_seats` of the window.
        """
        hands = self.hands
        for s in peng_seats:
            if hands[s][x] == 2 and self._can_peng(s, x):
                options.setdefault(s, []).append(PENG_ID)
        for s in chi_seats:
            if (
                ((self.facts[s] or self.seat_facts(s)).chi >> x) & 1
                and not self.dead[s]
                and not (self.chou_chi[s] >> x) & 1
            ):
                c = self._chi_options(s, x)
                if c:
                    chi[s] = c
                    options.setdefault(s, []).extend(c)

    def _discard(self, p: int, x: int) -> None:
        """A discard (§6): 臭 to the discarder (§8), then forced 跑, 碰/吃, or his pile."""
        # Item assignments written out: compiled, ``a[i] -= 1`` is a generic operation.
        h = self.hands[p]
        h[x] = h[x] - 1
        self.touch(p)
        chou_chi, chou_peng = self.chou_chi, self.chou_peng
        chou_chi[p] = chou_chi[p] | 1 << x
        chou_peng[p] = chou_peng[p] | 1 << x
        self.discards[p].append(x)
        self.log.append(_EV_DISCARD[p][x])
        order, peng_seats, chi_seats = SEATS_FOR[1][p]
        n1, n2 = order[0], order[1]
        cached = self.facts
        f1 = cached[n1] or self.seat_facts(n1)
        f2 = cached[n2] or self.seat_facts(n2)
        bit = 1 << x
        if (f1.kan_wei | f2.kan_wei) & bit:
            self._pao(forced_pao_on_discard(order, (f1, f2), bit), x, p, False)
            return
        if (f1.pairs | f2.pairs) & bit or f1.chi & bit:
            options: dict[int, list[int]] = {}
            chi: dict[int, dict[int, Action]] = {}
            self._claims(x, peng_seats, chi_seats, options, chi)
            if options:
                self._open_claims(x, p, False, False, options, chi)
                return
        self.piles[p].append(x)
        self.log.append(_EV_PILE[p][x])
        self._draw(n1)

    def _pao(self, s: int, x: int, source: int, from_draw: bool) -> None:
        """Forced 跑 (§5 step 3, §6 step 1): 坎, 偎 or (drawn card only) 碰 plus the card."""
        g = _PAO_G[x]
        if self.hands[s][x] == 3:
            self.hands[s][x] = 0
            self._lay(s, TableGroup(g))
            detail = EventDetail.KAN
        else:
            was = self._upgrade(s, x, (_T.WEI, _T.CHOUWEI, _T.PENG), g)
            detail = EventDetail.PENG if was is _T.PENG else EventDetail.WEI
        self.log.append(_event(EventKind.PAO, s, face=x, groups=(g,), source=source, detail=detail))
        self._after_own(s)

    def _resolve(self, w: Window, seat: int, aid: int, rank: int) -> None:
        """Apply the winning answer of a window (or its forced 跑, or nobody's claim)."""
        x = w.card
        if w.after_own:
            self._resolve_own(w, seat, aid)
            return
        if aid != HU_ID and w.forced_pao < 0:
            for s, kind in chou_marks(w, aid, rank):
                if kind is _CHOU_PENG:
                    self.chou_peng[s] = self.chou_peng[s] | 1 << x
                    self.log.append(_EV_CHOU_PENG[s][x])
                else:
                    self.chou_chi[s] = self.chou_chi[s] | 1 << x
                    self.log.append(_EV_CHOU_CHI[s][x])
        self.window = None
        if aid == HU_ID:
            self.win_card = x
            self._hu(seat, w.hu[seat], x)
        elif w.forced_pao >= 0:
            self._pao(w.forced_pao, x, w.source, w.from_draw)
        elif aid == PENG_ID:
            self._claimed(seat, (x, x), (_PENG_TG[x],), _PENG_G[x].huxi, 1 << x)
            self.log.append(
                _event(EventKind.PENG, seat, face=x, groups=(_PENG_G[x],), source=w.source)
            )
            self._after_own(seat)
        elif aid >= CHI_BASE:
            taken, placed, huxi = _chi_parts(aid, x)
            self._claimed(seat, taken, placed, huxi, 0)
            groups = w.chi[seat][aid].groups
            self.log.append(_event(EventKind.CHI, seat, face=x, groups=groups, source=w.source))
            self._after_own(seat)
        else:  # nobody took it (§5 step 6, §6 step 4)
            self.piles[w.source].append(x)
            self.log.append(_EV_PILE[w.source][x])
            self._draw((w.source + 1) % 3)

    def _resolve_own(self, w: Window, seat: int, aid: int) -> None:
        """The answer to a 提胡/偎胡/天胡 window: the win, or play goes on (§5 step 1)."""
        x = w.card
        if aid == HU_ID:
            if w.source == self.deal.dealer and not w.from_draw:  # 天胡 on the 亮张, in hand
                self.hands[seat][x] = self.hands[seat][x] - 1
                self.touch(seat)
                self.win_card = x
            self._hu(seat, w.hu[seat], x)
        else:
            self.window = None
            self._after_own(w.source)

    # ---------------------------------------------------------------- the end

    def _hu(self, seat: int, res: WinResult, x: int) -> None:
        """胡 (§10): the winner's score settled against the others (§12)."""
        self.window = None
        self.log.append(
            _event(
                EventKind.HU,
                seat,
                face=x,
                groups=res.groups,
                detail=EventDetail(res.how),
                numbers=(res.huxi, res.tun, res.fan, res.score),
            )
        )
        deltas = settle(res.score, seat, self.balances, self.rules)
        self._finish(seat, res, deltas, seat)

    def _huangzhuang(self) -> None:
        """荒庄 (§13): the stock ran out; nobody pays and the dealer deals again."""
        self.log.append(_event(EventKind.HUANGZHUANG))
        self._finish(None, None, (0, 0, 0), self.deal.dealer)

    def _finish(
        self, winner: int | None, res: WinResult | None, deltas: tuple[int, int, int], nxt: int
    ) -> None:
        """Settle, show every hand, and end the round."""
        bal = (
            self.balances[0] + deltas[0],
            self.balances[1] + deltas[1],
            self.balances[2] + deltas[2],
        )
        self.log.append(_event(EventKind.SETTLE, numbers=deltas))
        for s in range(3):
            self.log.append(
                _event(
                    EventKind.REVEAL,
                    s,
                    groups=self.table_groups(s),
                    hands=(faces_of_counts(self.hands[s]),),
                )
            )
        self.result = RoundResult(winner, res, deltas, bal, nxt)
        self.balances = bal
        self.phase = _OVER
        self.window = None
