"""Copycat's events in words, for the Markdown and HTML accounts. Built from the events as the role
sees them (redacted): a hidden card is ``?`` and gets no name."""

from __future__ import annotations

from typing import Any

from referee.engine.speech import N_, gettext, ngettext

from .model import (
    Bought, CardPending, CardsDrawn, CardsKept, CardsMoved, CardUsed, CardUsedAgain, CoinsGained, Doubled,
    ElbowPermitsGained, EndTriggered, FinalRound, FreePlacementGained, FreePlacementUsed, GameEnded, HandLaidDown,
    KeptPermitsTaken, KeptPlacementsTaken, KeptTaken, LaidOut, ManualApplied, MoveOp, OfficeUsed, OrderCardChosen,
    OrderRevealed, Passed, PassLifted, PermitsKept, PhaseChanged, PlacementsGained, PlacementsKept, PurchaseDue,
    PurchaseForfeited, PurchasesGained, RoundCleaned, Scored, StreetShifted, TurnActed, TurnStarted, VpGained,
    WorkerPlaced, WorkersRecruited,
)
from .txn import BoundRules


#: the zones cards move between, by id (a line reads ``hand → play_area``: the ids, in English)
_ZONES = {"hand": N_("hand"), "play_area": N_("play_area"), "box": N_("box"), "temp_discard": N_("temp_discard"),
          "kept": N_("kept"), "discard": N_("discard"), "deck": N_("deck"), "street": N_("street"),
          "supply": N_("supply")}
#: the phases of a round, by id
_PHASES = {"setup": N_("setup"), "planning": N_("planning"), "actions": N_("actions"), "buying": N_("buying"),
           "cleanup": N_("cleanup"), "game_over": N_("game_over")}


#: the reasons its outcomes give that no other word names, as referee.outcome says them (through the catalog)
OUTCOME_REASONS = (N_("tie break last round"), N_("bus order"), N_("shared"))


def _zone(zone: str) -> str:
    return gettext(_ZONES[zone]) if zone in _ZONES else zone


def name(rules: BoundRules, card: str | None) -> str:
    if card is None:
        return gettext("no card")
    return str(card)  # whoever reads the sentence gets the card's printed name in its place (``name_of``)


def names(rules: BoundRules, cards: Any) -> str:
    return ", ".join(name(rules, c) for c in cards) or gettext("nothing")


