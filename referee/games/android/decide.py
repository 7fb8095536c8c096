"""How an intent is judged: the common prefix of §4.0 (G2 phase, G3 actor, G4 pending) for each family
of intents, then the intent's own decider with its checks in the spec's order. Sub-step intents run
their own first checks instead of G3/G4 (§4.0); G1 (``match/over``) is the framework's."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from referee.engine.codes import TurnCode
from referee.engine.protocol import Deciders


from .codes import Code
from . import cards, conspiracy, day, endday, manual, setup
from .model import (
    Intent,
    SETUP_INTENTS, AssignDetective, ChooseFirstPlayer, ChooseMurder, CloseCase, DealHunches, DealMemoryCards,
    DeclareScore, DeclineBenefit, DigDeeper, DiscardPiece, DiscardTwilightCard, DrawEvidence, DrawRachelExtraCards,
    DrawStartingCards, DrawTwilightCard, EndTurn, FlyDropship, FollowLead, GetAJump, ManualEffect, Move, MoveLead,
    PlaceEvidence, PlacePiece, PlayDarkCard, PlayLightCard, RevealConspiracy, ResolveGeneralEvent, ResolvePlots,
    ResolveSpecificEvent, RideBeanstalk, SelectStartingPlot, SetAsideSpecificEvent, SkipLeadUse, State,
    TakeBaggageBenefit, TakeFavorBenefit, TakeFreeDraw, TakeShiftBenefit, UseEventAbility, UseLocationAbility,
    ActionNoted, LastAction, WindowClosed,
)
from .cancel import as_text
from .txn import R_COMMON, R_END_OF_DAY, Tx

_TABLE: dict[type[Any], Callable[[Tx, Any], None]] = {
    ChooseMurder: setup.choose_murder, AssignDetective: setup.assign_detective, DealHunches: setup.deal_hunches,
    SelectStartingPlot: setup.select_starting_plot, DrawStartingCards: setup.draw_starting_cards,
    SetAsideSpecificEvent: setup.set_aside_specific_event, ChooseFirstPlayer: setup.choose_first_player,
    DrawRachelExtraCards: setup.draw_rachel_extra_cards, DealMemoryCards: setup.deal_memory_cards,
    Move: day.move, RideBeanstalk: day.ride_beanstalk, FlyDropship: day.fly_dropship, TakeFreeDraw: day.take_free_draw,
    FollowLead: day.follow_lead, MoveLead: day.move_lead, DrawEvidence: day.draw_evidence,
    PlaceEvidence: day.place_evidence, SkipLeadUse: day.skip_lead_use, DrawTwilightCard: day.draw_twilight_card,
    DiscardTwilightCard: day.discard_twilight_card, EndTurn: day.end_turn,
    RevealConspiracy: conspiracy.reveal_conspiracy, DigDeeper: conspiracy.dig_deeper,
    TakeShiftBenefit: conspiracy.take_shift_benefit, TakeFavorBenefit: conspiracy.take_favor_benefit,
    TakeBaggageBenefit: conspiracy.take_baggage_benefit, DeclineBenefit: conspiracy.decline_benefit,
    PlacePiece: conspiracy.place_piece, DiscardPiece: conspiracy.discard_piece,
    PlayLightCard: cards.play_light_card, PlayDarkCard: cards.play_dark_card, GetAJump: cards.get_a_jump,
    UseLocationAbility: cards.use_location_ability, UseEventAbility: cards.use_event_ability,
    ManualEffect: manual.manual_effect,
    ResolveGeneralEvent: endday.resolve_general_event, ResolveSpecificEvent: endday.resolve_specific_event,
    ResolvePlots: endday.resolve_plots, DeclareScore: endday.declare_score, CloseCase: endday.close_case,
}

#: the active seat's actions (G2 day, G3 the active seat, G4 nothing pending)
ACTIONS = (Move, RideBeanstalk, FlyDropship, TakeFreeDraw, FollowLead, DrawTwilightCard, DiscardTwilightCard,
           PlayLightCard, GetAJump, UseLocationAbility, UseEventAbility, EndTurn)
SUBSTEPS = (MoveLead, DrawEvidence, PlaceEvidence, RevealConspiracy, DigDeeper, TakeShiftBenefit, TakeFavorBenefit,
            TakeBaggageBenefit, DeclineBenefit, PlacePiece, DiscardPiece, SkipLeadUse)
END_OF_DAY = (ResolveGeneralEvent, ResolveSpecificEvent, ResolvePlots)
CLOSING = (DeclareScore, CloseCase)
#: actions «Отмена» undoes effect by effect (:mod:`.cancel`)
UNDONE_BY_DELTAS = (UseLocationAbility, UseEventAbility, PlayLightCard)
#: actions that keep the free-draw window open (they open, use or replace it)
KEEP_WINDOW = (Move, RideBeanstalk, FlyDropship, TakeFreeDraw)


def _wrong_phase(tx: Tx, want: str, verb: str) -> None:
    if tx.s.phase != want:  # the message is built only for a refusal
        tx.fail(Code.PHASE_WRONG_PHASE, f"{verb} is played in the {want} phase; the game is in {tx.s.phase}", R_COMMON)


def _before(tx: Tx, intent: Intent) -> None:
    """G2-G4 for the intent's family, and what an action of «Отмена» undoes begins to be recorded."""
    s = tx.s
    verb = str(type(intent).__struct_config__.tag)
    if isinstance(intent, SETUP_INTENTS):
        _wrong_phase(tx, "setup", verb)
    elif isinstance(intent, ACTIONS):
        _wrong_phase(tx, "day", verb)
        tx.require(tx.seat == s.active_seat, TurnCode.NOT_YOUR_TURN, f"it is {s.active_seat}'s turn, not {tx.seat}'s", R_COMMON)
        if s.pending:
            top = s.pending[0]
            tx.fail(Code.TURN_STEP_PENDING, f"{top.seat} must first finish {top.step}"
                    + (f" ({top.lead})" if top.lead else ""), R_COMMON)
        w = s.free_draw_window
        if w is not None and not isinstance(intent, KEEP_WINDOW) \
                and tx.rules.options["free_draw_timing"] == "immediately_after_entry":
            tx.emit(WindowClosed())
    elif isinstance(intent, SUBSTEPS):
        _wrong_phase(tx, "day", verb)
    elif isinstance(intent, PlayDarkCard):
        _wrong_phase(tx, "day", verb)
    elif isinstance(intent, END_OF_DAY):
        _wrong_phase(tx, "end_of_day", verb)
        if tx.rules.options["end_of_day_actor"] == "first_player":
            tx.require(tx.seat in (s.first_player, "arbiter"), TurnCode.NOT_YOUR_TURN,
                       f"the first player ({s.first_player}) resolves the end-of-day items", R_END_OF_DAY)
    elif isinstance(intent, CLOSING):
        _wrong_phase(tx, "closing", verb)
        if tx.seat != "arbiter":
            tx.flag("seat_declared", f"{tx.seat} declared in closing")
    elif isinstance(intent, ManualEffect):
        pass
    before = tx.s
    la = before.last_action
    if isinstance(intent, UNDONE_BY_DELTAS) or (
            isinstance(intent, ManualEffect) and la is not None and la.source is not None and intent.source == la.source):
        tx.undo = []
    tx.base = before


