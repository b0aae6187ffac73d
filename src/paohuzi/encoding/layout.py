"""The observation layout, declared once: every block's name, offset, size and range.

One seat's view becomes a vector of small counts and 0/1 flags followed by three
scaled balances. Seats are *relative*: ``self`` is the observing seat, ``next`` its
下家 (the seat after it), ``prev`` its 上家. :data:`FEATURES` lists the blocks in
order; every encoder — :func:`~paohuzi.encoding.observation.encode_view` (the
definition), the fast Python path, the incremental ``Encoder`` and the C encoder
``_obsc.c`` — reads its offsets from here by name (:data:`OFFSET`), and
docs/env.md describes each block. To add a feature, add its line to ``_SPEC``
and write it in ``encode_view`` and the fast encoders (CONTRIBUTING.md).

Pure Python (no numpy): the bots and the trainer may read sizes without the
encoders.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from ..core.actions import NUM_ACTIONS
from ..core.cards import NUM_FACES
from ..core.groups import GroupKind

__all__ = [
    "BALANCE_SCALE",
    "FEATURES",
    "NUM_TABLE_KINDS",
    "OBS_SIZE",
    "OFFSET",
    "ORACLE_FEATURES",
    "ORACLE_SIZE",
    "PUBLIC_SIZE",
    "RELATIVE",
    "TABLE_KINDS",
    "Feature",
    "feature",
]

TABLE_KINDS: Final = (
    GroupKind.CHI,
    GroupKind.PENG,
    GroupKind.WEI,
    GroupKind.CHOUWEI,
    GroupKind.TI,
    GroupKind.PAO,
)
"""The kinds a table group can have, in the order of the table blocks."""
NUM_TABLE_KINDS: Final = len(TABLE_KINDS)

# Scale of the balance features: a balance of 100 reads 1.0.
BALANCE_SCALE: Final = 100.0


@dataclass(frozen=True, slots=True)
class Feature:
    """One block of the vector: ``size`` entries from ``start``."""

    name: str
    start: int
    size: int
    high: float  # the largest value an entry takes
    doc: str

    @property
    def stop(self) -> int:
        """One past the block's last entry."""
        return self.start + self.size


def _layout(spec: Sequence[tuple[str, int, float, str]], start: int = 0) -> tuple[Feature, ...]:
    out = []
    at = start
    for name, size, high, doc in spec:
        out.append(Feature(name, at, size, high, doc))
        at += size
    return tuple(out)


RELATIVE: Final = ("self", "next", "prev")
"""The seats in block order, relative to the observing seat: itself, 下家, 上家."""
_WHOSE = {"self": "own", "next": "下家's (the next seat's)", "prev": "上家's (the previous seat's)"}
_SPEC: list[tuple[str, int, float, str]] = [
    ("hand", NUM_FACES, 4, "own hand: copies of each face (0–4; a 坎 is 3)"),
]
for _r, _who in enumerate(RELATIVE):
    for _k in TABLE_KINDS:
        _SPEC.append(
            (
                f"table.{_who}.{_k.ascii}",
                NUM_FACES,
                4,
                f"{_WHOSE[_who]} {_k.value} ({_k.ascii}) groups whose faces this seat sees: "
                "cards per face",
            )
        )
    _SPEC.append(
        (
            f"table.{_who}.facedown",
            NUM_TABLE_KINDS,
            8,
            f"{_WHOSE[_who]} face-down groups whose faces this seat cannot see (偎, dealt 提): "
            "how many of each kind, in the order chi, peng, wei, chouwei, ti, pao"
            + (" (always 0: a seat sees its own)" if _who == "self" else ""),
        )
    )
for _who in RELATIVE:
    _SPEC.append(
        (
            f"pile.{_who}",
            NUM_FACES,
            4,
            f"{_WHOSE[_who]} pile (drawn or discarded cards nobody took): cards per face",
        )
    )
for _who in RELATIVE:
    _SPEC.append(
        (
            f"discards.{_who}",
            NUM_FACES,
            4,
            f"every card of the {_WHOSE[_who]} discards (taken or not), per face",
        )
    )