def describe(rules: BoundRules, event: Any) -> str | None:  # noqa: C901 - one sentence per event
    match event:
        case LaidOut(street=street, doctorates=docs, first_office=first, bus=bus):
            return ngettext("the street is laid out ({street}); {n} doctorates go under the supply; {office} is the first "
                            "office card; the bus runs {bus}",
                            "the street is laid out ({street}); {n} doctorates go under the supply; {office} is the first "
                            "office card; the bus runs {bus}", len(docs),
                            street=", ".join(street), office=first, bus=", ".join(bus))
        case CardsDrawn(seat=seat, from_deck=deck, from_discard=rest, reshuffled=reshuffled):
            n = len(deck) + len(rest)
            shown = [c for c in (*deck, *rest) if c != "?"]
            cards = gettext(" ({cards})", cards=", ".join(shown)) if shown else ""
            if reshuffled:
                return ngettext("{seat} draws {n} card{cards} after shuffling the discard pile into a new deck",
                                "{seat} draws {n} cards{cards} after shuffling the discard pile into a new deck", n,
                                seat=seat, cards=cards)
            return ngettext("{seat} draws {n} card{cards}", "{seat} draws {n} cards{cards}", n, seat=seat, cards=cards)
        case KeptTaken(seat=seat):
            return gettext("{seat}'s hand is drawn", seat=seat)
        case CardsKept(seat=seat, cards=cards):
            return ngettext("{seat} keeps {n} card for next round", "{seat} keeps {n} cards for next round", len(cards),
                            seat=seat)
        case OrderCardChosen(seat=seat):
            return gettext("{seat} lays an order card face down", seat=seat)
        case OrderRevealed(bus=bus, cards=cards, numbers=numbers):
            order = ", ".join(f"{s} {numbers[s]}" for s in bus)
            return gettext("order cards revealed ({order}): the bus is now {bus}", order=order, bus=", ".join(bus))
        case CardsMoved(seat=seat, cards=cards, from_=frm, to=to):
            values = dict(seat=seat, cards=names(rules, cards), source=_zone(frm), target=_zone(to))
            if to == "play_area" and frm == "hand":
                return gettext("{seat} plays {cards} ({source} → {target})", **values)
            if to == "box":
                return gettext("{seat} removes from the game {cards} ({source} → {target})", **values)
            if to == "temp_discard":
                return gettext("{seat} sets aside {cards} ({source} → {target})", **values)
            if to == "kept":
                return gettext("{seat} keeps {cards} ({source} → {target})", **values)
            return gettext("{seat} moves {cards} ({source} → {target})", **values)
        case WorkerPlaced(seat=seat, office=office, elbow=elbow, tokens=tokens):
            text = (gettext("{seat} places a worker on {office} (elbowing in)", seat=seat, office=office) if elbow
                    else gettext("{seat} places a worker on {office}", seat=seat, office=office))
            if tokens:
                text += ngettext(", taking {n} VP token", ", taking {n} VP tokens", tokens)
            return text
        case StreetShifted(removed=removed, refill=refill):
            parts = []
            if removed:
                parts.append(gettext("{cards} leave the street", cards=names(rules, removed)))
            parts.append(gettext("the street slides left"))
            if refill:
                parts.append(gettext("{cards} fill it from the supply", cards=names(rules, refill)))
            return "; ".join(parts)
        case Bought(seat=seat, slot=slot, card=card, price=price, spend=spend, reds=reds):
            text = gettext("{seat} buys {card} from slot {slot} for {price}", seat=seat, card=name(rules, card), slot=slot,
                           price=price)
            if spend:
                text += gettext(" and spends {spend} more for {spend} VP", spend=spend)
            return text + (gettext(", taking the red cards {cards}", cards=", ".join(reds)) if reds else "")
        case TurnStarted(seat=seat, phase=phase):
            if phase == "actions":
                return gettext("{seat}'s actions turn", seat=seat)
            return gettext("{seat}'s buying turn", seat=seat)
        case PhaseChanged(phase=phase):
            return gettext("the round moves on to {phase}", phase=gettext(_PHASES[phase]) if phase in _PHASES else phase)
        case Scored(seat=seat, total=total, tokens=tokens):
            if tokens:
                return ngettext("{seat} scores {total} VP (with {n} token)", "{seat} scores {total} VP (with {n} tokens)",
                                tokens, seat=seat, total=total)
            return gettext("{seat} scores {total} VP", seat=seat, total=total)
        case RoundCleaned(office_drawn=office):
            if office:
                return gettext("clean-up: VP tokens on empty offices, cards to the discards, workers home; {office} comes "
                               "into play", office=office)
            return gettext("clean-up: VP tokens on empty offices, cards to the discards, workers home")
        case EndTriggered(triggers=triggers):
            return gettext("the game ends after one more clean-up ({triggers})", triggers=", ".join(triggers))
        case GameEnded(winners=winners, reason=reason, scores=scores, triggers=triggers):
            return ngettext("the game ends ({triggers}): {winners} wins ({reason}); scores {scores}",
                            "the game ends ({triggers}): {winners} win ({reason}); scores {scores}", len(winners),
                            triggers=", ".join(triggers), winners=", ".join(winners), reason=reason,
                            scores=", ".join(f"{s} {v}" for s, v in scores.items()))
        case ManualApplied(ops=ops, reason=reason):
            parts = [f"{op.card} {op.from_} → {op.to}" if isinstance(op, MoveOp) else f"{op.counter} {op.delta:+d}"
                     for op in ops]
            return gettext("declared ({reason}): {changes}", reason=reason, changes="; ".join(parts))
    return counted(rules, event)


