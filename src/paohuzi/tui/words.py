"""What the screen says, in Chinese (the default) or English (``--lang en``).

Kept free of textual so the wording can be tested and shared by the game and
the record viewer. Card and group notation is the same in both languages
(``碰:玖玖玖``, ``吃:三四五 比:五五伍``); only the words around it change.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from ..core.actions import Action, ActionKind
from ..core.cards import glyph
from ..core.events import Event, EventKind
from ..core.hand import WinResult

__all__ = [
    "LANGS",
    "action_label",
    "display_width",
    "event_line",
    "ljust_cells",
    "rjust_cells",
    "seat_label",
    "seat_word",
    "win_text",
    "word",
]

LANGS = ("zh", "en")

_WORDS: dict[str, tuple[str, str]] = {
    "round": ("第{n}/{total}局", "Round {n}/{total}"),
    "dealer": ("庄", "dealer"),
    "stock": ("底牌", "stock"),
    "balances": ("悟性", "悟性"),
    "to_act": ("轮到", "to act:"),
    "round_over": ("本局结束", "round over"),
    "hand": ("手", "hand "),
    "cards": ("张", ""),
    "table": ("桌", "table"),
    "huxi": ("胡息", "huxi"),
    "pile": ("弃", "pile"),
    "dead": ("死手", "dead hand"),
    "dead_mine": ("死手：本局不能胡/吃/碰", "dead hand: no 胡/吃/碰 this round"),
    "acting": ("▶ 出手中", "▶ acting"),
    "offer": ("桌面", "On offer"),
    "drawn_by": ("{who}翻出", "drawn by {who}"),
    "discarded_by": ("{who}打出", "discarded by {who}"),
    "to_discard": ("{who}出牌", "{who} to discard"),
    "your_discard": (
        "你出牌：←→↑↓ 选牌 + Enter 打出（: 输入）  t 听牌提示",
        "Your discard: ←→↑↓ + Enter (or : to type).  t = 听 hint",
    ),
    "claim": ("要 {card} 吗？{keys} 选择，p 过", "Claim {card}? {keys} to choose, p = 过 pass"),
    "waiting": ("等待 {who} …", "Waiting for {who} …"),
    "playing": ("… s 跳过动画", "… s = skip ahead"),
    "options": ("你的选择", "your options"),
    "pass": ("过", "过 pass"),
    "you_are": (
        "你坐座位 {seat}：下家在你之后出牌，上家在你之前。",
        "You are seat {seat}: next (下家) plays after you, prev (上家) before you.",
    ),
    "round_start": ("— 第 {n}/{total} 局 —", "— round {n}/{total} —"),
    "settlement": ("结算", "Settlement"),
    "hands": ("各家手牌", "Hands"),
    "wins": ("{who} 胡牌{name}", "{who} wins{name}"),
    "huangzhuang": (
        "荒庄：底牌已摸完，不结算，{who}继续坐庄。",
        "荒庄: the stock ran out, no payments; {who} deals again.",
    ),
    "huangzhuang_last": ("荒庄：底牌已摸完，不结算。", "荒庄: the stock ran out, no payments."),
    "record_saved": ("记录已保存：{path}", "Record saved: {path}"),
    "record_failed": ("记录未能保存：{why}", "could not save the record: {why}"),
    "match_over": ("比赛结束，共 {n} 局。", "Match over after {n} round(s)."),
    "leave_keys": ("Enter 离开", "Enter leave"),
    "next_keys": ("Enter 下一局  q 退出", "Enter next round  q quit"),
    "quit_saved": (
        "退出比赛？目前的记录将保存到\n{path}",
        "Quit the match? The record so far will be saved to\n{path}",
    ),
    "quit_nothing": ("退出比赛？还没有出过牌。", "Quit the match? Nothing has been played yet."),
    "quit_keys": ("[y] 退出   [n] / [Esc] 继续", "[y] quit   [n] / [Esc] keep playing"),
    "hint_after": ("打出后听牌（手牌中标 *）：", "听 after discarding (marked * in the hand):"),
    "hint_none": ("打哪张都还不听牌。", "No discard leaves a 听牌 yet."),
    "hint_wait": ("听牌，等：", "听牌 — waiting for:"),
    "hint_not": ("未听牌。", "Not 听 (no card completes this hand)."),
    "legend": (
        "小字 黑  大字 金底粗体  红字 二七十贰柒拾",
        "small  big (bold, gold)  red 二七十贰柒拾",
    ),
    "hu_on": ("胡 {card}{how}，{drawn}", "胡 on {card}{how}, {drawn}"),
    "self_drawn": ("自摸", "自摸 (own draw)"),
    "by_other": ("他家翻出", "drawn by another player"),  # (a 胡 is on a drawn card: §4)
    "rp_step": ("第{r}/{rt}局  第{i}/{n}步  （{how}）", "round {r}/{rt}  step {i}/{n}  ({how})"),
    "rp_full": ("全视角", "full view"),
    "rp_spectator": ("旁观视角", "spectator view"),
    "rp_last": ("上一步：", "last decision: "),
    "rp_hidden": ("手牌 {n}张（不可见）", "hand: {n} cards (hidden)"),
    "rp_to_act": ("▶ 待出手", "▶ to act"),
    "no_mingtang": ("名堂 无（平胡 1 番）", "名堂 none (平胡, 1 番)"),
    # refusals: why a key or a typed move does nothing now
    "no_round": ("本局已结束", "the round is over"),
    "not_your_turn": ("还没轮到你：等待 {who}", "not your turn: waiting for {who}"),
    "others": ("其他玩家", "the other seats"),
    "offer_not_discard": (
        "桌面有牌：用 1–9 选吃碰胡，或 p 过，不能出牌",
        "a card is on offer: choose a claim with 1–9 or p (过), not a discard",
    ),
    "no_card": ("没有选中牌", "no card selected"),
    "kan_kept": (
        "{card} 是坎：坎不能拆，也不能打出",
        "{card} is in a 坎: a 坎 is never split or discarded",
    ),
    "nothing_to_claim": (
        "现在没有可吃碰的牌：请出牌（Enter）",
        "nothing to claim now: discard a card (Enter)",
    ),
    "no_option": ("没有第 {n} 项：请选 1–{m} 或 p 过", "no option {n}: choose 1–{m} or p (过)"),
    "nothing_to_pass": ("现在轮到你出牌，不能过", "nothing to pass: it is your discard"),
    "claim_first": (
        "桌面有牌：请先选吃碰胡（1–9，p 过），再出牌",
        "a card is on offer: choose a claim (1–9, p = 过) before discarding",
    ),
    "card_on_claim": (
        "“{text}”是一张牌；现在要输入 碰、吃:…、胡 或 过（或 1–9 / p）",
        "{text!r} names a card; on a claim type 碰, 吃:…, 胡 or 过 (or 1–9/p)",
    ),
    "unreadable": (
        "看不懂“{text}”：可输入 s5、打:五、碰、吃:三四五 比:五五伍、过、胡",
        "cannot read {text!r}: {why}",
    ),
    "illegal_move": (
        "“{text}”现在不能走；可走：{legal}",
        "{text!r} cannot be played now: {why}",
    ),
    "bot_failed": (
        "! {who} 出错（{why}），代为 {move}",
        "! bot {who} failed ({why}); played {move}",
    ),
    "bot_refused": ("! {who} 的出手无效，代为 {move}", "! bot {who}: {why}; played {move} instead"),
    # what `paohuzi play` prints when the match window closes
    "exit_saved": ("记录已保存：{path}", "record saved: {path}"),
    "exit_replay": ("回放：{hint}", "replay it with: {hint}"),
    "exit_not_saved": ("错误：记录未能保存：{why}", "error: the record was not saved: {why}"),
}

_SEATS = {"zh": ("你", "下家", "上家"), "en": ("you", "next", "prev")}


def word(key: str, lang: str = "zh", **kw: object) -> str:
    """The phrase ``key`` in ``lang``, with ``{fields}`` filled in."""
    zh, en = _WORDS[key]
    text = en if lang == "en" else zh
    return text.format(**kw) if kw else text


def seat_word(seat: int, human: int = 0, lang: str = "zh") -> str:
    """你 / 下家 / 上家: seats as the human calls them (the next seat plays after you)."""
    return _SEATS["en" if lang == "en" else "zh"][(seat - human) % 3]


_seat_word = seat_word


def seat_label(seat: int, lang: str = "zh") -> str:
    """A seat by number, for the record viewer (no seat is "you" there): 座位0 / seat 0."""
    return f"seat {seat}" if lang == "en" else f"座位{seat}"


def display_width(text: str) -> int:
    """Terminal cells ``text`` takes: wide and full-width characters (汉字) take two."""
    return sum(
        0
        if unicodedata.combining(ch)
        else 2
        if unicodedata.east_asian_width(ch) in ("W", "F")
        else 1
        for ch in text
    )


def ljust_cells(text: str, width: int) -> str:
    """``str.ljust`` by display width, so columns after Chinese text line up."""
    return text + " " * max(0, width - display_width(text))


def rjust_cells(text: str, width: int) -> str:
    """``str.rjust`` by display width."""
    return " " * max(0, width - display_width(text)) + text


def action_label(a: Action) -> str:
    """A claim option as the table writes it: ``碰:玖玖玖``, ``吃:三四五 比:五五伍``."""
    if a.kind is ActionKind.PENG and a.face is not None:
        return f"碰:{glyph(a.face) * 3}"
    return a.text()


def _groups(e: Event) -> str:
    parts = []
    for i, g in enumerate(e.groups):
        label = g.kind.value if i == 0 or e.kind is not EventKind.CHI else "比"
        parts.append(f"{label}:{''.join(glyph(f) for f in g.faces)}")
    return " ".join(parts)


_DETAIL_ZH = {"dealt": "起手", "kan": "坎", "wei": "偎", "peng": "碰", "chou": "臭"}


def event_line(
    e: Event, human: int = 0, lang: str = "zh", names: Sequence[str] | None = None
) -> str:
    """One move of the log, as the human would say it: ``下家 碰:伍伍伍 ← 上家``.

    ``names`` replaces 你/下家/上家 by fixed seat names (the record viewer's 座位0 …).
    """
    k = e.kind
    en = lang == "en"

    def seat_word(seat: int, human: int, lang: str) -> str:
        return names[seat] if names is not None else _seat_word(seat, human, lang)

    who = seat_word(e.seat, human, lang) if e.seat >= 0 else ""
    card = glyph(e.face) if e.face is not None else "?"
    you = en and who == "you"  # (you draw, your pile: not "you draws", "you's pile")
    if k is EventKind.DRAW:
        return f"{who} draw{'' if you else 's'} {card}" if en else f"{who} 翻 {card}"
    if k is EventKind.DISCARD:
        return f"{who} discard{'' if you else 's'} {card}" if en else f"{who} 打 {card}"
    if k is EventKind.PASS:
        return f"{who} pass{'' if you else 'es'} (过)" if en else f"{who} 过"
    if k is EventKind.PILE:
        whose = "your" if you else f"{who}'s"
        return f"{card} to {whose} pile" if en else f"{card} 无人要，归{who}"
    if k in (EventKind.TI, EventKind.WEI, EventKind.PAO, EventKind.PENG, EventKind.CHI):
        src = ""
        if 0 <= e.source != e.seat:
            other = seat_word(e.source, human, lang)
            src = f" from {other}" if en else f" ← {other}"
        notes = [] if e.groups else (["face down"] if en else ["暗"])
        if e.detail:
            notes.append(e.detail if en else _DETAIL_ZH.get(e.detail, e.detail))
        if e.groups:
            gs = _groups(e)
        else:
            gs = {"ti": "提", "wei": "偎", "pao": "跑"}.get(k.value, k.value)
        det = (f" [{', '.join(notes)}]" if en else f"（{'·'.join(notes)}）") if notes else ""
        return f"{who} {gs}{src}{det}"
    if k is EventKind.CHOU:
        what = "吃" if e.detail == "chi" else "碰"
        return f"{who} 臭{what} {card}"
    if k is EventKind.DEAD:
        return f"{who}: dead hand" if en else f"{who} 死手"
    if k is EventKind.HU:
        hx, tun, fan, score = e.numbers
        tail = f"胡息 {hx}, {tun} 囤 × {fan} 番 = {score}"
        return f"{who} 胡 {card}: {tail}"
    if k is EventKind.HUANGZHUANG:
        return "荒庄: the stock is empty" if en else "荒庄：底牌已摸完"
    if k is EventKind.SETTLE:
        order = _order(e.numbers, human if names is None else 0)
        parts = [f"{seat_word(s, human, lang)} {d:+d}" for s, d in order]
        return ("settle: " if en else "结算 ") + "  ".join(parts)
    if k is EventKind.DEAL:
        return f"deal, 亮张 {card}" if en else f"发牌，亮张 {card}"
    return e.text()


def _order(numbers: Sequence[int], human: int) -> list[tuple[int, int]]:
    seats = [human, (human + 1) % 3, (human + 2) % 3]
    return [(s, numbers[s]) for s in seats if s < len(numbers)]


def win_text(win: WinResult, lang: str = "zh") -> str:
    """The winner's arrangement, group by group with its 胡息 in one column, and the score."""
    how = f" ({win.how})" if win.how else ""
    drawn = word("self_drawn" if win.self_drawn else "by_other", lang)
    lines = [word("hu_on", lang, card=glyph(win.card), how=how, drawn=drawn)]
    if win.last_card:
        lines[0] += ", 海底"
    width = max((display_width(g.notation()) for g in win.groups), default=0) + 2
    for g in win.groups:
        lines.append(f"  {ljust_cells(g.notation(), width)}{g.huxi:>2} 胡息")
    base = (win.huxi - 12) // 3
    bonus = win.tun - base
    lines.append(f"胡息 {win.huxi}")
    lines.append(f"囤 {win.tun} = ⌊({win.huxi} − 12) / 3⌋" + (f" + {bonus} 自摸" if bonus else ""))
    if win.mingtang:
        lines.append("名堂 " + ", ".join(f"{k} {v} 番" for k, v in win.mingtang.items()))
    else:
        lines.append(word("no_mingtang", lang))
    lines.append(f"{win.tun} 囤 × {win.fan} 番 = {win.score}")
    return "\n".join(lines)


# A bot by its level, as the player chose it (入门 … 大师), whatever name picked it.
_LEVEL_EN = {"入门": "Beginner", "普通": "Normal", "高手": "Expert", "大师": "Master"}
_OTHER_BOTS = {
    "random": ("随机", "Random"),
    "search": ("搜索", "Search"),
    "dmc": ("自对弈", "Self-play"),
}


def bot_word(name: str, lang: str = "zh") -> str:
    """A bot's name for the screen: its level in the screen's language (普通, Normal) for
    any name of it (heuristic, putong, 普通); another bot's own word (随机); else the name."""
    from ..bots.levels import LEVELS, level_of

    # (a level's own bot by that bot's name: heuristic is 普通; bots/levels.py says which)
    level = level_of(name) or next(
        (lv for lv, (_a, bot, _f) in LEVELS.items() if bot == name), None
    )
    if level is not None:
        return _LEVEL_EN[level] if lang == "en" else level
    zh_en = _OTHER_BOTS.get(name)
    return name if zh_en is None else zh_en[1 if lang == "en" else 0]
