"""The tables of 亲友圈 (clubs), ratings and fair play: clubs, their members and requests, room
templates, the rooms a club opened, seasons, the per-round results its standings are
summed from, every account's openskill rating, and the hashed addresses seats joined from
(migration ``0006_clubs``).

Imported by db.py, so that ``Base.metadata`` (what the migrations must equal) holds them.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
    text,
)
from sqlalchemy.orm import Mapped, mapped_column

from .db import Base, now

__all__ = [
    "Club",
    "ClubMember",
    "ClubResult",
    "ClubRoom",
    "ClubSeason",
    "ClubTemplate",
    "Rating",
    "SeatAddress",
    "SeatLocation",
    "Tournament",
    "TournamentGame",
    "TournamentPlayer",
]


class Club(Base):
    """A 亲友圈: its name, its code (what members type to ask to join) and the invite key
    its invite link carries (joins at once, no approval)."""

    __tablename__ = "clubs"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(32))
    code: Mapped[str] = mapped_column(String(8), unique=True)
    invite_key: Mapped[str] = mapped_column(String(32))
    owner_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class ClubMember(Base):
    """An account's place in a club: ``owner``, ``admin``, ``member``, or ``pending``
    (asked to join, not yet approved: sees nothing of the club)."""

    __tablename__ = "club_members"
    __table_args__ = (Index("ix_club_members_account", "account_id"),)
    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id"), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    role: Mapped[str] = mapped_column(String(8))
    joined_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class ClubTemplate(Base):
    """A room a member opens with a tap: rules (what rulesets.py allows), rounds, the
    per-decision time limit, and whether bots may take seats."""

    __tablename__ = "club_templates"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id"), index=True)
    name: Mapped[str] = mapped_column(String(32))
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)  # the host's changes only
    rounds: Mapped[int] = mapped_column(Integer)
    time_limit: Mapped[float | None] = mapped_column(Float)
    bots: Mapped[bool] = mapped_column(Boolean)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class ClubRoom(Base):
    """A room opened in a club: only its members may see, join or watch it."""

    __tablename__ = "club_rooms"
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"), primary_key=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id"), index=True)
    template_id: Mapped[int | None] = mapped_column(ForeignKey("club_templates.id"))
    bots: Mapped[bool] = mapped_column(Boolean)


class ClubSeason(Base):
    """A season of a club's standings, numbered from 1; the open one has no ``closed_at``."""

    __tablename__ = "club_seasons"
    __table_args__ = (UniqueConstraint("club_id", "number", name="uq_club_season_number"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id"))
    number: Mapped[int] = mapped_column(Integer)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    closed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class ClubResult(Base):
    """One seat's result of one played round of a club room: written in the round's
    settling transaction (persist.py), never by any endpoint; standings are their sums."""

    __tablename__ = "club_results"
    __table_args__ = (
        UniqueConstraint("match_id", "round_index", "account_id", name="uq_club_result"),
    )
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id"))
    season_id: Mapped[int] = mapped_column(ForeignKey("club_seasons.id"), index=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id"))
    round_index: Mapped[int] = mapped_column(Integer)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"))
    delta: Mapped[int] = mapped_column(BigInteger)
    won: Mapped[bool] = mapped_column(Boolean)
    last: Mapped[bool] = mapped_column(Boolean)  # the match's last round
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class Rating(Base):
    """An account's openskill rating (Plackett-Luce ``mu`` and ``sigma``) from its
    standard-rule matches; an account with no row has the model's prior."""

    __tablename__ = "ratings"
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    matches: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class SeatAddress(Base):
    """Where a seated player joined from, as a salted hash (never the address itself):
    fairplay.py warns the table when two seats share one."""

    __tablename__ = "seat_addresses"
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    address_hash: Mapped[str] = mapped_column(String(64))


class SeatLocation(Base):
    """A seated player's coarse position in an open room, shared only by its own opt-in
    (nearby.py): whole cells of 1/200 degree, never more. Deleted when the player
    withdraws or leaves, and when the room starts or expires; never shown to anyone."""

    __tablename__ = "seat_locations"
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    lat_cell: Mapped[int] = mapped_column(Integer)
    lon_cell: Mapped[int] = mapped_column(Integer)


class Tournament(Base):
    """A club's duplicate tournament (tournaments.py): ``deals`` deals for ``3 · tables``
    players, each deal played at every table in each of ``rotations`` seat rotations (3:
    the groups of three at fixed tables; 1: each player once, at mixed tables); ``stage``
    counts the (deal, rotation) steps opened so far."""

    __tablename__ = "tournaments"
    # A club plays one tournament at a time, held by the database: concurrent creates
    # each saw none running and all went in (services/tournaments.create).
    __table_args__ = (
        Index(
            "uq_tournament_playing",
            "club_id",
            unique=True,
            sqlite_where=text("status = 'playing'"),
            postgresql_where=text("status = 'playing'"),
        ),
    )
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id"), index=True)
    deals: Mapped[int] = mapped_column(Integer)
    tables: Mapped[int] = mapped_column(Integer)
    rotations: Mapped[int] = mapped_column(Integer, server_default="3")
    seed: Mapped[int] = mapped_column(BigInteger)
    stage: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(8))  # "playing" or "finished"
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class TournamentPlayer(Base):
    """A tournament's player in slot ``slot`` (table ``slot // 3``): a member, or a bot."""

    __tablename__ = "tournament_players"
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    slot: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"))
    bot: Mapped[str | None] = mapped_column(String(16))


class TournamentGame(Base):
    """One table's play of one deal in one rotation: its room (and so its match)."""

    __tablename__ = "tournament_games"
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    deal: Mapped[int] = mapped_column(Integer, primary_key=True)
    rotation: Mapped[int] = mapped_column(Integer, primary_key=True)
    table: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"))
