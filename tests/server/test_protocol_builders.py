"""Each server message's builder (what the server sends) makes what its model (the schema,
docs/protocol.md) describes: every field, in the model's order, valid, for representative
values; and every server message has a builder."""

from __future__ import annotations

import ast
import json
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pydantic")

from pydantic import BaseModel, TypeAdapter

import paohuzi
from paohuzi.server import protocol as p

SERVER = TypeAdapter(p.ServerMessage)


def _view(seat: int | None) -> dict[str, Any]:
    state = paohuzi.new_game(seed=7)
    return p.view_to_dict(paohuzi.view(state, seat))


def _statuses() -> list[dict[str, Any]]:
    return [
        p.seat_status_dict(0, None, True, None),
        p.seat_status_dict(1, "heuristic", True, None),
        p.seat_status_dict(2, None, False, "disconnect"),
    ]


# (the model, its builder's outputs for representative values)
CASES: list[tuple[type[BaseModel], Callable[[], list[dict[str, Any]]]]] = [
    (
        p.Snapshot,
        lambda: [
            p.snapshot_dict(
                5,
                1,
                0,
                3,
                2,
                7,
                _view(1),
                [p.legal_dict(0, "过"), p.legal_dict(12, "打:五")],
                deadline=1.7e9 + 0.25,
                remaining=9.5,
                time_limit=15.0,
                seats=_statuses(),
                dissolve=p.dissolve_vote_dict(0, [True, None, True], 1.7e9, 30.0),
                ready=p.readiness_dict(1, [True, False, True], 1.7e9 + 20, 19.5),
                clocks=[1.7e9 + 0.25, None, None],
            ),
            p.snapshot_dict(
                2**62,
                None,
                3,
                0,
                0,
                0,
                _view(None),
                [],
                deadline=None,
                remaining=None,
                time_limit=None,
                seats=[],
                dissolve=None,
            ),
        ],
    ),
    (
        p.EventMsg,
        lambda: [p.event_dict(1, 0, {"kind": "deal", "seat": 2}), p.event_dict(40, 3, {})],
    ),
    (
        p.Prompt,
        lambda: [
            p.prompt_dict(
                0,
                4,
                4,
                [1],
                [p.legal_dict(3, "吃:一二三")],
                1.7e9,
                14.999,
                _view(1),
                [None, 1.7e9, None],
            ),
            p.prompt_dict(2, 9, 1, [0, 2], [], None, None, None),
        ],
    ),
    (p.Ack, lambda: [p.ack_dict("c-1", 3), p.ack_dict("x" * 64, 0, duplicate=True)]),
    (p.ErrorMsg, lambda: [p.error_dict("stale", "late"), p.error_dict("illegal", "no", "c")]),
    (p.Waiting, lambda: [p.waiting_dict("ABCDEF", 2), p.waiting_dict("ABCDEF", None)]),
    (p.SameAddress, lambda: [p.same_address_dict("123456", [[0, 2]])]),
    (p.CloseBy, lambda: [p.close_by_dict("123456", [[0, 1, 2]])]),
    (
        p.MatchOver,
        lambda: [
            p.match_over_dict(9, [10, -4, -6], [110, 96, 94], False, "ledger", 8),
            p.match_over_dict(9, [0, 0, 0], [0, 0, 0], True, "local", 0),
        ],
    ),
    (p.Pong, lambda: [p.pong_dict()]),
    (p.Seats, lambda: [p.seats_dict(_statuses()), p.seats_dict([])]),
    (
        p.DissolveVote,
        lambda: [
            p.dissolve_vote_dict(2, [None, None, True], 1.7e9 + 0.5, 0.0),
            *(
                p.dissolve_vote_dict(0, [True, False, None], 1.7e9, 12.25, o)
                for o in ("dissolved", "refused", "expired")
            ),
        ],
    ),
    (p.Said, lambda: [p.said_dict(0, 0), p.said_dict(2, 15)]),
    (
        p.Readiness,
        lambda: [
            p.readiness_dict(1, [False, False, True], 1.7e9, 20.0),
            p.readiness_dict(31, [True, True, True], 1.7e9 + 0.5, 0.0),
        ],
    ),
]


