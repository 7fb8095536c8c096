"""How Copycat's table is drawn (the ``boards`` hook), from one role's view: the street as a row of
eleven slots in slot order with their surcharges (a card and an office by its id: the front ends show
its printed name, ``name_of``), the offices in play with their workers and VP tokens, the supply
and office deck as counts, and each seat's tableau."""

from __future__ import annotations

from typing import Any

from referee.engine.present import seat_tableau
from schemas.board import Area, Board

from .effects import surcharge
from .txn import BoundRules


def boards(rules: BoundRules, view: dict[str, Any]) -> tuple[Board, ...]:
    out: list[Board] = []
    street = view.get("street")
    if isinstance(street, dict):
        areas = []
        # in slot order (1, 2, … 11: the view's keys are text, and sort as text)
        for slot, card in sorted(street.items(), key=lambda item: _slot_order(str(item[0]))):
            found = rules.cards.get(card) if isinstance(card, str) else None
            lines: tuple[str, ...] = (str(card),) if found is not None else ()
            extra = surcharge(int(slot))
            areas.append(Area(id=f"slot {slot}", label=f"+{extra}" if extra else "", lines=lines))
        out.append(Board(title="Street", layout="row", areas=tuple(areas), covers=("street",)))
    offices = view.get("offices")
    if isinstance(offices, dict):
        areas = []
        for oid, o in offices.items():
            office = rules.offices.get(oid)
            label = office.color if office is not None else ""  # its name is drawn for its id
            held = [f"worker {w}" for w in o.get("workers", [])]
            if o.get("vp_tokens"):
                held.append(f"{o['vp_tokens']} VP tokens")
            areas.append(Area(id=oid, label=label, lines=tuple(held)))
        out.append(Board(title="Headquarters", layout="row", areas=tuple(areas), covers=("offices",)))
    supply, deck = view.get("supply") or {}, view.get("office_deck") or {}
    bands = [Area(id=f"stage {b['stage']}", lines=(f"{len(b['cards'])} cards",)) for b in supply.get("bands", [])]
    bands += [Area(id=f"department {b['department']}", lines=(f"{len(b['cards'])} office cards",))
              for b in deck.get("bands", [])]
    out.append(Board(title="Supply and office deck", layout="row", areas=tuple(bands), covers=("supply", "office_deck")))
    tableau = seat_tableau(view)
    if tableau is not None:
        out.append(tableau)
    return tuple(out)


def _slot_order(slot: str) -> tuple[int, str]:
    return (int(slot), "") if slot.isdigit() else (1 << 30, slot)


def headline(view: dict[str, Any]) -> str:
    """Where the match stands: the round and phase, whose turn (with placements left in the actions
    phase), the scores, and in the buying phase each player's coins."""
    phase = view.get("phase")
    players: dict[str, Any] = view["players"] if isinstance(view.get("players"), dict) else {}
    if phase == "setup":
        return "setup: the street, doctorates, first office and bus to be laid out"
    parts = [f"round {view.get('round')}", str(phase).replace("_", " ")]
    current = view.get("current")
    if current and phase == "actions":
        turn = view.get("turn") or {}
        parts.append(f"{current} to act ({turn.get('placements_left', 0)} placement"
                     f"{'' if turn.get('placements_left') == 1 else 's'} left)")
    elif current:
        parts.append(f"{current} to act")
    elif phase == "planning":
        waiting = [s for s, p in players.items() if isinstance(p, dict) and not p.get("order_chosen")]
        if waiting:
            parts.append("order cards from " + ", ".join(waiting))
    scores = [f"{s} {p['score']}" for s, p in players.items() if isinstance(p, dict) and "score" in p]
    if scores:
        parts.append("VP " + ", ".join(scores))
    coins = [f"{s} {p['coins_available']}" for s, p in players.items() if isinstance(p, dict) and "coins_available" in p]
    if coins and phase == "buying":  # coins are the buying phase's money, lost at its end (§3.4)
        parts.append("coins " + ", ".join(coins))
    return " · ".join(parts)
