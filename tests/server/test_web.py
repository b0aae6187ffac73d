"""The endpoints the browser client uses: the hint, a round's 结算, replays, test seeds, /."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import paohuzi
from paohuzi.core.cards import glyph
from paohuzi.core.hand import waits_counts
from paohuzi.server.app import create_app
from paohuzi.server.protocol import view_to_dict
from paohuzi.server.web import hint_json, result_json


def _client(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seeds: bool) -> TestClient:
    if seeds:
        monkeypatch.setenv("PAOHUZI_TEST_SEEDS", "1")
    else:
        monkeypatch.delenv("PAOHUZI_TEST_SEEDS", raising=False)
    return TestClient(create_app(f"sqlite:///{tmp_path / 'web.db'}"))


def _bot_match(c: TestClient, seed: int | None) -> tuple[dict[str, str], str, int]:
    tok = c.post("/accounts/guest", json={"nickname": "h"}).json()["token"]
    h = {"Authorization": f"Bearer {tok}"}
    code = c.post("/rooms", json={"rounds": 1}, headers=h).json()["code"]
    c.post(f"/rooms/{code}/bots", json={"bot": "random"}, headers=h)
    if seed is not None:
        assert c.post(f"/rooms/{code}/seed", json={"seed": seed}, headers=h).status_code == 204
    match_id = c.post(f"/rooms/{code}/start", headers=h).json()["match_id"]
    deadline = time.monotonic() + 30
    while c.get(f"/matches/{match_id}/record").status_code != 200:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    return h, code, match_id


def test_a_seeded_room_deals_its_seed_and_replays_step_by_step(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with _client(tmp_path, monkeypatch, seeds=True) as c:
        _, data_code, match_id = _bot_match(c, 4242)
        rec = paohuzi.MatchRecord.from_dict(c.get(f"/matches/{match_id}/record").json())
        assert rec.seed == 4242
        (st,) = paohuzi.replay_match(rec)
        r = c.get(f"/matches/{match_id}/rounds/0").json()
        assert r == {"round": 0, **result_json(st)}
        derived = c.app.state.server.derived  # a finished match's 结算: worked out once
        built = derived.builds
        assert c.get(f"/matches/{match_id}/rounds/0").json() == r and derived.builds == built
        assert sum(r["deltas"]) == 0 and r["balances"] == list(st.result.balances)
        if st.result.win is not None:
            w = st.result.win
            assert r["win"]["score"] == w.score and r["win"]["mingtang"] == [
                [k, v] for k, v in w.mingtang.items()
            ]
            assert sum(g["huxi"] for g in r["win"]["groups"]) == w.huxi
            # the 自摸 bonus itemised: the rest is ⌊(胡息 − 12) / 3⌋ (RULES.md §10)
            assert r["win"]["zimo_tun"] == (1 if w.self_drawn else 0)
            assert r["win"]["tun"] - r["win"]["zimo_tun"] == (w.huxi - 12) // 3
        actions = rec.rounds[0].actions
        for seat in (None, 0, 2):
            q = "" if seat is None else f"?seat={seat}"
            data = c.get(f"/matches/{match_id}/replay/0{q}").json()
            assert len(data["steps"]) == len(actions) + 1
            for k in (0, len(actions) // 2, len(actions)):
                want = paohuzi.view(paohuzi.replay(rec.rounds[0], upto=k), seat)
                assert data["steps"][k]["view"] == view_to_dict(want)
            events = [e for s in data["steps"] for e in s["events"]]
            assert events == [e.to_dict() for e in paohuzi.censored_log(st, seat)]
            seats = c.get(f"/rooms/{data_code}").json()["seats"]
            assert data["names"] == [s["nickname"] for s in seats] == ["random bot"] * 3
            assert data["bots"] == [s["bot"] for s in seats] == ["random"] * 3
            assert data["accounts"] == [s["account_id"] for s in seats]
        # With every hand open: each step shows each seat's hand and face-down groups as that
        # seat saw them, the whole log uncensored, and whom a claim window waits for.
        data = c.get(f"/matches/{match_id}/replay/0?open=1").json()
        assert data["open"] is True and data["seat"] is None
        assert len(data["steps"]) == len(actions) + 1
        for k in range(len(actions) + 1):
            state = paohuzi.replay(rec.rounds[0], upto=k)
            shown = data["steps"][k]["view"]
            for s in range(3):
                own = view_to_dict(paohuzi.view(state, s))
                assert shown["hands"][s] == own["hands"][s] is not None
                assert shown["tables"][s] == own["tables"][s]
                assert all("▢" not in g for g in shown["tables"][s])
            assert shown["to_act"] == list(state.to_act())
        events = [e for s in data["steps"] for e in s["events"]]
        assert events == [e.to_dict() for e in st.log]
        assert c.get(f"/matches/{match_id}/replay/0?open=maybe").status_code == 400
        assert c.get(f"/matches/{match_id}/replay/1").status_code == 404
        assert c.get(f"/matches/{match_id}/replay/0?seat=3").status_code == 400
        assert c.get(f"/matches/{match_id}/rounds/1").status_code == 404
        # A round the match never had is no round (not one "not over"), the number quoted
        # in bounded form, however large; the 结算 and the replay say it in the same words.
        for rnd in (1, 31, 99999999999999999999):
            r = c.get(f"/matches/{match_id}/rounds/{rnd}")
            assert r.status_code == 404 and r.json()["code"] == "no_round", r.text
            assert len(r.json()["reason"]) < 80
            replay = c.get(f"/matches/{match_id}/replay/{rnd}")
            assert replay.status_code == 404 and replay.json() == r.json(), replay.text
        assert c.get("/matches/999/rounds/0").json()["code"] == "no_match"


def test_seeds_are_off_by_default_and_the_client_is_served(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with _client(tmp_path, monkeypatch, seeds=False) as c:
        tok = c.post("/accounts/guest", json={"nickname": "h"}).json()["token"]
        h = {"Authorization": f"Bearer {tok}"}
        code = c.post("/rooms", json={"rounds": 1}, headers=h).json()["code"]
        assert c.post(f"/rooms/{code}/seed", json={"seed": 1}, headers=h).status_code in (404, 405)
        page = c.get("/")
        assert page.status_code == 200 and '<script type="module"' in page.text
        assert c.get("/static/app.js").headers["content-type"].startswith("text/javascript")
        assert c.get("/static/nope.js").status_code == 404
        # The hint: only for a seat of the room, and only once it has started.
        other = c.post("/accounts/guest", json={"nickname": "o"}).json()["token"]
        assert (
            c.get(f"/rooms/{code}/hint", headers={"Authorization": f"Bearer {other}"}).json()[
                "code"
            ]
            == "not_seated"
        )
        c.post(f"/rooms/{code}/join", json={"seat": 0}, headers=h)
        assert c.get(f"/rooms/{code}/hint", headers=h).json()["code"] == "not_started"
        assert c.get(f"/rooms/{code}/hint").status_code == 401


def _random_states(n: int) -> list[Any]:
    import random

    out = []
    for seed in range(n):
        st = paohuzi.new_game(seed=seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(5, 40)):
            if st.over:
                break
            s = st.to_act()[0]
            st.apply(s, rng.choice(list(st.legal_actions(s))))
        out.append(st)
    return out


def test_the_hint_is_the_seats_own_waits() -> None:
    """Per legal discard the waits it leaves, else the waits now; from the seat's view only."""
    checked = 0
    for st in _random_states(40):
        for seat in range(3):
            h = hint_json(st, seat, 7)
            assert h["step"] == 7  # the seat's own step, never the round's decision count
            v = paohuzi.view(st, seat)
            table = [g.group() for g in v.tables[seat] if g.group() is not None]
            counts = v.hand_counts()
            if v.over:
                assert h["now"] == h["after"] == []
                continue
            discards = {a.face for a in v.legal if a.kind.value == "打"}
            after = {a["discard"]: [w["face"] for w in a["waits"]] for a in h["after"]}
            for f in discards:
                left = list(counts)
                left[f] -= 1
                want = [glyph(w.face) for w in waits_counts(table, left, st.rules)]
                assert after.get(glyph(f), []) == want  # listed exactly when it leaves a 听
                checked += 1
            if not discards:
                assert [w["face"] for w in h["now"]] == [
                    glyph(w.face) for w in waits_counts(table, counts, st.rules)
                ]
    assert checked > 0


def test_a_running_match_has_no_replay_open_or_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every hand open is what the record shows, so it waits for the record: a match still
    being played (a person's seat waiting for them) answers 409, as its record does."""
    with _client(tmp_path, monkeypatch, seeds=False) as c:
        tok = c.post("/accounts/guest", json={"nickname": "p"}).json()["token"]
        h = {"Authorization": f"Bearer {tok}"}
        code = c.post("/rooms", json={"rounds": 1}, headers=h).json()["code"]
        assert c.post(f"/rooms/{code}/join", json={"seat": 0}, headers=h).status_code == 200
        c.post(f"/rooms/{code}/bots", json={"bot": "random"}, headers=h)
        match_id = c.post(f"/rooms/{code}/start", headers=h).json()["match_id"]
        for q in ("?open=1", "", "?seat=0"):
            r = c.get(f"/matches/{match_id}/replay/0{q}", headers=h)
            assert r.status_code == 409 and r.json()["code"] == "not_finished", (q, r.text)
