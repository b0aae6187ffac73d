"""Observation encoding: one seat's view as a fixed-length numpy vector.

The layout — each block's name, offset and size — is declared once, in
:mod:`paohuzi.encoding.layout`; every encoder here reads its offsets from there
by name (:data:`~paohuzi.encoding.layout.OFFSET`), and so does the C encoder,
through ``setup()`` at import.

Three functions compute the same public encoding:

- :func:`encode_view` from a :class:`~paohuzi.core.views.SeatView` — the
  definition: it can only use what the seat is entitled to know (RULES.md §14);
- :func:`encode` from the full state and a seat, the fast path the environment
  uses; the tests prove it equals ``encode_view(view(state, seat))``, so it
  cannot leak;
- :func:`encode_batch`, many (state, seat) pairs at once into one array.

The last two, and the environments' :class:`Encoder`, run a C accelerator
(``_obsc.c``) when the install compiled one (:data:`ACCELERATED`); its output is
the same, float for float, as the Python code here, which the tests check on
every position of many rounds. ``PAOHUZI_PURE_ENCODER=1`` turns it off.

:func:`encode_oracle` is deliberately separate: it appends what the seat may
*not* know (the others' hands, face-down groups, the stock), for training with
perfect information (oracle guiding, a value function's target); a policy that
plays must never be fed it.
"""

from __future__ import annotations

import hashlib
import importlib
import os
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Final

import numpy as np
import numpy.typing as npt

from ..core.actions import NUM_ACTIONS
from ..core.cards import NUM_FACES
from ..core.engine import Phase, State
from ..core.groups import TableGroup
from ..core.views import SeatView, offer_hidden
from .layout import (
    BALANCE_SCALE,
    FEATURES,
    NUM_TABLE_KINDS,
    OBS_SIZE,
    OFFSET,
    ORACLE_FEATURES,
    ORACLE_SIZE,
    RELATIVE,
    TABLE_KINDS,
    Feature,
)

__all__ = [
    "ACCELERATED",
    "FEATURES",
    "NUM_TABLE_KINDS",
    "OBS_SIZE",
    "ORACLE_FEATURES",
    "ORACLE_SIZE",
    "TABLE_KINDS",
    "Encoder",
    "Feature",
    "action_mask",
    "bounds",
    "encode",
    "encode_batch",
    "encode_oracle",
    "encode_view",
    "offer_hidden",
]

F32 = npt.NDArray[np.float32]

# Each block's offset, read from the layout by name (module constants: the hot path
# reads them on every step).
_OFF: Final = OFFSET
_HAND = _OFF["hand"]
_TABLE = [_OFF[f"table.{w}.chi"] for w in RELATIVE]
_FACEDOWN = [_OFF[f"table.{w}.facedown"] for w in RELATIVE]
_KIND_INDEX: Final = {k: i for i, k in enumerate(TABLE_KINDS)}
_KIND_OFF: Final = {k: i * NUM_FACES for i, k in enumerate(TABLE_KINDS)}
_PILE = [_OFF[f"pile.{w}"] for w in RELATIVE]
_DISC = [_OFF[f"discards.{w}"] for w in RELATIVE]
_CHOU_CHI = _OFF["chou_chi"]
_CHOU_PENG = _OFF["chou_peng"]
_UNSEEN = _OFF["unseen"]
_HAND_SIZES = _OFF["hand_sizes"]
_STOCK = _OFF["stock"]
_DEALER = _OFF["dealer"]
_PHASE = _OFF["phase"]
_TO_ACT = _OFF["to_act"]
_LIANG = _OFF["liangzhang"]
_OFFER = _OFF["offer"]
_OFFER_HIDDEN = _OFF["offer.hidden"]
_OFFER_SRC = _OFF["offer.source"]
_OFFER_DRAW = _OFF["offer.from_draw"]
_OFFER_PLACED = _OFF["offer.placed"]
_DEAD = _OFF["dead"]
_LEGAL = _OFF["legal"]
_BAL = _OFF["balances"]

