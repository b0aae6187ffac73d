"""Scripted deals for the engine's scenario tests.

A scenario names only the cards it cares about: part of each seat's hand and the
top of the stock. :func:`build_deal` places the other cards of the 80 itself, so
that the fill never gives a seat a pair, 坎 or 提 it was not given on purpose:

* a seat gets at most one filler copy of a face, and none of a face its spec
  already holds (so every pair/坎/提 in a hand comes from the spec);
* ``exclude`` keeps chosen faces out of a seat's fill (to rule out a 吃 or 比);
* faces that some seat holds a spec pair/坎 of are put into hands first and at
  the bottom of the stock, so early draws do not trigger stray 偎/碰/跑.

The result is checked: every count of three or more in a dealt hand, and every
pair, was in the spec.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from paohuzi.core.cards import COPIES, NUM_FACES, counts_of, format_faces, parse_faces
from paohuzi.core.engine import Deal, Phase, State, new_game
from paohuzi.core.events import Event, EventKind
from paohuzi.core.rules import HONG_GUAI_WAN, RuleSet

__all__ = [
    "F",
    "autoplay",
    "build_deal",
    "discard",
    "events_of",
    "game",
    "last_event",
    "mask",
    "pass_until",
    "pass_window",
]

STOCK_SIZE = 19


def F(text: str) -> int:
    """One face from its glyph or ASCII alias."""
    faces = parse_faces(text)
    assert len(faces) == 1, text
    return faces[0]


def mask(text: str) -> int:
    """The bit mask (as in ``state.chou_chi``) of the faces in ``text``."""
    m = 0
    for f in parse_faces(text):
        m |= 1 << f
    return m


def _augment(
    seat: int,
    cap: list[list[int]],
    assign: list[list[int]],
    pool: list[int],
    seen: set[int],
) -> bool:
    """Give ``seat`` one more card from the pool, moving others' cards if needed."""
    for f in range(NUM_FACES):
        if assign[seat][f] < cap[seat][f] and pool[f] > 0:
            assign[seat][f] += 1
            pool[f] -= 1
            return True
    for f in range(NUM_FACES):
        if assign[seat][f] >= cap[seat][f]:
            continue
        for t in range(3):
            if t == seat or t in seen or not assign[t][f]:
                continue
            seen.add(t)
            assign[t][f] -= 1  # t gives its f to seat and looks for a replacement
            if _augment(t, cap, assign, pool, seen):
                assign[seat][f] += 1
                return True
            assign[t][f] += 1
    return False


def build_deal(
    dealer: int = 0,
    hands: Mapping[int, str] | None = None,
    stock: str = "",
    liang: str | None = None,
    exclude: Mapping[int, str] | None = None,
    stock_tail: str | None = None,
) -> Deal:
    """A full :class:`Deal` from partial hands and the top of the stock.

    ``hands``: seat -> the cards that seat must hold (the dealer's without the
    亮张); ``liang``: the dealer's 亮张 (else a filler card); ``stock``: the top
    of the stock, first drawn first, ``?`` for a filler card; ``stock_tail``: the
    bottom of the stock (its last card is the last one drawn); ``exclude``: seat ->
    faces the fill must not give it.
    """
    hands = dict(hands or {})
    exclude = dict(exclude or {})
    spec = [list(parse_faces(hands.get(s, ""))) for s in range(3)]
    lz = parse_faces(liang) if liang else ()
    assert len(lz) <= 1
    # "?" in the stock: a filler card (a harmless one, nobody holds a pair of it).
    top_parts = [list(parse_faces(part)) for part in stock.split("?")]
    top = [f for part in top_parts for f in part]
    tail = list(parse_faces(stock_tail or ""))
    used = counts_of([f for h in spec for f in h] + list(lz) + top + tail)
    for f in range(NUM_FACES):
        if used[f] > COPIES:
            raise ValueError(f"scenario uses {used[f]} copies of {format_faces([f])}")
    pool = [COPIES - used[f] for f in range(NUM_FACES)]
    mentioned = {f for f in range(NUM_FACES) if used[f]}
    offered = set(top) | set(tail) | set(lz)
    spec_counts = [counts_of(h + (list(lz) if s == dealer else [])) for s, h in enumerate(spec)]
    need = [
        (21 if s == dealer else 20) - len(spec[s]) - (len(lz) if s == dealer else 0)
        for s in range(3)
    ]
    if any(n < 0 for n in need) or len(top) + stock.count("?") + len(tail) > STOCK_SIZE:
        raise ValueError(f"scenario over-full: hand needs {need}, stock {len(top)}+{len(tail)}")
    excl = [set(parse_faces(exclude.get(s, ""))) for s in range(3)]
    # A seat gets at most one filler copy of a face it was not given; only when
    # that cannot fill it (the dealer's 21 cards) a filler pair is allowed.
    cap = [
        [int(spec_counts[s][f] == 0 and f not in excl[s]) for f in range(NUM_FACES)]
        for s in range(3)
    ]
    # Faces held as a spec pair/坎 somewhere: keep them out of the stock if possible.
    danger = [any(spec_counts[s][f] >= 2 for s in range(3)) for f in range(NUM_FACES)]
    assign = [[0] * NUM_FACES for _ in range(3)]
    order = sorted(range(NUM_FACES), key=lambda f: (not danger[f], f))
    # Greedy, dangerous faces first, then augmenting paths for the rest.
    for f in order:
        for s in sorted(range(3), key=lambda s: -need[s]):
            if pool[f] and cap[s][f] and sum(assign[s]) < need[s]:
                assign[s][f] = 1
                pool[f] -= 1
    for s in range(3):
        while sum(assign[s]) < need[s]:
            if _augment(s, cap, assign, pool, {s}):
                continue
            # Allow one filler pair, of a face the scenario does not mention if possible.
            spare = [
                f for f in range(NUM_FACES) if cap[s][f] == 1 and pool[f] > 0 and not danger[f]
            ]
            if spare:
                f = min(spare, key=lambda f: (f in offered, f in mentioned, -pool[f], -f))
                cap[s][f] = 2
                danger[f] = True
            else:
                raise ValueError(
                    f"cannot fill seat {s}'s hand: {need[s] - sum(assign[s])} cards short"
                )
    order = sorted(range(NUM_FACES), key=lambda f: (not danger[f], f))
    # Prefer dangerous faces in hands: swap them in for harmless fill where possible.
    for f in order:
        if not danger[f]:
            break
        for s in range(3):
            if pool[f] and assign[s][f] < cap[s][f] and assign[s][f] == 0:
                for g in reversed(range(NUM_FACES)):
                    if assign[s][g] == 1 and not danger[g]:
                        assign[s][g] = 0
                        pool[g] += 1
                        assign[s][f] = 1
                        pool[f] -= 1
                        break
    fill_hands = [[f for f in range(NUM_FACES) for _ in range(assign[s][f])] for s in range(3)]
    rest = [f for f in order[::-1] for _ in range(pool[f])]  # harmless faces first
    rest.sort(key=lambda f: (danger[f], f in mentioned))
    full_hands = []
    for s in range(3):
        h = spec[s] + fill_hands[s] + (list(lz) if s == dealer else [])
        full_hands.append(tuple(h))
    full_top: list[int] = []
    for i, part in enumerate(top_parts):
        if i:
            # a harmless filler: nobody holds a pair of it, and the scenario does not
            # draw it elsewhere (if avoidable)
            picks = [j for j, f in enumerate(rest) if not danger[f]]
            if not picks:
                raise ValueError("no harmless filler card left for a '?' in the stock")
            j = min(picks, key=lambda j: (rest[j] in offered, j))
            full_top.append(rest.pop(j))
        full_top.extend(part)
    full_stock = tuple(full_top + rest + tail)
    deal = Deal(dealer, (full_hands[0], full_hands[1], full_hands[2]), full_stock)
    # The fill made no 坎 or 提, and a pair only where the cap allowed one.
    for s in range(3):
        c = counts_of(deal.hands[s])
        for f in range(NUM_FACES):
            if c[f] != spec_counts[s][f]:
                assert spec_counts[s][f] == 0 and c[f] <= cap[s][f] <= 2, (s, f, c[f])
    return deal


