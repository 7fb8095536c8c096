"""Copycat's events in words, for the Markdown and HTML accounts. Built from the events as the role
sees them (redacted): a hidden card is ``?`` and gets no name."""

from __future__ import annotations

from typing import Any

from .model import (
    Adjusted, Bought, CardsDrawn, CardsKept, EndTriggered, CardsMoved, FlagSet, GameEnded, KeptTaken, LaidOut, ManualApplied,
    MoveOp, OrderCardChosen, OrderRevealed, PhaseChanged, RoundCleaned, Scored, StreetShifted, TurnStarted,
    WorkerPlaced,
)
from .txn import BoundRules


def name(rules: BoundRules, card: str | None) -> str:
    if card is None:
        return "no card"
    found = rules.cards.get(card)
    return f"{card} {found.name}" if found is not None else str(card)


def names(rules: BoundRules, cards: Any) -> str:
    return ", ".join(name(rules, c) for c in cards) or "nothing"


def describe(rules: BoundRules, event: Any) -> str | None:
    match event:
        case LaidOut(street=street, doctorates=docs, first_office=first, bus=bus):
            return (f"the street is laid out ({', '.join(street)}); {len(docs)} doctorates go under the supply; "
                    f"{first} is the first office card; the bus runs {', '.join(bus)}")
        case CardsDrawn(seat=seat, from_deck=deck, from_discard=rest, reshuffled=reshuffled):
            text = f"{seat} draws {len(deck) + len(rest)} card{'s' if len(deck) + len(rest) != 1 else ''}"
            shown = [c for c in (*deck, *rest) if c != "?"]
            if shown:
                text += f" ({', '.join(shown)})"
            return text + (" after shuffling the discard pile into a new deck" if reshuffled else "")
        case KeptTaken(seat=seat):
            return f"{seat}'s hand is drawn"
        case CardsKept(seat=seat, cards=cards):
            return f"{seat} keeps {len(cards)} card{'s' if len(cards) != 1 else ''} for next round"
        case OrderCardChosen(seat=seat):
            return f"{seat} lays an order card face down"
        case OrderRevealed(bus=bus, cards=cards, numbers=numbers):
            order = ", ".join(f"{s} {numbers[s]}" for s in bus)
            return f"order cards revealed ({order}): the bus is now {', '.join(bus)}"
        case CardsMoved(seat=seat, cards=cards, from_=frm, to=to):
            verb = {"play_area": "plays" if frm == "hand" else "moves", "box": "removes from the game",
                    "temp_discard": "sets aside", "kept": "keeps"}.get(to, "moves")
            return f"{seat} {verb} {names(rules, cards)} ({frm} → {to})"
        case Adjusted(path=path, delta=delta, why=why):
            return adjusted(path, delta, why)
        case FlagSet(path=path, value=value):
            return flag(path, value)
        case WorkerPlaced(seat=seat, office=office, elbow=elbow, tokens=tokens):
            text = f"{seat} places a worker on {office}" + (" (elbowing in)" if elbow else "")
            return text + (f", taking {tokens} VP token{'s' if tokens != 1 else ''}" if tokens else "")
        case StreetShifted(removed=removed, refill=refill):
            parts = []
            if removed:
                parts.append(f"{names(rules, removed)} leave the street")
            parts.append("the street slides left")
            if refill:
                parts.append(f"{names(rules, refill)} fill it from the supply")
            return "; ".join(parts)
        case Bought(seat=seat, slot=slot, card=card, price=price, spend=spend, reds=reds):
            text = f"{seat} buys {name(rules, card)} from slot {slot} for {price}"
            if spend:
                text += f" and spends {spend} more for {spend} VP"
            return text + (f", taking the red cards {', '.join(reds)}" if reds else "")
        case TurnStarted(seat=seat, phase=phase):
            return f"{seat}'s {'actions' if phase == 'actions' else 'buying'} turn"
        case PhaseChanged(phase=phase):
            return f"the round moves on to {phase}"
        case Scored(seat=seat, total=total, tokens=tokens):
            return f"{seat} scores {total} VP" + (f" (with {tokens} token{'s' if tokens != 1 else ''})" if tokens else "")
        case RoundCleaned(office_drawn=office):
            return "clean-up: VP tokens on empty offices, cards to the discards, workers home" + (
                f"; {office} comes into play" if office else "")
        case EndTriggered(triggers=triggers):
            return f"the game ends after one more clean-up ({', '.join(triggers)})"
        case GameEnded(winners=winners, reason=reason, scores=scores, triggers=triggers):
            return (f"the game ends ({', '.join(triggers)}): {', '.join(winners)} win{'s' if len(winners) == 1 else ''} "
                    f"({reason}); scores " + ", ".join(f"{s} {v}" for s, v in scores.items()))
        case ManualApplied(ops=ops, reason=reason):
            parts = [f"{op.card} {op.from_} → {op.to}" if isinstance(op, MoveOp) else f"{op.counter} {op.delta:+d}"
                     for op in ops]
            return f"declared ({reason}): " + "; ".join(parts)
    return None


_COUNTERS = {
    "coins.doublable": "coins", "coins.plain": "coins (not doubled)", "vp_pending": "VP this turn",
    "buys_left": "purchases", "workers_available": "workers", "extra_workers": "recruited workers",
    "coin_doublings": "coin doublings", "token_doublings": "token doublings", "score": "VP on the career track",
}


def adjusted(path: str, delta: int, why: str) -> str:
    parts = path.split(".")
    if why == "doubling_capped":
        return f"{parts[1]}'s {parts[-1].replace('_', ' ')} are at the cap: no further doubling"
    sign = "+" if delta >= 0 else ""
    if parts[0] == "players" and len(parts) >= 3:
        field = ".".join(parts[2:])
        if field.startswith("card_uses."):
            return f"{parts[1]} uses {parts[3]} once more"
        return f"{parts[1]}: {sign}{delta} {_COUNTERS.get(field, field.replace('_', ' '))}"
    if parts[0] == "worker_supply":
        return f"{parts[1]}'s spare workers {sign}{delta}"
    if parts[0] == "turn":
        return {"placements_left": f"one more placement this turn ({sign}{delta})",
                "elbow_permits": f"one more elbow permit this turn ({sign}{delta})"}.get(parts[1], f"{path} {sign}{delta}")
    return f"{path} {sign}{delta}"


def flag(path: str, value: int | bool) -> str:
    parts = path.split(".")
    if parts[0] == "offices" and len(parts) == 4:
        return f"{parts[3]}'s worker on {parts[1]} has acted {value} time{'s' if value != 1 else ''} this round"
    if parts[0] == "players" and len(parts) >= 4 and parts[2] == "card_uses":
        return f"{parts[3]} has acted {value} time{'s' if value != 1 else ''} this round"
    if parts[0] == "players" and len(parts) == 3:
        return {"laid_down": f"{parts[1]} has laid down the hand", "passed": f"{parts[1]} passes for this phase"}.get(
            parts[2], f"{path} = {str(value).lower() if isinstance(value, bool) else value}")
    if path == "turn.acted":
        return "the turn has begun to act"
    return f"{path} = {str(value).lower() if isinstance(value, bool) else value}"
