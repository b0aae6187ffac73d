"""``paohuzi score`` and ``paohuzi waits`` (driven through typer and once as a real process)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from paohuzi.cli.app import app

T1 = "碰:贰贰贰 吃:壹贰叁"
H1 = "捌捌捌二七十四五六一一壹陆柒"


def run(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(app, list(args))
    return r.exit_code, r.stdout, r.stderr


def test_score_text_itemised() -> None:
    code, out, _ = run("score", "--table", T1, "--hand", H1, "--card", "伍")
    assert code == 0
    for part in (
        "碰:贰贰贰",
        "3 胡息",
        "坎:捌捌捌",
        "句:二七十",
        "胡息 18",
        "平胡",
        "2 囤 × 1 番 = 2",
    ):
        assert part in out


def test_score_json_keys() -> None:
    code, out, _ = run(
        "score", "-t", T1, "--hand", H1, "-c", "b5", "--self-drawn", "--last-card", "--json"
    )
    assert code == 0
    data = json.loads(out)
    assert data["win"] is True
    assert (data["huxi"], data["tun"], data["fan"], data["score"]) == (18, 3, 2, 6)
    assert data["mingtang"] == {"海底胡": 2}
    assert data["groups"][:2] == ["碰:贰贰贰", "吃:壹贰叁"]


def test_score_mingtang_listed() -> None:
    args = [
        "score",
        "-t",
        "碰:七七七 吃:一二三 偎:十十十",
        "--hand",
        "八八八九九九二七十三四",
        "-c",
        "五",
    ]
    code, out, _ = run(*args)
    assert code == 0 and "红胡 2 番" in out and "小字 9 番" in out and "1 囤 × 11 番 = 11" in out
    assert json.loads(run(*args, "--json")[1])["mingtang"] == {"红胡": 2, "小字": 9}


def test_not_a_win() -> None:
    args = ["score", "-t", T1, "--hand", "捌捌捌三四五四五六一一壹陆柒", "-c", "伍"]
    code, out, _ = run(*args)
    assert code == 0 and out.startswith("not a win") and "15 胡息" in out
    code, out, _ = run(*args, "--json")
    assert code == 0 and json.loads(out) == {"win": False}
    code, out, _ = run(
        "score",
        "-t",
        "吃:壹贰叁 吃:二七十 偎:贰贰贰",
        "--hand",
        "捌捌捌陆柒玖拾八一二三",
        "-c",
        "八",
    )
    assert code == 0 and "not a win" in out and "坎" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["score", "-t", T1, "--hand", H1[:-1] + "x", "-c", "伍"], "unknown card 'x'"),
        (
            ["score", "-t", "碰:捌捌捌 吃:壹贰叁", "--hand", "捌捌" + H1[3:], "-c", "伍"],
            "copies of 捌",
        ),
        (["score", "-t", "吃:捌玖拾", "--hand", H1, "-c", "伍"], "坎 捌捌捌"),
        (["score", "-t", T1, "--hand", H1[:-2], "-c", "伍"], "needs 20 cards"),
        (["score", "-t", "杠:贰贰贰", "--hand", H1, "-c", "伍"], "unknown group kind"),
        (["waits", "-t", T1, "--hand", H1[:-2]], "waiting hand holds 20"),
        (["waits", "-t", T1, "--hand", "二" * 5], "copies of 二"),
    ],
)
def test_input_errors_exit_2(args: list[str], message: str) -> None:
    code, out, err = run(*args)
    assert code == 2 and out == ""
    assert err.startswith("error:") and message in err


def test_waits_text_and_json() -> None:
    code, out, _ = run("waits", "-t", T1, "--hand", H1)
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "waiting for 2 card(s):"
    assert (
        lines[1].split()[0] == "伍" and "drawn by another: 2" in lines[1] and "自摸: 3" in lines[1]
    )
    assert lines[2].split()[0] == "捌" and "自摸: —" in lines[2]
    data = json.loads(run("waits", "-t", T1, "--hand", H1, "--json")[1])
    assert data["discard"] is False
    assert [w["card"] for w in data["waits"]] == ["伍", "捌"]
    assert data["waits"][0]["other"]["score"] == 2 and data["waits"][0]["self_drawn"]["score"] == 3
    assert data["waits"][1]["self_drawn"] is None


def test_waits_not_waiting() -> None:
    code, out, _ = run("waits", "-t", T1, "--hand", "捌捌捌三四五七八九一一壹陆肆")
    assert code == 0 and "not waiting" in out
    assert json.loads(
        run("waits", "-t", T1, "--hand", "捌捌捌三四五七八九一一壹陆肆", "--json")[1]
    ) == {
        "discard": False,
        "waits": [],
    }


def test_waits_for_each_discard() -> None:
    code, out, _ = run("waits", "-t", T1, "--hand", H1 + "伍")
    assert code == 0
    assert "owes a discard" in out and "discard 壹: waiting for 3 card(s)" in out
    assert "discard 捌" not in out  # a 坎 card is never discarded
    assert out.rstrip().splitlines()[-1].startswith("best discard: 壹")
    data = json.loads(run("waits", "-t", T1, "--hand", H1 + "伍", "--json")[1])
    assert data["discard"] is True
    by_card = {d["discard"]: d["waits"] for d in data["discards"]}
    assert [w["card"] for w in by_card["壹"]] == ["一", "壹", "捌"]


def test_help_lists_commands() -> None:
    code, out, _ = run("--help")
    assert code == 0 and "score" in out and "waits" in out


def test_python_dash_m_process() -> None:
    base = [sys.executable, "-m", "paohuzi"]
    r = subprocess.run(
        [*base, "score", "--table", T1, "--hand", H1, "--card", "伍", "--json"],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
        check=False,
    )
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["score"] == 2
    bad = subprocess.run(
        [*base, "waits", "--hand", "一x"],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
        check=False,
    )
    assert bad.returncode == 2 and "unknown card 'x'" in bad.stderr and bad.stdout == ""
