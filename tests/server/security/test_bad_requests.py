"""Requests FastAPI refuses (undecodable or invalid bodies, ids out of range) are answered
400 ``{code, reason}`` quoting a bounded snippet, never ``{"detail"}`` 422 or a 500."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from paohuzi.server.app import create_app


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(db_url)) as c:
        yield c


def _refused(r: object, code: str = "bad_request") -> dict[str, str]:
    import httpx

    assert isinstance(r, httpx.Response)
    assert r.status_code == 400, r.text
    body = r.json()
    assert set(body) == {"code", "reason"} and body["code"] == code, body
    return dict(body)


def test_undecodable_and_invalid_bodies(client: TestClient) -> None:
    url = "/accounts/guest"
    as_json = {"Content-Type": "application/json"}
    _refused(client.post(url, content=b"\xff\xfe{", headers=as_json), "bad_json")
    _refused(client.post(url, content=b'{"nickname": ', headers=as_json), "bad_json")
    why = _refused(client.post(url, json={"nickname": 7}), "bad_nickname")["reason"]
    assert why.startswith("nickname:") and "7" in why
    _refused(client.post(url, json={}), "bad_nickname")
    _refused(client.post(url, json={"nickname": "x", "extra": 1}))
    _refused(client.post(url, json=[1, 2]))


def test_a_body_not_sent_as_json_is_quoted_as_text(client: TestClient) -> None:
    plain = {"Content-Type": "text/plain"}
    r = client.post("/accounts/guest", content="nickname=小明".encode(), headers=plain)
    why = _refused(r, "bad_json")["reason"]
    assert "not JSON" in why and "'nickname=小明'" in why and "b'" not in why, why
    r = client.post("/accounts/guest", content=b"\xff" * 500, headers=plain)
    why = _refused(r, "bad_json")["reason"]
    assert len(why) < 200 and "\ufffd" in why, why


def test_a_long_body_is_not_echoed(client: TestClient) -> None:
    huge = "A" * 60_000  # under the 64 KiB body limit (guard.py), over anything we echo
    r = client.post("/accounts/guest", json={"nickname": huge})
    body = _refused(r, "bad_nickname")
    assert len(r.content) < 400 and huge[:100] not in body["reason"]
    r = client.post("/accounts/guest", json={"nickname": ["B" * 50_000]})
    assert len(_refused(r, "bad_nickname")["reason"]) < 200


@pytest.mark.parametrize("match_id", [2**31, 2**63, 2**64 + 5, 10**30, -1, 0])
def test_match_ids_out_of_range(client: TestClient, match_id: int) -> None:
    for path in ("record", "ledger", "rounds/0", "replay/0"):
        r = client.get(f"/matches/{match_id}/{path}")
        assert r.status_code in (400, 404), (path, r.status_code, r.text)
        assert set(r.json()) == {"code", "reason"}, r.text
        assert len(r.json()["reason"]) < 200


def test_largest_match_id_is_no_match(client: TestClient) -> None:
    for path in ("record", "rounds/0", "replay/0"):
        r = client.get(f"/matches/{2**31 - 1}/{path}")  # ids are 32-bit on PostgreSQL
        assert r.status_code == 404 and r.json()["code"] == "no_match", r.text


def test_openapi_documents_400_not_422(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    for path, ops in schema["paths"].items():
        for method, op in ops.items():
            assert "422" not in op["responses"], (method, path)
    assert "HTTPValidationError" not in schema["components"]["schemas"]


def test_a_socket_message_refused_by_its_schema_quotes_the_value_bounded() -> None:
    """A socket's ``bad_message`` quotes what was sent, cut as an HTTP refusal's is (it
    named the field and the rule only: "phrase: less than or equal to 15")."""
    from paohuzi.server.errors import ApiError
    from paohuzi.server.frames import read_frame
    from paohuzi.server.validation import SNIPPET

    for msg, shown in (({"type": "chat", "phrase": 99}, "got 99"),
                       ({"type": "act", "action": 3, "step": "x" * 500, "client_id": "a"},
                        "got 'xxx"),
                       ({"type": "act", "action": 10**4000, "step": 1, "client_id": "a"},
                        "got 1000"),
                       ({"type": "act", "action": 3, "step": 10**100, "client_id": "a"},
                        "got 1000")):  # fmt: skip
        import json

        with pytest.raises(ApiError) as e:
            read_frame({"type": "websocket.receive", "text": json.dumps(msg)})
        assert e.value.code == "bad_message" and shown in e.value.reason, e.value.reason
        assert len(e.value.reason) < 80 + SNIPPET


def test_a_value_of_another_json_type_is_refused_not_converted(client: TestClient) -> None:
    """``true`` was taken for 1 round, ``"yes"`` for a public room: a body's values are
    read strictly, each refusal naming its field and quoting the value."""
    token = client.post("/accounts/guest", json={"nickname": "h"}).json()["token"]
    h = {"Authorization": f"Bearer {token}"}
    for body, field in (
        ({"rounds": True}, "rounds"),
        ({"rounds": "8"}, "rounds"),
        ({"rounds": 8.0}, "rounds"),
        ({"public": "yes"}, "public"),
        ({"public": 1}, "public"),
        ({"ready_seconds": True}, "ready_seconds"),
        ({"time_limit": "30"}, "time_limit"),
    ):
        why = _refused(client.post("/rooms", json=body, headers=h))["reason"]
        assert why.startswith(f"{field}:") and repr(next(iter(body.values()))) in why, why
    r = client.post("/rooms", json={"rounds": 2, "public": False, "time_limit": 30}, headers=h)
    assert r.status_code == 201, r.text  # a whole number where seconds go is a number


def test_a_number_too_long_to_read_is_named_as_such(client: TestClient) -> None:
    as_json = {"Content-Type": "application/json"}
    body = b'{"rounds": ' + b"9" * 5000 + b"}"
    why = _refused(client.post("/rooms", content=body, headers=as_json), "bad_json")["reason"]
    assert "4,300 digits" in why and "nests" not in why and len(why) < 200, why


def test_nicknames_and_passwords_a_person_may_not_take(client: TestClient) -> None:
    """A nickname the table gives a server bot's seat would let a person pass for one; a
    refused nickname is quoted as sent (a full-width space was quoted as ''); a password
    of NUL bytes was accepted."""
    for name in ("普通机器人2号", "大师机器人", "Normal bot 2", "bot1", "普通機器人2號",
                 "普通机器⼈2号", "Normal bоt 2", "Normal ｂｏｔ 2", "Master bot"):  # fmt: skip
        r = client.post("/accounts/guest", json={"nickname": name})
        assert r.status_code == 400 and r.json()["code"] == "bad_nickname", (name, r.text)
        assert repr(name) in r.json()["reason"], r.text
    for name in ("heuristic bot", "Abbot", "小明"):  # (``paohuzi bot`` names itself so)
        assert client.post("/accounts/guest", json={"nickname": name}).status_code == 201
    r = client.post("/accounts/guest", json={"nickname": "\u3000"})
    assert r.json()["code"] == "bad_nickname" and repr("\u3000") in r.json()["reason"], r.text
    for password in ("\x00" * 8, "abc\ndefgh", "tab\tpassword", "12345678\u2028",
                     "12345678\u200b", " " * 8):  # fmt: skip
        r = client.post(
            "/accounts/register", json={"username": "alice", "password": password, "nickname": "A"}
        )
        assert r.status_code == 400 and r.json()["code"] == "bad_password", r.text
        assert "control or invisible" in r.json()["reason"] or "spaces" in r.json()["reason"]
    r = client.post(
        "/accounts/register",
        json={"username": "alice", "password": "密码 with spaces", "nickname": "A"},
    )
    assert r.status_code == 201, r.text


def test_a_long_room_code_is_quoted_cut(client: TestClient) -> None:
    """``GET /rooms/<60,000 digits>/hint`` quoted the whole code back."""
    token = client.post("/accounts/guest", json={"nickname": "h"}).json()["token"]
    r = client.get(f"/rooms/{'7' * 60_000}/hint", headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 404 and r.json()["code"] == "no_room", r.text[:200]
    assert len(r.content) < 200, len(r.content)
