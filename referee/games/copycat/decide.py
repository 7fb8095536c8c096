"""How an intent is judged: one table of deciders, each running the spec's checks in its order on a
:class:`~.txn.Tx`. Here the setup (§2), planning (§4.1, §4.2), placement and the turn's end (§4.3,
§4.6, §4.7), the end of the round (§3.6, §6) and the clean-up (§4.11); cards and offices at work are
:mod:`.effects`, declared effects :mod:`.manual`.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import msgspec

from referee.engine.chance import Chance
from referee.engine.decision import Refusal
from referee.engine.protocol import Deciders

from .codes import Code
from .data import unknown_card, unknown_office
from . import effects
from .manual import manual_effect
from .model import (
    STAGES, ActivateCard, Buy, ChooseOrderCard, Cleanup, DrawHand, EndTriggered, EndTurn, FinalRound,
    FreePlacementUsed, GameEnded, KeptPermitsTaken, KeptPlacementsTaken, KeptTaken, LaidOut, LayDown, ManualEffect,
    OfficeUsed, OrderCardChosen, OrderRevealed, Pass, Passed, PassLifted, PermitsKept, PhaseChanged, PlaceWorker,
    PlacementsKept, PlayCard, PurchaseForfeited, RoundCleaned, Scored, Setup, State, StreetShifted, TurnStarted,
    UseOffice, VpGained, WorkerPlaced, Intent,
)
from .txn import R_CLEANUP, R_DRAW, R_END, R_ORDER, R_PASS, R_PLACE, R_SETUP, BoundRules, Chooser, Tx


def _forfeit(tx: Tx, intent: Intent) -> None:
    """Before any intent but a buy: the purchase the current seat could make now is forfeited (§4.7)."""
    state, seat = tx.st, tx.seat
    if state.turn.buy_now and state.phase == "buying" and seat == state.current and not isinstance(intent, Buy):
        tx.emit(PurchaseForfeited(seat=seat))


def attempt(rules: BoundRules, state: State, seat: str, intent: Any, fill: Chooser | None = None,
            chance: Chance | None = None) -> tuple[Tx, Refusal | None]:
    """The intent judged by :data:`DECIDERS` on a fresh decision, kept whatever the verdict (filling an
    intent reads what was drawn before a refusal): the decision and the refusal, if any."""
    tx = Tx(rules, state, seat, fill=fill, chance=chance)
    try:
        DECIDERS.judge(tx, intent)
    except Refusal as refusal:
        return tx, refusal
    return tx, None


# -- setup (§2) ----------------------------------------------------------------------------------------------


def setup(tx: Tx, intent: Setup) -> None:
    rules, st = tx.rules, tx.st
    tx.require(st.phase == "setup", Code.WRONG_PHASE, f"the game is laid out already (phase {st.phase})", R_SETUP)
    n = len(rules.players)
    stage1 = tuple(c.id for c in rules.cards.values() if c.stage == "I" and not (n == 2 and c.id in rules.removed))
    band2 = tuple(c.id for c in rules.cards.values() if c.stage == "II" and not (n == 2 and c.id in rules.removed))
    doctors = tuple(c.id for c in rules.cards.values() if c.stage == "V")
    firsts = tuple(o.id for o in rules.offices.values() if o.department == 1)
    dealt = deal(tx, stage1, doctors) if tx.chance is not None else None
    if dealt is not None:
        drawn = {"street": dealt.street, "doctorates": tuple(sorted(dealt.bands[-1])),
                 "first_office": dealt.first_office, "bus": dealt.bus}
        for field, value in drawn.items():
            given = getattr(intent, field)
            same = given is None or (sorted(given) == list(value) if field == "doctorates" else given == value)
            tx.require(same, Code.CHANCE_MISMATCH, f"setup {field}: the typed value differs from what the referee's "
                       "generator drew (leave it out in a digital match)", R_SETUP)
            if tx.fill is not None:
                tx.fills[field] = value
        intent = Setup(street=tuple(drawn["street"]), doctorates=tuple(drawn["doctorates"]),
                       first_office=str(drawn["first_office"]), bus=tuple(drawn["bus"]))
    elif tx.fill is not None:
        row = tx.fill("street", len(stage1), stage1)
        intent = Setup(street=(*row, *tx.fill("street.11", 1, band2)) if n == 2 else row,
                       doctorates=tuple(sorted(tx.fill("doctorates", n, doctors))),
                       first_office=tx.fill("first_office", 1, firsts if rules.options["shuffle_offices_within_department"]
                                            else firsts[:1])[0],
                       bus=tx.fill("bus", n, tuple(rules.players)))
    for field in ("street", "doctorates", "first_office", "bus"):
        if getattr(intent, field) is None:
            tx.fail(Code.CHANCE_MISSING, f"setup needs {field}= (a recorded match types every setup fact)", R_SETUP)
    assert intent.street is not None and intent.doctorates is not None and intent.bus is not None
    assert intent.first_office is not None
    tx.require(len(intent.street) == 11, Code.WRONG_STREET_SIZE, f"the street has 11 slots, not {len(intent.street)}", R_SETUP)
    for card in (*intent.street, *intent.doctorates):
        if card not in rules.cards:
            tx.fail(Code.UNKNOWN_CARD, unknown_card(rules.cards, card), R_SETUP)
    row = intent.street[:10] if n == 2 else intent.street
    if len(set(intent.street)) != 11 or any(c not in stage1 for c in row):
        bad = next((c for c in row if c not in stage1), None) or "a card named twice"
        tx.fail(Code.CARD_NOT_AVAILABLE, f"street: {bad} is not a stage-I card still in a {n}-player game", R_SETUP)
    if n == 2 and intent.street[10] not in band2:
        tx.fail(Code.CARD_NOT_AVAILABLE, f"street slot 11: {intent.street[10]} is not a stage-II card (the top of the supply)",
                R_SETUP)
    if len(intent.doctorates) != n or len(set(intent.doctorates)) != n or any(c not in doctors for c in intent.doctorates):
        tx.fail(Code.CARD_NOT_AVAILABLE, f"doctorates: {n} distinct doctorates, not {', '.join(intent.doctorates) or 'none'}",
                R_SETUP)
    if intent.first_office not in rules.offices:
        tx.fail(Code.UNKNOWN_OFFICE, unknown_office(rules.offices, intent.first_office), R_SETUP)
    allowed = firsts if rules.options["shuffle_offices_within_department"] else firsts[:1]
    tx.require(intent.first_office in allowed, Code.OFFICE_NOT_NEXT,
               f"the first office comes from department 1 ({', '.join(allowed)}), not {intent.first_office}", R_SETUP)
    if sorted(intent.bus) != sorted(rules.players):
        tx.fail(Code.INVALID_BUS, f"bus must order the seats {', '.join(rules.players)}, not {', '.join(intent.bus)}", R_SETUP)
    laid = LaidOut(street=intent.street, doctorates=tuple(sorted(intent.doctorates)), first_office=intent.first_office,
                   bus=intent.bus)
    if dealt is not None:  # a digital match: the piles in their shuffled order
        laid = msgspec.structs.replace(laid, decks=dealt.decks, bands=dealt.bands, departments=dealt.departments)
    tx.emit(laid)


class Dealt(NamedTuple):
    """A digital match's layout: each pile shuffled once (top first) and the facts it gives."""

    street: tuple[str, ...]
    bands: tuple[tuple[str, ...], ...]
    departments: tuple[tuple[str, ...], ...]
    first_office: str
    decks: dict[str, tuple[str, ...]]
    bus: tuple[str, ...]


