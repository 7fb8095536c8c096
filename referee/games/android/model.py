"""Android: intents (what a seat asks), events (facts the referee records) and the state.

Identifiers are the rules spec's (``shared/rules/android.md``): the 40 intent verbs and their
parameter names (§4), the delta kinds of declared effects (§4.30), the state paths (§1.13). The
notation is generated from these Structs; each intent's docstring is its help line.

Secrecy is declared on the Structs (:mod:`referee.engine.secrecy`): ``__private__`` fields are seen
only by their ``__owner__`` (the seat named there, or the actor) and the arbiter; ``__secret__`` fields
by the arbiter alone. State Structs declare their fields in sorted order (the engine's convention for
fast canonical hashing).
"""

from __future__ import annotations

from typing import Literal

import msgspec

from referee.engine.decision import EventBase, IntentBase

from .state import (  # the state of §1.13, re-exported
    ActiveAbility as ActiveAbility, Case as Case, Deck as Deck, Draws as Draws, Declared as Declared, Events as Events,
    Flag as Flag, Hunches as Hunches, LastAction as LastAction, Npc as Npc, Placement as Placement,
    Player as Player, Plot as Plot, Puzzle as Puzzle, Result as Result, Scene as Scene, Setup as Setup,
    Special as Special, State as State, Step as Step, Suspect as Suspect, Token as Token, Window as Window,
)
from .deltakinds import (  # the delta kinds of §4.30, re-exported
    AlibiDelta as AlibiDelta, BaggageDelta as BaggageDelta, CancelLastActionDelta as CancelLastActionDelta,
    CardDelta as CardDelta, Delta as Delta, DirectiveDelta as DirectiveDelta,
    DropshipPassDelta as DropshipPassDelta, EventAbilityDelta as EventAbilityDelta, FavorDelta as FavorDelta,
    FlipEvidenceDelta as FlipEvidenceDelta, HeroMarkerDelta as HeroMarkerDelta, HitDelta as HitDelta,
    LeadDelta as LeadDelta, MarkerDelta as MarkerDelta, MoodDelta as MoodDelta,
    MoveDetectiveDelta as MoveDetectiveDelta, NoteDelta as NoteDelta, NpcFavorDelta as NpcFavorDelta,
    NpcStatusDelta as NpcStatusDelta, PeekDelta as PeekDelta, PlotDelta as PlotDelta,
    SceneHeroDelta as SceneHeroDelta, SpecialDelta as SpecialDelta, TimeDelta as TimeDelta,
    TimeModifierDelta as TimeModifierDelta, TokenDelta as TokenDelta, TraumaDelta as TraumaDelta,
    TwilightDelta as TwilightDelta, TwilightFullDelta as TwilightFullDelta, VpDelta as VpDelta,
    WarrantDelta as WarrantDelta,
)

FavorWord = str


class _Intent(IntentBase, frozen=True):
    """Base of the intents."""


class _Event(EventBase, frozen=True):
    """Base of the events."""


# -- setup intents (§4.1–4.9) ------------------------------------------------------------------------------

class HunchDeal(msgspec.Struct, frozen=True):
    """One seat's hunches in a whole deal (digital): seen by that seat alone."""

    __private__ = ("guilty", "innocent")
    __owner__ = "seat"
    seat: str
    guilty: str
    innocent: str


class PlotPick(msgspec.Struct, frozen=True):
    seat: str
    plot: str


class StartingDraw(msgspec.Struct, frozen=True):
    """One seat's starting cards in a whole draw (digital): seen by that seat alone."""

    __private__ = ("light_1", "light_2", "dark")
    __owner__ = "seat"
    seat: str
    light_1: str
    light_2: str
    dark: str


class MemoryDeal(msgspec.Struct, frozen=True):
    __private__ = ("card",)
    __owner__ = "seat"
    seat: str
    card: str


class ChooseMurder(_Intent, frozen=True, kw_only=True, tag="choose_murder"):
    """Setup step 1: the murder (chosen, or drawn at random in a digital match)."""

    murder: str | None = None
    method: Literal["chosen", "random"] = "chosen"


