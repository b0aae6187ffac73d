"""Parsing a client's WebSocket message with its nesting bounded.

``json.loads`` recurses once per level: a 1,500-deep message raised RecursionError (not
ValueError), which killed the socket without a close frame and logged a traceback each
time. Client messages are flat (two levels at most), so anything deeper than
:data:`MAX_DEPTH` is refused as not JSON before it is parsed.
"""

from __future__ import annotations

import json
import re
from typing import Any

__all__ = ["MAX_DEPTH", "depth", "loads"]

MAX_DEPTH = 8
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')  # a JSON string (its brackets do not nest)


def depth(text: str) -> int:
    """How deep ``text``'s arrays and objects nest (strings skipped)."""
    deepest = level = 0
    for ch in _STRING.sub('""', text):
        if ch in "[{":
            level += 1
            deepest = max(deepest, level)
        elif ch in "]}":
            level -= 1
    return deepest


def loads(text: str, max_depth: int = MAX_DEPTH) -> Any:
    """``json.loads(text)``; ValueError if it nests deeper than ``max_depth`` (or is not
    JSON). Counting brackets first keeps the common message off the slower scan."""
    if text.count("[") + text.count("{") > max_depth and (d := depth(text)) > max_depth:
        raise ValueError(f"nested {d} levels deep; a message nests at most {max_depth}")
    try:
        return json.loads(text)
    except RecursionError:  # (unreachable past the check; kept as the last guard)
        raise ValueError("nested too deep") from None
