"""The HTTP API's request bodies and error answers, as the OpenAPI schema shows them."""

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

from ..bots.levels import LEVELS

__all__ = [
    "BOT_KINDS",
    "ERROR_RESPONSES",
    "BotBody",
    "Credentials",
    "ErrorBody",
    "GuestBody",
    "JoinBody",
    "LocationBody",
    "RegisterBody",
    "RoomBody",
]

# the algorithms by name, then the levels people choose (入门 普通 高手 大师, and aliases)
BOT_KINDS = (
    "random",
    "heuristic",
    "search",
    "learned",
    "guided",
    *(n for name, (alias, _b, _f) in LEVELS.items() for n in (name, alias)),
)


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)  # true is no 1, "yes" no true


# What accounts.py accepts, written into the schema (nicknames are also stripped and must
# be printable: checked there, answered 400 bad_nickname).
Username = Annotated[str, Field(pattern=r"^[A-Za-z0-9_]{3,32}$")]
Password = Annotated[str, Field(min_length=8, max_length=128)]
Nickname = Annotated[str, Field(min_length=1, max_length=32)]


class Credentials(_Body):
    """Username and password (a wrong one of either is a bad login, 401)."""

    username: Annotated[str, Field(max_length=32)]
    password: Annotated[str, Field(max_length=128)]


class RegisterBody(_Body):
    """A new account; the nickname defaults to the username."""

    username: Username
    password: Password
    nickname: Nickname | None = None


class GuestBody(_Body):
    """A guest account."""

    nickname: Nickname


class RoomBody(_Body):
    """Room options: rounds, public or private, the per-decision time limit in seconds
    (None: no limit), and RuleSet fields to change (server/rulesets.py: which, to what)."""

    rounds: Annotated[int, Field(ge=1, le=32)] = 8
    public: bool = True
    time_limit: Annotated[float, Field(ge=0.1, le=3600, allow_inf_nan=False)] | None = None
    # Seconds to press 准备 after a round's 结算 (None: server/ready.py's default).
    ready_seconds: Annotated[float, Field(ge=1, le=300, allow_inf_nan=False)] | None = None
    # Any JSON scalar, so that a float or a null is refused by rulesets.py naming the
    # allowed values (``bad_rules``), as a string or an out-of-range integer is.
    rules: dict[str, int | bool | str | float | None] = Field(default_factory=dict)


class JoinBody(_Body):
    """Which seat to take (None: the first free one), and a private room's invite key."""

    seat: Annotated[int | None, Field(ge=0, le=2)] = None
    key: Annotated[str | None, Field(max_length=64)] = None


# A coordinate in degrees: a finite JSON number in range (true, "1.5", NaN are refused).
Latitude = Annotated[float, Field(ge=-90, le=90, allow_inf_nan=False, strict=True)]
Longitude = Annotated[float, Field(ge=-180, le=180, allow_inf_nan=False, strict=True)]


class LocationBody(_Body):
    """A seated player's rough position, shared by its own choice for the close-by warning
    (nearby.py): the server keeps it rounded to 0.005 degree and never shows it."""

    lat: Latitude
    lon: Longitude


class BotBody(_Body):
    """Fill a seat (None: every free seat) with a bot."""

    seat: Annotated[int | None, Field(ge=0, le=2)] = None
    bot: str = "heuristic"


class ErrorBody(BaseModel):
    """Every refused HTTP request: a code a client can switch on and a reason to show."""

    code: str
    reason: str


# The refusals any call may answer with (documented in the OpenAPI schema).
ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorBody, "description": why}
    for status, why in [
        (400, "a bad request (the code says which check failed)"),
        (401, "no valid session token, or a bad login"),
        (403, "not allowed (only the host may do this)"),
        (404, "no such room or match"),
        (409, "the room or match is not in a state for this"),
        (413, "a request body over the limit (64 KiB)"),
        (429, "too many requests (failed logins, sign-ups, rooms, look-ups, replays)"),
        (503, "not ready yet, or no free room code"),
    ]
}
