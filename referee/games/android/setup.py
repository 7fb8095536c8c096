"""Setup intents (§2, §4.1–4.9), accepted in step order; the automatic parts of each step are events
emitted when the intents before them are complete. When every applicable step is done the referee
emits ``setup_completed`` and ``day_started(1)``."""

from __future__ import annotations

from typing import Any

from referee.engine.codes import TurnCode

from .codes import Code
from .data import LEAD_TYPES
from .model import (
    AssignDetective, ChooseFirstPlayer, ChooseMurder, ComponentsPlaced, DayStarted, DealHunches, DealMemoryCards,
    DetectiveAssigned, DrawRachelExtraCards, DrawStartingCards, ExtraCardsDrawn, FirstPlayerChosen, HeroSetupApplied,
    HunchesDealt, MemoryCardsDealt, MurderChosen, SelectStartingPlot, SetAsideSpecificEvent, SetupCompleted,
    SpecificEventSetAside, StartingCardsDrawn, StartingPlotSelected, State, UndealtHunchesBoxed,
)
from .txn import R_SETUP, Tx, ids

_ = LEAD_TYPES

#: the step each setup intent belongs to
STEP = {ChooseMurder: 1, AssignDetective: 3, DealHunches: 8, SelectStartingPlot: 9, DrawStartingCards: 10,
        SetAsideSpecificEvent: 11, ChooseFirstPlayer: 12, DrawRachelExtraCards: 13, DealMemoryCards: 13}


def seat_of(state: State, detective: str) -> str | None:
    return next((s for s, p in state.players.items() if p.detective == detective), None)


def current_step(rules: Any, state: State) -> int:
    """The first setup step not yet complete (14 when setup is done)."""
    if state.murder is None:
        return 1
    if any(state.players[s].detective is None for s in rules.players):
        return 3
    if any(state.players[s].hunches is None for s in rules.players):
        return 8
    if any(state.players[s].plot is None for s in rules.players):
        return 9
    if any(not _drew(state, s) for s in rules.players):
        return 10
    if not state.setup.specific_set:
        return 11
    if state.first_player is None:
        return 12
    if (seat_of(state, "rachel") and not state.setup.extra_drawn) or (seat_of(state, "raymond") and not state.setup.memory_dealt):
        return 13
    return 14


def _drew(state: State, seat: str) -> bool:
    return bool(state.players[seat].hand)


def _out_of_order(tx: Tx, step: int, what: str) -> None:
    now = current_step(tx.rules, tx.s)
    tx.require(now >= step, Code.SETUP_OUT_OF_ORDER, f"{what} is setup step {step}; step {now} is not complete yet", R_SETUP)


def _may_act_for(tx: Tx, seat: str) -> None:
    tx.require(tx.seat in (seat, "arbiter"), TurnCode.NOT_YOUR_TURN,
               f"{tx.seat} may not do this for {seat}: only {seat} or the arbiter", R_SETUP)


def _seat(tx: Tx, seat: str | None) -> str:
    tx.require(seat is not None and seat in tx.rules.players, Code.REF_UNKNOWN_SEAT,
               f"seat {seat!r} is not a seat of this match ({ids(tx.rules.players)})", R_SETUP)
    assert seat is not None
    return seat


def choose_murder(tx: Tx, it: ChooseMurder) -> None:
    tx.require(tx.s.murder is None, Code.SETUP_ALREADY_DONE, f"the murder is already chosen ({tx.s.murder})", R_SETUP)
    tx.require(it.murder in tx.rules.data.murders, Code.REF_UNKNOWN_MURDER,
               f"no murder {it.murder!r} in the data set ({ids(tx.rules.data.murder_order)})", R_SETUP)
    assert it.murder is not None
    tx.emit(MurderChosen(murder=it.murder))


def assign_detective(tx: Tx, it: AssignDetective) -> None:
    _out_of_order(tx, 3, "assigning detectives")
    seat = _seat(tx, it.seat)
    have = tx.s.players[seat].detective
    tx.require(have is None, Code.SETUP_ALREADY_ASSIGNED, f"{seat} already plays {have}", R_SETUP)
    tx.require(it.detective in tx.rules.data.detectives, Code.REF_UNKNOWN_DETECTIVE,
               f"no detective {it.detective!r} ({ids(sorted(tx.rules.data.detectives))})", R_SETUP)
    other = seat_of(tx.s, it.detective)
    tx.require(other is None, Code.SETUP_DETECTIVE_TAKEN, f"{it.detective} is already played by {other}", R_SETUP)
    tx.emit(DetectiveAssigned(seat=seat, detective=it.detective))
    if all(tx.s.players[s].detective for s in tx.rules.players):
        tx.emit(ComponentsPlaced())