_PHASE_INDEX: Final = {Phase.DISCARD: 0, Phase.CLAIM: 1, Phase.OVER: 2}
# Keyed by the member's id(): an Enum member's own hash runs Python code.
_KIND_INDEX_ID: Final = {id(k): i for i, k in enumerate(TABLE_KINDS)}
_KIND_OFF_ID: Final = {id(k): i * NUM_FACES for i, k in enumerate(TABLE_KINDS)}
_DISCARD: Final = Phase.DISCARD
_OVER: Final = Phase.OVER
_CLAIM: Final = Phase.CLAIM

# A 20-bit face mask as 20 bytes of 0/1, by halves (1,024 entries each).
_BITS10: Final = tuple(bytes((m >> i) & 1 for i in range(10)) for m in range(1024))

_ZERO: Final = bytes(OBS_SIZE)  # the balances' three entries stay 0 in the bytes


_FOUR_MINUS: Final = bytes((4 - i) & 255 for i in range(256))
# Per observing seat: (seat, relative index) in relative order.
_ROT: Final = tuple(tuple(((seat + r) % 3, r) for r in range(3)) for seat in range(3))
_TABLE_ROT: Final = tuple(
    tuple(
        (
            (seat + r) % 3,
            r,
            _TABLE[r],
            _FACEDOWN[r] if r else -1,
            _PILE[r],
            _DISC[r],
        )
        for r in range(3)
    )
    for seat in range(3)
)


def _raw(st: State, seat: int) -> bytearray:
    """:func:`encode` for ``seat`` as bytes, the balances left 0 (they are not small ints).

    Written for speed (the environment calls it on every step); :func:`encode_view`
    is the plain statement of the same encoding.
    """
    b = bytearray(_ZERO)
    phase = st.phase
    over = phase is _OVER
    hands = st.hands
    h = hands[seat]
    b[_HAND : _HAND + NUM_FACES] = bytes(h)
    seen = h[:]
    tables, piles, discs, dead = st.tables, st.piles, st.discards, st.dead
    kind_off, kind_index = _KIND_OFF_ID, _KIND_INDEX_ID
    for s, r, to, fo, po, do in _TABLE_ROT[seat]:
        for t in tables[s]:
            g = t.group
            if fo >= 0 and t.hidden and not over:
                b[fo + kind_index[id(g.kind)]] += 1
            else:
                ko = to + kind_off[id(g.kind)]
                for f in g.faces:
                    b[ko + f] += 1
                    seen[f] += 1
        for f in piles[s]:
            b[po + f] += 1
            seen[f] += 1
        for f in discs[s]:
            b[do + f] += 1
        b[_HAND_SIZES + r] = sum(hands[s])
        if dead[s]:
            b[_DEAD + r] = 1
    m = st.chou_chi[seat]
    b[_CHOU_CHI : _CHOU_CHI + 20] = _BITS10[m & 1023] + _BITS10[m >> 10]
    m = st.chou_peng[seat]
    b[_CHOU_PENG : _CHOU_PENG + 20] = _BITS10[m & 1023] + _BITS10[m >> 10]
    b[_STOCK] = len(st.stock)
    b[_DEALER + (st.dealer - seat) % 3] = 1
    b[_LIANG + st.deal.liangzhang] = 1
    x = _mark_turn(b, 0, st, seat)
    if x >= 0:
        seen[x] += 1
    b[_UNSEEN : _UNSEEN + NUM_FACES] = bytes(seen).translate(_FOUR_MINUS)
    for a in st.legal_actions(seat):
        b[_LEGAL + a] = 1
    return b


