"""Hand layout and card rendering rules."""

from __future__ import annotations

from rich.text import Text

from paohuzi.core.cards import counts_of, parse_faces
from paohuzi.tui.render import (
    card_style,
    card_text,
    hand_columns,
    hand_hit,
    hanging,
    render_hand,
    seat_name,
)
from paohuzi.tui.words import display_width


def _cols(text: str) -> list[tuple[str, str]]:
    from paohuzi.core.cards import format_faces

    return [(c.label, format_faces(c.faces)) for c in hand_columns(counts_of(parse_faces(text)))]


def test_columns_kan_pairs_dazi_runs_rest() -> None:
    cols = _cols("壹壹壹 九九九 伍伍 八八捌 三叁 贰柒拾 四五六 一 玖 肆陆")
    assert cols == [
        ("坎", "九九九"),
        ("坎", "壹壹壹"),
        ("对", "五伍伍"),  # a pair takes the other size of its number along
        ("对", "八八捌"),
        ("搭", "三叁"),
        ("搭", "四肆"),
        ("搭", "六陆"),
        ("句", "贰柒拾"),
        ("散", "一玖"),
    ]


def test_columns_keep_every_card() -> None:
    faces = parse_faces("一二三四五六七八九十壹贰叁肆伍陆柒捌玖拾一")
    cols = hand_columns(counts_of(faces))
    assert sorted(f for c in cols for f in c.faces) == sorted(faces)
    assert all(len(c.faces) <= 4 for c in cols)


def test_hit_map_matches_render() -> None:
    cols = hand_columns(counts_of(parse_faces("壹壹壹 五伍 七")))
    text = render_hand(cols, selected=(1, 1)).plain.split("\n")
    assert text[0].split() == ["坎", "搭", "散"]
    assert hand_hit(cols, 1, 3) == (0, 2)
    assert hand_hit(cols, 5, 2) == (1, 1)
    assert "[伍]" in text[2]
    assert hand_hit(cols, 4, 1) is None  # the gap between columns
    assert hand_hit(cols, 11, 2) is None  # below the single 七
    assert hand_hit(cols, 1, 0) is None  # the label row


def test_card_looks() -> None:
    # red faces red, big faces bold on another colour; a marker for 听 discards
    big_red, small_black = card_style(parse_faces("柒")[0]), card_style(parse_faces("三")[0])
    assert "#c1121f" in big_red and "bold" in big_red
    assert "#c1121f" not in small_black and "bold" not in small_black
    assert card_text(parse_faces("三")[0], marked=True).plain == "*三 "
    assert card_text(parse_faces("三")[0], selected=True).plain == "[三]"
    assert card_text(parse_faces("三")[0], selected=True, marked=True).plain == "*三]"
    assert [seat_name(s) for s in range(3)] == ["你 seat 0", "下家 seat 1", "上家 seat 2"]


def test_hanging_wraps_each_line_with_its_continuations_indented() -> None:
    line = "  你      臭偎:伍伍伍  | 手 一三三五六八贰贰叁叁肆肆陆陆柒捌玖"
    out = hanging(Text("各家手牌\n" + line + "\nshort"), 30).plain.split("\n")
    assert out[0] == "各家手牌" and out[-1] == "short"
    body = out[1:-1]
    assert len(body) > 1 and body[0].startswith("  你")
    assert all(r.startswith(" " * 6) and r[6] != " " for r in body[1:])  # 2 + 4
    assert all(display_width(r) <= 30 for r in out)
    assert "".join(r.strip() for r in body).replace(" ", "") == line.replace(" ", "")


def test_hanging_keeps_styles_and_short_lines() -> None:
    t = Text("ab ", style="bold") + Text("cd")
    out = hanging(t, 40)
    assert out.plain == "ab cd" and out.spans
