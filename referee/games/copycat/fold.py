"""Applying events (the fold): total over every event tag (a table of one small handler per kind of event,
which a test checks against the event union), no validation, no choices. Every handler computes its
change from the event's fields; only a declared manual effect names state paths (its vocabulary's).

Zones are named by dotted paths (§4.12): ``players.<p>.<zone>``, ``street.<n>``, ``supply``, ``box``;
counters likewise (``players.anna.coins.doublable``). Unordered zones are kept sorted by id, so a
state has one canonical form whatever order the cards arrived in; in a digital match the decks, the
supply bands and the office departments keep the order they were shuffled into (top first).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from referee.engine.dispatch import Handlers

from .model import (
    Event,
    SLOTS, STAGES, Band, Bought, CardPending, CardsDrawn, CardsKept, CardsMoved, CardUsed, CardUsedAgain, Coins,
    CoinsGained, Department, Doubled, ElbowPermitsGained, EndTriggered, FinalRound, FreePlacementGained,
    FreePlacementUsed, GameEnded, HandLaidDown, KeptPermitsTaken, KeptPlacementsTaken, KeptTaken, LaidOut,
    ManualApplied, MoveOp, Office, OfficeDeck, OfficeUsed, OrderCardChosen, OrderRevealed, Passed, PassLifted,
    PermitsKept, PhaseChanged, PlacementsGained, PlacementsKept, Player, PurchaseDue, PurchaseForfeited,
    PurchasesGained, Result, RoundCleaned, Scored, State, StreetShifted, Supply, Turn, TurnActed, TurnStarted,
    VpGained, WorkerPlaced, WorkersRecruited,
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
    if frm != to and len(cards) > 1 and _plain(frm) and _plain(to):
        # two lists of cards apart from each other: every card out of one, then all into the other, in
        # one change each (what moving them one by one leaves, without a copy of the state per card)
        state = update_state(state, frm, lambda held: without(held, cards))
        return update_state(state, to, lambda held: sort((*held, *cards)))
    for card in cards:
        state = put(take(state, frm, card), to, card)
    return state


def _plain(zone: str) -> bool:
    """A zone that is a list of cards by its path (not the supply's bands, not a slot of the street)."""
    return zone != "supply" and not zone.startswith("street.")


# -- the fold ----------------------------------------------------------------------------------------------


def evolve(rules: BoundRules, state: State, event: Event) -> State:
    handler = HANDLERS.get(type(event))
    if handler is None:
        raise TypeError(f"copycat: unknown event {event!r}")
    return handler(rules, state, event)


Handler = Callable[["BoundRules", State, Any], State]
#: one handler per kind of event: (rules, state, event) -> the state after it
HANDLERS: Handlers[Handler] = Handlers("copycat fold")
_on = HANDLERS.on


def player(state: State, seat: str, **changes: Any) -> State:
    """``state`` with fields of ``seat``'s player replaced."""
    return replace(state, players={**state.players, seat: replace(state.players[seat], **changes)})


def turn(state: State, **changes: Any) -> State:
    return replace(state, turn=replace(state.turn, **changes))


@_on(LaidOut)
def _laid_out(rules: BoundRules, state: State, event: LaidOut) -> State:
    return laid_out(rules, event)


@_on(CardsDrawn)
def _cards_drawn(rules: BoundRules, state: State, event: CardsDrawn) -> State:
    p = state.players[event.seat]
    deck = without(p.deck, event.from_deck)
    discard = p.discard
    if event.reshuffled:
        deck, discard = (without(discard, event.from_discard) if event.new_deck is None else event.new_deck), ()
    return player(state, event.seat, deck=deck, discard=discard,
                  hand=sort((*p.hand, *event.from_deck, *event.from_discard)))


@_on(KeptTaken)
def _kept_taken(rules: BoundRules, state: State, event: KeptTaken) -> State:
    p = state.players[event.seat]
    return player(state, event.seat, hand=sort((*p.hand, *p.kept)), kept=(), drawn_this_round=True)


@_on(CardsKept)
def _cards_kept(rules: BoundRules, state: State, event: CardsKept) -> State:
    return move(state, event.cards, f"players.{event.seat}.hand", f"players.{event.seat}.kept")


@_on(OrderCardChosen)
def _order_card_chosen(rules: BoundRules, state: State, event: OrderCardChosen) -> State:
    p = state.players[event.seat]
    hand = without(p.hand, [event.card]) if event.card is not None else p.hand
    if p.order_card is not None:  # chosen again (order_choice_final=false): the first card back
        hand = sort((*hand, p.order_card))
    return player(state, event.seat, hand=hand, order_card=event.card, order_chosen=True)


@_on(OrderRevealed)
def _order_revealed(rules: BoundRules, state: State, event: OrderRevealed) -> State:
    players = {}
    for seat, p in state.players.items():
        extra = (p.order_card,) if p.order_card is not None else ()
        players[seat] = replace(p, temp_discard=sort((*p.temp_discard, *extra)), order_card=None)
    return replace(state, players=players, bus=event.bus, phase="actions", current=None, turn=Turn())


@_on(CardsMoved)
def _cards_moved(rules: BoundRules, state: State, event: CardsMoved) -> State:
    return move(state, event.cards, zone_path(event.seat, event.from_), zone_path(event.seat, event.to))


@_on(WorkerPlaced)
def _worker_placed(rules: BoundRules, state: State, event: WorkerPlaced) -> State:
    seat, office, tokens = event.seat, event.office, event.tokens
    p = state.players[seat]
    state = player(state, seat, workers_available=p.workers_available - 1, vp_tokens=p.vp_tokens + tokens)
    o = state.offices[office]
    o = replace(o, workers=(*o.workers, seat), uses={**o.uses, seat: 0}, vp_tokens=o.vp_tokens - tokens)
    t = state.turn
    return replace(state, offices={**state.offices, office: o}, turn=replace(
        t, placements_left=t.placements_left - 1, elbow_permits=t.elbow_permits - (1 if event.elbow else 0),
        placed=(*t.placed, office), acted=True))


@_on(StreetShifted)
def _street_shifted(rules: BoundRules, state: State, event: StreetShifted) -> State:
    return shifted(state, event.removed, event.refill)


@_on(Bought)
def _bought(rules: BoundRules, state: State, event: Bought) -> State:
    seat = event.seat
    for red in event.reds:
        slot_of = next(k for k, v in state.street.items() if v == red)
        state = move(state, (red,), f"street.{slot_of}", f"players.{seat}.temp_discard")
    doctorate = rules.cards[event.card].kind == "coins_to_vp"
    state = move(state, (event.card,), f"street.{event.slot}",
                 f"players.{seat}.{'doctorates' if doctorate else 'temp_discard'}")
    p = state.players[seat]
    state = player(state, seat, coins=replace(p.coins, spent=p.coins.spent + event.price + event.spend),
                   buys_left=p.buys_left - 1, vp_pending=p.vp_pending + (event.spend if doctorate else 0))
    return replace(state, doctorate_bought=state.doctorate_bought or doctorate, turn=replace(state.turn, buy_now=False))


@_on(TurnStarted)
def _turn_started(rules: BoundRules, state: State, event: TurnStarted) -> State:
    t = Turn(placements_left=1) if event.phase == "actions" else Turn()
    return replace(state, phase=event.phase, current=event.seat, turn=t)


@_on(PhaseChanged)
def _phase_changed(rules: BoundRules, state: State, event: PhaseChanged) -> State:
    return replace(state, phase=event.phase, current=None, turn=Turn())


@_on(Scored)
def _scored(rules: BoundRules, state: State, event: Scored) -> State:
    p = state.players[event.seat]
    state = player(state, event.seat, score=p.score + event.total, round_vp=event.total, vp_tokens=0, coins=Coins(),
                   buys_left=0, coin_doublings=0, token_doublings=0, vp_pending=0, done=True)
    return replace(state, vp_token_supply=state.vp_token_supply + event.tokens)


@_on(RoundCleaned)
def _round_cleaned(rules: BoundRules, state: State, event: RoundCleaned) -> State:
    limited = int(rules.options["vp_token_limit"]) > 0
    return cleaned(state, event.office_drawn, rules.office_order if limited else None)


@_on(EndTriggered)
def _end_triggered(rules: BoundRules, state: State, event: EndTriggered) -> State:
    return replace(state, phase="cleanup", current=None, end_triggers=event.triggers, turn=Turn())


@_on(GameEnded)
def _game_ended(rules: BoundRules, state: State, event: GameEnded) -> State:
    return replace(state, phase="game_over", current=None, end_triggers=event.triggers, turn=Turn(),
                   outcome=Result(winners=event.winners, reason=event.reason, scores=event.scores,
                                  triggers=event.triggers))


@_on(ManualApplied)
def _manual_applied(rules: BoundRules, state: State, event: ManualApplied) -> State:
    """The declared ops, on the paths of the current vocabulary (a stored older one is upcast when read)."""
    for op in event.ops:
        if isinstance(op, MoveOp):
            state = move(state, (op.card,), op.from_, op.to)
        else:
            state = update_state(state, op.counter, add(op.delta))
    return state


# -- counters and flags ------------------------------------------------------------------------------------


@_on(CoinsGained)
def _coins_gained(rules: BoundRules, state: State, event: CoinsGained) -> State:
    c = state.players[event.seat].coins
    coins = (replace(c, doublable=c.doublable + event.coins) if event.doublable
             else replace(c, plain=c.plain + event.coins))
    return player(state, event.seat, coins=coins)


@_on(VpGained)
def _vp_gained(rules: BoundRules, state: State, event: VpGained) -> State:
    return player(state, event.seat, vp_pending=state.players[event.seat].vp_pending + event.vp)


@_on(PurchasesGained)
def _purchases_gained(rules: BoundRules, state: State, event: PurchasesGained) -> State:
    return player(state, event.seat, buys_left=state.players[event.seat].buys_left + event.count)


@_on(PurchaseDue)
def _purchase_due(rules: BoundRules, state: State, event: PurchaseDue) -> State:
    return turn(state, buy_now=True)


@_on(PurchaseForfeited)
def _purchase_forfeited(rules: BoundRules, state: State, event: PurchaseForfeited) -> State:
    state = player(state, event.seat, buys_left=state.players[event.seat].buys_left - 1)
    return turn(state, buy_now=False)


def _card_uses(state: State, seat: str, card: str, uses: int) -> State:
    return player(state, seat, card_uses={**state.players[seat].card_uses, card: uses})


@_on(CardUsed)
def _card_used(rules: BoundRules, state: State, event: CardUsed) -> State:
    return _card_uses(state, event.seat, event.card, 1)


@_on(CardPending)
def _card_pending(rules: BoundRules, state: State, event: CardPending) -> State:
    return _card_uses(state, event.seat, event.card, 0)


@_on(CardUsedAgain)
def _card_used_again(rules: BoundRules, state: State, event: CardUsedAgain) -> State:
    return _card_uses(state, event.seat, event.card, state.players[event.seat].card_uses.get(event.card, 0) + 1)


@_on(OfficeUsed)
def _office_used(rules: BoundRules, state: State, event: OfficeUsed) -> State:
    o = state.offices[event.office]
    return replace(state, offices={**state.offices, event.office: replace(o, uses={**o.uses, event.seat: event.times})})


@_on(TurnActed)
def _turn_acted(rules: BoundRules, state: State, event: TurnActed) -> State:
    return turn(state, acted=True)


@_on(PlacementsGained)
def _placements_gained(rules: BoundRules, state: State, event: PlacementsGained) -> State:
    return turn(state, placements_left=state.turn.placements_left + event.count)


@_on(ElbowPermitsGained)
def _elbow_permits_gained(rules: BoundRules, state: State, event: ElbowPermitsGained) -> State:
    return turn(state, elbow_permits=state.turn.elbow_permits + event.count)


@_on(FreePlacementGained)
def _free_placement_gained(rules: BoundRules, state: State, event: FreePlacementGained) -> State:
    t = state.turn
    return turn(state, placements_left=t.placements_left + 1, free_placements=t.free_placements + 1)


@_on(FreePlacementUsed)
def _free_placement_used(rules: BoundRules, state: State, event: FreePlacementUsed) -> State:
    state = turn(state, free_placements=state.turn.free_placements - 1)
    return player(state, event.seat, workers_available=state.players[event.seat].workers_available + 1)


@_on(PermitsKept)
def _permits_kept(rules: BoundRules, state: State, event: PermitsKept) -> State:
    return player(state, event.seat, kept_permits=event.count)


@_on(PlacementsKept)
def _placements_kept(rules: BoundRules, state: State, event: PlacementsKept) -> State:
    return player(state, event.seat, kept_placements=event.count)


@_on(KeptPermitsTaken)
def _kept_permits_taken(rules: BoundRules, state: State, event: KeptPermitsTaken) -> State:
    state = turn(state, elbow_permits=state.turn.elbow_permits + event.count)
    return player(state, event.seat, kept_permits=0)


@_on(KeptPlacementsTaken)
def _kept_placements_taken(rules: BoundRules, state: State, event: KeptPlacementsTaken) -> State:
    state = turn(state, placements_left=state.turn.placements_left + event.count)
    return player(state, event.seat, kept_placements=0)


@_on(WorkersRecruited)
def _workers_recruited(rules: BoundRules, state: State, event: WorkersRecruited) -> State:
    seat, n = event.seat, event.count
    p = state.players[seat]
    state = player(state, seat, workers_available=p.workers_available + n, extra_workers=p.extra_workers + n)
    return replace(state, worker_supply={**state.worker_supply, seat: state.worker_supply.get(seat, 0) - n})


@_on(Doubled)
def _doubled(rules: BoundRules, state: State, event: Doubled) -> State:
    if event.capped:
        return state
    p = state.players[event.seat]
    if event.what == "coins":
        return player(state, event.seat, coin_doublings=p.coin_doublings + 1)
    return player(state, event.seat, token_doublings=p.token_doublings + 1)


@_on(Passed)
def _passed(rules: BoundRules, state: State, event: Passed) -> State:
    return player(state, event.seat, passed=True)


@_on(PassLifted)
def _pass_lifted(rules: BoundRules, state: State, event: PassLifted) -> State:
    return player(state, event.seat, passed=False)


@_on(HandLaidDown)
def _hand_laid_down(rules: BoundRules, state: State, event: HandLaidDown) -> State:
    return player(state, event.seat, laid_down=True)


@_on(FinalRound)
def _final_round(rules: BoundRules, state: State, event: FinalRound) -> State:
    return replace(state, round=event.round)


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