def deal(tx: Tx, stage1: tuple[str, ...], doctors: tuple[str, ...]) -> Dealt:
    """Shuffle every pile of the setup from the match's generator (§2 steps 2-4, 6, 7, 11): the street is
    the stage-I cards shuffled (slot 11 of a 2-player game the top of band II), the doctorates the first
    N of the four shuffled, the first office the top of department 1."""
    rules = tx.rules
    assert tx.chance is not None
    chance = Chance(tx.chance.seed, "copycat:deal")  # the seed's alone, whatever entry lays the game out
    n = len(rules.players)
    street = tuple(chance.derive("street").shuffled(sorted(stage1)))
    bands = []
    for stage in STAGES[:-1]:
        pile = sorted(c.id for c in rules.cards.values() if c.stage == stage and not (n == 2 and c.id in rules.removed))
        bands.append(tuple(chance.derive(f"band.{stage}").shuffled(pile)))
    if n == 2:
        street, bands[0] = (*street, bands[0][0]), bands[0][1:]
    bands.append(tuple(chance.derive("doctorates").shuffled(sorted(doctors))[:n]))
    departments = []
    for d in range(1, 6):
        pile = [o.id for o in rules.offices.values() if o.department == d]  # catalogue order
        if rules.options["shuffle_offices_within_department"]:
            pile = chance.derive(f"department.{d}").shuffled(sorted(pile))
        departments.append(tuple(pile))
    first = departments[0][0]
    departments[0] = departments[0][1:]
    decks = {seat: tuple(chance.derive(f"deck.{seat}").shuffled(sorted(c.id for c in rules.cards.values()
                                                                        if c.set == rules.sets[seat])))
             for seat in rules.players}
    bus = tuple(chance.derive("bus").shuffled(list(rules.players)))
    return Dealt(street=street, bands=tuple(bands), departments=tuple(departments), first_office=first, decks=decks,
                 bus=bus)


