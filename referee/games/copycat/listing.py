"""What a scorekeeper types for Copycat (``referee cards copycat SET``): every card (the starter sets
A-D, the market cards by stage, the doctorates) and every office, with its printed name, kind and a
reminder of its cost or number, from the card data alone."""

from __future__ import annotations

from collections.abc import Mapping

from referee.engine import speech
from schemas.listing import Listed

from .data import Card, OfficeCard

_STAGES = {"I": "stage I", "II": "stage II", "III": "stage III", "IV": "stage IV", "V": "doctorate"}


def _effect(kind: str, n: int) -> str:
    return f"{kind} {n}" if n else kind


def listing(cards: Mapping[str, Card], offices: Mapping[str, OfficeCard]) -> tuple[Listed, ...]:
    out: list[Listed] = []
    for cid, card in cards.items():
        if card.set is not None:
            where = f"starter set {card.set}"
        else:
            where = _STAGES.get(card.stage or "", f"stage {card.stage}")
        note = [_effect(card.kind, card.n), card.color]
        if card.set is None and card.stage != "V":
            note.append(f"cost {card.cost}")
        if card.number is not None:
            note.append(f"number {card.number}")
        out.append(Listed(typed=cid, name=speech.name(card), kind="card", where=where, note=" · ".join(note)))
    for oid, office in offices.items():
        where = {"board": "on the board", "normal": f"office deck ({office.players} players)"}.get(
            office.source, f"department {office.department}")
        out.append(Listed(typed=oid, name=speech.name(office), kind="office", where=where,
                          note=" · ".join((_effect(office.kind, office.n), office.color))))
    return tuple(out)
