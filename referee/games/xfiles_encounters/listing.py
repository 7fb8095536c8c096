"""What a scorekeeper types for X-Files (``referee cards xfiles_encounters SET``): every card of the set
with its printed name, type, copies and the numbers printed on it, then the places a line names
(``bureau.1``-``bureau.5``, ``shadows.1``-``shadows.5``), from the card data alone."""

from __future__ import annotations

from referee.engine import speech
from schemas.listing import Listed

from .data import CardSet

#: the printed numbers a reminder shows, in this order, where the card has them
_PRINTED = ("cost", "attack", "recruit", "fight", "defense", "health", "rank", "damage", "priority")


def listing(cards: CardSet) -> tuple[Listed, ...]:
    out: list[Listed] = []
    for cid, card in cards.cards.items():
        where = [f"season {card.season} ({card.letter})"] if card.season else []
        if card.avatar:
            where.append(f"avatar {card.avatar}")
        if card.copies != 1:
            where.append(f"x{card.copies}")
        note = [f"{field} {getattr(card, field)}" for field in _PRINTED if getattr(card, field)]
        if card.keywords:
            note.append(",".join(card.keywords))
        out.append(Listed(typed=cid, name=speech.name(card), kind=card.type, where=", ".join(where) or "-",
                          note=" · ".join(note)))
    for row in ("bureau", "shadows"):
        for n in range(1, 6):
            out.append(Listed(typed=f"{row}.{n}", kind="location", where=f"the {row} row", note=f"slot {n}"))
    return tuple(out)