# The incremental encoder (Encoder). A count per face, as in the hand or a pile, is
# also kept as one int of 8 bits a face (face f adds 1 << 8f): adding two such
# vectors is one int addition, and ``to_bytes`` lays one out as its block.
_ONE: Final = tuple(1 << (8 * f) for f in range(NUM_FACES))
_FOURS: Final = int.from_bytes(bytes((4,)) * NUM_FACES, "little")
_TABLE_BLOCK: Final = NUM_TABLE_KINDS * NUM_FACES + NUM_TABLE_KINDS  # a table and its facedown
# Where a kind's faces start in a table block, and its facedown count, as bit shifts.
_KIND_SHIFT_ID: Final = {id(k): 8 * NUM_FACES * i for i, k in enumerate(TABLE_KINDS)}
_FACEDOWN_ONE_ID: Final = {
    id(k): 1 << 8 * (NUM_TABLE_KINDS * NUM_FACES + i) for i, k in enumerate(TABLE_KINDS)
}
# A group's faces, packed, by its faces (a small set: the shapes of §2), filled as met.
# Only ints and the engine's own tuples are kept: nothing here grows with the games
# played, so the garbage collector has nothing more to walk.
_PACKED: dict[tuple[int, ...], int] = {}
_Z20: Final = bytes(NUM_FACES)
_ZBAL: Final = bytes(OBS_SIZE - _BAL)
# hand_sizes .. dead: one small bytearray, its entries at their offsets less _MID.
_MID: Final = _HAND_SIZES
_MID_SIZE: Final = _LEGAL - _MID
_U8: Final = np.dtype(np.uint8)
_F32: Final = np.dtype(np.float32)
_I8: Final = np.dtype(np.int8)
_NO_ACTIONS: Final = bytes(NUM_ACTIONS)
# Encoder._head joins the blocks in this order: they must lie back to back.
assert _HAND == 0 and _TABLE[0] == NUM_FACES and _TABLE[2] + _TABLE_BLOCK == _PILE[0]
assert _PILE[0] + 3 * NUM_FACES == _DISC[0] and _DISC[0] + 3 * NUM_FACES == _CHOU_CHI
assert _CHOU_PENG + NUM_FACES == _UNSEEN and _UNSEEN + NUM_FACES == _MID
assert _LEGAL + NUM_ACTIONS == _BAL


def _accelerator() -> ModuleType | None:
    """The C encoder, given the layout's blocks; None when not built, turned off, or stale."""
    if os.environ.get("PAOHUZI_PURE_ENCODER"):
        return None
    try:
        c = importlib.import_module("paohuzi.encoding._obsc")
    except ImportError:
        return None
    source = Path(__file__).with_name("_obsc.c")
    if source.exists():
        sha = hashlib.sha256(source.read_bytes()).hexdigest()
        if getattr(c, "SOURCE_SHA256", None) != sha:
            warnings.warn(
                "paohuzi: the compiled encoder was built from an older _obsc.c, so the "
                "Python encoder runs; reinstall (pip install -e .) to rebuild it",
                RuntimeWarning,
                stacklevel=2,
            )
            return None
    blocks = {f.name: (f.start, f.size) for f in FEATURES}
    c.setup(TABLE_KINDS, Phase.CLAIM, Phase.OVER, blocks, offer_hidden)
    return c


_C: Final = _accelerator()
ACCELERATED: Final = _C is not None
"""Whether the C encoder runs: the install compiled it and ``PAOHUZI_PURE_ENCODER`` is unset."""
_empty: Final = np.empty


def _packed(faces: tuple[int, ...]) -> int:
    v = 0
    for f in faces:
        v += _ONE[f]
    _PACKED[faces] = v
    return v


def _legal_block(legal: tuple[int, ...]) -> bytearray:
    """The legal block: 1 at each legal id."""
    b = bytearray(_NO_ACTIONS)
    for a in legal:
        b[a] = 1
    return b


