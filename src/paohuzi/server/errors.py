"""The server's one error: a code a client can switch on, a reason people can read, and
the list of every code the server can send (each client has words for each:
tests/web/test_language.py walks this list against the browser's dictionaries)."""

from __future__ import annotations

__all__ = ["ERROR_CODES", "ApiError"]

# Every ``code`` of an HTTP error body or a socket ``error`` message.
ERROR_CODES: frozenset[str] = frozenset(
    {
        "already_authenticated", "already_member", "already_seated", "already_voted",
        "bad_action", "bad_bot", "bad_json", "bad_location", "bad_login", "bad_message",
        "bad_method", "bad_name", "bad_nickname", "bad_password", "bad_players", "bad_request",
        "bad_role", "bad_rules", "bad_step", "bad_username", "busy", "club_full", "forbidden",
        "http_error", "illegal", "in_match", "internal", "left", "match_over", "moved",
        "no_account", "no_analysis", "no_bots", "no_club", "no_decision", "no_match", "no_member",
        "no_room", "no_round", "no_season", "no_table", "no_template", "no_tournament",
        "no_vote", "not_allowed", "not_finished", "not_found", "not_full", "not_host",
        "not_pending", "not_practice", "not_seated", "not_started", "not_waiting",
        "not_your_turn", "owner_stays", "rate_limited", "room_expired", "room_full",
        "room_started", "season_closed", "seat_taken", "spectator", "stale", "too_large",
        "too_many_clubs", "too_many_requests", "too_many_rooms", "too_many_templates",
        "unauthenticated", "unknown_type", "username_taken",
    }
)  # fmt: skip


class ApiError(Exception):
    """A refused request or intent; HTTP answers it with ``status``, a socket with a message."""

    def __init__(self, code: str, reason: str, status: int = 400) -> None:
        super().__init__(f"{code}: {reason}")
        self.code = code
        self.reason = reason
        self.status = status
