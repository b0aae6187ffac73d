"""Accounts, passwords (argon2id) and session tokens (opaque, stored hashed)."""

from __future__ import annotations

import asyncio
import hashlib
import re
import secrets
import time
import unicodedata
from collections import deque
from datetime import UTC, datetime, timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from .db import Account, LedgerEntry, SessionToken, now
from .errors import ApiError

__all__ = [
    "GRANT",
    "TOKEN_LIFETIME",
    "LoginLimiter",
    "account_for_token",
    "create_account",
    "hash_token",
    "login",
    "logout",
    "new_session",
]

GRANT = 100  # 悟性 a new account starts with (one ledger row, reason "grant")
TOKEN_LIFETIME = timedelta(days=7)
_HASHER = PasswordHasher()  # argon2id with the library's recommended parameters
_USERNAME = re.compile(r"^[A-Za-z0-9_]{3,32}$")
# Verifying against this keeps a login for an unknown name as slow as a wrong password.
_DUMMY_HASH = _HASHER.hash("not a password")


def hash_token(token: str) -> str:
    """The stored form of a session token (SHA-256: tokens are long and random)."""
    return hashlib.sha256(token.encode()).hexdigest()


# A nickname that would pass for the name the table gives a server bot's seat ("普通机器人2号",
# "Normal bot 2"), read after folding look-alikes (:func:`_folded`). (A program playing
# through the API, ``paohuzi bot``, is "heuristic bot": allowed.)
_BOT_LIKE = re.compile(
    r"机器人|機器人|\bbot\s*\d|\b(beginner|normal|expert|master|computer)\s*bot\b"
)
# Letters drawn like the Latin ones of "bot" (Cyrillic, Greek): NFKC leaves them apart.
_LOOKALIKE = str.maketrans("оοОΟбвВьЬтТ", "oooobbbbbtt")


def _folded(nickname: str) -> str:
    """``nickname`` as it reads: compatibility forms (full-width ｂｏｔ, the Kangxi radical
    ⼈) and Cyrillic or Greek look-alikes (bоt) made plain, lower case."""
    return unicodedata.normalize("NFKC", nickname).translate(_LOOKALIKE).casefold()


def _check_nickname(raw: str, person: bool = True) -> str:
    nickname = raw.strip()
    if not 1 <= len(nickname) <= 32 or not nickname.isprintable():
        raise ApiError(
            "bad_nickname", f"a nickname has 1-32 printable characters, got {raw[:40]!r}"
        )
    if person and _BOT_LIKE.search(_folded(nickname)):
        raise ApiError(
            "bad_nickname",
            f"a nickname may not pass for a server bot's (机器人, bot 2), got {raw[:40]!r}",
        )
    return nickname


def _check_password(password: str | None) -> str:
    if password is None or not 8 <= len(password) <= 128:
        raise ApiError("bad_password", "a password has 8 to 128 characters")
    # NUL, tabs, newlines (Cc), line and paragraph separators (Zl, Zp), invisible ones (Cf)
    if any(unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") for c in password):
        raise ApiError("bad_password", "a password may not contain control or invisible characters")
    if not password.strip():
        raise ApiError("bad_password", "a password may not be spaces only")
    return password


async def create_account(
    db: AsyncSession,
    *,
    kind: str,
    nickname: str,
    username: str | None = None,
    password: str | None = None,
    grant: int = GRANT,
) -> Account:
    """Add an account with its opening 悟性 grant (flushed, not committed)."""
    nickname = _check_nickname(nickname, person=kind != "bot")
    pw_hash = None
    if kind == "user":
        if username is None or not _USERNAME.match(username):
            raise ApiError(
                "bad_username", f"a username is 3-32 letters, digits or _, got {username!r}"
            )
        password = _check_password(password)
        taken = await db.scalar(select(Account.id).where(Account.username == username))
        if taken is not None:
            raise ApiError("username_taken", f"the username {username!r} is taken", 409)
        pw_hash = await asyncio.to_thread(_HASHER.hash, password)
    acct = Account(
        username=username, nickname=nickname, password_hash=pw_hash, kind=kind, balance=grant
    )
    db.add(acct)
    await db.flush()
    db.add(LedgerEntry(account_id=acct.id, delta=grant, balance_after=grant, reason="grant"))
    return acct


async def new_session(db: AsyncSession, account: Account) -> str:
    """Open a session for ``account``; only the token's hash is stored."""
    token = secrets.token_urlsafe(32)
    db.add(
        SessionToken(
            token_hash=hash_token(token), account_id=account.id, expires_at=now() + TOKEN_LIFETIME
        )
    )
    return token


async def login(db: AsyncSession, username: str, password: str) -> Account:
    """The account if the password matches; one error for a wrong name or password."""
    acct = await db.scalar(select(Account).where(Account.username == username))
    stored = acct.password_hash if acct is not None and acct.password_hash else _DUMMY_HASH
    try:
        await asyncio.to_thread(_HASHER.verify, stored, password)
    except (VerificationError, InvalidHashError):
        acct = None
    if acct is None or acct.password_hash is None:
        raise ApiError("bad_login", "wrong username or password", 401)
    return acct


async def account_for_token(db: AsyncSession, token: str | None) -> Account | None:
    """The account a live session token belongs to, or None."""
    if not token:
        return None
    found = (
        await db.execute(
            select(Account, SessionToken.expires_at)
            .join(SessionToken, SessionToken.account_id == Account.id)
            .where(SessionToken.token_hash == hash_token(token))
        )
    ).first()  # the session and its account in one query (every request asks)
    if found is None:
        return None
    account, expires = found
    expires = expires if expires.tzinfo else expires.replace(tzinfo=UTC)
    if expires <= datetime.now(UTC):
        return None
    me: Account = account
    return me


async def logout(db: AsyncSession, token: str) -> None:
    """End a session (its token stops working at once)."""
    row = await db.get(SessionToken, hash_token(token))
    if row is not None:
        await db.delete(row)


class LoginLimiter:
    """Refuse logins after too many failures in a window: per (name, address) pair, and
    per address.

    Not per name alone: an attacker elsewhere guessing a name's password would lock its
    owner out. The per-address limit stops one address trying many names. In memory, per
    process: enough to stop a password-guessing loop against one server.
    """

    def __init__(self, per_name: int = 5, per_address: int = 20, window: float = 60.0) -> None:
        self.limits = {"pair": per_name, "address": per_address}
        self.window = window
        self.failures: dict[tuple[str, str], deque[float]] = {}

    def _recent(self, key: tuple[str, str]) -> deque[float]:
        q = self.failures.setdefault(key, deque())
        cutoff = time.monotonic() - self.window
        while q and q[0] < cutoff:
            q.popleft()
        return q

    @staticmethod
    def _keys(name: str, address: str) -> tuple[tuple[str, str], tuple[str, str]]:
        return ("pair", f"{address}\x00{name}"), ("address", address)

    def check(self, name: str, address: str) -> None:
        """Raise ``rate_limited`` (429) if either key has used up its failures."""
        for key in self._keys(name, address):
            q = self._recent(key)
            if not q:
                del self.failures[key]  # (forgotten once quiet: the table stays small)
            elif len(q) >= self.limits[key[0]]:
                raise ApiError(
                    "rate_limited",
                    f"too many failed logins; wait {int(self.window)} seconds",
                    429,
                )

    def failed(self, name: str, address: str) -> None:
        """Count a failed login against both keys."""
        now_ = time.monotonic()
        for key in self._keys(name, address):
            self._recent(key).append(now_)