class Encoder:
    """:func:`encode` of the successive positions of a round, for the environments.

    Piles and discards only grow within a round, and tables and the other hands
    change seldom, so each seat's blocks are kept from the previous call and
    redone only when that seat's cards there changed; the rest is read from the
    state every time. The result is always exactly ``encode(state, seat)`` (the
    tests compare them move by move); another state object starts afresh.

    With the C encoder (the default where it is built) each call encodes afresh in
    C instead, which is faster still than keeping blocks in Python.
    """

    __slots__ = (
        "_bal",
        "_balkey",
        "_buf",
        "_c",
        "_db",
        "_dv",
        "_hands",
        "_hb",
        "_hv",
        "_mask",
        "_mid",
        "_nd",
        "_np",
        "_pb",
        "_pv",
        "_sizes",
        "_st",
        "_tab",
        "_tbits",
        "_thid",
        "_tvis",
        "_u8",
        "_vall",
        "_vshown",
    )

    def __init__(self, accelerated: bool = ACCELERATED) -> None:
        """``accelerated``: run the C encoder (the default where it is built)."""
        if accelerated and _C is None:
            raise ValueError("the C encoder is not built here (paohuzi.env.ACCELERATED is False)")
        self._c = _C.encode if accelerated and _C is not None else None
        self._buf = bytearray(OBS_SIZE)  # the last encoding; two views kept on it:
        self._u8 = np.frombuffer(self._buf, _U8)
        self._mask = np.frombuffer(self._buf, _I8, NUM_ACTIONS, _LEGAL)  # its legal block
        self._reset(None)

    def _reset(self, st: State | None) -> None:
        self._st = st
        self._tab: list[list[TableGroup]] = [[], [], []]  # each table as last encoded
        self._tbits = [(0, 0, 0, 0)] * 3  # its two blocks and its faces, as ints
        self._tvis = [bytes(_TABLE_BLOCK)] * 3  # its block with every face shown
        self._thid = [bytes(_TABLE_BLOCK)] * 3  # ... with face-down groups only counted
        self._vall = [0, 0, 0]  # its faces, packed
        self._vshown = [0, 0, 0]  # ... those face up
        self._np = [0, 0, 0]  # pile cards counted so far
        self._pv = [0, 0, 0]  # pile counts, packed
        self._pb = [_Z20] * 3  # ... as bytes
        self._nd = [0, 0, 0]  # the same for the discards
        self._dv = [0, 0, 0]
        self._db = [_Z20] * 3
        self._hands: list[list[int]] = [[], [], []]  # each hand as last counted
        self._hb = [_Z20] * 3  # ... as bytes
        self._hv = [0, 0, 0]  # ... packed
        self._sizes = [0, 0, 0]  # ... its size
        self._balkey: object = None  # the balances that _bal holds
        self._bal: list[F32] = []
        self._mid: list[bytes] = []  # per seat: the dealer and 亮张 blocks, set once
        if st is not None:
            for seat in range(3):
                m = bytearray(_MID_SIZE)
                m[_DEALER - _MID + (st.dealer - seat) % 3] = 1
                m[_LIANG - _MID + st.deal.liangzhang] = 1
                self._mid.append(bytes(m))

    def _table(self, s: int, table: list[TableGroup]) -> None:
        """Redo seat ``s``'s table blocks, both ways of showing them.

        A claim appends groups: then only the new ones are added to what was kept.
        """
        old = self._tab[s]
        n = len(old)
        if len(table) > n and table[:n] == old:
            vis, hid, vall, vshown = self._tbits[s]
        else:
            n = 0
            vis = hid = vall = vshown = 0
        for t in table[n:]:
            g = t.group
            faces = g.faces
            p = _PACKED.get(faces) or _packed(faces)
            vall += p
            block = p << _KIND_SHIFT_ID[id(g.kind)]
            vis += block
            if t.hidden:
                hid += _FACEDOWN_ONE_ID[id(g.kind)]
            else:
                hid += block
                vshown += p
        self._tab[s] = table[:]
        self._tbits[s] = (vis, hid, vall, vshown)
        self._tvis[s] = vis.to_bytes(_TABLE_BLOCK, "little")
        self._thid[s] = hid.to_bytes(_TABLE_BLOCK, "little")
        self._vall[s] = vall
        self._vshown[s] = vshown

    def _hand(self, s: int, hand: list[int]) -> None:
        """Seat ``s``'s hand changed: keep it as bytes, packed, and its size."""
        self._hands[s] = hand[:]
        b = self._hb[s] = bytes(hand)
        v = self._hv[s] = int.from_bytes(b, "little")
        self._sizes[s] = v % 255  # the sum of its bytes (below 255): 256 is 1 mod 255

    def _count(
        self, s: int, cards: list[int], counted: list[int], vec: list[int], out: list[bytes]
    ) -> None:
        """Count seat ``s``'s new pile (or discard) ``cards``; start over if there are fewer."""
        n = counted[s]
        if len(cards) < n:  # not the state whose cards were counted
            counted[s] = n = 0
            vec[s] = 0
        v = vec[s]
        for f in cards[n:]:
            v += _ONE[f]
        vec[s] = v
        counted[s] = len(cards)
        out[s] = v.to_bytes(NUM_FACES, "little")

    def _head(self, st: State, seat: int) -> bytes:
        """The encoding up to the legal block, as bytes (:func:`_raw`'s first part)."""
        if st is not self._st:
            self._reset(st)
        # Unrolled: this runs on every step, and mostly finds nothing changed.
        tab, npl, nd, hl = self._tab, self._np, self._nd, self._hands
        g0, g1, g2 = st.tables
        if g0 != tab[0]:
            self._table(0, g0)
        if g1 != tab[1]:
            self._table(1, g1)
        if g2 != tab[2]:
            self._table(2, g2)
        c0, c1, c2 = st.piles
        if len(c0) != npl[0]:
            self._count(0, c0, npl, self._pv, self._pb)
        if len(c1) != npl[1]:
            self._count(1, c1, npl, self._pv, self._pb)
        if len(c2) != npl[2]:
            self._count(2, c2, npl, self._pv, self._pb)
        c0, c1, c2 = st.discards
        if len(c0) != nd[0]:
            self._count(0, c0, nd, self._dv, self._db)
        if len(c1) != nd[1]:
            self._count(1, c1, nd, self._dv, self._db)
        if len(c2) != nd[2]:
            self._count(2, c2, nd, self._dv, self._db)
        h0, h1, h2 = st.hands
        if h0 != hl[0]:
            self._hand(0, h0)
        if h1 != hl[1]:
            self._hand(1, h1)
        if h2 != hl[2]:
            self._hand(2, h2)
        s1 = (seat + 1) % 3
        s2 = (seat + 2) % 3
        pv = self._pv
        seen = self._hv[seat] + self._vall[seat] + pv[0] + pv[1] + pv[2]
        m = bytearray(self._mid[seat])
        sizes = self._sizes
        m[0] = sizes[seat]
        m[1] = sizes[s1]
        m[2] = sizes[s2]
        m[_STOCK - _MID] = len(st.stock)
        if st.phase is _OVER:
            t1, t2 = self._tvis[s1], self._tvis[s2]
            seen += self._vall[s1] + self._vall[s2]
        else:
            t1, t2 = self._thid[s1], self._thid[s2]
            seen += self._vshown[s1] + self._vshown[s2]
        x = _mark_turn(m, _MID, st, seat)
        if x >= 0:
            seen += _ONE[x]
        dead = st.dead
        if dead[seat]:
            m[_DEAD - _MID] = 1
        if dead[s1]:
            m[_DEAD - _MID + 1] = 1
        if dead[s2]:
            m[_DEAD - _MID + 2] = 1
        c = st.chou_chi[seat]
        cp = st.chou_peng[seat]
        pb = self._pb
        db = self._db
        return b"".join(
            (
                self._hb[seat],
                self._tvis[seat],
                t1,
                t2,
                pb[seat],
                pb[s1],
                pb[s2],
                db[seat],
                db[s1],
                db[s2],
                _BITS10[c & 1023] + _BITS10[c >> 10] if c else _Z20,
                _BITS10[cp & 1023] + _BITS10[cp >> 10] if cp else _Z20,
                (_FOURS - seen).to_bytes(NUM_FACES, "little"),
                m,
            )
        )

    def raw(self, st: State, seat: int) -> bytes:
        """:func:`_raw`: the encoding as bytes, the balances left 0."""
        return self._head(st, seat) + _legal_block(st.legal_actions(seat)) + _ZBAL

    def observe(
        self, st: State, seat: int, legal: tuple[int, ...]
    ) -> tuple[F32, npt.NDArray[np.int8]]:
        """``encode(st, seat)`` and the action mask, given ``legal = st.legal_actions(seat)``."""
        c = self._c
        if c is not None:
            out = _empty(OBS_SIZE, _F32)
            mask = _empty(NUM_ACTIONS, _I8)
            c(st, seat, legal, out, mask)  # fills both whole
            return out, mask
        buf = self._buf
        buf[:_LEGAL] = self._head(st, seat)
        buf[_LEGAL:_BAL] = _NO_ACTIONS
        for a in legal:
            buf[_LEGAL + a] = 1
        out = self._u8.astype(_F32)  # (a view kept on _buf: cheaper than a new frombuffer)
        bal = st.balances  # set anew when the round ends
        if bal is not self._balkey:
            self._balkey = bal
            self._bal = [np.asarray(_balances(bal, s), _F32) for s in range(3)]
        out[_BAL:] = self._bal[seat]  # one slice: three scalar stores cost three times as much
        return out, self._mask.copy()

    def encode(self, st: State, seat: int) -> F32:
        """``encode(st, seat)``."""
        return self.observe(st, seat, st.legal_actions(seat))[0]


