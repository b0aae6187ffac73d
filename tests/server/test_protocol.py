"""docs/protocol.md holds the schemas the message models generate; views hide what §14 hides."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

pytest.importorskip("pydantic")

import paohuzi
from paohuzi.server.protocol import (
    Act,
    client_adapter,
    render_doc,
    schemas,
    view_to_dict,
)

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def test_doc_holds_the_generated_schemas() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert render_doc(text) == text, "run: python -m paohuzi.server.protocol docs/protocol.md"
    s = schemas()
    assert {"auth", "act", "resync", "ping"} <= set(s["client"]["discriminator"]["mapping"])


def test_client_messages_are_strict() -> None:
    a = client_adapter()
    ok = a.validate_python({"type": "act", "action": "过", "step": 3, "client_id": "c"})
    assert isinstance(ok, Act) and ok.action == "过"
    for bad in [
        {"type": "act", "action": 1, "step": "3", "client_id": "c"},
        {"type": "act", "action": 1, "step": True, "client_id": "c"},
        {"type": "act", "action": 1, "step": 3, "client_id": ""},
        {"type": "auth", "token": "t", "extra": 1},
    ]:
        with pytest.raises(ValueError):
            a.validate_python(bad)


def test_views_hide_other_hands_and_face_down_cards() -> None:
    for seed in range(20):
        state = paohuzi.new_game(seed=seed)
        rng = random.Random(seed)
        while not state.over:
            for seat in range(3):
                d = view_to_dict(paohuzi.view(state, seat))
                assert [h is None for h in d["hands"]] == [s != seat for s in range(3)]
                for s, table in enumerate(state.tables):
                    for t, text in zip(table, d["tables"][s], strict=True):
                        assert ("▢" in text) == (t.hidden and s != seat)
            who = state.to_act()[0]
            ids = state.legal_actions(who)
            state.apply_fast(who, ids[rng.randrange(len(ids))])
