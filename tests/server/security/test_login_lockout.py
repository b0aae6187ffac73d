"""Wrong passwords are limited per (account, address) and per address: an attacker at
another address cannot lock the real owner out of an account."""

from __future__ import annotations

import pytest

from paohuzi.server.accounts import LoginLimiter
from paohuzi.server.errors import ApiError


def test_an_attacker_elsewhere_does_not_lock_the_owner_out() -> None:
    limiter = LoginLimiter()
    for _ in range(50):
        limiter.failed("alice", "203.0.113.9")
    limiter.check("alice", "198.51.100.7")  # the owner, at home: not refused
    with pytest.raises(ApiError) as e:
        limiter.check("alice", "203.0.113.9")
    assert e.value.status == 429 and e.value.code == "rate_limited"


def test_one_address_trying_many_names_is_limited() -> None:
    limiter = LoginLimiter(per_name=5, per_address=20)
    for i in range(20):
        limiter.check(f"user{i}", "203.0.113.9")
        limiter.failed(f"user{i}", "203.0.113.9")
    with pytest.raises(ApiError):
        limiter.check("someone_else", "203.0.113.9")
    limiter.check("someone_else", "198.51.100.7")


def test_five_failures_of_a_pair_are_limited() -> None:
    limiter = LoginLimiter(per_name=5, per_address=20)
    for _ in range(5):
        limiter.check("bob", "198.51.100.7")
        limiter.failed("bob", "198.51.100.7")
    with pytest.raises(ApiError):
        limiter.check("bob", "198.51.100.7")
    limiter.check("carol", "198.51.100.7")


def test_the_owner_logs_in_over_http_while_another_address_is_locked(db_url: str) -> None:
    from fastapi.testclient import TestClient

    from paohuzi.server.app import create_app

    creds = {"username": "dora", "password": "correct horse"}
    app = create_app(db_url)
    with TestClient(app, client=("203.0.113.9", 5000)) as attacker:
        assert attacker.post("/accounts/register", json=creds).status_code == 201
        wrong = {**creds, "password": "wrong horse"}
        assert [attacker.post("/accounts/login", json=wrong).status_code for _ in range(6)] == [
            401
        ] * 5 + [429]
    with TestClient(app, client=("198.51.100.7", 5000)) as owner:
        assert owner.post("/accounts/login", json=creds).status_code == 200
