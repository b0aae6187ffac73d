"""Table groups, group kinds and 胡息 (RULES.md §1, §2).

A :class:`Group` is a kind plus its faces. The kind says how the group was formed
(提, 跑, 偎, 臭偎, 坎, 碰, 吃) or, in a winning arrangement, that it was formed in the
hand (句 for a three-card set, 对 for the pair). 胡息 follows from kind and shape.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum

from .cards import NUM_FACES, RED_NUMBERS, format_faces, is_red, parse_faces
from .errors import NotationError

__all__ = [
    "ERQISHI",
    "HUXI",
    "SAME_FACE_KINDS",
    "SCORING_SHAPES",
    "Group",
    "GroupKind",
    "TableGroup",
    "format_groups",
    "huxi_of",
    "is_set_shape",
    "parse_group",
    "parse_groups",
    "same_face_groups",
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
        """The ASCII alias (``peng``), for notation typed on plain keyboards."""
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

HUXI: Mapping[GroupKind, tuple[int, int]] = {
    GroupKind.TI: (9, 12),
    GroupKind.PAO: (6, 9),
    GroupKind.WEI: (3, 6),
    GroupKind.CHOUWEI: (3, 6),
    GroupKind.KAN: (3, 6),
    GroupKind.PENG: (1, 3),
    GroupKind.CHI: (3, 6),
    GroupKind.JU: (3, 6),
    GroupKind.DUI: (0, 0),
}
"""胡息 by kind, (small, big) (§2): the one table of these values.

