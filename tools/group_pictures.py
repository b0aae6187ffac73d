"""Draw the groups of RULES.md §2 as SVG pictures for docs/groups.md, from the browser
client's own card: the card's shapes and coordinates are read from
``src/paohuzi/web/static/cards.js`` and its colours from ``style.css``, so the pictures
are the cards a player sees at the table.

    python tools/group_pictures.py docs/groups

writes one ``NAME.svg`` per group (and prints each path); tests/test_group_pictures.py
checks that the committed pictures are what this script draws today.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STATIC = ROOT / "src" / "paohuzi" / "web" / "static"

#: (file name, group as the client writes it, caption) — RULES.md §2's table, in order.
GROUPS = [
    ("ti", "提:伍伍伍伍", "提 ti: four of a face (big: 12 胡息, small 9)"),
    ("pao", "跑:六六六六", "跑 pao: four of a face claimed (big 9, small 6)"),
    ("wei", "偎:捌捌捌", "偎 wei: a pair in hand and one's own draw (big 6, small 3)"),
    ("kan", "坎:三三三", "坎 kan: three of a face dealt (big 6, small 3)"),
    ("peng", "碰:贰贰贰", "碰 peng: a pair and another's card (big 3, small 1)"),
    ("erqishi-small", "吃:二七十", "二七十: small 2-7-10, red (3)"),
    ("erqishi-big", "吃:贰柒拾", "贰柒拾: big 2-7-10, red (6)"),
    ("yiersan-big", "吃:壹贰叁", "壹贰叁: big 1-2-3 (6)"),
    ("run", "吃:四五六", "a run: three consecutive numbers of one size (0)"),
    ("mixed", "句:捌捌八", "大小三搭: one number, two big and one small (0)"),
    ("pair", "对:七七", "a pair (0)"),
]

CARD_W, CARD_H, GAP = 44, 62, 4


def _css_vars() -> dict[str, str]:
    css = (STATIC / "style.css").read_text(encoding="utf-8")
    return dict(re.findall(r"--([a-z0-9]+):\s*([^;]+);", css))


def _card_source() -> dict[str, str]:
    """The face card's pieces as cards.js writes them (its glyph sets, body, texts)."""
    js = (STATIC / "cards.js").read_text(encoding="utf-8")

    def one(pattern: str) -> str:
        m = re.search(pattern, js)
        if m is None:
            raise SystemExit(f"cards.js no longer matches {pattern!r}: update this script")
        return m.group(1)

    return {
        "small": one(r'export const SMALL = "([^"]+)"'),
        "big": one(r'export const BIG = "([^"]+)"'),
        "red": one(r'const RED = new Set\("([^"]+)"\)'),
        "viewbox": one(r'viewBox="(0 0 \d+ \d+)"'),
        "body": one(r'(<rect x="1" y="1"[^>]*class="card-body" />)'),
        "glyph": one(r'(<text x="22" y="30" text-anchor="middle")'),
        "glyph2": one(r'(<text x="22" y="53" text-anchor="middle")'),
    }


def card(g: str, x: int, src: dict[str, str], colours: dict[str, str]) -> str:
    """One card at ``x``: the client's face card, its CSS classes turned into fills."""
    if g not in src["small"] + src["big"]:
        raise ValueError(f"{g!r} is not a card")
    big, red = g in src["big"], g in src["red"]
    body = src["body"].replace(
        'class="card-body"',
        f'fill="{colours["gold"] if big else colours["paper"]}" stroke="#7a6a45" '
        'stroke-width="1.2"',
    )
    ink = colours["red"] if red else colours["ink"]
    weight = ' font-weight="700"' if big else ""
    return (
        f'<g transform="translate({x} 0)">{body}'
        f'{src["glyph"]} font-size="27" fill="{ink}"{weight}>{g}</text>'
        f'{src["glyph2"]} font-size="13" fill="{ink}" opacity="0.55">{g}</text></g>'
    )


def group_svg(text: str, src: dict[str, str], colours: dict[str, str]) -> str:
    """A group's cards side by side, as one standalone SVG."""
    faces = text.split(":", 1)[1]
    width = len(faces) * (CARD_W + GAP) - GAP
    cards = "".join(card(g, i * (CARD_W + GAP), src, colours) for i, g in enumerate(faces))
    font = "WenQuanYi Micro Hei, Noto Sans CJK SC, sans-serif"
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{CARD_H}" '
        f'viewBox="0 0 {width} {CARD_H}" role="img" aria-label="{text}" '
        f'font-family="{font}">{cards}</svg>\n'
    )


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python tools/group_pictures.py OUT_DIR", file=sys.stderr)
        return 2
    out = Path(argv[0])
    out.mkdir(parents=True, exist_ok=True)
    src, colours = _card_source(), _css_vars()
    for name, text, _caption in GROUPS:
        path = out / f"{name}.svg"
        path.write_text(group_svg(text, src, colours), encoding="utf-8")
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
