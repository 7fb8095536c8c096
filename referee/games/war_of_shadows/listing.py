"""What a scorekeeper types for War of Shadows (``referee cards war_of_shadows SET``): the board's
regions and council positions, then the catalogue's cards with their names and costs (a set without a
catalogue: each empire's numbered cards, ``bear_c1`` ...), from the data set alone (the board the match would use: the set's first, or ``--option board=ID``)."""

from __future__ import annotations

from collections.abc import Mapping

from referee.engine import speech
from schemas.listing import Listed

from .data import ALL_CARDS, Board, CardDef


def listing(board: Board, catalogue: Mapping[str, CardDef] | None) -> tuple[Listed, ...]:
    out = []
    for region in board.regions:
        facts = [f"{region.cities} cit{'y' if region.cities == 1 else 'ies'}"]
        facts += [word for word, has in (("farm", region.farm), ("fort", region.fort)) if has]
        out.append(Listed(typed=region.id, name=speech.name(region), kind="region", where=f"{board.board_id}, home {region.home or '-'}",
                          note=", ".join(facts)))
    for position, actions in board.council_actions.items():
        out.append(Listed(typed=position, kind="position", where=board.board_id,
                          note=", ".join(a.type for a in actions)))
    if catalogue is None:  # a set without card texts: each empire's numbered cards, typed as they are
        for cid in ALL_CARDS:
            out.append(Listed(typed=cid, kind="card", where=cid.split("_c")[0], note="no card text in this set"))
    for cid, card in (catalogue or {}).items():
        costs = [f"{i}: {'+'.join(a.cost) or 'free'} → {a.effect}" for i, a in sorted(card.abilities.items())]
        out.append(Listed(typed=cid, name=speech.name(card), kind="card", where=card.empire, note="; ".join(costs)))
    return tuple(out)
