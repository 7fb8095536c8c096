"""What a scorekeeper types for By All Means (``referee cards by_all_means SET``): every card of the
set with its printed name, type, the decks holding it and its prices, from the card data alone."""

from __future__ import annotations

from referee.engine import speech
from schemas.listing import Listed

from .data import CardSet


def listing(cards: CardSet) -> tuple[Listed, ...]:
    out = []
    for cid, card in cards.cards.items():
        decks = []
        for deck_id in cards.deck_order:
            n = cards.decks[deck_id].count(cid)
            if n:
                decks.append(deck_id if n == 1 else f"{deck_id} x{n}")
        hand = "-" if card.price_hand is None else str(card.price_hand)
        buffer = "-" if card.price_buffer is None else str(card.price_buffer)
        note = [f"price {hand}/{buffer}"]
        if card.digit is not None:
            note.append(f"digit {card.digit}")
        if card.symbols:
            note.append(",".join(card.symbols))
        out.append(Listed(typed=cid, name=speech.name(card), kind=card.type, where=", ".join(decks) or "no deck",
                          note=" · ".join(note)))
    return tuple(out)