# -- planning (§3.2) -----------------------------------------------------------------------------------------


def draw_hand(tx: Tx, intent: DrawHand) -> None:
    st = tx.st
    tx.require(st.phase == "planning", Code.WRONG_PHASE, f"hands are drawn in planning, not in {st.phase}", R_DRAW)
    tx.check(not st.players[tx.seat].drawn_this_round, Code.ALREADY_DRAWN, f"{tx.seat} has drawn this round", R_DRAW)
    tx.draw_own(tx.seat, 5, intent.drawn, "drawn", R_DRAW)
    tx.emit(KeptTaken(seat=tx.seat))


def choose_order_card(tx: Tx, intent: ChooseOrderCard) -> None:
    st = tx.st
    tx.require(st.phase == "planning", Code.WRONG_PHASE, f"order cards are chosen in planning, not in {st.phase}", R_ORDER)
    p = st.players[tx.seat]
    tx.check(p.drawn_this_round, Code.NOT_DRAWN_YET, f"{tx.seat} draws a hand first", R_ORDER)
    if tx.rules.options["order_choice_final"] or not p.order_chosen:  # §7 A39: false lets a seat choose again
        tx.check(not p.order_chosen, Code.ALREADY_CHOSEN, f"{tx.seat} has chosen an order card this round", R_ORDER)
    if intent.card is None:
        tx.require(not p.hand, Code.CARD_REQUIRED, f"{tx.seat} has cards in hand: choose one of them", R_ORDER)
    else:
        tx.require(intent.card in tx.rules.cards, Code.UNKNOWN_CARD, "the order card is not a card of this match", R_ORDER)
        tx.require(intent.card in p.hand, Code.CARD_NOT_IN_HAND, f"the order card is not in {tx.seat}'s hand", R_ORDER)
    tx.emit(OrderCardChosen(seat=tx.seat, card=intent.card))
    if all(q.order_chosen for q in tx.st.players.values()):
        reveal(tx)


def reveal(tx: Tx) -> None:
    st = tx.st
    empty = int(tx.rules.options["empty_hand_order_value"])
    cards = {s: q.order_card for s, q in st.players.items()}
    numbers = {s: (tx.rules.cards[c].number or 0) if c is not None else empty for s, c in cards.items()}
    previous = {s: i for i, s in enumerate(st.bus)}
    bus = tuple(sorted(st.bus, key=lambda s: (-numbers[s], -previous[s])))
    tx.emit(OrderRevealed(bus=bus, cards=cards, numbers=numbers))
    start_actions(tx, None)


# -- actions (§3.3) ------------------------------------------------------------------------------------------