def _mark_turn(b: bytearray, at: int, st: State, seat: int) -> int:
    """Write the phase, the seats to act and the offer into ``b``, which holds the
    encoding from its entry ``at`` on (the whole encoding: 0; the encoder's middle part,
    from ``hand_sizes``: ``_MID``).

    Returns the card on offer when ``seat`` sees it come from outside its view's other
    blocks (a discard, or a draw not yet placed), for the unseen count; else -1.
    """
    w = st.window
    if st.phase is _CLAIM and w is not None:
        b[_PHASE - at + 1] = 1
        if seat in w.options and seat not in w.answers:  # seat in st.to_act(), without the tuple
            b[_TO_ACT - at] = 1
        x = w.card
        src = w.source
        b[_OFFER_SRC - at + (src - seat) % 3] = 1
        if w.from_draw:
            b[_OFFER_DRAW - at] = 1
        if not w.after_own:
            b[_OFFER - at + x] = 1
            return x
        b[_OFFER_PLACED - at] = 1
        if offer_hidden(st, seat):
            b[_OFFER_HIDDEN - at] = 1  # a 偎胡 on a face-down 偎: the card stays hidden (§14)
        else:
            b[_OFFER - at + x] = 1
        return -1
    if st.phase is _OVER:
        b[_PHASE - at + 2] = 1
    else:
        b[_PHASE - at] = 1
        b[_TO_ACT - at + (st.turn - seat) % 3] = 1
    return -1


