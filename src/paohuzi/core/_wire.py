"""Checked reads of JSON values for records and events.

Loading a record must fail with one :class:`RecordError` that quotes the bad
value, never with the ``KeyError``/``TypeError`` a plain ``d["x"]`` would give.
Each reader takes ``what``, the field's name as the message should show it.
"""

from __future__ import annotations

from collections.abc import Mapping

from .errors import PaohuziError, RecordError

__all__ = [
    "check_keys",
    "quote",
    "read_bool",
    "read_dict",
    "read_int",
    "read_ints",
    "read_list",
    "read_opt_int",
    "read_seat",
    "read_str",
    "require",
    "reraise",
]


def quote(value: object, limit: int = 60) -> str:
    """Return ``repr(value)`` cut to ``limit`` characters, for one-line messages."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def read_dict(value: object, what: str) -> Mapping[str, object]:
    """Return ``value`` if it is a JSON object, else raise RecordError."""
    if not isinstance(value, Mapping):
        raise RecordError(f"{what} must be an object, got {quote(value)}")
    return value


def require(d: Mapping[str, object], key: str, what: str) -> object:
    """Return ``d[key]``; a missing key is a RecordError naming ``what``."""
    try:
        return d[key]
    except KeyError:
        raise RecordError(f"{what} lacks {key!r}: {quote(dict(d))}") from None


def check_keys(d: Mapping[str, object], known: frozenset[str], what: str) -> None:
    """Reject keys outside ``known`` (a typo would otherwise be ignored)."""
    unknown = sorted(k for k in d if k not in known)
    if unknown:
        raise RecordError(f"{what} has unknown key(s) {unknown!r}")


def read_int(value: object, what: str) -> int:
    """Return ``value`` if it is an int (not a bool, a float or a numeric string)."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise RecordError(f"{what} must be an integer, got {quote(value)}")
    return value


def read_opt_int(value: object, what: str) -> int | None:
    """Return ``value`` if it is an int or null."""
    return None if value is None else read_int(value, what)


def read_seat(value: object, what: str) -> int:
    """Return ``value`` if it is a seat number 0, 1 or 2."""
    seat = read_int(value, what)
    if seat not in (0, 1, 2):
        raise RecordError(f"{what} must be seat 0, 1 or 2, got {quote(value)}")
    return seat


def read_bool(value: object, what: str) -> bool:
    """Return ``value`` if it is true or false."""
    if not isinstance(value, bool):
        raise RecordError(f"{what} must be true or false, got {quote(value)}")
    return value


def read_str(value: object, what: str) -> str:
    """Return ``value`` if it is a string."""
    if not isinstance(value, str):
        raise RecordError(f"{what} must be a string, got {quote(value)}")
    return value


def read_list(value: object, what: str, size: int | None = None) -> list[object]:
    """Return ``value`` if it is a JSON array (of ``size`` items, when given)."""
    if not isinstance(value, list):
        raise RecordError(f"{what} must be a list, got {quote(value)}")
    if size is not None and len(value) != size:
        raise RecordError(f"{what} must hold {size} items, got {quote(value)}")
    return value


def read_ints(value: object, what: str, size: int | None = None) -> tuple[int, ...]:
    """Return ``value`` as a tuple if it is a list of ints (of ``size`` items)."""
    return tuple(read_int(x, f"{what} item") for x in read_list(value, what, size))


def reraise(e: PaohuziError, what: str) -> RecordError:
    """Return a library error met while loading as a RecordError naming ``what``."""
    return RecordError(f"{what}: {e}")
