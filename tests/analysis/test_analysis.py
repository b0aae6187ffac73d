"""``paohuzi analyse`` and the review: fair (the seat's view only), paired, bounded."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from paohuzi.analysis import Budget, Verdict, judge, review_dict, review_match, value_options
from paohuzi.analysis.games import bot_match
from paohuzi.analysis.values import choice_losses, cross_fit_losses
from paohuzi.analysis.verdict import BLUNDER, INACCURACY, MISTAKE, unsettled
from paohuzi.bots.search import sample_assignment
from paohuzi.cli.app import app
from paohuzi.core.engine import determinize, new_game
from paohuzi.core.rules import HONG_GUAI_WAN
from paohuzi.core.views import view


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("analyse") / "match.json"
    path.write_text(bot_match(["heuristic", "random", "heuristic"], 1, rounds=1).to_json())
    return path


def test_verdict_thresholds_and_error_bar() -> None:
    assert judge(INACCURACY - 0.01, 0.0) is Verdict.GOOD
    assert judge(INACCURACY, 0.0) is Verdict.INACCURACY
    assert judge(MISTAKE, 0.0) is Verdict.MISTAKE
    assert judge(BLUNDER + 0.3, 0.1) is Verdict.BLUNDER
    assert judge(BLUNDER * 2, BLUNDER) is Verdict.GOOD  # inside its error bar: no verdict


def test_an_interval_straddling_a_threshold_gets_the_milder_grade() -> None:
    assert judge(BLUNDER + 0.1, 0.1) is Verdict.MISTAKE
    assert judge(MISTAKE + 1.0, 1.0) is Verdict.INACCURACY
    assert judge(INACCURACY + 0.5, 1.0) is Verdict.GOOD  # not clear of zero
    assert unsettled(BLUNDER + 0.1, 0.1) and unsettled(MISTAKE - 0.5, 0.5)
    assert not unsettled(5.0, 0.5) and not unsettled(0.0, 0.2)


def test_cross_fitted_losses_have_no_winners_curse() -> None:
    """Six options with the same value: picking the best on the worlds that measure it
    gives every other option a loss of about a standard error; cross-fitted, the
    losses average about zero."""
    rng = random.Random(4)
    naive, fitted = [], []
    for _ in range(200):
        out = [[rng.gauss(0.0, 5.0) for _ in range(16)] for _ in range(6)]
        means = [sum(o) / 16 for o in out]
        naive += [max(means) - m for m in means]
        fitted += [loss for loss, _se in cross_fit_losses(out)]
    assert sum(naive) / len(naive) > 1.0
    assert abs(sum(fitted) / len(fitted)) < 0.2


def test_budget_bounds() -> None:
    with pytest.raises(ValueError, match="samples"):
        Budget(0)
    with pytest.raises(ValueError, match="max_options"):
        Budget(8, 1)
    with pytest.raises(ValueError, match="refine"):
        Budget(8, 6, 0)


def test_values_come_from_the_view_only() -> None:
    """Two states the seat cannot tell apart (other hands and stock redrawn) get the same
    values: nothing hidden from the seat reaches the review."""
    st = new_game(HONG_GUAI_WAN, seed=7, dealer=0)
    v = view(st, 0)
    other = determinize(v, sample_assignment(v, random.Random(3)), HONG_GUAI_WAN)
    assert other.hands[1] != st.hands[1] or other.stock != st.stock
    w = view(other, 0)
    a = value_options(v, HONG_GUAI_WAN, random.Random(5), 6, 4)
    b = value_options(w, HONG_GUAI_WAN, random.Random(5), 6, 4)
    assert a == b and a.worlds == 6


def test_options_are_paired_and_sorted() -> None:
    st = new_game(HONG_GUAI_WAN, seed=11, dealer=1)
    v = view(st, 1)
    vals = value_options(v, HONG_GUAI_WAN, random.Random(0), 8, 5)
    means = [o.mean for o in vals.options]
    assert means == sorted(means, reverse=True) and len(means) == min(5, len(v.legal))
    best = vals.options[0]
    for o in vals.options[1:]:  # paired: every option measured against the same reference
        assert o.loss - best.loss == pytest.approx(best.mean - o.mean)


def test_choice_losses_are_paired_and_sharpened_where_choices_differ() -> None:
    """Several players' choices at one decision, valued on the same worlds: one loss per
    distinct action, from the seat's view only; more worlds only where ``sharpen``'s
    choices differ, and the others' losses untouched by them."""
    st = new_game(HONG_GUAI_WAN, seed=11, dealer=1)
    v = view(st, 1)
    a, b, c = (x.id for x in v.legal[:3])
    flat, n = choice_losses(v, HONG_GUAI_WAN, random.Random(4), [a, b, a, c], 6)
    assert n == 6 and set(flat) == {a, b, c}
    vals = value_options(v, HONG_GUAI_WAN, random.Random(4), 6, 6, include=(a, b, c))
    for aid in (a, b, c):  # the shared worlds give the review's own cross-fitted losses
        o = vals.option(aid)
        assert o is not None and flat[aid] == pytest.approx(o.loss)
    sharp, n2 = choice_losses(
        v, HONG_GUAI_WAN, random.Random(4), [a, b, c], 6, sharpen=[a, b], more=10
    )
    assert n2 == 6 and sharp[c] == flat[c]  # not sharpened: the same six worlds
    assert (sharp[a], sharp[b]) != (flat[a], flat[b])
    same, _ = choice_losses(
        v, HONG_GUAI_WAN, random.Random(4), [a, b, c], 6, sharpen=[a, a], more=10
    )
    assert same == flat  # the sharpened choices agree: no more worlds
    other = determinize(v, sample_assignment(v, random.Random(3)), HONG_GUAI_WAN)
    assert choice_losses(view(other, 1), HONG_GUAI_WAN, random.Random(4), [a, b, c], 6) == (flat, 6)