class AssignDetective(_Intent, frozen=True, kw_only=True, tag="assign_detective"):
    """Setup step 3: the detective a seat plays."""

    seat: str
    detective: str


class DealHunches(_Intent, frozen=True, kw_only=True, tag="deal_hunches"):
    """Setup step 8: one guilty and one innocent hunch to a seat (digital: no parameters deals all)."""

    __private__ = ("guilty", "innocent")
    __owner__ = "seat"
    seat: str | None = None
    guilty: str | None = None
    innocent: str | None = None
    dealt: tuple[HunchDeal, ...] = ()


class SelectStartingPlot(_Intent, frozen=True, kw_only=True, tag="select_starting_plot"):
    """Setup step 9: a seat's starting plot (digital: no parameters picks for all)."""

    seat: str | None = None
    plot: str | None = None
    picks: tuple[PlotPick, ...] = ()


class DrawStartingCards(_Intent, frozen=True, kw_only=True, tag="draw_starting_cards"):
    """Setup step 10: two cards of the seat's light deck and one of its left neighbour's dark deck."""

    __private__ = ("light", "dark")
    __owner__ = "seat"
    seat: str | None = None
    light: tuple[str, ...] = ()
    dark: str | None = None
    drawn: tuple[StartingDraw, ...] = ()


class SetAsideSpecificEvent(_Intent, frozen=True, kw_only=True, tag="set_aside_specific_event"):
    """Setup step 11: one murder-specific event set aside unseen (card=sealed: nobody knows which)."""

    __secret__ = ("card",)
    card: str | None = None


class ChooseFirstPlayer(_Intent, frozen=True, kw_only=True, tag="choose_first_player"):
    """Setup step 12: the first player (chosen, or at random in a digital match)."""

    seat: str | None = None
    method: Literal["chosen", "random"] = "chosen"


class DrawRachelExtraCards(_Intent, frozen=True, kw_only=True, tag="draw_rachel_extra_cards"):
    """Setup step 13: Rachel's two extra cards (her light deck or other players' dark decks)."""

    __private__ = ("cards",)
    sources: tuple[str, ...] = ()
    cards: tuple[str, ...] = ()


class DealMemoryCards(_Intent, frozen=True, kw_only=True, tag="deal_memory_cards"):
    """Setup step 13: one of Raymond's memory cards to each other player (deal=seat:card,...)."""

    deal: tuple[MemoryDeal, ...] = ()


# -- day actions (§4.10–4.30) --------------------------------------------------------------------------------

class Move(_Intent, frozen=True, kw_only=True, tag="move"):
    """Move by vehicle ruler to a location within reach (1 TIME; 3 into a restricted one without your warrant)."""

    to: str


class RideBeanstalk(_Intent, frozen=True, kw_only=True, tag="ride_beanstalk"):
    """Move one step along the Beanstalk (1 TIME)."""

    to: str


class FlyDropship(_Intent, frozen=True, kw_only=True, tag="fly_dropship"):
    """Spend a dropship pass and 1 TIME to go anywhere."""

    to: str


class TakeFreeDraw(_Intent, frozen=True, kw_only=True, tag="take_free_draw"):
    """After entering a ritzy (own light deck) or seedy (another's dark deck) location: draw a card free."""

    __private__ = ("card",)
    deck: str
    card: str | None = None


class FollowLead(_Intent, frozen=True, kw_only=True, tag="follow_lead"):
    """Follow up a lead at your location (1 TIME)."""

    lead: str


class MoveLead(_Intent, frozen=True, kw_only=True, tag="move_lead"):
    """Move the lead just followed (the follower's right-hand neighbour)."""

    lead: str
    to: str


class DrawEvidence(_Intent, frozen=True, kw_only=True, tag="draw_evidence"):
    """Use the lead: draw an evidence token (seen by you alone)."""

    __private__ = ("token",)
    token: str | None = None


class PlaceEvidence(_Intent, frozen=True, kw_only=True, tag="place_evidence"):
    """Place the drawn token on a suspect's file, face down or up."""

    suspect: str
    face: Literal["down", "up"] = "down"
    file: str | None = None