_SPEC += [
    ("chou_chi", NUM_FACES, 1, "own 臭吃 set: faces this seat may no longer 吃 (§8)"),
    ("chou_peng", NUM_FACES, 1, "own 臭碰 set: faces this seat may no longer 碰 (§8)"),
    ("unseen", NUM_FACES, 4, "copies of each face this seat has not seen (4 − seen)"),
    ("hand_sizes", 3, 21, "cards in each hand (own, 下家, 上家)"),
    ("stock", 1, 19, "cards left in the stock"),
    ("dealer", 3, 1, "the dealer, one-hot (own, 下家, 上家)"),
    ("phase", 3, 1, "phase one-hot: discard, claim, over"),
    (
        "to_act",
        3,
        1,
        "who must decide (own, 下家, 上家); in a claim window only this seat's own flag",
    ),
    ("liangzhang", NUM_FACES, 1, "亮张, the dealer's shown 21st card, one-hot"),
    ("offer", NUM_FACES, 1, "the card on offer in a claim window, one-hot, if this seat sees it"),
    ("offer.hidden", 1, 1, "a card is on offer whose face this seat does not see (a 偎's card)"),
    ("offer.source", 3, 1, "who drew or discarded the card on offer, one-hot (own, 下家, 上家)"),
    ("offer.from_draw", 1, 1, "the card on offer was drawn (else discarded)"),
    ("offer.placed", 1, 1, "the card on offer already lies in the drawer's 提/偎 (提胡/偎胡)"),
    ("dead", 3, 1, "dead hands (§9), (own, 下家, 上家)"),
    ("legal", NUM_ACTIONS, 1, "the legal-action mask: 1 for each legal action id"),
]
_BYTE_FEATURES: Final = _layout(_SPEC)
_U: Final = _BYTE_FEATURES[-1].stop  # the small-integer part of the vector
FEATURES: Final = (
    *_BYTE_FEATURES,
    Feature(
        "balances",
        _U,
        3,
        1e4,
        f"悟性 balances (own, 下家, 上家), divided by {BALANCE_SCALE:g}",
    ),
)
"""Every block of the public encoding, in order."""
OBS_SIZE: Final = FEATURES[-1].stop
"""Length of the public encoding."""

OFFSET: Final[Mapping[str, int]] = {f.name: f.start for f in FEATURES}
"""Each block's first entry, by its name: how every encoder finds a block."""
_BY_NAME: Final = {f.name: f for f in FEATURES}


def feature(name: str) -> Feature:
    """The block called ``name``; a KeyError names the blocks there are."""
    try:
        return _BY_NAME[name]
    except KeyError:
        raise KeyError(f"no observation block {name!r}; blocks: {', '.join(_BY_NAME)}") from None


PUBLIC_SIZE: Final = OFFSET["balances"]
"""Length of the encoding without the balances: the part made of small integers."""

_ORACLE_SPEC: list[tuple[str, int, float, str]] = []
for _who in RELATIVE[1:]:
    _ORACLE_SPEC.append(
        (f"oracle.hand.{_who}", NUM_FACES, 4, f"the {_WHOSE[_who]} hand: copies per face")
    )
for _who in RELATIVE[1:]:
    _ORACLE_SPEC.append(
        (
            f"oracle.facedown.{_who}",
            NUM_FACES,
            4,
            f"the faces in the {_WHOSE[_who]} face-down groups, per card",
        )
    )
for _who in RELATIVE[1:]:
    _ORACLE_SPEC.append(
        (f"oracle.chou_chi.{_who}", NUM_FACES, 1, f"the {_WHOSE[_who]} 臭吃 set (§8)")
    )
    _ORACLE_SPEC.append(
        (f"oracle.chou_peng.{_who}", NUM_FACES, 1, f"the {_WHOSE[_who]} 臭碰 set (§8)")
    )
_ORACLE_SPEC += [
    ("oracle.stock", NUM_FACES, 4, "the stock's cards, per face"),
    ("oracle.next", NUM_FACES, 1, "the stock's top card (the next draw), one-hot"),
    ("oracle.offer", NUM_FACES, 1, "the card on offer, one-hot, even when face down to this seat"),
]
ORACLE_FEATURES: Final = _layout(_ORACLE_SPEC, OBS_SIZE)
"""The blocks :func:`encode_oracle` appends after the public ones: hidden information."""
ORACLE_SIZE: Final = ORACLE_FEATURES[-1].stop
"""Length of the oracle encoding (public blocks first)."""