For 吃 and 句 it is the value of the scoring shapes 一二三 and 二七十; other runs and
大小三搭 score 0.
"""

_r1, _r2, _r3 = sorted(n - 1 for n in RED_NUMBERS)
ERQISHI = (_r1, _r2, _r3)
"""二七十 as number indexes 0–9 (the red numbers, §2): ``(1, 6, 9)``."""
SCORING_SHAPES: tuple[tuple[int, int, int], ...] = ((0, 1, 2), ERQISHI)
"""The 句/吃 shapes that score 胡息 (一二三 and 二七十), as number indexes 0–9."""


def huxi_of(kind: GroupKind, *, big: bool) -> int:
    """胡息 of a same-face group, or of a scoring 句/吃 shape, by size (§2).

    >>> huxi_of(GroupKind.PENG, big=True), huxi_of(GroupKind.TI, big=False)
    (3, 9)
    """
    return HUXI[kind][1 if big else 0]


_KIND_BY_NAME: dict[str, GroupKind] = {}
for _k in GroupKind:
    _KIND_BY_NAME[_k.value] = _k
    _KIND_BY_NAME[_k.ascii] = _k


def is_set_shape(a: int, b: int, c: int) -> bool:
    """Tell whether three sorted faces form a run, 二七十/贰柒拾 or 大小三搭 (§2).

    >>> is_set_shape(1, 6, 9), is_set_shape(3, 3, 13), is_set_shape(0, 1, 3)
    (True, True, False)
    """
    if a // 10 == b // 10 == c // 10:
        na, nb, nc = a % 10, b % 10, c % 10
        if nb == na + 1 and nc == nb + 1:
            return True
        return (na, nb, nc) == ERQISHI
    # mixed sizes: one number, 2 + 1
    return a % 10 == b % 10 == c % 10 and not (a == b == c)


def set_shape_huxi(a: int, b: int, c: int) -> int:
    """胡息 of a 句/吃 shape (sorted faces): 一二三 and 二七十 score, the rest 0 (§2).

    >>> set_shape_huxi(11, 16, 19), set_shape_huxi(3, 4, 5)
    (6, 0)
    """
    if a // 10 == b // 10 == c // 10 and (a % 10, b % 10, c % 10) in SCORING_SHAPES:
        return huxi_of(GroupKind.JU, big=a >= 10)
    return 0


@dataclass(frozen=True, slots=True, init=False)
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

    def __init__(self, kind: object, faces: object) -> None:
        """Check the shape (§2) and derive 胡息, red and big cards once.

        The arguments are typed ``object`` and checked here, so that a wrong type is
        a NotationError on both builds (a compiled typed constructor would raise
        TypeError before these checks).
        """
        if not isinstance(kind, GroupKind):
            raise NotationError(f"not a group kind: {kind!r}")
        try:
            items: list[object] = sorted(faces)  # type: ignore[call-overload]
        except TypeError:
            raise NotationError(f"not face indexes 0-19: {faces!r}") from None
        fs = tuple(f for f in items if isinstance(f, int) and 0 <= f < NUM_FACES)
        if len(fs) != len(items):
            raise NotationError(f"not face indexes 0-19: {items!r}")
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "faces", fs)
        if len(fs) != kind.size:
            raise NotationError(
                f"a {kind.value} group has {kind.size} cards, got {format_faces(fs)!r}"
            )
        if kind in SAME_FACE_KINDS:
            if fs[0] != fs[-1]:
                raise NotationError(f"a {kind.value} group needs one face: {self}")
            huxi = huxi_of(kind, big=fs[0] >= 10)
        elif kind is GroupKind.DUI:
            if fs[0] != fs[1]:
                raise NotationError(f"a pair needs one face: {self}")
            huxi = 0
        elif not is_set_shape(*fs):
            raise NotationError(f"not a run, 二七十 or 大小三搭: {self}")
        else:
            huxi = set_shape_huxi(*fs)
        object.__setattr__(self, "huxi", huxi)
        object.__setattr__(self, "red", sum(1 for f in fs if is_red(f)))
        object.__setattr__(self, "big", sum(1 for f in fs if f >= 10))

    @property
    def same_face(self) -> bool:
        """True for 提/跑/偎/臭偎/坎/碰 (what 碰碰胡 counts)."""
        return self.kind in SAME_FACE_KINDS

    @property
    def face(self) -> int:
        """The face of a same-face group or pair."""
        return self.faces[0]

    def notation(self, *, ascii: bool = False) -> str:
        """Write the group as notation that :func:`parse_group` reads back.

        >>> parse_group("peng:b2,b2,b2").notation()
        '碰:贰贰贰'
        """
        kind = self.kind.ascii if ascii else self.kind.value
        return f"{kind}:{format_faces(self.faces, ascii=ascii, sep=',' if ascii else '')}"

    def __str__(self) -> str:
        """Print as notation, the way players write groups."""
        return self.notation()

    def __repr__(self) -> str:
        """Rebuild the value: ``parse_group('碰:贰贰贰')``."""
        return f"parse_group({self.notation()!r})"


_parsed: dict[str, Group] = {}
_PARSED_LIMIT = 4096


def parse_group(text: object) -> Group:
    """Parse ``碰:贰贰贰`` / ``peng:b2,b2,b2`` into a :class:`Group`.

    Groups are immutable, so each text is parsed (and checked) once and remembered;
    a text that fails is not remembered and fails again.

    >>> parse_group("碰:贰贰贰")
    parse_group('碰:贰贰贰')
    """
    if not isinstance(text, str):
        return _parse_group(text)  # raises, quoting it
    hit = _parsed.get(text)
    if hit is None:
        hit = _parse_group(text)
        if len(_parsed) >= _PARSED_LIMIT:
            _parsed.clear()
        _parsed[text] = hit
    return hit


def _parse_group(text: object) -> Group:
    """Parse one group, uncached."""
    if not isinstance(text, str):
        raise NotationError(f"a group is written kind:cards, like 碰:贰贰贰; got {text!r}")
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


def parse_groups(text: object) -> tuple[Group, ...]:
    """Parse whitespace-separated groups, or pass parsed groups through.

    >>> parse_groups("碰:贰贰贰 chi:b1,b2,b3")
    (parse_group('碰:贰贰贰'), parse_group('吃:壹贰叁'))
    """
    if isinstance(text, str):
        return tuple(parse_group(t) for t in text.split())
    try:
        items: Iterable[object] = text  # type: ignore[assignment]
        return tuple(g if isinstance(g, Group) else parse_group(g) for g in items)
    except TypeError:
        raise NotationError(
            f"groups are written like '碰:贰贰贰 吃:壹贰叁', got {text!r}"
        ) from None


def same_face_groups(kind: GroupKind) -> tuple[Group, ...]:
    """One same-face group of ``kind`` per face (提, 跑, 偎, 坎, 碰, 对...), by face.

    Immutable, so the engine and win evaluation build them once and share them.
    """
    return tuple(Group(kind, (f,) * kind.size) for f in range(NUM_FACES))


def format_groups(groups: Iterable[Group], *, ascii: bool = False) -> str:
    """Write groups as notation that :func:`parse_groups` reads back."""
    return " ".join(g.notation(ascii=ascii) for g in groups)


@dataclass(frozen=True, slots=True)
class TableGroup:
    """A group on a seat's table; ``hidden`` ones (偎, dealt 提) lie face down (§14)."""

    group: Group
    hidden: bool = False
