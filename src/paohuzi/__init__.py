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

__version__ = "0.2.0"

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

from .core.actions import Action, ActionKind, parse_action
from .core.engine import Deal, Phase, RoundResult, State, new_game, random_deal
from .core.events import Event, EventDetail, EventKind
from .core.match import Match, replay_match
from .core.record import (
    MatchRecord,
    RecordedAction,
    RecordedResult,
    RoundRecord,
    dumps,
    load_record,
    loads,
    replay,
    round_record,
)
from .core.views import SeatView, ViewGroup, censored_log, format_view, view

__all__ += [
    "Action",
    "ActionKind",
    "Deal",
    "Event",
    "EventDetail",
    "EventKind",
    "Match",
    "MatchRecord",
    "Phase",
    "RecordedAction",
    "RecordedResult",
    "RoundRecord",
    "RoundResult",
    "SeatView",
    "State",
    "ViewGroup",
    "censored_log",
    "dumps",
    "format_view",
    "load_record",
    "loads",
    "new_game",
    "parse_action",
    "random_deal",
    "replay",
    "replay_match",
    "round_record",
    "view",
]