class RevealConspiracy(_Intent, frozen=True, kw_only=True, tag="reveal_conspiracy"):
    """Use the lead: draw a puzzle piece from the pile next to your hero marker."""

    piece: str | None = None


class DigDeeper(_Intent, frozen=True, kw_only=True, tag="dig_deeper"):
    """Use the lead: move your hero marker to the next more valuable pile (default ruling)."""

    deltas: tuple[Delta, ...] = ()


class TakeShiftBenefit(_Intent, frozen=True, kw_only=True, tag="take_shift_benefit"):
    """Shift piece: shift any player's twilight marker one space."""

    target: str
    direction: Literal["light", "dark"]


class TakeFavorBenefit(_Intent, frozen=True, kw_only=True, tag="take_favor_benefit"):
    """Favor piece: gain one normal favor of your choice."""

    favor_type: str


class TakeBaggageBenefit(_Intent, frozen=True, kw_only=True, tag="take_baggage_benefit"):
    """Baggage piece: put one good or bad baggage on any player's plot."""

    target: str
    side: Literal["good", "bad"]


class DeclineBenefit(_Intent, frozen=True, kw_only=True, tag="decline_benefit"):
    """Decline a shift or baggage piece's benefit."""


class PlacePiece(_Intent, frozen=True, kw_only=True, tag="place_piece"):
    """Add the drawn piece to the conspiracy (cell, clockwise rotation)."""

    at: str
    rotation: int = 0


class DiscardPiece(_Intent, frozen=True, kw_only=True, tag="discard_piece"):
    """Discard the drawn piece."""


class DrawTwilightCard(_Intent, frozen=True, kw_only=True, tag="draw_twilight_card"):
    """Draw a twilight card from your light deck or another player's dark deck (1 TIME)."""

    __private__ = ("card",)
    deck: str
    card: str | None = None


class DiscardTwilightCard(_Intent, frozen=True, kw_only=True, tag="discard_twilight_card"):
    """Discard a twilight card face up to the bottom of its deck (1 TIME)."""

    card: str


class PlayLightCard(_Intent, frozen=True, kw_only=True, tag="play_light_card"):
    """Play a light card (1 TIME + a dark shift by its cost); its effect as declared deltas."""

    card: str
    cost: int | None = None
    deltas: tuple[Delta, ...] = ()


class PlayDarkCard(_Intent, frozen=True, kw_only=True, tag="play_dark_card"):
    """Play a dark card in another player's turn (a light shift by its cost); effect as deltas."""

    card: str
    cost: int | None = None
    deltas: tuple[Delta, ...] = ()


class GetAJump(_Intent, frozen=True, kw_only=True, tag="get_a_jump"):
    """Put your hero marker on the scene of the crime (1 TIME)."""


class UseLocationAbility(_Intent, frozen=True, kw_only=True, tag="use_location_ability"):
    """Use the ability of the major location you are at (once per round)."""

    location: str
    suspect: str | None = None
    favor_type: str | None = None
    target: str | None = None
    deltas: tuple[Delta, ...] = ()


class UseEventAbility(_Intent, frozen=True, kw_only=True, tag="use_event_ability"):
    """Use an event's ability on the map where you stand."""

    event: str
    suspect: str | None = None
    favor_type: str | None = None
    target: str | None = None


class EndTurn(_Intent, frozen=True, kw_only=True, tag="end_turn"):
    """End your turn: the time sheet passes to the player on your left."""


class ManualEffect(_Intent, frozen=True, kw_only=True, tag="manual_effect"):
    """Record a declared effect (card, event, plot, NPC, bonus...) as deltas; flagged for audit."""

    source: str | None = None
    deltas: tuple[Delta, ...] = ()
    note: str = ""


class ResolveGeneralEvent(_Intent, frozen=True, kw_only=True, tag="resolve_general_event"):
    """End of day: draw and play the top general event."""

    card: str | None = None
    deltas: tuple[Delta, ...] = ()


class ResolveSpecificEvent(_Intent, frozen=True, kw_only=True, tag="resolve_specific_event"):
    """End of day: turn the murder-specific event face up and play it."""

    card: str | None = None
    deltas: tuple[Delta, ...] = ()


