"""Applying events (the fold): total over every event tag, no validation, no choices.

Zones are named by dotted paths (§4.12): ``players.<p>.<zone>``, ``street.<n>``, ``supply``, ``box``;
counters likewise (``players.anna.coins.doublable``). Unordered zones are kept sorted by id, so a
state has one canonical form whatever order the cards arrived in; in a digital match the decks, the
supply bands and the office departments keep the order they were shuffled into (top first).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from .model import (
    SLOTS, STAGES, Adjusted, Band, Bought, CardsDrawn, CardsKept, EndTriggered, CardsMoved, Coins, Department, FlagSet,
    GameEnded, KeptTaken, LaidOut, ManualApplied, MoveOp, Office, OfficeDeck, OrderCardChosen, OrderRevealed,
    PhaseChanged, Player, Result, RoundCleaned, Scored, State, StreetShifted, Supply, Turn, TurnStarted,
    WorkerPlaced,
)
from .txn import BoundRules

replace = msgspec.structs.replace

#: the cards the two-player game takes out of the supply (§2 step 3, «Исключение при игре вдвоем»)
TWO_PLAYER_REMOVED = ("c23", "c32", "c49")
PLAYER_ZONES = ("deck", "hand", "play_area", "temp_discard", "discard", "kept", "doctorates")


def without(cards: tuple[str, ...], gone: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    out = list(cards)
    for card in gone:
        out.remove(card)
    return tuple(out)


def sort(cards: Any) -> tuple[str, ...]:
    return tuple(sorted(cards))


# -- generic paths -------------------------------------------------------------------------------------------


def update(node: Any, parts: list[str], fn: Callable[[Any], Any]) -> Any:
    """``node`` with the value at ``parts`` replaced by ``fn(old)`` (a missing map key reads None)."""
    if not parts:
        return fn(node)
    head, rest = parts[0], parts[1:]
    if isinstance(node, dict):
        return {**node, head: update(node.get(head), rest, fn)}
    return replace(node, **{head: update(getattr(node, head), rest, fn)})


def update_state(state: State, path: str, fn: Callable[[Any], Any]) -> State:
    """``update`` on a whole state, by a dotted path."""
    out: State = update(state, path.split("."), fn)
    return out


def add(delta: int) -> Callable[[Any], int]:
    return lambda value: int(value or 0) + delta


def read(node: Any, parts: list[str]) -> Any:
    for part in parts:
        node = node.get(part) if isinstance(node, dict) else getattr(node, part, None)
        if node is None:
            return None
    return node


def zone_path(seat: str, zone: str) -> str:
    return zone if "." in zone or zone in ("box", "supply") else f"players.{seat}.{zone}"


def take(state: State, zone: str, card: str) -> State:
    """``card`` out of ``zone`` (a full path)."""
    if zone == "supply":
        bands = tuple(replace(b, cards=without(b.cards, [card])) if card in b.cards else b for b in state.supply.bands)
        return replace(state, supply=Supply(bands=bands))
    if zone.startswith("street."):
        return replace(state, street={**state.street, zone[7:]: None})
    return update_state(state, zone, lambda cards: without(cards, [card]))


def put(state: State, zone: str, card: str) -> State:
    if zone == "supply":
        bands = state.supply.bands
        if bands:
            first = next((i for i, b in enumerate(bands) if b.cards), 0)
            bands = tuple(replace(b, cards=sort((*b.cards, card))) if i == first else b for i, b in enumerate(bands))
        return replace(state, supply=Supply(bands=bands))
    if zone.startswith("street."):
        return replace(state, street={**state.street, zone[7:]: card})
    return update_state(state, zone, lambda cards: sort((*cards, card)))


def move(state: State, cards: tuple[str, ...], frm: str, to: str) -> State:
    for card in cards:
        state = put(take(state, frm, card), to, card)
    return state


# -- the fold ----------------------------------------------------------------------------------------------


def evolve(rules: BoundRules, state: State, event: Any) -> State:
    match event:
        case LaidOut():
            return laid_out(rules, event)
        case CardsDrawn(seat=seat, from_deck=from_deck, from_discard=from_discard, reshuffled=reshuffled,
                        new_deck=new_deck):
            p = state.players[seat]
            deck = without(p.deck, from_deck)
            discard = p.discard
            if reshuffled:
                deck, discard = (without(discard, from_discard) if new_deck is None else new_deck), ()
            p = replace(p, deck=deck, discard=discard, hand=sort((*p.hand, *from_deck, *from_discard)))
            return replace(state, players={**state.players, seat: p})
        case KeptTaken(seat=seat):
            p = state.players[seat]
            p = replace(p, hand=sort((*p.hand, *p.kept)), kept=(), drawn_this_round=True)
            return replace(state, players={**state.players, seat: p})
        case CardsKept(seat=seat, cards=cards):
            return move(state, cards, f"players.{seat}.hand", f"players.{seat}.kept")
        case OrderCardChosen(seat=seat, card=card):
            p = state.players[seat]
            hand = without(p.hand, [card]) if card is not None else p.hand
            if p.order_card is not None:  # chosen again (order_choice_final=false): the first card back
                hand = sort((*hand, p.order_card))
            p = replace(p, hand=hand, order_card=card, order_chosen=True)
            return replace(state, players={**state.players, seat: p})
        case OrderRevealed(bus=bus):
            players = {}
            for seat, p in state.players.items():
                extra = (p.order_card,) if p.order_card is not None else ()
                players[seat] = replace(p, temp_discard=sort((*p.temp_discard, *extra)), order_card=None)
            return replace(state, players=players, bus=bus, phase="actions", current=None, turn=Turn())
        case CardsMoved(seat=seat, cards=cards, from_=frm, to=to):
            return move(state, cards, zone_path(seat, frm), zone_path(seat, to))
        case Adjusted(path=path, delta=delta):
            return update_state(state, path, add(delta))
        case FlagSet(path=path, value=value):
            return update_state(state, path, lambda _v: value)
        case WorkerPlaced(seat=seat, office=office, elbow=elbow, tokens=tokens):
            p = state.players[seat]
            p = replace(p, workers_available=p.workers_available - 1, vp_tokens=p.vp_tokens + tokens)
            o = state.offices[office]
            o = replace(o, workers=(*o.workers, seat), uses={**o.uses, seat: 0}, vp_tokens=o.vp_tokens - tokens)
            t = state.turn
            t = replace(t, placements_left=t.placements_left - 1, elbow_permits=t.elbow_permits - (1 if elbow else 0),
                        placed=(*t.placed, office), acted=True)
            return replace(state, players={**state.players, seat: p}, offices={**state.offices, office: o}, turn=t)
        case StreetShifted(removed=removed, refill=refill):
            return shifted(state, removed, refill)
        case Bought(seat=seat, slot=slot, card=card, price=price, spend=spend, reds=reds):
            for red in reds:
                slot_of = next(k for k, v in state.street.items() if v == red)
                state = move(state, (red,), f"street.{slot_of}", f"players.{seat}.temp_discard")
            doctorate = rules.cards[card].kind == "coins_to_vp"
            state = move(state, (card,), f"street.{slot}", f"players.{seat}.{'doctorates' if doctorate else 'temp_discard'}")
            p = state.players[seat]
            p = replace(p, coins=replace(p.coins, spent=p.coins.spent + price + spend), buys_left=p.buys_left - 1,
                        vp_pending=p.vp_pending + (spend if doctorate else 0))
            return replace(state, players={**state.players, seat: p},
                           doctorate_bought=state.doctorate_bought or doctorate)
        case TurnStarted(seat=seat, phase=phase):
            turn = Turn(placements_left=1) if phase == "actions" else Turn()
            return replace(state, phase=phase, current=seat, turn=turn)
        case PhaseChanged(phase=phase):
            return replace(state, phase=phase, current=None, turn=Turn())
        case Scored(seat=seat, tokens=tokens, total=total):
            p = state.players[seat]
            p = replace(p, score=p.score + total, round_vp=total, vp_tokens=0, coins=Coins(), buys_left=0,
                        coin_doublings=0, token_doublings=0, vp_pending=0, done=True)
            return replace(state, players={**state.players, seat: p}, vp_token_supply=state.vp_token_supply + tokens)
        case RoundCleaned(office_drawn=office_drawn):
            limited = int(rules.options["vp_token_limit"]) > 0
            return cleaned(state, office_drawn, rules.office_order if limited else None)
        case EndTriggered(triggers=triggers):
            return replace(state, phase="cleanup", current=None, end_triggers=triggers, turn=Turn())
        case GameEnded(winners=winners, reason=reason, scores=scores, triggers=triggers):
            return replace(state, phase="game_over", current=None, end_triggers=triggers, turn=Turn(),
                           outcome=Result(winners=winners, reason=reason, scores=scores, triggers=triggers))
        case ManualApplied(ops=ops):
            for op in ops:
                if isinstance(op, MoveOp):
                    state = move(state, (op.card,), op.from_, op.to)
                else:
                    state = update_state(state, op.counter, add(op.delta))
            return state
    raise TypeError(f"unknown copycat event {event!r}")


def laid_out(rules: BoundRules, event: LaidOut) -> State:
    """Setup steps 1-13 (§2) with the facts of the ``setup`` intent."""
    seats = rules.players
    n = len(seats)
    cards, offices = rules.cards, rules.offices
    box: list[str] = []
    removed = TWO_PLAYER_REMOVED if n == 2 else ()
    box += [c for c in removed if c in cards]
    letters = rules.sets
    players = {}
    for seat in seats:
        deck = event.decks.get(seat) or sort(c.id for c in cards.values() if c.set == letters[seat])
        players[seat] = Player(deck=deck, workers_available=3)
    box += [c.id for c in cards.values() if c.set is not None and c.set not in letters.values()]
    street_cards = set(event.street)
    bands = []
    for stage in STAGES:
        if stage == "V":
            band = sort(event.doctorates)
            box += [c.id for c in cards.values() if c.stage == "V" and c.id not in event.doctorates]
        else:
            band = sort(c.id for c in cards.values() if c.stage == stage and c.id not in removed
                        and c.id not in street_cards)
        if event.bands:  # a digital match: the band in its shuffled order
            band = event.bands[STAGES.index(stage)]
        bands.append(Band(stage=stage, cards=band))
    box += [c.id for c in cards.values() if c.stage == "I" and c.id not in street_cards and c.id not in removed]
    in_play = {o.id: Office() for o in offices.values() if o.source == "board"}
    for o in offices.values():
        if o.source == "normal":
            if (n >= 3 and o.players == "3-4") or (n == 4 and o.players == "4"):
                in_play[o.id] = Office()
            else:
                box.append(o.id)
    in_play[event.first_office] = Office()
    departments = tuple(Department(department=d, cards=event.departments[d - 1] if event.departments else
                                   sort(o.id for o in offices.values() if o.department == d and o.id != event.first_office))
                        for d in range(1, 6))
    return State(
        box=sort(box), bus=event.bus, current=None, office_deck=OfficeDeck(bands=departments), offices=in_play,
        phase="planning", players=players, round=1,
        street={slot: card for slot, card in zip(SLOTS, event.street, strict=True)},
        supply=Supply(bands=tuple(bands)), turn=Turn(), worker_supply={s: 4 for s in seats},
    )


def shifted(state: State, removed: tuple[str, ...], refill: tuple[str, ...]) -> State:
    """Remove ``removed`` from the street to the box, slide the rest left keeping their order, then
    lay ``refill`` (taken from the supply) into the empty slots on the right."""
    left = [c for c in (state.street.get(s) for s in SLOTS) if c is not None and c not in removed]
    for card in refill:
        state = take(state, "supply", card)
    row = [*left, *refill]
    street = {slot: (row[i] if i < len(row) else None) for i, slot in enumerate(SLOTS)}
    return replace(state, street=street, box=sort((*state.box, *removed)))


def cleaned(state: State, office_drawn: str | None, limited: tuple[str, ...] | None = None) -> State:
    """Clean-up steps 1-4 and 6 (§3.5); the street (step 5) is its own event. With a limited token
    supply (``limited``: the offices in board order) the empty offices are served in that order while
    tokens remain."""
    offices = {}
    tokens = 0
    order = [o for o in limited if o in state.offices] if limited is not None else list(state.offices)
    for oid in order:
        o = state.offices[oid]
        gets = 0 if o.workers or (limited is not None and state.vp_token_supply - tokens <= 0) else 1
        tokens += gets
        offices[oid] = Office(vp_tokens=o.vp_tokens + gets)
    deck = state.office_deck
    if office_drawn is not None:
        offices[office_drawn] = Office()
        deck = OfficeDeck(bands=tuple(replace(b, cards=without(b.cards, [office_drawn])) if office_drawn in b.cards else b
                                      for b in deck.bands))
    players = {}
    supply = dict(state.worker_supply)
    for seat, p in state.players.items():
        supply[seat] = supply.get(seat, 0) + p.extra_workers
        players[seat] = Player(
            deck=p.deck, discard=sort((*p.discard, *p.play_area, *p.temp_discard)), doctorates=p.doctorates,
            hand=p.hand, kept=p.kept, score=p.score, workers_available=3,
        )
    return replace(state, offices=offices, office_deck=deck, players=players, worker_supply=supply,
                   vp_token_supply=state.vp_token_supply - tokens, round=state.round + 1, phase="planning",
                   current=None, turn=Turn(), doctorate_bought=False)
