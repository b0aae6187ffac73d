"""Bot levels 入门/普通/高手/大师: usable by name wherever a bot name is taken."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from paohuzi.bots import BOTS, HeuristicBot, make_bot
from paohuzi.bots.levels import LEVELS, NoisyHeuristicBot, level_of
from paohuzi.cli.app import app
from paohuzi.cli.play import choose_bots
from paohuzi.core.actions import ActionKind
from paohuzi.core.engine import new_game
from paohuzi.core.views import view


@pytest.mark.parametrize("name", [*LEVELS, *(alias for alias, _b, _f in LEVELS.values())])
def test_every_level_is_a_bot_by_both_names(name: str) -> None:
    assert name in BOTS and level_of(name) in LEVELS
    bot = make_bot(name, 3)
    st = new_game(seed=1, dealer=0)
    v = view(st, st.to_act()[0])
    assert bot.act(v) in v.legal


def test_levels_map_to_the_bots_they_name() -> None:
    assert isinstance(make_bot("入门", 1), NoisyHeuristicBot)
    assert type(make_bot("putong", 1)) is HeuristicBot
    assert make_bot("高手", 1).name == "learned"
    assert make_bot("dashi", 1).name == "guided"
    assert level_of("heuristic") is None


def test_rumen_is_noisy_but_sensible() -> None:
    """入门 departs from the heuristic on some decisions, never plays outside its top
    four, and never passes a 胡."""
    noisy, plain = NoisyHeuristicBot(0), HeuristicBot(0)
    differ = hus = 0
    for seed in range(6):
        st = new_game(seed=seed, dealer=seed % 3)
        while not st.over:
            seat = st.to_act()[0]
            v = view(st, seat)
            a = noisy.act(v)
            if len(v.legal) > 1:
                top = [x for _v, x in plain.rank(v)[:4]]
                if any(x.kind is ActionKind.HU for x in v.legal):
                    hus += 1
                    assert a.kind is ActionKind.HU
                else:
                    assert a in top
                differ += a != plain.act(v)
            st.apply(seat, a.id)
    assert differ > 5
    with pytest.raises(ValueError, match="noise"):
        NoisyHeuristicBot(0, noise=1.5)


def test_terminal_game_and_arena_take_levels(tmp_path: Path) -> None:
    assert choose_bots("入门,gaoshou") == (["入门", "gaoshou"], None)
    r = CliRunner().invoke(app, ["arena", "--bots", "入门,普通", "-n", "1", "--json"])
    assert r.exit_code == 0, r.output
    assert set(json.loads(r.output)["bots"]) == {"入门", "普通"}


def test_server_seats_levels_and_old_names(tmp_path: Path) -> None:
    from paohuzi.server.app import create_app

    with TestClient(create_app(f"sqlite:///{tmp_path / 'lv.db'}")) as c:
        tok = c.post("/accounts/guest", json={"nickname": "lv"}).json()["token"]
        h = {"Authorization": f"Bearer {tok}"}
        code = c.post("/rooms", json={"rounds": 1}, headers=h).json()["code"]
        for seat, bot in ((0, "入门"), (1, "dashi"), (2, "heuristic")):
            r = c.post(f"/rooms/{code}/bots", json={"seat": seat, "bot": bot}, headers=h)
            assert r.status_code == 200, r.text
        room = c.get(f"/rooms/{code}", headers=h).json()
        assert [s.get("bot") for s in room["seats"]] == ["入门", "dashi", "heuristic"]
        code = c.post("/rooms", json={"rounds": 1}, headers=h).json()["code"]
        r = c.post(f"/rooms/{code}/bots", json={"seat": 0, "bot": "大神" * 400}, headers=h)
        assert r.status_code == 400 and r.json()["code"] == "bad_bot"
        assert "入门" in r.json()["reason"] and len(r.json()["reason"]) < 400