class ResolvePlots(_Intent, frozen=True, kw_only=True, tag="resolve_plots"):
    """End of day: resolve plots (declared deltas)."""

    deltas: tuple[Delta, ...] = ()


class SkipLeadUse(_Intent, frozen=True, kw_only=True, tag="skip_lead_use"):
    """Use nothing from the lead (only when neither use is possible)."""


class DeclareScore(_Intent, frozen=True, kw_only=True, tag="declare_score"):
    """Closing: record VP a seat scores from a source whose rules are missing."""

    seat: str
    source: Literal["hunch", "plot", "conspiracy", "npc", "other"]
    vp: int
    note: str = ""


class CloseCase(_Intent, frozen=True, kw_only=True, tag="close_case"):
    """Closing: total the VP and end the match."""


Intent = (
    ChooseMurder | AssignDetective | DealHunches | SelectStartingPlot | DrawStartingCards | SetAsideSpecificEvent
    | ChooseFirstPlayer | DrawRachelExtraCards | DealMemoryCards | Move | RideBeanstalk | FlyDropship | TakeFreeDraw
    | FollowLead | MoveLead | DrawEvidence | PlaceEvidence | RevealConspiracy | DigDeeper | TakeShiftBenefit
    | TakeFavorBenefit | TakeBaggageBenefit | DeclineBenefit | PlacePiece | DiscardPiece | DrawTwilightCard
    | DiscardTwilightCard | PlayLightCard | PlayDarkCard | GetAJump | UseLocationAbility | UseEventAbility | EndTurn
    | ManualEffect | ResolveGeneralEvent | ResolveSpecificEvent | ResolvePlots | SkipLeadUse | DeclareScore
    | CloseCase
)

SETUP_INTENTS = (ChooseMurder, AssignDetective, DealHunches, SelectStartingPlot, DrawStartingCards,
                 SetAsideSpecificEvent, ChooseFirstPlayer, DrawRachelExtraCards, DealMemoryCards)


# -- events ------------------------------------------------------------------------------------------------

class MurderChosen(_Event, frozen=True, kw_only=True, tag="murder_chosen"):
    murder: str


class DetectiveAssigned(_Event, frozen=True, kw_only=True, tag="detective_assigned"):
    seat: str
    detective: str


class ComponentsPlaced(_Event, frozen=True, kw_only=True, tag="components_placed"):
    """Setup steps 4–7 at once: leads, evidence pile, banks, puzzle piles and hero markers."""


class HunchesDealt(_Event, frozen=True, kw_only=True, tag="hunches_dealt"):
    __private__ = ("guilty", "innocent")
    __owner__ = "seat"
    seat: str
    guilty: str
    innocent: str


class UndealtHunchesBoxed(_Event, frozen=True, kw_only=True, tag="undealt_hunches_boxed"):
    __secret__ = ("guilty", "innocent")
    guilty: str
    innocent: str


class StartingPlotSelected(_Event, frozen=True, kw_only=True, tag="starting_plot_selected"):
    seat: str
    plot: str


class StartingCardsDrawn(_Event, frozen=True, kw_only=True, tag="starting_cards_drawn"):
    __private__ = ("cards",)
    __owner__ = "seat"
    seat: str
    cards: tuple[str, ...]
    decks: tuple[str, ...]


class SpecificEventSetAside(_Event, frozen=True, kw_only=True, tag="specific_event_set_aside"):
    __secret__ = ("card",)
    card: str


class FirstPlayerChosen(_Event, frozen=True, kw_only=True, tag="first_player_chosen"):
    seat: str


class HeroSetupApplied(_Event, frozen=True, kw_only=True, tag="hero_setup_applied"):
    seat: str
    detective: str


class ExtraCardsDrawn(_Event, frozen=True, kw_only=True, tag="extra_cards_drawn"):
    __private__ = ("cards",)
    __owner__ = "seat"
    seat: str
    cards: tuple[str, ...]
    decks: tuple[str, ...]


class MemoryCardsDealt(_Event, frozen=True, kw_only=True, tag="memory_cards_dealt"):
    deal: tuple[MemoryDeal, ...]


class SetupCompleted(_Event, frozen=True, kw_only=True, tag="setup_completed"):
    pass


