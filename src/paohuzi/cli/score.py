"""``paohuzi score`` and ``paohuzi waits``: the rules library at the command line.

Input errors (unknown card, five copies, a 坎 face on the table, a wrong card
count) are :class:`~paohuzi.core.errors.PaohuziError`; they are printed to stderr
and the command exits with status 2, so scripts can tell bad input from "not a win".
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Annotated, TypeVar

import typer

from ..core.cards import counts_of, glyph, parse_faces
from ..core.errors import HandError, PaohuziError
from ..core.groups import GroupKind, parse_groups
from ..core.hand import (
    Wait,
    WinResult,
    complete_size,
    discard_waits,
    evaluate_win,
    validate,
    waits,
)
from ..core.rules import HONG_GUAI_WAN
from .app import app
from .options import JsonOpt

T = TypeVar("T")

TableOpt = Annotated[
    str,
    typer.Option(
        "--table",
        "-t",
        help="The winner's table groups, e.g. '碰:贰贰贰 吃:壹贰叁' (ASCII: 'peng:b2,b2,b2').",
    ),
]
HandOpt = Annotated[
    str,
    typer.Option(
        "--hand",
        help="The hand, 坎 included, in glyphs or s1..s10/b1..b10, e.g. 捌捌捌二七十.",
    ),
]
WaitsTableOpt = Annotated[
    str,
    typer.Option(
        "--table",
        "-t",
        help="The waiting player's table, e.g. '碰:贰贰贰 吃:壹贰叁' (ASCII: peng:b2,b2,b2).",
    ),
]
WaitsHandOpt = Annotated[
    str,
    typer.Option(
        "--hand",
        help="The waiting hand, 坎 included (one card more when it still owes a discard), "
        "e.g. 捌捌捌二七十.",
    ),
]
WaitsLastOpt = Annotated[
    bool,
    typer.Option(
        "--last-card", help="Score each waiting card as the last card of the stock (海底胡)."
    ),
]
LastOpt = Annotated[
    bool, typer.Option("--last-card", help="The card is the last card of the stock (海底胡).")
]


def _guard(run: Callable[[], T]) -> T:
    """Run ``run``; on bad input print the error to stderr and exit with status 2."""
    try:
        return run()
    except PaohuziError as e:
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(2) from None


def _emit(obj: object) -> None:
    typer.echo(json.dumps(obj, ensure_ascii=False))


@app.command()
def score(
    hand: HandOpt,
    card: Annotated[str, typer.Option("--card", "-c", help="The winning card X.")],
    table: TableOpt = "",
    self_drawn: Annotated[
        bool, typer.Option("--self-drawn", help="The winner drew X himself (自摸: +1 囤).")
    ] = False,
    last_card: LastOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Score a win: each group with its 胡息, each 名堂, and 囤 × 番 = score."""
    result = _guard(
        lambda: evaluate_win(
            table=table, hand=hand, card=card, self_drawn=self_drawn, last_card=last_card
        )
    )
    if as_json:
        _emit(result.to_dict() if result is not None else {"win": False})
    elif result is None:
        typer.echo(_not_a_win(table, hand, card, self_drawn, last_card))
    else:
        typer.echo(result.explain())


def _not_a_win(table: str, hand: str, card: str, self_drawn: bool, last_card: bool) -> str:
    """Why a card does not win: no complete arrangement, or too few 胡息 (§10)."""
    rules = HONG_GUAI_WAN
    x = glyph(parse_faces(card)[0])
    relaxed = rules.with_(min_huxi=0, min_huxi_with_mingtang=0)
    r = evaluate_win(
        table=table, hand=hand, card=card, self_drawn=self_drawn, last_card=last_card, rules=relaxed
    )
    if r is None:
        return f"not a win: {x} does not complete the hand into groups (a 坎 is never split)"
    mt = "名堂 " + ", ".join(r.mingtang) if r.mingtang else "no 名堂"
    return (
        f"not a win: with {x} the best arrangement has {r.huxi} 胡息 and {mt}; a win needs "
        f"{rules.min_huxi} 胡息, or {rules.min_huxi_with_mingtang} with a 名堂"
    )


def _wait_line(w: Wait) -> str:
    def part(label: str, r: WinResult | None) -> str:
        if r is None:
            return f"{label}: —"
        mt = ", ".join(f"{k} {v}" for k, v in r.mingtang.items()) or "平胡"
        return f"{label}: {r.score} ({r.huxi} 胡息, {r.tun} 囤 × {r.fan} 番, {mt})"

    return f"  {glyph(w.face)}  {part('drawn by another', w.other)}   {part('自摸', w.self_drawn)}"


def _sizes(table: str, hand: str) -> tuple[int, int]:
    """Cards held by table and hand, and W(k) for the table's 提/跑 (§9)."""
    groups = parse_groups(table)
    counts = counts_of(parse_faces(hand))
    validate(groups, counts, None)
    k = sum(1 for g in groups if g.kind in (GroupKind.TI, GroupKind.PAO))
    return sum(len(g.faces) for g in groups) + sum(counts), complete_size(k)


@app.command("waits")
def waits_cmd(
    hand: WaitsHandOpt,
    table: WaitsTableOpt = "",
    last_card: WaitsLastOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Waiting cards (听牌) and what each scores, drawn by another player or 自摸.

    A hand one card over (it still owes a discard) lists, for each card it may
    discard, the waits that discard leaves: which card to throw.
    """

    def run() -> tuple[bool, object]:
        n, w = _sizes(table, hand)
        if n == w:
            return True, discard_waits(table=table, hand=hand, last_card=last_card)
        if n != w - 1:
            raise HandError(
                f"table and hand hold {n} cards: a waiting hand holds {w - 1}, "
                f"one that owes a discard {w} (table {table!r}, hand {hand!r})"
            )
        return False, waits(table=table, hand=hand, last_card=last_card)

    discard, found = _guard(run)
    if discard:
        assert isinstance(found, dict)
        _print_discards(found, as_json)
    else:
        assert isinstance(found, list)
        if as_json:
            _emit({"discard": False, "waits": [w.to_dict() for w in found]})
        elif not found:
            typer.echo("not waiting: no card completes this hand")
        else:
            typer.echo(f"waiting for {len(found)} card(s):")
            for w in found:
                typer.echo(_wait_line(w))


def _print_discards(found: dict[int, list[Wait]], as_json: bool) -> None:
    if as_json:
        _emit(
            {
                "discard": True,
                "discards": [
                    {"discard": glyph(f), "waits": [w.to_dict() for w in ws]}
                    for f, ws in found.items()
                ],
            }
        )
        return
    if not found:
        typer.echo("no card can be discarded (only 坎 cards in hand)")
        return
    typer.echo("the hand owes a discard; the waits each discard leaves:")
    for f, ws in found.items():
        if not ws:
            typer.echo(f"discard {glyph(f)}: not waiting")
            continue
        typer.echo(f"discard {glyph(f)}: waiting for {len(ws)} card(s)")
        for w in ws:
            typer.echo(_wait_line(w))
    ranked = [(max(w.best_score for w in ws), len(ws), f) for f, ws in found.items() if ws]
    if ranked:
        best, count, face = max(ranked, key=lambda t: (t[0], t[1], -t[2]))
        typer.echo(f"best discard: {glyph(face)} ({count} waiting card(s), up to {best})")