def counted(rules: BoundRules, event: Any) -> str | None:  # noqa: C901 - one sentence per event
    """The counters and flags in words."""
    match event:
        case CoinsGained(seat=seat, coins=coins, doublable=doublable):
            if doublable:
                return ngettext("{seat} gains {n} coin", "{seat} gains {n} coins", coins, seat=seat)
            return ngettext("{seat} gains {n} coin (not doubled by a Garden party)",
                            "{seat} gains {n} coins (not doubled by a Garden party)", coins, seat=seat)
        case VpGained(seat=seat, vp=vp):
            return gettext("{seat} gains {vp} VP this turn", seat=seat, vp=vp)
        case PurchasesGained(seat=seat, count=count):
            return ngettext("{seat} may buy {n} more card this turn", "{seat} may buy {n} more cards this turn", count,
                            seat=seat)
        case PurchaseDue():
            return gettext("the permitted purchase must come next")
        case PurchaseForfeited(seat=seat):
            return gettext("{seat} did not make the purchase that was due: it is lost", seat=seat)
        case CardUsed(seat=seat, card=card):
            return gettext("{seat}'s {card} acts", seat=seat, card=name(rules, card))
        case CardPending(seat=seat, card=card):
            return gettext("{seat}'s {card} is laid down and has not acted yet", seat=seat, card=name(rules, card))
        case CardUsedAgain(seat=seat, card=card):
            return gettext("{seat} uses {card} once more", seat=seat, card=name(rules, card))
        case OfficeUsed(seat=seat, office=office, times=times):
            if times == 1:
                return gettext("{seat}'s worker on {office} has acted once this round", seat=seat, office=office)
            return ngettext("{seat}'s worker on {office} has acted {n} time this round",
                            "{seat}'s worker on {office} has acted {n} times this round", times, seat=seat, office=office)
        case TurnActed():
            return gettext("the turn has acted: no pass now")
        case PlacementsGained(count=count):
            return ngettext("{n} more placement this turn", "{n} more placements this turn", count)
        case ElbowPermitsGained(count=count):
            return ngettext("{n} more elbow permit this turn", "{n} more elbow permits this turn", count)
        case FreePlacementGained():
            return gettext("one more placement this turn, spending no worker")
        case FreePlacementUsed(seat=seat):
            return gettext("{seat}'s placement is the free one: the worker costs nothing", seat=seat)
        case PermitsKept(seat=seat, count=count):
            return ngettext("{seat} keeps {n} elbow permit for the next turn", "{seat} keeps {n} elbow permits for the "
                            "next turn", count, seat=seat)
        case PlacementsKept(seat=seat, count=count):
            return ngettext("{seat} keeps {n} extra placement for the next turn", "{seat} keeps {n} extra placements for "
                            "the next turn", count, seat=seat)
        case KeptPermitsTaken(seat=seat, count=count):
            return ngettext("{seat}'s turn begins with {n} kept elbow permit", "{seat}'s turn begins with {n} kept elbow "
                            "permits", count, seat=seat)
        case KeptPlacementsTaken(seat=seat, count=count):
            return ngettext("{seat}'s turn begins with {n} kept extra placement", "{seat}'s turn begins with {n} kept extra "
                            "placements", count, seat=seat)
        case WorkersRecruited(seat=seat, count=count):
            return ngettext("{seat} recruits {n} worker from the spare supply", "{seat} recruits {n} workers from the "
                            "spare supply", count, seat=seat)
        case Doubled(seat=seat, what=what, capped=capped):
            if capped:
                return gettext("{seat}'s {what} are doubled as often as allowed: no further doubling", seat=seat,
                               what=_doubled(what))
            return gettext("{seat}'s {what} are doubled once more", seat=seat, what=_doubled(what))
        case Passed(seat=seat):
            return gettext("{seat} passes for this phase", seat=seat)
        case PassLifted(seat=seat):
            return gettext("{seat} may place workers again", seat=seat)
        case HandLaidDown(seat=seat):
            return gettext("{seat} has laid down the hand", seat=seat)
        case FinalRound(round=number):
            return gettext("the last clean-up: round {round} stays the last", round=number)
    return None


#: what a Garden party doubles, by the word the event records
_DOUBLED = {"coins": N_("coins"), "tokens": N_("tokens")}


def _doubled(what: str) -> str:
    return gettext(_DOUBLED[what]) if what in _DOUBLED else what