def eligible(tx: Tx, seat: str) -> bool:
    p = tx.st.players[seat]
    if p.passed or p.workers_available < 1:
        return False
    if tx.rules.options["board_full_ends_placement"] and all(o.workers for o in tx.st.offices.values()):
        return False
    return True


def start_actions(tx: Tx, after: str | None) -> None:
    """The next eligible seat after ``after`` in bus order (cyclic, ``after`` itself last), or buying."""
    bus = tx.st.bus
    start = (bus.index(after) + 1) if after is not None else 0
    for i in range(len(bus)):
        seat = bus[(start + i) % len(bus)]
        if eligible(tx, seat):
            tx.emit(TurnStarted(phase="actions", seat=seat))
            p = tx.st.players[seat]
            if p.kept_permits:  # elbow_scope=phase: the permits this seat did not use in earlier turns
                tx.emit(KeptPermitsTaken(seat=seat, count=p.kept_permits))
            if p.kept_placements:  # extra_placement_scope=phase
                tx.emit(KeptPlacementsTaken(seat=seat, count=p.kept_placements))
            return
    tx.emit(TurnStarted(phase="buying", seat=bus[0]))


def place_worker(tx: Tx, intent: PlaceWorker) -> None:
    st, opts = tx.st, tx.rules.options
    tx.require(st.phase == "actions", Code.WRONG_PHASE, f"workers are placed in the actions phase, not in {st.phase}", R_PLACE)
    effects.check_turn(tx)
    office = effects.office_of(tx, intent.office, R_PLACE)
    o = st.offices.get(intent.office)
    tx.require(o is not None, Code.OFFICE_NOT_IN_PLAY, f"{intent.office} is not in play yet", R_PLACE)
    assert o is not None
    if opts["round1_blue_only"] and st.round == 1:
        tx.check(office.color == "blue", Code.OFFICE_NOT_AVAILABLE_ROUND1, "in round 1 only blue offices take workers", R_PLACE)
    tx.check(st.turn.placements_left > 0, Code.NO_PLACEMENT_LEFT, f"{tx.seat} has no placement left this turn", R_PLACE)
    p = st.players[tx.seat]
    free = st.turn.free_placements > 0  # team_bonus_mode=free_placement: this placement spends no worker
    tx.require(p.workers_available > 0 or free, Code.NO_WORKER_AVAILABLE, f"{tx.seat} has no worker left to place", R_PLACE)
    tx.check(not o.workers or st.turn.elbow_permits > 0, Code.OFFICE_OCCUPIED,
             f"{intent.office} holds a worker of {', '.join(o.workers)} (only Sharpen your Elbows lets a worker in)",
             R_PLACE)
    if tx.seat in o.workers and not (opts["elbow_into_own_office"] and st.turn.elbow_permits > 0):
        tx.fail(Code.OWN_WORKER_IN_OFFICE, f"{tx.seat} already has a worker on {intent.office}", R_PLACE)
    if free:
        tx.emit(FreePlacementUsed(seat=tx.seat))
    tx.emit(WorkerPlaced(seat=tx.seat, office=intent.office, elbow=bool(o.workers), tokens=o.vp_tokens))
    if not opts["pass_is_final"]:  # a placement wakes the seats that passed (§7 A11, the other reading)
        for seat in tx.st.bus:
            if tx.st.players[seat].passed:
                tx.emit(PassLifted(seat=seat))


def can_place(tx: Tx) -> bool:
    st = tx.st
    p = st.players[tx.seat]
    if (p.workers_available < 1 and st.turn.free_placements < 1) or st.turn.placements_left < 1:
        return False
    blue_only = tx.rules.options["round1_blue_only"] and st.round == 1
    for oid, o in st.offices.items():
        if blue_only and tx.rules.offices[oid].color != "blue":
            continue
        if not o.workers:
            return True
        if st.turn.elbow_permits > 0 and tx.seat not in o.workers:
            return True
    return False


