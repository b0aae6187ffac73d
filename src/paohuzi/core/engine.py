"""The engine's public face: one import for the round, its deal and its windows.

The round lives in :mod:`.state` (transitions), the deal in :mod:`.deal` (§3),
claim windows in :mod:`.claims` (§5, §6, §8), 吃 and 比 in :mod:`.chi` (§7), each
seat's cached facts in :mod:`.facts` (§9, §10 filters), and the state built from
one seat's view in :mod:`.determinize`. This module re-exports what callers use.
"""

from __future__ import annotations

from .claims import Window
from .deal import Deal, random_deal
from .determinize import Assignment, determinize
from .facts import SeatFacts, TableFacts
from .groups import TableGroup
from .state import Phase, RoundResult, State, new_game

__all__ = [
    "Assignment",
    "Deal",
    "Phase",
    "RoundResult",
    "SeatFacts",
    "State",
    "TableFacts",
    "TableGroup",
    "Window",
    "determinize",
    "new_game",
    "random_deal",
]
