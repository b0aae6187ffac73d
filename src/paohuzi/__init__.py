"""paohuzi: the reference implementation of 红拐弯跑胡子."""

from __future__ import annotations

from .core.cards import Face, format_faces, parse_face, parse_faces
from .core.errors import (
    HandError,
    IllegalActionError,
    NotationError,
    PaohuziError,
    RecordError,
)
from .core.groups import Group, GroupKind, parse_group, parse_groups
from .core.hand import Wait, WinResult, discard_waits, evaluate_win, waits
from .core.rules import HONG_GUAI_WAN, RuleSet
from .core.scoring import settle

__version__ = "0.1.0"

__all__ = [
    "HONG_GUAI_WAN",
    "Face",
    "Group",
    "GroupKind",
    "HandError",
    "IllegalActionError",
    "NotationError",
    "PaohuziError",
    "RecordError",
    "RuleSet",
    "Wait",
    "WinResult",
    "discard_waits",
    "evaluate_win",
    "format_faces",
    "parse_face",
    "parse_faces",
    "parse_group",
    "parse_groups",
    "settle",
    "waits",
]
