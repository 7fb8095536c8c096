"""Copycat's events in words, for the Markdown and HTML accounts. Built from the events as the role
sees them (redacted): a hidden card is ``?`` and gets no name."""

from __future__ import annotations

from typing import Any

from .model import (
    Bought, CardPending, CardsDrawn, CardsKept, CardsMoved, CardUsed, CardUsedAgain, CoinsGained, Doubled,
    ElbowPermitsGained, EndTriggered, FinalRound, FreePlacementGained, FreePlacementUsed, GameEnded, HandLaidDown,
    KeptPermitsTaken, KeptPlacementsTaken, KeptTaken, LaidOut, ManualApplied, MoveOp, OfficeUsed, OrderCardChosen,
    OrderRevealed, Passed, PassLifted, PermitsKept, PhaseChanged, PlacementsGained, PlacementsKept, PurchaseDue,
    PurchaseForfeited, PurchasesGained, RoundCleaned, Scored, StreetShifted, TurnActed, TurnStarted, VpGained,
    WorkerPlaced, WorkersRecruited,
)
from .txn import BoundRules


def name(rules: BoundRules, card: str | None) -> str:
    if card is None:
        return "no card"
    return str(card)  # whoever reads the sentence gets the card's printed name in its place (``name_of``)


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
    return counted(rules, event)


def plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else many or one + 's'}"


def counted(rules: BoundRules, event: Any) -> str | None:
    """The counters and flags in words."""
    match event:
        case CoinsGained(seat=seat, coins=coins, doublable=doublable):
            return f"{seat} gains {plural(coins, 'coin')}" + ("" if doublable else " (not doubled by a Garden party)")
        case VpGained(seat=seat, vp=vp):
            return f"{seat} gains {vp} VP this turn"
        case PurchasesGained(seat=seat, count=count):
            return f"{seat} may buy {plural(count, 'more card')} this turn"
        case PurchaseDue():
            return "the permitted purchase must come next"
        case PurchaseForfeited(seat=seat):
            return f"{seat} did not make the purchase that was due: it is lost"
        case CardUsed(seat=seat, card=card):
            return f"{seat}'s {name(rules, card)} acts"
        case CardPending(seat=seat, card=card):
            return f"{seat}'s {name(rules, card)} is laid down and has not acted yet"
        case CardUsedAgain(seat=seat, card=card):
            return f"{seat} uses {name(rules, card)} once more"
        case OfficeUsed(seat=seat, office=office, times=times):
            return f"{seat}'s worker on {office} has acted {'once' if times == 1 else plural(times, 'time')} this round"
        case TurnActed():
            return "the turn has acted: no pass now"
        case PlacementsGained(count=count):
            return f"{plural(count, 'more placement')} this turn"
        case ElbowPermitsGained(count=count):
            return f"{plural(count, 'more elbow permit')} this turn"
        case FreePlacementGained():
            return "one more placement this turn, spending no worker"
        case FreePlacementUsed(seat=seat):
            return f"{seat}'s placement is the free one: the worker costs nothing"
        case PermitsKept(seat=seat, count=count):
            return f"{seat} keeps {plural(count, 'elbow permit')} for the next turn"
        case PlacementsKept(seat=seat, count=count):
            return f"{seat} keeps {plural(count, 'extra placement')} for the next turn"
        case KeptPermitsTaken(seat=seat, count=count):
            return f"{seat}'s turn begins with {plural(count, 'kept elbow permit')}"
        case KeptPlacementsTaken(seat=seat, count=count):
            return f"{seat}'s turn begins with {plural(count, 'kept extra placement')}"
        case WorkersRecruited(seat=seat, count=count):
            return f"{seat} recruits {plural(count, 'worker')} from the spare supply"
        case Doubled(seat=seat, what=what, capped=capped):
            if capped:
                return f"{seat}'s {what} are doubled as often as allowed: no further doubling"
            return f"{seat}'s {what} are doubled once more"
        case Passed(seat=seat):
            return f"{seat} passes for this phase"
        case PassLifted(seat=seat):
            return f"{seat} may place workers again"
        case HandLaidDown(seat=seat):
            return f"{seat} has laid down the hand"
        case FinalRound(round=number):
            return f"the last clean-up: round {number} stays the last"
    return None