def _balances(bal: Sequence[int], seat: int) -> tuple[float, float, float]:
    return (
        bal[seat] / BALANCE_SCALE,
        bal[(seat + 1) % 3] / BALANCE_SCALE,
        bal[(seat + 2) % 3] / BALANCE_SCALE,
    )


def encode(state: State, seat: int) -> F32:
    """The public encoding of ``seat``'s view of ``state`` (``OBS_SIZE`` float32)."""
    if _C is not None:
        out = np.empty(OBS_SIZE, np.float32)
        _C.encode(state, seat, state.legal_actions(seat), out, None)
        return out
    return _encode_python(state, seat)


def _encode_python(state: State, seat: int) -> F32:
    """:func:`encode` in Python (what the C encoder must equal)."""
    out = np.frombuffer(_raw(state, seat), np.uint8).astype(np.float32)
    bal = state.balances
    out[_BAL] = bal[seat] / BALANCE_SCALE
    out[_BAL + 1] = bal[(seat + 1) % 3] / BALANCE_SCALE
    out[_BAL + 2] = bal[(seat + 2) % 3] / BALANCE_SCALE
    return out


def encode_batch(states: Sequence[State], seats: Sequence[int]) -> F32:
    """:func:`encode` of each (state, seat) pair, as one ``(n, OBS_SIZE)`` array."""
    if len(states) != len(seats):
        raise ValueError(f"{len(states)} states but {len(seats)} seats")
    n = len(states)
    if n == 0:
        return np.empty((0, OBS_SIZE), np.float32)
    if _C is not None:
        out = np.empty((n, OBS_SIZE), np.float32)
        _C.encode_rows(states, seats, out)
        return out
    return _encode_batch_python(states, seats)


def _encode_batch_python(states: Sequence[State], seats: Sequence[int]) -> F32:
    """:func:`encode_batch` in Python, for pairs already checked (at least one)."""
    n = len(states)
    raw = b"".join([_raw(st, s) for st, s in zip(states, seats, strict=True)])
    out = np.frombuffer(raw, np.uint8).reshape(n, OBS_SIZE).astype(np.float32)
    out[:, _BAL:] = [_balances(st.balances, s) for st, s in zip(states, seats, strict=True)]
    return out