@pytest.mark.slow
def test_review_json_shape_and_seat(record: Path) -> None:
    r = CliRunner().invoke(app, ["analyse", str(record), "--seat", "1", "--budget", "4", "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["format"] == "paohuzi-analysis/1" and data["seats"] == [1]
    assert data["thresholds"]["blunder"] == BLUNDER
    ds = data["rounds"][0]["decisions"]
    assert ds and all(d["seat"] == 1 for d in ds)
    for d in ds:
        ids = [o["id"] for o in d["options"]]
        assert d["chosen"]["id"] in ids and d["best"]["id"] == ids[0]
        assert d["verdict"] in {v.value for v in Verdict}
    s = data["summary"]
    assert s["decisions"] == len(ds) and 0 <= s["agreement"] <= 1


@pytest.mark.slow
@pytest.mark.parametrize(("lang", "words"), [("en", "agreement"), ("zh", "一致率")])
def test_text_output(record: Path, lang: str, words: str) -> None:
    r = CliRunner().invoke(
        app, ["analyse", str(record), "--seat", "0", "--budget", "2", "--lang", lang]
    )
    assert r.exit_code == 0, r.output
    assert words in r.output and str(MISTAKE).rstrip("0").rstrip(".") in r.output


def test_bad_inputs(tmp_path: Path, record: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "nope"}')
    r = CliRunner().invoke(app, ["analyse", str(bad)])
    assert r.exit_code == 1 and "not a valid record" in r.output
    r = CliRunner().invoke(app, ["analyse", str(tmp_path / "missing.json")])
    assert r.exit_code == 1 and "cannot read" in r.output
    for flag, value in (("--seat", "3"), ("--seat", "-1"), ("--budget", "0"), ("--options", "1")):
        r = CliRunner().invoke(app, ["analyse", str(record), flag, value])
        assert r.exit_code == 2 and f"{flag} {value}: choose" in r.output, r.output
    r = CliRunner().invoke(app, ["analyse", str(record), "--lang", "fr"])
    assert r.exit_code == 2 and "'fr'" in r.output


def test_same_seed_same_review(record: Path) -> None:
    from paohuzi.core.record import load_record

    rec = load_record(record.read_text())
    a = review_dict(review_match(rec, (2,), Budget(3, 3), 9))
    b = review_dict(review_match(rec, (2,), Budget(3, 3), 9))
    assert a == b


def test_stability_benchmark_command() -> None:
    """docs/analysis.md's stability command (shortened by --quick) compares two samplings."""
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    argv = ["--stability", "--bots", "rumen,heuristic,heuristic", "--seed", "2", "--quick"]
    done = subprocess.run(
        [sys.executable, str(root / "benchmarks" / "analysis.py"), *argv],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    stability = json.loads(done.stdout)["stability"]
    assert stability["same_verdict"] <= stability["judged_worse_than_inaccuracy"]
    assert len(stability["pairs"]) == stability["judged_worse_than_inaccuracy"]