class DayStarted(_Event, frozen=True, kw_only=True, tag="day_started"):
    day: int
    seat: str
    time: int


class TimeSpent(_Event, frozen=True, kw_only=True, tag="time_spent"):
    seat: str
    amount: int


class DetectiveMoved(_Event, frozen=True, kw_only=True, tag="detective_moved"):
    seat: str
    to: str
    means: Literal["vehicle", "beanstalk", "dropship", "declared"]


class DropshipPassSpent(_Event, frozen=True, kw_only=True, tag="dropship_pass_spent"):
    seat: str


class TwilightCardDrawn(_Event, frozen=True, kw_only=True, tag="twilight_card_drawn"):
    __private__ = ("card",)
    __owner__ = "seat"
    seat: str
    deck: str
    card: str
    free: bool = False


class DeckReshuffled(_Event, frozen=True, kw_only=True, tag="deck_reshuffled"):
    deck: str


class TwilightCardDiscarded(_Event, frozen=True, kw_only=True, tag="twilight_card_discarded"):
    seat: str
    card: str


class LeadFollowed(_Event, frozen=True, kw_only=True, tag="lead_followed"):
    seat: str
    lead: str
    mover: str | None = None


class LeadRemoved(_Event, frozen=True, kw_only=True, tag="lead_removed"):
    lead: str


class LeadMoved(_Event, frozen=True, kw_only=True, tag="lead_moved"):
    lead: str
    to: str
    by: str


class EvidenceDrawn(_Event, frozen=True, kw_only=True, tag="evidence_drawn"):
    __private__ = ("kind",)
    __owner__ = "seat"
    seat: str
    kind: str


class EvidencePlaced(_Event, frozen=True, kw_only=True, tag="evidence_placed"):
    seat: str
    suspect: str
    file: str
    face_up: bool


class EvidenceShown(_Event, frozen=True, kw_only=True, tag="evidence_shown"):
    """A token placed (or turned) face up: its kind is public."""

    suspect: str
    file: str
    index: int
    kind: str


class LeadUseSkipped(_Event, frozen=True, kw_only=True, tag="lead_use_skipped"):
    seat: str


class PuzzlePieceDrawn(_Event, frozen=True, kw_only=True, tag="puzzle_piece_drawn"):
    seat: str
    piece: str
    pile: str


class HeroMarkersMoved(_Event, frozen=True, kw_only=True, tag="hero_markers_moved"):
    markers: dict[str, str]


class BenefitTaken(_Event, frozen=True, kw_only=True, tag="benefit_taken"):
    seat: str
    benefit: str


class PuzzlePiecePlaced(_Event, frozen=True, kw_only=True, tag="puzzle_piece_placed"):
    seat: str
    piece: str
    cell: str
    rotation: int


class PuzzlePieceDiscarded(_Event, frozen=True, kw_only=True, tag="puzzle_piece_discarded"):
    seat: str
    piece: str


class TwilightShifted(_Event, frozen=True, kw_only=True, tag="twilight_shifted"):
    seat: str
    amount: int


class FavorGained(_Event, frozen=True, kw_only=True, tag="favor_gained"):
    seat: str
    favor_type: str
    amount: int


class BaggagePlaced(_Event, frozen=True, kw_only=True, tag="baggage_placed"):
    seat: str
    side: str
    amount: int = 1


class TwilightCardPlayed(_Event, frozen=True, kw_only=True, tag="twilight_card_played"):
    seat: str
    card: str
    to: Literal["bottom", "in_play", "box"]


class SceneMarkerTaken(_Event, frozen=True, kw_only=True, tag="scene_marker_taken"):
    seat: str


class LocationAbilityUsed(_Event, frozen=True, kw_only=True, tag="location_ability_used"):
    seat: str
    location: str


class EventAbilityUsed(_Event, frozen=True, kw_only=True, tag="event_ability_used"):
    seat: str
    event: str
    vanishes: bool


class AlibiPlaced(_Event, frozen=True, kw_only=True, tag="alibi_placed"):
    suspect: str
    amount: int = 1