def action_mask(obs: npt.NDArray[np.floating]) -> npt.NDArray[np.int8]:
    """The legal-action mask (int8, ``NUM_ACTIONS``) read back from an encoding."""
    return obs[..., _LEGAL : _LEGAL + NUM_ACTIONS].astype(np.int8)


def encode_view(v: SeatView) -> F32:
    """The public encoding, computed from a seat's view alone (the definition)."""
    if v.seat is None:
        raise ValueError("a spectator's view has no seat to encode for")
    seat = v.seat
    out = np.zeros(OBS_SIZE, np.float32)
    for f in v.hand:
        out[_HAND + f] += 1
    for r in range(3):
        s = (seat + r) % 3
        for g in v.tables[s]:
            if g.faces is None:
                out[_FACEDOWN[r] + _KIND_INDEX[g.kind]] += 1
            else:
                for f in g.faces:
                    out[_TABLE[r] + _KIND_OFF[g.kind] + f] += 1
        for f in v.piles[s]:
            out[_PILE[r] + f] += 1
        for f in v.discards[s]:
            out[_DISC[r] + f] += 1
        out[_HAND_SIZES + r] = v.hand_sizes[s]
        out[_DEAD + r] = v.dead[s]
    for f in v.chou_chi or ():
        out[_CHOU_CHI + f] = 1
    for f in v.chou_peng or ():
        out[_CHOU_PENG + f] = 1
    seen = v.seen_counts()
    for f in range(NUM_FACES):
        out[_UNSEEN + f] = 4 - seen[f]
    out[_STOCK] = v.stock_count
    out[_DEALER + (v.dealer - seat) % 3] = 1
    out[_PHASE + _PHASE_INDEX[v.phase]] = 1
    for s in v.to_act:
        out[_TO_ACT + (s - seat) % 3] = 1
    out[_LIANG + v.liangzhang] = 1
    if v.offer_source is not None:
        if v.offer is None:
            out[_OFFER_HIDDEN] = 1
        else:
            out[_OFFER + v.offer] = 1
        out[_OFFER_SRC + (v.offer_source - seat) % 3] = 1
        out[_OFFER_DRAW] = v.offer_from_draw
        out[_OFFER_PLACED] = v.offer_placed
    for a in v.legal:
        out[_LEGAL + a.id] = 1
    out[_BAL:] = _balances(v.balances, seat)
    return out


def encode_oracle(state: State, seat: int) -> F32:
    """Perfect information for training: :func:`encode`, then what ``seat`` cannot see.

    The appended blocks are :data:`ORACLE_FEATURES`: the other hands, the faces of
    their face-down groups, their 臭 sets, the stock and its top card, the card on
    offer. Never feed this to a policy that plays.
    """
    out = np.zeros(ORACLE_SIZE, np.float32)
    out[:OBS_SIZE] = encode(state, seat)
    o = OBS_SIZE
    for r in (1, 2):
        out[o : o + NUM_FACES] = state.hands[(seat + r) % 3]
        o += NUM_FACES
    for r in (1, 2):
        for t in state.tables[(seat + r) % 3]:
            if t.hidden:
                for f in t.group.faces:
                    out[o + f] += 1
        o += NUM_FACES
    for r in (1, 2):
        s = (seat + r) % 3
        for bits in (state.chou_chi[s], state.chou_peng[s]):
            out[o : o + NUM_FACES] = np.frombuffer(
                _BITS10[bits & 1023] + _BITS10[bits >> 10], np.uint8
            )
            o += NUM_FACES
    for f in state.stock:
        out[o + f] += 1
    o += NUM_FACES
    if state.stock:
        out[o + state.stock[-1]] = 1
    o += NUM_FACES
    w = state.window
    if w is not None and state.phase is _CLAIM:
        out[o + w.card] = 1
    return out


def bounds() -> tuple[F32, F32]:
    """The (low, high) of every entry of the public encoding, for a gymnasium Box."""
    low = np.zeros(OBS_SIZE, np.float32)
    high = np.zeros(OBS_SIZE, np.float32)
    for f in FEATURES:
        high[f.start : f.stop] = f.high
    low[_BAL:] = -1e4
    return low, high