def carry(tx: Tx) -> None:
    """At the end of an actions turn: the unused elbow permits and extra placements the options keep
    for the seat's next turn of this phase (``elbow_scope`` / ``extra_placement_scope`` = ``phase``)."""
    turn, opts = tx.st.turn, tx.rules.options
    if opts["elbow_scope"] == "phase" and turn.elbow_permits > 0:
        tx.emit(PermitsKept(seat=tx.seat, count=turn.elbow_permits))
    extra = turn.placements_left - turn.free_placements - (0 if turn.placed else 1)
    if opts["extra_placement_scope"] == "phase" and extra > 0:
        tx.emit(PlacementsKept(seat=tx.seat, count=extra))


def pass_(tx: Tx, intent: Pass) -> None:
    st = tx.st
    tx.require(st.phase == "actions", Code.WRONG_PHASE, f"a seat passes in the actions phase, not in {st.phase}", R_PASS)
    effects.check_turn(tx)
    tx.check(not st.turn.acted, Code.PASS_AFTER_ACTION, f"{tx.seat} has acted this turn: finish it with end_turn", R_PASS)
    tx.emit(Passed(seat=tx.seat))
    start_actions(tx, tx.seat)


def end_turn(tx: Tx, intent: EndTurn) -> None:
    st = tx.st
    tx.require(st.phase in ("actions", "buying"), Code.WRONG_PHASE, f"no turn to end in {st.phase}", R_END)
    effects.check_turn(tx)
    if st.phase == "actions":
        placed = bool(st.turn.placed)
        cards_alone = not tx.rules.options["cards_only_with_placement"] and st.turn.acted  # §7 A27, false
        tx.check(placed or cards_alone or not can_place(tx), Code.PLACEMENT_REQUIRED,
                 f"{tx.seat} must place a worker this turn (or pass at its start)", R_END)
        for oid in st.turn.placed:
            if tx.rules.offices[oid].color == "blue" and st.offices[oid].uses.get(tx.seat, 0) == 0:
                tx.emit(OfficeUsed(seat=tx.seat, office=oid, times=1))
        carry(tx)
        if not placed and not cards_alone:
            tx.emit(Passed(seat=tx.seat))
        start_actions(tx, tx.seat)
        return
    p = st.players[tx.seat]
    tx.check(p.laid_down, Code.LAY_DOWN_REQUIRED, f"{tx.seat} lays down the hand before ending the turn", R_END)
    if tx.rules.options["auto_apply_vp_offices"]:
        for oid, o in sorted(st.offices.items()):
            office = tx.rules.offices[oid]
            if tx.seat in o.workers and office.kind == "gain_vp" and o.uses.get(tx.seat, 0) == 0:
                tx.emit(OfficeUsed(seat=tx.seat, office=oid, times=1), VpGained(seat=tx.seat, vp=office.n))
    p = tx.st.players[tx.seat]
    value = int(tx.rules.options["vp_token_value"])
    total = p.vp_pending + p.vp_tokens * value * (1 + p.token_doublings)
    tx.emit(Scored(seat=tx.seat, tokens=p.vp_tokens, total=total))
    following = next((s for s in tx.st.bus if not tx.st.players[s].done), None)
    if following is not None:
        tx.emit(TurnStarted(phase="buying", seat=following))
    else:
        end_of_round(tx)


def end_of_round(tx: Tx) -> None:
    """§3.6: the triggers, then the end of the game (§6) or the clean-up."""
    st = tx.st
    triggers = []
    if any(p.score >= 95 for p in st.players.values()):
        triggers.append("score_95")
    doctors = {c.id for c in tx.rules.cards.values() if c.kind == "coins_to_vp"}
    if st.doctorate_bought:
        if tx.rules.options["last_doctorate_rule"] == "all_bought":
            bought = sum(len(p.doctorates) for p in st.players.values())
            if bought >= len(st.players):
                triggers.append("last_doctorate")
        else:
            left = any(c in doctors for b in st.supply.bands for c in b.cards) or any(
                c in doctors for c in st.street.values() if c is not None)
            if not left:
                triggers.append("last_doctorate")
    if st.round >= 11:
        triggers.append("max_rounds")
    if not triggers:
        tx.emit(PhaseChanged(phase="cleanup"))
        return
    if tx.rules.options["final_round_cleanup"]:  # §7 A29, the other reading: clean up, then end
        tx.emit(EndTriggered(triggers=tuple(sorted(triggers))))
        return
    tx.emit(result(tx, tuple(sorted(triggers))))