def test_every_server_message_has_a_builder() -> None:
    union = typing.get_args(typing.get_args(p.ServerMessage)[0])
    assert set(union) == {model for model, _ in CASES}


@pytest.mark.parametrize(("model", "build"), CASES, ids=[m.__name__ for m, _ in CASES])
def test_builders_make_what_the_schema_says(
    model: type[BaseModel], build: Callable[[], list[dict[str, Any]]]
) -> None:
    for built in build():
        text = p.encode(built)
        msg = SERVER.validate_json(text)  # strict: the wire text, as a client reads it
        assert type(msg) is model
        dumped = msg.model_dump(mode="json")
        # Every field, none extra, in the model's order, with the values given.
        assert list(built) == list(model.model_fields) == list(dumped)
        assert json.loads(text) == dumped


def test_a_builder_that_drifts_is_caught() -> None:
    """The check above fails on a message its model does not accept (a renamed field)."""
    bad = {**p.ack_dict("c", 1), "seq": 1}
    del bad["step"]
    with pytest.raises(ValueError):
        SERVER.validate_json(p.encode(bad))


# The server's modules that may construct a server message's model: where the models are
# defined and re-exported, and the bot client, which reads what the server sends.
_MAY_BUILD_MODELS = {"outbound.py", "protocol.py", "client.py"}
_PROTOCOL = {"protocol", "outbound"}  # the modules a model is imported from
_SERVER_SRC = Path(p.__file__).resolve().parent


def _server_models() -> set[str]:
    """The names of every server message's model and of their nested parts."""
    union = typing.get_args(typing.get_args(p.ServerMessage)[0])
    return {m.__name__ for m in union} | {"LegalAction", "SeatStatus"}


def _model_calls(source: str, models: set[str]) -> list[str]:
    """Where ``source`` calls one of ``models`` imported from the protocol (constructs a
    message as a model), by its name or through the protocol module."""
    tree = ast.parse(source)
    names: dict[str, str] = {}  # a local name -> the protocol model it is
    modules = set()  # local names of the protocol module itself
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[-1] in _PROTOCOL:
            names.update({a.asname or a.name: a.name for a in node.names if a.name in models})
        if isinstance(node, ast.ImportFrom | ast.Import):
            modules.update(a.asname or a.name for a in node.names if a.name in _PROTOCOL)
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        if isinstance(f, ast.Name) and f.id in names:
            found.append((node.lineno, names[f.id]))
        elif (
            isinstance(f, ast.Attribute)
            and f.attr in models
            and getattr(f.value, "id", "") in modules
        ):
            found.append((node.lineno, f.attr))
    return [f"line {n}: {name}(...)" for n, name in sorted(found)]


def test_every_sender_uses_the_builders() -> None:
    """One way to build each server message: no server module constructs its model (a
    model's JSON and its builder's could differ; the builders are what is checked above)."""
    models = _server_models()
    bad = {
        str(f.relative_to(_SERVER_SRC)): calls
        for f in sorted(_SERVER_SRC.rglob("*.py"))
        if f.name not in _MAY_BUILD_MODELS
        and (calls := _model_calls(f.read_text(encoding="utf-8"), models))
    }
    assert bad == {}


def test_a_sender_that_builds_a_model_is_caught() -> None:
    """The check above finds a model built by hand (what ws.py did for a pong)."""
    src = (
        "from . import protocol as p\nfrom .protocol import Pong, ErrorMsg as E\n"
        "conn.put(Pong())\nx = p.ErrorMsg(code='a')\ny = E(code='b')\nz = Readiness(1)\n"
    )
    assert _model_calls(src, _server_models()) == [
        "line 3: Pong(...)",
        "line 4: ErrorMsg(...)",
        "line 5: ErrorMsg(...)",
    ]


def test_an_error_reason_is_bounded_however_long_what_it_quotes() -> None:
    """A socket error may quote what the client sent (a 4,000-digit action was quoted
    whole): every error message's reason is cut to MAX_REASON characters."""
    from paohuzi.server.builders import MAX_REASON, error_dict

    m = error_dict("illegal", "action " + "9" * 4000 + " is not legal", "c1")
    assert len(m["reason"]) == MAX_REASON and m["reason"].endswith("…")
    assert error_dict("stale", "short")["reason"] == "short"