def deal_hunches(tx: Tx, it: DealHunches) -> None:
    _out_of_order(tx, 8, "dealing hunches")
    deals = [(d.seat, d.guilty, d.innocent) for d in it.dealt] if it.dealt else [(it.seat, it.guilty, it.innocent)]
    for seat_, guilty, innocent in deals:
        seat = _seat(tx, seat_)
        _may_act_for(tx, seat)
        tx.require(tx.s.players[seat].hunches is None, Code.SETUP_ALREADY_DEALT, f"{seat} already holds hunches", R_SETUP)
        active = tx.s.active_suspects
        for word, sus in (("guilty", guilty), ("innocent", innocent)):
            tx.require(sus in active, Code.SETUP_HUNCH_NOT_IN_GAME,
                       f"the {word} hunch must be of a suspect in this game ({ids(active)}), not {sus!r}", R_SETUP)
        assert guilty is not None and innocent is not None
        for word, sus in (("guilty", guilty), ("innocent", innocent)):
            dealt = [s for s, p in tx.s.players.items() if p.hunches and getattr(p.hunches, word) == sus]
            tx.require(not dealt, Code.SETUP_HUNCH_ALREADY_DEALT, f"the {word} hunch of {sus} is already dealt", R_SETUP)
        tx.emit(HunchesDealt(seat=seat, guilty=guilty, innocent=innocent))
    if all(tx.s.players[s].hunches for s in tx.rules.players):
        left_g = [s for s in tx.s.active_suspects if all(p.hunches and p.hunches.guilty != s for p in tx.s.players.values())]
        left_i = [s for s in tx.s.active_suspects if all(p.hunches and p.hunches.innocent != s for p in tx.s.players.values())]
        if left_g and left_i:
            tx.emit(UndealtHunchesBoxed(guilty=left_g[0], innocent=left_i[0]))


def select_starting_plot(tx: Tx, it: SelectStartingPlot) -> None:
    tx.require(current_step(tx.rules, tx.s) >= 9, Code.SETUP_OUT_OF_ORDER,
               "starting plots are step 9: not every seat has its hunches yet", R_SETUP)
    picks = [(p.seat, p.plot) for p in it.picks] if it.picks else [(it.seat, it.plot)]
    for seat_, plot in picks:
        seat = _seat(tx, seat_)
        p = tx.s.players[seat]
        tx.require(p.plot is None, Code.SETUP_ALREADY_SELECTED, f"{seat} already has a plot ({p.plot.current if p.plot else ''})", R_SETUP)
        allp = {x: e for d in tx.rules.data.detectives.values() for x, e in d.plots}
        tx.require(plot in allp, Code.REF_UNKNOWN_PLOT, f"no plot {plot!r} in the data set", R_SETUP)
        assert plot is not None
        mine = dict(tx.rules.data.detectives[p.detective or ""].plots)
        tx.require(plot in mine, Code.SETUP_PLOT_NOT_YOURS, f"{plot} is not a plot of {p.detective} (plots: {ids(mine)})", R_SETUP)
        tx.require(mine[plot], Code.SETUP_PLOT_NOT_ELIGIBLE, f"{plot} may not be a starting plot", R_SETUP)
        tx.emit(StartingPlotSelected(seat=seat, plot=plot))


def draw_starting_cards(tx: Tx, it: DrawStartingCards) -> None:
    tx.require(current_step(tx.rules, tx.s) >= 10, Code.SETUP_OUT_OF_ORDER,
               "starting cards are step 10: not every seat has its plot yet", R_SETUP)
    draws = [(d.seat, (d.light_1, d.light_2), d.dark) for d in it.drawn] if it.drawn else [(it.seat, it.light, it.dark)]
    rules = tx.rules
    for seat_, light, dark in draws:
        seat = _seat(tx, seat_)
        _may_act_for(tx, seat)
        p = tx.s.players[seat]
        tx.require(not p.hand, Code.SETUP_ALREADY_DRAWN, f"{seat} already drew its starting cards", R_SETUP)
        det = p.detective or ""
        cards = rules.data.cards
        ok = len(light) == 2 and len(set(light)) == 2 and all(
            c in cards and cards[c].detective == det and cards[c].deck == "light" for c in light)
        tx.require(ok, Code.SETUP_INVALID_STARTING_DRAW,
                   f"light= must name two different cards of {det}'s light deck, not {ids(light)}", R_SETUP)
        left = rules.left(seat)
        left_det = tx.s.players[left].detective
        tx.require(dark is not None and dark in cards and cards[dark].detective == left_det and cards[dark].deck == "dark",
                   Code.SETUP_WRONG_DARK_DECK, f"dark= must be a card of {left_det}.dark (the deck of {left}, on {seat}'s left), "
                   f"not {dark!r}", R_SETUP)
        assert dark is not None
        for c in (*light, dark):
            rules.need_face_down(tx, c)
        tx.emit(StartingCardsDrawn(seat=seat, cards=(*light, dark), decks=(f"{det}.light", f"{det}.light", f"{left_det}.dark")))


