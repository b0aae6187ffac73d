"""The request bodies of the clubs' endpoints, as the OpenAPI schema shows them."""

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["ClubBody", "CodeBody", "InviteBody", "RoleBody", "TemplateBody", "TournamentBody"]

ClubName = Annotated[str, Field(min_length=1, max_length=32)]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)  # true is no 1, "yes" no true


class ClubBody(_Body):
    """A new club's name (1–32 printable characters)."""

    name: ClubName


class CodeBody(_Body):
    """Ask to join the club with this code (six letters and digits)."""

    code: Annotated[str, Field(pattern=r"^[A-Za-z0-9]{6}$")]


class InviteBody(_Body):
    """Join at once with the key of the club's invite link."""

    key: Annotated[str, Field(min_length=1, max_length=64)]


class RoleBody(_Body):
    """The owner's choice of a member's role."""

    role: Literal["admin", "member"]


class TemplateBody(_Body):
    """A room template: a name, RuleSet fields to change (server/rulesets.py: which, to
    what), rounds, the per-decision time limit in seconds (None: none), bot seats or not."""

    name: ClubName
    rules: dict[str, int | bool | str | float | None] = Field(default_factory=dict, max_length=64)
    rounds: Annotated[int, Field(ge=1, le=32)] = 8
    time_limit: Annotated[float, Field(ge=0.1, le=3600, allow_inf_nan=False)] | None = None
    bots: bool = True


class TournamentBody(_Body):
    """A duplicate tournament: ``deals`` deals for ``players``, 3·k of them in table order,
    each a member's account id or a bot kind (a bot fills that seat); ``rotations``: each
    player plays each deal 1 time (at mixed tables; two tables or more) or 3 times (in each
    seat rotation at a fixed table); left out, 1 from two tables on (where no table of any
    deal would seat bots only), else 3."""

    deals: Annotated[int, Field(ge=1, le=32)]
    rotations: Literal[1, 3] | None = None
    players: Annotated[
        list[Annotated[int, Field(ge=1, le=2**31 - 1)] | Annotated[str, Field(max_length=16)]],
        Field(min_length=3, max_length=24),
    ]
