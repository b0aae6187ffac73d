"""A review as text (Chinese or English) and as JSON-ready data."""

from __future__ import annotations

from typing import Any

from .review import DecisionReview, MatchReview
from .summary import Summary, summarize
from .values import OptionValue
from .verdict import BLUNDER, INACCURACY, MISTAKE, Z, thresholds_text

__all__ = ["decision_dict", "option_dict", "review_dict", "review_text"]

_WORDS = {
    "en": {
        "round": "Round {n}",
        "seat": "seat",
        "chose": "chose",
        "best": "best",
        "loss": "loss",
        "colon": ": ",
        "summary": "{who}: {n} decisions, {loss:.2f} points lost per decision, "
        "agreement {agree:.0%} ({v})",
        "match": "Match",
        "worst": "Biggest losses",
        "better": "better",
        "nothing": "no decision worse than good",
        "fair": "values: expected points for the round, from the seat's view only "
        "(sampled in batches of {w} worlds, more batches while a verdict is unsettled; the "
        "options compared are played on the same worlds; a value's ± is one standard "
        "error, a loss's allows for rare big wins); a loss is measured against a best "
        "picked on other worlds, so it can differ from the gap between the values shown",
    },
    "zh": {
        "round": "第 {n} 局",
        "seat": "座位",
        "chose": "选择",
        "best": "最佳",
        "loss": "损失",
        "colon": "：",
        "summary": "{who}：{n} 个决定，每个决定平均损失 {loss:.2f} 分，一致率 {agree:.0%}（{v}）",
        "match": "全场",
        "worst": "损失最大的决定",
        "better": "更好",
        "nothing": "没有判为欠佳或更差的决定",
        "fair": "数值：本局期望得分，只依据该座位当时所见（每批抽样 {w} 个世界，判定未定时"
        "加批；比较的选项用同一批世界；数值 ± 一个标准误，损失的 ± 计入罕见的大胡）；"
        "损失对照的最佳选项在另一半世界上选出，所以可能与所列数值之差不同",
    },
}


def _verdicts(s: Summary, lang: str) -> str:
    from .verdict import Verdict

    return ", ".join(f"{Verdict(k).zh if lang == 'zh' else k} {c}" for k, c in s.verdicts.items())


def _decision_line(d: DecisionReview, lang: str) -> list[str]:
    w = _WORDS[lang]
    verdict = d.verdict.zh if lang == "zh" else d.verdict.value
    tags = f" [{' '.join(d.tags)}]" if d.tags else ""
    head = (
        f"  #{d.index:<3} {w['seat']} {d.seat} {w['chose']} {d.chosen.text()}{w['colon']}"
        f"{w['loss']} {d.loss:.2f}±{d.loss_se:.2f} {verdict}{tags}"
    )
    opts = "    " + "  ".join(
        f"{'*' if o.action.id == d.chosen.id else ''}{o.action.text()} {o.mean:+.2f}±{o.se:.2f}"
        for o in d.values.options
    )
    return [head, opts]


def _summary_line(who: str, s: Summary, lang: str) -> str:
    return _WORDS[lang]["summary"].format(
        who=who, n=s.decisions, loss=s.loss, agree=s.agreement, v=_verdicts(s, lang)
    )


def review_text(r: MatchReview, lang: str = "en") -> str:
    """The review for people: every judged decision, round summaries, the match summary."""
    w = _WORDS[lang]
    lines = [thresholds_text(lang), w["fair"].format(w=r.budget.samples)]
    for rr in r.rounds:
        lines.append("")
        lines.append(w["round"].format(n=rr.round + 1))
        for d in rr.decisions:
            lines += _decision_line(d, lang)
        lines.append(
            _summary_line(w["round"].format(n=rr.round + 1), summarize(rr.decisions), lang)
        )
    s = summarize(r.decisions())
    lines += ["", _summary_line(w["match"], s, lang), w["worst"] + ":"]
    if not s.worst:
        lines.append("  " + w["nothing"])
    for d in s.worst:
        best = d.best
        better = best.action.text() if best is not None else "?"
        verdict = d.verdict.zh if lang == "zh" else d.verdict.value
        lines.append(
            f"  {w['round'].format(n=d.round + 1)} #{d.index} {w['seat']} {d.seat}: "
            f"{d.chosen.text()} → {w['better']} {better} ({w['loss']} {d.loss:.2f}, {verdict}"
            f"{', ' + ' '.join(d.tags) if d.tags else ''})"
        )
    return "\n".join(lines)


def decision_dict(d: DecisionReview) -> dict[str, Any]:
    """One judged decision as JSON-ready data (action ids and texts, points rounded)."""
    return {
        "round": d.round,
        "index": d.index,
        "seat": d.seat,
        "chosen": {"id": d.chosen.id, "text": d.chosen.text()},
        "best": None if d.best is None else {"id": d.best.action.id, "text": d.best.action.text()},
        "expected": None if d.expected is None else round(d.expected, 3),
        "loss": round(d.loss, 3),
        "loss_se": round(d.loss_se, 3),
        "verdict": d.verdict.value,
        "verdict_zh": d.verdict.zh,
        "tags": list(d.tags),
        "worlds": d.values.worlds,
        "refined": d.values.refined,
        "options": [option_dict(o) for o in d.values.options],
    }


def option_dict(o: OptionValue) -> dict[str, Any]:
    """One valued option as JSON-ready data (a review's decision, a 提示's answer)."""
    return {
        "id": o.action.id,
        "text": o.action.text(),
        "value": round(o.mean, 3),
        "se": round(o.se, 3),
        "loss": round(o.loss, 3),
        "loss_se": round(o.loss_se, 3),
        "feed": round(o.feed, 3),
    }


def _summary_dict(s: Summary) -> dict[str, Any]:
    return {
        "decisions": s.decisions,
        "loss_per_decision": round(s.loss, 4),
        "agreement": round(s.agreement, 4),
        "verdicts": s.verdicts,
        "worst": [
            {"round": d.round, "index": d.index, "seat": d.seat, "loss": round(d.loss, 3)}
            for d in s.worst
        ],
    }


def review_dict(r: MatchReview) -> dict[str, Any]:
    """The whole review as JSON-ready data: thresholds, rounds, decisions, summaries."""
    return {
        "format": "paohuzi-analysis/1",
        "seats": list(r.seats),
        "seed": r.seed,
        "samples": r.budget.samples,
        "max_options": r.budget.max_options,
        "thresholds": {"inaccuracy": INACCURACY, "mistake": MISTAKE, "blunder": BLUNDER, "z": Z},
        "rounds": [
            {
                "round": rr.round,
                "deltas": None if rr.deltas is None else list(rr.deltas),
                "decisions": [decision_dict(d) for d in rr.decisions],
                "summary": _summary_dict(summarize(rr.decisions)),
            }
            for rr in r.rounds
        ],
        "summary": _summary_dict(summarize(r.decisions())),
        "seat_summaries": {
            str(s): _summary_dict(summarize([d for d in r.decisions() if d.seat == s]))
            for s in r.seats
        },
    }
