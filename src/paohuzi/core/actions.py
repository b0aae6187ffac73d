"""Actions, their dense integer ids and their text forms.

Id ranges (stable; the AI environment uses them as its action space):

==========  =====================================================
0–19        打 discard the face with this index
20          过 pass (decline every claim offered)
21          胡 win with the card on offer
22          碰 peng the card on offer
23–316      吃 the card on offer: ``23 + s0*49 + b1*7 + b2``
==========  =====================================================

A 吃 id is relative to the card X on offer: ``s0 <= b1 <= b2`` are the shapes of
the groups it lays down (6 = none), smallest first: every group holds a copy of X,
so the option is the set of groups, not which one took the card (§7). Only these
canonical ids are legal; :func:`canonical_id` maps an unsorted id (0.1 records)
to its canonical twin. Shapes, for X:
0 = (X−2, X−1, X), 1 = (X−1, X, X+1), 2 = (X, X+1, X+2), 3 = 二七十 of X's size,
4 = (X, X, X') and 5 = (X, X', X') where X' is X's number in the other size.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Final

from .cards import NUM_FACES, ascii_name, format_faces, glyph, parse_faces
from .errors import NotationError
from .groups import Group, GroupKind

__all__ = [
    "CHI_BASE",
    "HU_ID",
    "NO_SHAPE",
    "NUM_ACTIONS",
    "PASS_ID",
    "PENG_ID",
    "Action",
    "ActionKind",
    "canonical_id",
    "chi_id",
    "is_canonical_chi",
    "parse_action",
    "shape_faces",
]

PASS_ID: Final = 20
HU_ID: Final = 21
PENG_ID: Final = 22
CHI_BASE: Final = 23
NO_SHAPE: Final = 6
NUM_ACTIONS: Final = CHI_BASE + 6 * 49


class ActionKind(Enum):
    """What a decision does; the value is its hanzi, ``ascii`` its alias."""

    DISCARD = "打"
    PASS = "过"
    HU = "胡"
    PENG = "碰"
    CHI = "吃"

    @property
    def ascii(self) -> str:
        """The ASCII alias (``discard``, ``pass``, ``hu``, ``peng``, ``chi``)."""
        return self.name.lower()


def shape_faces(x: int, shape: int) -> tuple[int, int, int] | None:
    """The sorted faces of shape ``shape`` around face ``x``, or None if impossible."""
    num = x % 10
    base = x - num
    other = x + 10 if x < 10 else x - 10
    if shape == 0:
        return (x - 2, x - 1, x) if num >= 2 else None
    if shape == 1:
        return (x - 1, x, x + 1) if 1 <= num <= 8 else None
    if shape == 2:
        return (x, x + 1, x + 2) if num <= 7 else None
    if shape == 3:
        return (base + 1, base + 6, base + 9) if num in (1, 6, 9) else None
    if shape == 4:
        return tuple(sorted((x, x, other)))  # type: ignore[return-value]
    if shape == 5:
        return tuple(sorted((x, other, other)))  # type: ignore[return-value]
    return None


def chi_id(s0: int, b1: int = NO_SHAPE, b2: int = NO_SHAPE) -> int:
    """The id of the 吃 laying down groups of shapes ``s0``, ``b1``, ``b2`` (§7).

    A 吃 is identified by the groups it puts on the table, not by which of them took
    the card on offer: every group holds a copy of X, so ``吃:陆柒捌 比:八捌捌`` and
    ``吃:八捌捌 比:陆柒捌`` are one option. The shapes are sorted, smallest first.
    """
    if s0 > b1:
        s0, b1 = b1, s0
    if b1 > b2:
        b1, b2 = b2, b1
        if s0 > b1:
            s0, b1 = b1, s0
    return CHI_BASE + s0 * 49 + b1 * 7 + b2


def canonical_id(action_id: int) -> int:
    """The id of the same action with its 吃 shapes sorted (0.1 records used either order)."""
    if action_id < CHI_BASE or action_id >= NUM_ACTIONS:
        return action_id
    r = action_id - CHI_BASE
    return chi_id(r // 49, (r // 7) % 7, r % 7)


def is_canonical_chi(action_id: int) -> bool:
    """Whether a 吃 id names its shapes smallest first (the only ids the engine offers)."""
    r = action_id - CHI_BASE
    s0, b1, b2 = r // 49, (r // 7) % 7, r % 7
    return s0 != NO_SHAPE and s0 <= b1 <= b2


@dataclass(frozen=True, slots=True)
class Action:
    """One decision. ``face`` is the discarded card or the card on offer."""

    kind: ActionKind
    face: int | None = None
    groups: tuple[Group, ...] = ()  # 吃: its groups, smallest shape first
    id: int = -1

    @staticmethod
    def from_id(action_id: int, card: int | None = None) -> Action:
        """Build an action from its id; ``card`` is the card on offer (for 碰/吃/胡)."""
        if not isinstance(action_id, int) or not 0 <= action_id < NUM_ACTIONS:
            raise NotationError(f"action id must be 0..{NUM_ACTIONS - 1}, got {action_id!r}")
        if action_id < NUM_FACES:
            return Action(ActionKind.DISCARD, action_id, (), action_id)
        if action_id == PASS_ID:
            return Action(ActionKind.PASS, card, (), action_id)
        if action_id == HU_ID:
            return Action(ActionKind.HU, card, (), action_id)
        if action_id == PENG_ID:
            if card is None:
                raise NotationError("a 碰 needs the card on offer")
            return Action(ActionKind.PENG, card, (Group(GroupKind.PENG, (card,) * 3),), action_id)
        if card is None:
            raise NotationError(f"吃 id {action_id} needs the card on offer")
        return Action(ActionKind.CHI, card, _chi_groups(action_id, card), action_id)

    def hand_cards(self) -> tuple[int, ...]:
        """The cards a 碰 or 吃 (with its 比) takes from the claimant's hand.

        Every card of its groups except the one claimed copy of the card on offer.
        """
        out: list[int] = []
        claimed = False
        for g in self.groups:
            for f in g.faces:
                if not claimed and f == self.face:
                    claimed = True
                    continue
                out.append(f)
        return tuple(out)

    def text(self, *, ascii: bool = False) -> str:
        """Text form: ``打:五``, ``过``, ``胡``, ``碰:五``, ``吃:三四五 比:五五伍``."""
        k = self.kind
        name = k.ascii if ascii else k.value
        if k is ActionKind.DISCARD or k is ActionKind.PENG:
            assert self.face is not None
            return f"{name}:{ascii_name(self.face) if ascii else glyph(self.face)}"
        if k is ActionKind.CHI:
            parts = []
            for i, g in enumerate(self.groups):
                label = name if i == 0 else ("bi" if ascii else "比")
                parts.append(
                    f"{label}:{format_faces(g.faces, ascii=ascii, sep=',' if ascii else '')}"
                )
            return " ".join(parts)
        return name

    def __str__(self) -> str:
        """The text form (see :meth:`text`)."""
        return self.text()

    def __repr__(self) -> str:
        """The call that rebuilds it, e.g. ``parse_action('碰:五', card='五')``."""
        if self.face is None or self.kind is ActionKind.DISCARD:
            return f"parse_action({self.text()!r})"
        return f"parse_action({self.text()!r}, card={glyph(self.face)!r})"


def _chi_groups(action_id: int, card: int) -> tuple[Group, ...]:
    """The groups of 吃 id ``action_id`` around ``card``; only canonical ids exist."""
    if not is_canonical_chi(action_id):
        raise NotationError(
            f"吃 id {action_id} is not canonical (its shapes are not smallest first): "
            f"use {canonical_id(action_id)}"
        )
    r = action_id - CHI_BASE
    groups = []
    for s in (r // 49, (r // 7) % 7, r % 7):
        if s == NO_SHAPE:
            continue
        faces = shape_faces(card, s)
        if faces is None:
            raise NotationError(f"吃 id {action_id} is impossible for {glyph(card)}")
        groups.append(Group(GroupKind.CHI, faces))
    return tuple(groups)


_KIND_WORDS: Final = {
    "打": ActionKind.DISCARD,
    "discard": ActionKind.DISCARD,
    "d": ActionKind.DISCARD,
    "过": ActionKind.PASS,
    "pass": ActionKind.PASS,
    "p": ActionKind.PASS,
    "胡": ActionKind.HU,
    "hu": ActionKind.HU,
    "碰": ActionKind.PENG,
    "peng": ActionKind.PENG,
    "吃": ActionKind.CHI,
    "chi": ActionKind.CHI,
}


def parse_action(text: str, card: int | str | None = None) -> Action:
    """Parse an action's text form; ``card`` is the card on offer, if any.

    >>> parse_action("打:五").id
    4
    >>> parse_action("吃:八捌捌 比:陆柒捌", card="捌")   # 比 groups in any order
    parse_action('吃:陆柒捌 比:八捌捌', card='捌')
    """
    if not isinstance(text, str):
        raise NotationError(f"an action's text form is a string, got {text!r}")
    tokens = text.strip().replace("：", ":").split()
    if not tokens:
        raise NotationError("empty action")
    head, _, rest = tokens[0].partition(":")
    kind = _KIND_WORDS.get(head.lower())
    if kind is None:
        raise NotationError(
            f"unknown action {text!r}: expected 打/过/胡/碰/吃 (discard/pass/hu/peng/chi)"
        )
    try:
        x = _card_on_offer(card)
        if kind is ActionKind.DISCARD:
            faces = parse_faces(rest)
            if len(faces) != 1 or len(tokens) != 1:
                raise NotationError("a discard names one card")
            return Action.from_id(faces[0])
        if kind is ActionKind.PASS or kind is ActionKind.HU:
            return Action.from_id(PASS_ID if kind is ActionKind.PASS else HU_ID, x)
        if kind is ActionKind.PENG:
            return Action.from_id(PENG_ID, _peng_card(rest, x))
        return _parse_chi(tokens, x)
    except NotationError as e:
        raise NotationError(f"bad action {text!r}: {e}") from None


def _card_on_offer(card: int | str | None) -> int | None:
    """The card on offer as a face, given as a face, its glyph or None."""
    if card is None:
        return None
    if isinstance(card, str):
        faces = parse_faces(card)
        if len(faces) != 1:
            raise NotationError(f"the card on offer is one card, got {card!r}")
        return faces[0]
    if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < NUM_FACES:
        raise NotationError(f"the card on offer must be a face 0–19, got {card!r}")
    return card


def _peng_card(rest: str, card: int | None) -> int | None:
    """The card a 碰 names (``碰:五`` or ``碰:五五五``), which must be the card on offer."""
    if not rest:
        return card
    faces = parse_faces(rest)
    if not faces or any(f != faces[0] for f in faces) or (card is not None and faces[0] != card):
        raise NotationError("a 碰 names the card on offer")
    return faces[0]


def _parse_chi(tokens: list[str], card: int | None) -> Action:
    """``吃:<group> [比:<group> [比:<group>]]``: every group around the card on offer."""
    if card is None:
        raise NotationError("a 吃 needs the card on offer")
    shapes = []
    for i, tok in enumerate(tokens):
        label, _, cards = tok.partition(":")
        if i > 0 and label.lower() not in ("比", "bi"):
            raise NotationError(f"expected 比:... after the 吃 group, got {tok!r}")
        faces = tuple(sorted(parse_faces(cards)))
        shape = next((s for s in range(NO_SHAPE) if shape_faces(card, s) == faces), None)
        if shape is None:
            raise NotationError(f"{format_faces(faces)!r} is no group around {glyph(card)}")
        shapes.append(shape)
    if len(shapes) > 3:
        raise NotationError("a 吃 has at most two 比 groups")
    padded = [*shapes, NO_SHAPE, NO_SHAPE][:3]
    return Action.from_id(chi_id(padded[0], padded[1], padded[2]), card)