class Pushed(_Event, frozen=True, kw_only=True, tag="step_pushed"):
    """A sub-step awaiting an intent went on top of ``pending``."""

    step: Step


class Popped(_Event, frozen=True, kw_only=True, tag="step_popped"):
    step: str


class WindowClosed(_Event, frozen=True, kw_only=True, tag="free_draw_window_closed"):
    pass


class TurnEnded(_Event, frozen=True, kw_only=True, tag="turn_ended"):
    """``auto``: ended by itself at 0 TIME (option ``auto_end_turn``), not by ``end_turn``."""

    seat: str
    auto: bool = False


class TurnStarted(_Event, frozen=True, kw_only=True, tag="turn_started"):
    seat: str
    time: int


class DayPhaseEnded(_Event, frozen=True, kw_only=True, tag="day_phase_ended"):
    queue: tuple[str, ...]


class FirstPlayerChanged(_Event, frozen=True, kw_only=True, tag="first_player_changed"):
    seat: str


class GeneralEventResolved(_Event, frozen=True, kw_only=True, tag="general_event_resolved"):
    card: str | None
    grants: bool = False


class SpecificEventRevealed(_Event, frozen=True, kw_only=True, tag="specific_event_revealed"):
    card: str


class PlotsResolved(_Event, frozen=True, kw_only=True, tag="plots_resolved"):
    pass


class DeltaApplied(_Event, frozen=True, kw_only=True, tag="delta_applied"):
    seat: str
    delta: Delta


class SuspectKilled(_Event, frozen=True, kw_only=True, tag="suspect_killed"):
    suspect: str


class ActionNoted(_Event, frozen=True, kw_only=True, tag="action_noted"):
    """The active seat's last action (None: nothing left to cancel)."""

    action: LastAction | None = None


class CardReturned(_Event, frozen=True, kw_only=True, tag="card_returned"):
    """A cancelled draw: the card goes back face down into its deck."""

    __private__ = ("card",)
    __owner__ = "seat"
    seat: str
    card: str


class SceneHeroRestored(_Event, frozen=True, kw_only=True, tag="scene_hero_restored"):
    """A cancelled jump: ``seat``'s hero marker comes back; ``hero``'s (if any) lies on the scene again."""

    seat: str
    hero: str | None = None


class AuditFlagged(_Event, frozen=True, kw_only=True, tag="audit_flagged"):
    kind: str
    note: str = ""


class GameEnded(_Event, frozen=True, kw_only=True, tag="game_ended"):
    case: Case


class ScoreDeclared(_Event, frozen=True, kw_only=True, tag="score_declared"):
    seat: str
    source: str
    vp: int


class CaseClosed(_Event, frozen=True, kw_only=True, tag="case_closed"):
    scores: dict[str, int]
    winners: tuple[str, ...]


Event = (
    MurderChosen | DetectiveAssigned | ComponentsPlaced | HunchesDealt | UndealtHunchesBoxed | StartingPlotSelected
    | StartingCardsDrawn | SpecificEventSetAside | FirstPlayerChosen | HeroSetupApplied | ExtraCardsDrawn
    | MemoryCardsDealt | SetupCompleted | DayStarted | TimeSpent | DetectiveMoved | DropshipPassSpent
    | TwilightCardDrawn | DeckReshuffled | TwilightCardDiscarded | LeadFollowed | LeadRemoved | LeadMoved
    | EvidenceDrawn | EvidencePlaced | EvidenceShown | LeadUseSkipped | PuzzlePieceDrawn | HeroMarkersMoved
    | BenefitTaken | PuzzlePiecePlaced | PuzzlePieceDiscarded | TwilightShifted | FavorGained | BaggagePlaced
    | TwilightCardPlayed | SceneMarkerTaken | LocationAbilityUsed | EventAbilityUsed | AlibiPlaced | Pushed | Popped
    | WindowClosed | TurnEnded | TurnStarted | DayPhaseEnded | FirstPlayerChanged | GeneralEventResolved
    | SpecificEventRevealed | PlotsResolved | DeltaApplied | SuspectKilled | AuditFlagged | GameEnded | ScoreDeclared
    | CaseClosed | ActionNoted | CardReturned | SceneHeroRestored
)