def game(
    dealer: int = 0,
    hands: Mapping[int, str] | None = None,
    stock: str = "",
    liang: str | None = None,
    exclude: Mapping[int, str] | None = None,
    stock_tail: str | None = None,
    rules: RuleSet = HONG_GUAI_WAN,
    balances: Iterable[int] | None = None,
) -> State:
    """Start a round on :func:`build_deal`'s deal."""
    deal = build_deal(dealer, hands, stock, liang, exclude, stock_tail)
    return new_game(rules, deal=deal, balances=tuple(balances) if balances is not None else None)


def pass_window(st: State) -> None:
    """Every seat still to answer the current claim window passes."""
    assert st.phase is Phase.CLAIM, st.phase
    w = st.window
    for s in list(st.to_act()):
        if st.window is not w or st.phase is not Phase.CLAIM:
            break
        st.apply(s, "过")


def discard(st: State, face: str, seat: int | None = None, settle: bool = True) -> None:
    """``seat`` (default: the one to discard) discards ``face``; with ``settle`` every
    claim window on that discard is passed."""
    seat = st.turn if seat is None else seat
    st.apply(seat, f"打:{face}")
    w = st.window
    if (
        settle
        and st.phase is Phase.CLAIM
        and w is not None
        and not w.from_draw
        and w.source == seat
    ):
        pass_window(st)


def pass_until(st: State, stop: Callable[[State], bool], limit: int = 200) -> None:
    """Pass every claim window until ``stop(st)`` holds (it must be a claim or a discard)."""
    for _ in range(limit):
        if stop(st):
            return
        if st.phase is not Phase.CLAIM:
            raise AssertionError(f"pass_until: reached {st.phase} without the stop condition")
        pass_window(st)
    raise AssertionError("pass_until: no progress")


def autoplay(st: State, win: bool = True, limit: int = 2000) -> State:
    """Play to the end: 胡 when offered (if ``win``), pass other claims, discard the first legal."""
    from paohuzi.core.actions import HU_ID, PASS_ID

    for _ in range(limit):
        if st.over:
            return st
        if st.phase is Phase.DISCARD:
            st.apply(st.turn, st.legal_actions(st.turn)[0])
            continue
        w = st.window
        for s in list(st.to_act()):
            if st.window is not w or st.over:
                break
            ids = st.legal_actions(s)
            st.apply(s, HU_ID if win and HU_ID in ids else PASS_ID)
    raise AssertionError("autoplay: the round did not end")


def events_of(st: State, kind: EventKind, start: int = 0) -> list[Event]:
    return [e for e in st.log[start:] if e.kind is kind]


def last_event(st: State, kind: EventKind) -> Event:
    evs = events_of(st, kind)
    assert evs, f"no {kind} event in the log"
    return evs[-1]