def set_aside_specific_event(tx: Tx, it: SetAsideSpecificEvent) -> None:
    tx.require(current_step(tx.rules, tx.s) >= 11, Code.SETUP_OUT_OF_ORDER,
               "the murder-specific event is step 11: not every seat drew its starting cards yet", R_SETUP)
    tx.require(not tx.s.setup.specific_set, Code.SETUP_ALREADY_DONE, "the murder-specific event is already set aside", R_SETUP)
    m = tx.rules.data.murders[tx.s.murder or ""]
    if it.card == "sealed":
        tx.require(not tx.rules.digital, Code.SETUP_SEALED_NOT_ALLOWED,
                   "a digital match draws the event itself: card=sealed is for a physical match", R_SETUP)
    else:
        tx.require(it.card in m.specific_events, Code.SETUP_NOT_THIS_MURDERS_EVENT,
                   f"card= must be one of {m.id}'s three specific events (or sealed)", R_SETUP)
    assert it.card is not None
    tx.emit(SpecificEventSetAside(card=it.card))


def choose_first_player(tx: Tx, it: ChooseFirstPlayer) -> None:
    tx.require(current_step(tx.rules, tx.s) >= 12, Code.SETUP_OUT_OF_ORDER,
               "the first player is step 12: the murder-specific event is not set aside yet", R_SETUP)
    tx.require(tx.s.first_player is None, Code.SETUP_ALREADY_DONE, f"the first player is already {tx.s.first_player}", R_SETUP)
    seat = _seat(tx, it.seat)
    tx.emit(FirstPlayerChosen(seat=seat))
    for s in tx.rules.players:
        det = tx.s.players[s].detective or ""
        if tx.rules.data.detectives[det].hero_setup:
            tx.emit(HeroSetupApplied(seat=s, detective=det))
    maybe_complete(tx)


def draw_rachel_extra_cards(tx: Tx, it: DrawRachelExtraCards) -> None:
    rachel = seat_of(tx.s, "rachel")
    tx.require(rachel is not None, Code.SETUP_NOT_APPLICABLE, "Rachel is not in this game", R_SETUP)
    tx.require(tx.s.first_player is not None, Code.SETUP_OUT_OF_ORDER, "Rachel's extra cards are step 13: no first player yet", R_SETUP)
    tx.require(not tx.s.setup.extra_drawn, Code.SETUP_ALREADY_DONE, "Rachel already drew her extra cards", R_SETUP)
    assert rachel is not None
    _may_act_for(tx, rachel)
    rules = tx.rules
    others = {f"{tx.s.players[s].detective}.dark" for s in rules.players if s != rachel}
    ok = len(it.sources) == 2 and all(src == "rachel.light" or src in others for src in it.sources)
    tx.require(ok, Code.SETUP_INVALID_EXTRA_DRAW, f"sources= must be two of rachel.light and the other detectives' dark decks "
               f"({ids(sorted(others))}), not {ids(it.sources)}", R_SETUP)
    tx.require(len(it.cards) == 2 and len(set(it.cards)) == 2, Code.SETUP_INVALID_EXTRA_DRAW, "cards= must name two cards", R_SETUP)
    for src, card in zip(it.sources, it.cards):
        c = rules.data.cards.get(card)
        tx.require(c is not None and f"{c.detective}.{c.deck}" == src, Code.DECK_CARD_NOT_IN_DECK,
                   f"{card} is not a card of {src}", R_SETUP)
        rules.need_face_down(tx, card)
    tx.emit(ExtraCardsDrawn(seat=rachel, cards=tuple(it.cards), decks=tuple(it.sources)))
    maybe_complete(tx)


def deal_memory_cards(tx: Tx, it: DealMemoryCards) -> None:
    raymond = seat_of(tx.s, "raymond")
    tx.require(raymond is not None, Code.SETUP_NOT_APPLICABLE, "Raymond is not in this game: nobody deals memory cards", R_SETUP)
    tx.require(tx.s.first_player is not None, Code.SETUP_OUT_OF_ORDER, "memory cards are step 13: no first player yet", R_SETUP)
    tx.require(not tx.s.setup.memory_dealt, Code.SETUP_ALREADY_DONE, "the memory cards are already dealt", R_SETUP)
    memory = tx.rules.data.detectives["raymond"].memory_cards
    want = sorted(s for s in tx.rules.players if s != raymond)
    seats = sorted(d.seat for d in it.deal)
    cards = [d.card for d in it.deal]
    ok = seats == want and len(set(cards)) == len(cards) and all(c in memory for c in cards)
    tx.require(ok, Code.SETUP_INVALID_MEMORY_DEAL, f"deal one distinct Raymond memory card ({ids(memory)}) to each seat other "
               f"than {raymond} ({ids(want)})", R_SETUP)
    tx.emit(MemoryCardsDealt(deal=tuple(sorted(it.deal, key=lambda d: d.seat))))
    maybe_complete(tx)


def maybe_complete(tx: Tx) -> None:
    if current_step(tx.rules, tx.s) == 14 and tx.s.phase == "setup":
        fp = tx.s.first_player or tx.rules.players[0]
        tx.emit(SetupCompleted(), DayStarted(day=1, seat=fp, time=tx.rules.base_time(tx.s, fp)))