def result(tx: Tx, triggers: tuple[str, ...]) -> GameEnded:
    """The end of the game (§6): the highest score; ties by the last round's VP, then shared (or the
    bus order)."""
    st = tx.st
    scores = {s: p.score for s, p in st.players.items()}
    best = max(scores.values())
    top = [s for s in st.bus if scores[s] == best]
    reason = "score"
    if len(top) > 1:
        last = max(st.players[s].round_vp for s in top)
        top = [s for s in top if st.players[s].round_vp == last]
        reason = "tie_break_last_round"
        if len(top) > 1:
            if tx.rules.options["final_tie"] == "bus_order":
                top = top[:1]
                reason = "bus_order"
            else:
                reason = "shared"
    return GameEnded(winners=tuple(top), reason=reason, scores=scores, triggers=triggers)


# -- clean-up (§3.5) -----------------------------------------------------------------------------------------


def cleanup(tx: Tx, intent: Cleanup) -> None:
    rules, st = tx.rules, tx.st
    tx.require(st.phase == "cleanup", Code.WRONG_PHASE, f"clean-up follows the buying phase, not {st.phase}", R_CLEANUP)
    band = next((b for b in st.office_deck.bands if b.cards), None)
    drawn: str | None = None
    if band is None:
        tx.require(intent.office_drawn is None, Code.CHANCE_MISMATCH, "the office deck is empty: no office_drawn", R_CLEANUP)
    else:
        order = [o for o in rules.office_order if o in band.cards]
        pile = tuple(order if rules.options["shuffle_offices_within_department"] else order[:1])
        if tx.chance is not None:  # digital: the department is an ordered pile, drawn from its top
            pile = band.cards[:1]
        given = None if intent.office_drawn is None else (intent.office_drawn,)
        drawn = tx.fact("office_drawn", given, 1, pile, "office card drawn", R_CLEANUP)[0] \
            if tx.fill is not None or intent.office_drawn is None else intent.office_drawn
        if tx.fill is not None:
            tx.fills["office_drawn"] = drawn
        assert drawn is not None
        tx.require(drawn in rules.offices, Code.UNKNOWN_OFFICE, f"unknown office id {drawn!r}", R_CLEANUP)
        tx.require(drawn in pile, Code.OFFICE_NOT_NEXT, f"the next office card comes from department {band.department} "
                   f"({', '.join(pile)}), not {drawn}", R_CLEANUP)
    k = int(dict(rules.options["street_cleanup_slots"]).get(str(len(rules.players)), 1))
    removed = tuple(c for s in range(1, k + 1) if (c := st.street.get(str(s))) is not None)
    left = sum(1 for c in st.street.values() if c is not None) - len(removed)
    refill = tx.supply_facts("street_refill", intent.street_refill, 11 - left, R_CLEANUP)
    final = result(tx, st.end_triggers) if st.end_triggers else None
    tx.emit(StreetShifted(removed=removed, refill=refill), RoundCleaned(office_drawn=drawn))
    if final is not None:  # the game's last clean-up (final_round_cleanup): the round stays the last one
        tx.emit(FinalRound(round=st.round), final)


#: the decider of every intent, each after the forfeit of a purchase not made
DECIDERS: Deciders[Tx] = Deciders({
    Setup: setup, DrawHand: draw_hand, ChooseOrderCard: choose_order_card, PlaceWorker: place_worker,
    PlayCard: effects.play_card, UseOffice: effects.use_office, Pass: pass_, EndTurn: end_turn,
    LayDown: effects.lay_down, ActivateCard: effects.activate_card, Buy: effects.buy, Cleanup: cleanup,
    ManualEffect: manual_effect,
}, before=_forfeit)
