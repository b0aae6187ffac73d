"""Table groups, group kinds and 胡息 (RULES.md §1, §2).

A :class:`Group` is a kind plus its faces. The kind says how the group was formed
(提, 跑, 偎, 臭偎, 坎, 碰, 吃) or, in a winning arrangement, that it was formed in the
hand (句 for a three-card set, 对 for the pair). 胡息 follows from kind and shape.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum

from .cards import NUM_FACES, format_faces, is_red, parse_faces
from .errors import NotationError

__all__ = [
    "SAME_FACE_KINDS",
    "Group",
    "GroupKind",
    "TableGroup",
    "format_groups",
    "is_set_shape",
    "parse_group",
    "parse_groups",
    "set_shape_huxi",
]


class GroupKind(Enum):
    """How a group was formed; the value is its hanzi, ``ascii`` its alias."""

    TI = "提"
    PAO = "跑"
    WEI = "偎"
    CHOUWEI = "臭偎"
    KAN = "坎"
    PENG = "碰"
    CHI = "吃"
    JU = "句"
    DUI = "对"

    @property
    def ascii(self) -> str:
        return self.name.lower()

    @property
    def size(self) -> int:
        """Cards in a group of this kind."""
        return _KIND_SIZE[self]


_KIND_SIZE = {
    GroupKind.TI: 4,
    GroupKind.PAO: 4,
    GroupKind.WEI: 3,
    GroupKind.CHOUWEI: 3,
    GroupKind.KAN: 3,
    GroupKind.PENG: 3,
    GroupKind.CHI: 3,
    GroupKind.JU: 3,
    GroupKind.DUI: 2,
}

SAME_FACE_KINDS = frozenset(
    {GroupKind.TI, GroupKind.PAO, GroupKind.WEI, GroupKind.CHOUWEI, GroupKind.KAN, GroupKind.PENG}
)

# 胡息 of same-face kinds: (small, big).
_SAME_FACE_HUXI = {
    GroupKind.TI: (9, 12),
    GroupKind.PAO: (6, 9),
    GroupKind.WEI: (3, 6),
    GroupKind.CHOUWEI: (3, 6),
    GroupKind.KAN: (3, 6),
    GroupKind.PENG: (1, 3),
}

_KIND_BY_NAME: dict[str, GroupKind] = {}
for _k in GroupKind:
    _KIND_BY_NAME[_k.value] = _k
    _KIND_BY_NAME[_k.ascii] = _k


def is_set_shape(a: int, b: int, c: int) -> bool:
    """True when three faces (sorted) form a run, 二七十/贰柒拾 or 大小三搭 (§2)."""
    if a // 10 == b // 10 == c // 10:
        na, nb, nc = a % 10, b % 10, c % 10
        if nb == na + 1 and nc == nb + 1:
            return True
        return (na, nb, nc) == (1, 6, 9)
    # mixed sizes: one number, 2 + 1
    return a % 10 == b % 10 == c % 10 and not (a == b == c)


def set_shape_huxi(a: int, b: int, c: int) -> int:
    """胡息 of a 句/吃 shape (sorted faces): 一二三 and 二七十 score, the rest 0."""
    if a // 10 == b // 10 == c // 10:
        nums = (a % 10, b % 10, c % 10)
        if nums == (0, 1, 2) or nums == (1, 6, 9):
            return 6 if a >= 10 else 3
    return 0


@dataclass(frozen=True, slots=True)
class Group:
    """A group of cards: ``Group(GroupKind.PENG, (11, 11, 11))`` is ``碰:贰贰贰``.

    Faces are kept sorted. ``huxi``, ``red`` and ``big`` are derived once at
    construction, because win evaluation reads them on every call.
    """

    kind: GroupKind
    faces: tuple[int, ...]
    huxi: int = field(init=False, repr=False, compare=False)
    """胡息 of this group (§2)."""
    red: int = field(init=False, repr=False, compare=False)
    """Red cards in the group (二七十贰柒拾), for 点胡/红胡/乌胡."""
    big: int = field(init=False, repr=False, compare=False)
    """Big cards in the group (壹…拾), for 大字/小字."""

    def __post_init__(self) -> None:
        faces = tuple(sorted(self.faces))
        object.__setattr__(self, "faces", faces)
        kind = self.kind
        if any(not isinstance(f, int) or not 0 <= f < NUM_FACES for f in faces):
            raise NotationError(f"not face indexes 0-19: {list(faces)!r}")
        if len(faces) != kind.size:
            raise NotationError(
                f"a {kind.value} group has {kind.size} cards, got {format_faces(faces)!r}"
            )
        if kind in SAME_FACE_KINDS:
            if faces[0] != faces[-1]:
                raise NotationError(f"a {kind.value} group needs one face: {self}")
            small, big = _SAME_FACE_HUXI[kind]
            huxi = big if faces[0] >= 10 else small
        elif kind is GroupKind.DUI:
            if faces[0] != faces[1]:
                raise NotationError(f"a pair needs one face: {self}")
            huxi = 0
        elif not is_set_shape(*faces):
            raise NotationError(f"not a run, 二七十 or 大小三搭: {self}")
        else:
            huxi = set_shape_huxi(*faces)
        object.__setattr__(self, "huxi", huxi)
        object.__setattr__(self, "red", sum(1 for f in faces if is_red(f)))
        object.__setattr__(self, "big", sum(1 for f in faces if f >= 10))

    @property
    def same_face(self) -> bool:
        """True for 提/跑/偎/臭偎/坎/碰 (what 碰碰胡 counts)."""
        return self.kind in SAME_FACE_KINDS

    @property
    def face(self) -> int:
        """The face of a same-face group or pair."""
        return self.faces[0]

    def notation(self, ascii: bool = False) -> str:
        kind = self.kind.ascii if ascii else self.kind.value
        return f"{kind}:{format_faces(self.faces, ascii=ascii, sep=',' if ascii else '')}"

    def __str__(self) -> str:
        return self.notation()

    def __repr__(self) -> str:
        return f"parse_group({self.notation()!r})"


def parse_group(text: str) -> Group:
    """Parse ``碰:贰贰贰`` / ``peng:b2,b2,b2`` into a :class:`Group`."""
    s = text.strip()
    for sep in (":", "："):
        if sep in s:
            name, _, cards = s.partition(sep)
            break
    else:
        raise NotationError(f"a group is written kind:cards, like 碰:贰贰贰; got {text!r}")
    kind = _KIND_BY_NAME.get(name.strip()) or _KIND_BY_NAME.get(name.strip().lower())
    if kind is None:
        raise NotationError(
            f"unknown group kind {name!r} in {text!r}: expected one of "
            + " ".join(k.value for k in GroupKind)
        )
    try:
        faces = parse_faces(cards)
        return Group(kind, faces)
    except NotationError as e:
        raise NotationError(f"bad group {text!r}: {e}") from None


def parse_groups(text: str | Iterable[str | Group]) -> tuple[Group, ...]:
    """Parse whitespace-separated groups, or pass parsed groups through."""
    if isinstance(text, str):
        return tuple(parse_group(t) for t in text.split())
    return tuple(g if isinstance(g, Group) else parse_group(g) for g in text)


def format_groups(groups: Iterable[Group], ascii: bool = False) -> str:
    return " ".join(g.notation(ascii) for g in groups)


@dataclass(frozen=True, slots=True)
class TableGroup:
    """A group on a seat's table; ``hidden`` ones (偎, dealt 提) lie face down (§14)."""

    group: Group
    hidden: bool = False
