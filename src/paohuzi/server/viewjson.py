"""The JSON form of a seat's view: cards as glyphs, a face-down card as ``▢``, and back.

``protocol.view_to_dict`` and ``protocol.view_from_dict`` are these (the prompt, the
snapshot and the replay carry a view in this form).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core.actions import Action
from ..core.cards import format_faces, glyph, parse_face, parse_faces
from ..core.groups import GroupKind
from ..core.state import Phase
from ..core.views import SeatView, ViewGroup

if TYPE_CHECKING:
    from .protocol import LegalAction

__all__ = ["view_from_dict", "view_to_dict"]


def _faces(faces: tuple[int, ...] | None) -> str | None:
    return None if faces is None else format_faces(faces)


def view_to_dict(v: SeatView) -> dict[str, Any]:
    """The JSON form of a seat's view: cards as glyphs, a face-down card as ``▢``."""
    return {
        "seat": v.seat,
        "step": v.version,  # live: the audience's step (the server numbers the view so)
        "phase": v.phase.value,
        "dealer": v.dealer,
        "liangzhang": glyph(v.liangzhang),
        "hands": [_faces(h) for h in v.hands],
        "hand_sizes": list(v.hand_sizes),
        "tables": [[g.text() for g in t] for t in v.tables],
        "hidden": [[g.hidden for g in t] for t in v.tables],  # face down to the others
        "piles": [format_faces(p) for p in v.piles],
        "discards": [format_faces(d) for d in v.discards],
        "stock_count": v.stock_count,
        "chou_chi": None if v.chou_chi is None else format_faces(sorted(v.chou_chi)),
        "chou_peng": None if v.chou_peng is None else format_faces(sorted(v.chou_peng)),
        "dead": list(v.dead),
        "to_act": list(v.to_act),
        "turn": v.turn,
        "offer": None if v.offer is None else glyph(v.offer),
        "offer_source": v.offer_source,
        "offer_from_draw": v.offer_from_draw,
        "offer_placed": v.offer_placed,
        "balances": list(v.balances),
        "result": None
        if v.result is None
        else {
            "winner": v.result.winner,
            "deltas": list(v.result.deltas),
            "balances": list(v.result.balances),
            "next_dealer": v.result.next_dealer,
        },
    }


def _faces_back(text: str | None) -> tuple[int, ...] | None:
    return None if text is None else parse_faces(text)


def _group_back(text: str, hidden: bool) -> ViewGroup:
    kind, _, cards = text.partition(":")
    faces = None if "▢" in cards else parse_faces(cards)
    return ViewGroup(GroupKind(kind), faces, hidden)


def view_from_dict(d: dict[str, Any], legal: list[LegalAction]) -> SeatView:
    """The :class:`SeatView` that ``view_to_dict`` wrote, with its ``legal`` actions.

    For a seat that has a decision to take (what a client's bot acts on); a finished
    round's result is not rebuilt (its win breakdown is not in the message).
    """
    if d["result"] is not None:
        raise ValueError("a finished round's view is not rebuilt")
    offer = None if d["offer"] is None else parse_face(d["offer"])
    hands = [_faces_back(h) for h in d["hands"]]
    tables = [
        tuple(_group_back(t, h) for t, h in zip(ts, hs, strict=True))
        for ts, hs in zip(d["tables"], d["hidden"], strict=True)
    ]
    piles = [parse_faces(p) for p in d["piles"]]
    discards = [parse_faces(x) for x in d["discards"]]
    sizes, dead, bal = d["hand_sizes"], d["dead"], d["balances"]
    return SeatView(
        seat=d["seat"],
        version=d["step"],
        phase=Phase(d["phase"]),
        dealer=d["dealer"],
        liangzhang=parse_face(d["liangzhang"]),
        hands=(hands[0], hands[1], hands[2]),
        hand_sizes=(sizes[0], sizes[1], sizes[2]),
        tables=(tables[0], tables[1], tables[2]),
        piles=(piles[0], piles[1], piles[2]),
        discards=(discards[0], discards[1], discards[2]),
        stock_count=d["stock_count"],
        chou_chi=None if d["chou_chi"] is None else frozenset(parse_faces(d["chou_chi"])),
        chou_peng=None if d["chou_peng"] is None else frozenset(parse_faces(d["chou_peng"])),
        dead=(dead[0], dead[1], dead[2]),
        to_act=tuple(d["to_act"]),
        turn=d["turn"],
        offer=offer,
        offer_source=d["offer_source"],
        offer_from_draw=d["offer_from_draw"],
        offer_placed=d["offer_placed"],
        legal=tuple(Action.from_id(a.id, offer) for a in legal),
        balances=(bal[0], bal[1], bal[2]),
        result=None,
    )