def _after(tx: Tx, intent: Intent) -> None:
    """What follows every accepted intent: the note «Отмена» reads, and the turn ended when nothing is left."""
    _note(tx, tx.base, intent)
    if tx.rules.options["auto_end_turn"]:
        day.auto_end_turn(tx)


def _note(tx: Tx, before: State, intent: Any) -> None:
    """What ``cancel_last_action`` needs of the active seat's action just taken; any other accepted
    intent of the active seat leaves nothing to cancel."""
    if tx.seat != before.active_seat or before.phase != "day":
        return
    if isinstance(intent, ACTIONS) and not isinstance(intent, EndTurn):
        verb = str(type(intent).__struct_config__.tag)
        p = before.players[tx.seat]
        note = LastAction(verb=verb, seat=tx.seat)
        if isinstance(intent, (Move, RideBeanstalk, FlyDropship)):
            note = LastAction(verb=verb, seat=tx.seat, location=p.location)
        elif isinstance(intent, DrawTwilightCard):
            note = LastAction(verb=verb, seat=tx.seat, card=intent.card)
        elif isinstance(intent, GetAJump):
            note = LastAction(verb=verb, seat=tx.seat, hero=before.scene.hero)
        elif isinstance(intent, FollowLead):
            t, _, owner = intent.lead.partition(".")
            note = LastAction(verb=verb, seat=tx.seat, lead=intent.lead, location=before.leads[t][owner])
        elif isinstance(intent, UNDONE_BY_DELTAS):
            top = tx.s.pending[0] if tx.s.pending else None
            source = top.source if top is not None and top.step == "effect_declaration" and top.seat == tx.seat else None
            note = LastAction(verb=verb, seat=tx.seat, undo=tuple(as_text(d) for d in reversed(tx.undo or [])), source=source,
                              played=intent.card if isinstance(intent, PlayLightCard) else None)
        tx.emit(ActionNoted(action=note))
    elif isinstance(intent, ManualEffect) and tx.undo is not None and before.last_action is not None \
            and tx.s.last_action is before.last_action:
        # the effect declared for the action just taken is part of it: «Отмена» undoes it as well
        la = before.last_action
        tx.emit(ActionNoted(action=replace(la, source=None, undo=(*(as_text(d) for d in reversed(tx.undo)), *la.undo))))
    elif tx.s.last_action is not None and tx.s.last_action is before.last_action:
        tx.emit(ActionNoted(action=None))


#: the decider of every intent, after the common prefix of its family (G2-G4) and before the note of it
DECIDERS: Deciders[Tx] = Deciders(_TABLE, before=_before, after=_after)
