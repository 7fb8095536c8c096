"""Intents, events and the state of Legendary Encounters: X-Files (spec §1.7, §4, §4.28).

Intents are the spec's verbs with its parameter names. Events are the spec's facts (§4.28): each
says in public fields what happened (seat, card, location) and carries the exact state changes it
made (``changes``, dotted paths with their new values), which only the arbiter sees: ``evolve``
applies them, so replay never re-runs a procedure. The state is the spec's state model (§1.7) as
plain mappings and lists, so its paths are the spec's paths.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from referee.engine.decision import EventBase, IntentBase, named

Bucket = Literal["none", "intelligence", "leadership", "science", "tech", "will"]


class Pay(msgspec.Struct, frozen=True):
    """One part of a payment: ``bucket:amount``."""

    bucket: Bucket
    amount: int


# -- declared change ops (§4.26): items of ``ops=``, each starting with its name -----------------------------


class _Op(msgspec.Struct, frozen=True, tag_field="op"):
    pass


class OpMove(_Op, frozen=True, tag="move"):
    card: str
    from_: str = named("from")
    to: str = ""


class OpGain(_Op, frozen=True, tag="gain"):
    player: str
    card: str
    from_: str = named("from", "box")


class OpDefeat(_Op, frozen=True, tag="defeat"):
    card: str
    from_: str = named("from")


class OpDiscard(_Op, frozen=True, tag="discard"):
    player: str
    card: str


class OpDraw(_Op, frozen=True, tag="draw"):
    player: str
    n: int = 1


class OpPoints(_Op, frozen=True, tag="points"):
    kind: Literal["attack", "recruit"]
    amount: int
    bucket: Bucket = "none"


class OpHeal(_Op, frozen=True, tag="heal"):
    player: str
    k: int = 1


class OpScar(_Op, frozen=True, tag="scar"):
    player: str
    k: int = 1


class OpAddScar(_Op, frozen=True, tag="add_scar"):
    player: str


class OpStrike(_Op, frozen=True, tag="strike"):
    player: str


class OpReveal(_Op, frozen=True, tag="reveal"):
    location: str


class OpHide(_Op, frozen=True, tag="hide"):
    location: str


class OpPlace(_Op, frozen=True, tag="place"):
    card: str
    from_: str = named("from")
    location: str = ""


class OpAttach(_Op, frozen=True, tag="attach"):
    card: str
    from_: str = named("from")
    location: str = ""


class OpBeneath(_Op, frozen=True, tag="beneath"):
    card: str
    from_: str = named("from")
    location: str = ""


class OpGainBelief(_Op, frozen=True, tag="gain_belief"):
    player: str


class OpGainDoubt(_Op, frozen=True, tag="gain_doubt"):
    player: str


class OpBeliefText(_Op, frozen=True, tag="belief_text"):
    player: str


class OpDoubtText(_Op, frozen=True, tag="doubt_text"):
    player: str


class OpCounter(_Op, frozen=True, tag="counter"):
    player: str
    name: Literal["symptoms"]
    value: int


class OpGrant(_Op, frozen=True, tag="grant"):
    kind: Literal["avoid", "cancel", "fight_player"]
    player: str


class OpSwitchAvatars(_Op, frozen=True, tag="switch_avatars"):
    player: str
    with_: str = named("with")


class OpShuffle(_Op, frozen=True, tag="shuffle"):
    zone: str


class OpPeek(_Op, frozen=True, tag="peek"):
    zone: str
    card: str


class OpLock(_Op, frozen=True, tag="lock"):
    location: str


class OpEndGameDamage(_Op, frozen=True, tag="end_game_damage"):
    card: str
    n: int


class OpDefeatPlayer(_Op, frozen=True, tag="defeat_player"):
    player: str


class OpLoseGame(_Op, frozen=True, tag="lose_game"):
    reason: str = "declared_loss"


Op = (OpMove | OpGain | OpDefeat | OpDiscard | OpDraw | OpPoints | OpHeal | OpScar | OpAddScar | OpStrike | OpReveal
      | OpHide | OpPlace | OpAttach | OpBeneath | OpGainBelief | OpGainDoubt | OpBeliefText | OpDoubtText | OpCounter
      | OpGrant | OpSwitchAvatars | OpShuffle | OpPeek | OpLock | OpEndGameDamage | OpDefeatPlayer | OpLoseGame)


# -- intents (§4) --------------------------------------------------------------------------------------------


class Conspire(IntentBase, frozen=True, kw_only=True, tag="conspire"):
    """Conspiracy phase: the End Game moves, a Conspiracy card enters the Shadows, Runners run (§4.1)."""


class PlayCard(IntentBase, frozen=True, kw_only=True, tag="play_card"):
    """Play a character or a Belief from your hand (§4.2)."""

    __positional__ = ("card",)
    card: str


class PlayVirtual(IntentBase, frozen=True, kw_only=True, tag="play_virtual"):
    """Play the virtual copy of the card SEAT coordinated to you this turn (§4.3)."""

    seat: str


class Activate(IntentBase, frozen=True, kw_only=True, tag="activate"):
    """Use a played card's «on Activate» ability, once per turn (§4.4)."""

    card: str
    ops: tuple[Op, ...] = ()


class ActivateBelief(IntentBase, frozen=True, kw_only=True, tag="activate_belief"):
    """Activate a played Belief: your avatar's Belief text (or Lessons from the Past) (§4.5)."""

    text: Literal["avatar", "lessons"] = "avatar"
    ops: tuple[Op, ...] = ()


class ResolveDoubt(IntentBase, frozen=True, kw_only=True, tag="resolve_doubt"):
    """Resolve a Doubt from your hand at the start of your Action phase (§4.6)."""

    ops: tuple[Op, ...] = ()


class Scan(IntentBase, frozen=True, kw_only=True, tag="scan"):
    """Pay to reveal a hidden Bureau (Recruit) or Shadows (Attack) card (§4.7)."""

    location: str
    pay: tuple[Pay, ...] = ()


class Recruit(IntentBase, frozen=True, kw_only=True, tag="recruit"):
    """Hire a face-up Academy character from the Bureau (§4.8)."""

    location: str
    pay: tuple[Pay, ...] = ()


class RecruitSpecialAgent(IntentBase, frozen=True, kw_only=True, tag="recruit_special_agent"):
    """Hire the top Special Agent for 3 Recruit (§4.9)."""

    pay: tuple[Pay, ...] = ()


class Fight(IntentBase, frozen=True, kw_only=True, tag="fight"):
    """Fight a face-up Enemy, Syndicate Agent or End Game (§4.10)."""

    target: str
    pay: tuple[Pay, ...] = ()
    discard: str = ""
    cost: int | None = None


class FightPlayer(IntentBase, frozen=True, kw_only=True, tag="fight_player"):
    """Fight a player an effect told you to fight (§4.11)."""

    seat: str
    pay: tuple[Pay, ...] = ()


class DiscoverEvidence(IntentBase, frozen=True, kw_only=True, tag="discover_evidence"):
    """Declare a Leader's discover condition met: reveal the topmost hidden evidence, or evidence=P's (§4.12, B13)."""

    location: str
    note: str = ""
    evidence: str = ""


class CollectEvidence(IntentBase, frozen=True, kw_only=True, tag="collect_evidence"):
    """Declare a Leader's collect condition met: collect its evidence, defeat the Leader (§4.13)."""

    location: str
    note: str = ""


class Sacrifice(IntentBase, frozen=True, kw_only=True, tag="sacrifice"):
    """Defeat one of your played cards for its Sacrifice ability (§4.14)."""

    card: str
    ops: tuple[Op, ...] = ()


class UseVigilant(IntentBase, frozen=True, kw_only=True, tag="use_vigilant"):
    """Use a Vigilant card in play (usually by discarding it) (§4.15)."""

    card: str
    ops: tuple[Op, ...] = ()


class Coordinate(IntentBase, frozen=True, kw_only=True, tag="coordinate"):
    """Set a Coordinate card aside for the current player and draw a replacement (§4.16)."""

    card: str


class GiveAlly(IntentBase, frozen=True, kw_only=True, tag="give_ally"):
    """Give the Ally revealed in the Shadows to a player (§4.17)."""

    seat: str


class EndActions(IntentBase, frozen=True, kw_only=True, tag="end_actions"):
    """End the Action phase: points vanish, the Strike phase begins (§4.18)."""


class TakeStrike(IntentBase, frozen=True, kw_only=True, tag="take_strike"):
    """Draw the Strike card for the pending strike [chance: the card] (§4.19)."""

    card: str | None = None
    cancel: str = ""


class AvoidStrike(IntentBase, frozen=True, kw_only=True, tag="avoid_strike"):
    """Avoid the pending strike with a source that allows it (§4.20)."""

    source: str


class Cleanup(IntentBase, frozen=True, kw_only=True, tag="cleanup"):
    """Cleanup phase: discard, draw six, end-of-turn board checks, next player (§4.21)."""


class Draw(IntentBase, frozen=True, kw_only=True, tag="draw"):
    """The cards drawn for a pending draw [chance: the cards] (§4.22)."""

    __private__ = ("cards",)
    cards: tuple[str, ...] | None = None


class Reveal(IntentBase, frozen=True, kw_only=True, tag="reveal"):
    """The card a pending reveal turned face up [chance: the card] (§4.23)."""

    card: str | None = None


class ResolveEffect(IntentBase, frozen=True, kw_only=True, tag="resolve_effect"):
    """Resolve a pending triggered text with its declared changes (§4.24)."""

    source: str
    ops: tuple[Op, ...] = ()


class ManualEffect(IntentBase, frozen=True, kw_only=True, tag="manual_effect"):
    """Apply card text the referee does not have, as declared changes (§4.25)."""

    source: str
    ops: tuple[Op, ...] = ()


Intent = (Conspire | PlayCard | PlayVirtual | Activate | ActivateBelief | ResolveDoubt | Scan | Recruit
          | RecruitSpecialAgent | Fight | FightPlayer | DiscoverEvidence | CollectEvidence | Sacrifice | UseVigilant
          | Coordinate | GiveAlly | EndActions | TakeStrike | AvoidStrike | Cleanup | Draw | Reveal | ResolveEffect
          | ManualEffect)

#: intents that answer a pending item (§4.0.3 K2)
ANSWERS = (Draw, Reveal, TakeStrike, AvoidStrike, GiveAlly, ResolveEffect, ResolveDoubt)
#: intents any seat may submit (the game checks the rest)
ANYONE = (*ANSWERS, Coordinate, ManualEffect)


# -- events (§4.28) ------------------------------------------------------------------------------------------


class Change(msgspec.Struct, frozen=True):
    """A state path (``turn`` or ``players.alice``) and its new value."""

    path: str
    value: Any


class Fact(EventBase, frozen=True, kw_only=True):
    """An event: public fields say what happened; ``changes`` (arbiter only) is what it changed."""

    __secret__ = ("changes",)
    seat: str = ""
    card: str = ""
    where: str = ""
    n: int = 0
    text: str = ""
    changes: tuple[Change, ...] = ()


class CardsDrawn(Fact, frozen=True, kw_only=True, tag="cards_drawn"):
    """Cards drawn into a hand: the cards are the drawing seat's own to see."""

    __private__ = ("cards",)
    __owner__ = "seat"
    cards: tuple[str, ...] = ()


class EndGameMoved(Fact, frozen=True, kw_only=True, tag="end_game_moved"):
    pass


class ConspiracyCardPlaced(Fact, frozen=True, kw_only=True, tag="conspiracy_card_placed"):
    pass


class CardPushed(Fact, frozen=True, kw_only=True, tag="card_pushed"):
    pass


class CardEnteredSector(Fact, frozen=True, kw_only=True, tag="card_entered_sector"):
    pass


class SeasonChanged(Fact, frozen=True, kw_only=True, tag="season_changed"):
    pass


class RunnerMoved(Fact, frozen=True, kw_only=True, tag="runner_moved"):
    pass


class ActionPhaseBegan(Fact, frozen=True, kw_only=True, tag="action_phase_began"):
    pass


class CardPlayed(Fact, frozen=True, kw_only=True, tag="card_played"):
    pass


class VirtualCardPlayed(Fact, frozen=True, kw_only=True, tag="virtual_card_played"):
    pass


class PointsGained(Fact, frozen=True, kw_only=True, tag="points_gained"):
    pass


class PointsSpent(Fact, frozen=True, kw_only=True, tag="points_spent"):
    pass


class AbilityActivated(Fact, frozen=True, kw_only=True, tag="ability_activated"):
    pass


class BeliefActivated(Fact, frozen=True, kw_only=True, tag="belief_activated"):
    pass


class DoubtResolved(Fact, frozen=True, kw_only=True, tag="doubt_resolved"):
    pass


class SlotScanned(Fact, frozen=True, kw_only=True, tag="slot_scanned"):
    pass


class CardRevealed(Fact, frozen=True, kw_only=True, tag="card_revealed"):
    pass


class CharacterRecruited(Fact, frozen=True, kw_only=True, tag="character_recruited"):
    pass


class SpecialAgentRecruited(Fact, frozen=True, kw_only=True, tag="special_agent_recruited"):
    pass


class BureauSlotRefilled(Fact, frozen=True, kw_only=True, tag="bureau_slot_refilled"):
    pass


class FightDeclared(Fact, frozen=True, kw_only=True, tag="fight_declared"):
    pass


class EnemyDefeated(Fact, frozen=True, kw_only=True, tag="enemy_defeated"):
    pass


class FightFailed(Fact, frozen=True, kw_only=True, tag="fight_failed"):
    pass


class CardDefeated(Fact, frozen=True, kw_only=True, tag="card_defeated"):
    pass


class AllyGained(Fact, frozen=True, kw_only=True, tag="ally_gained"):
    pass


class EventResolved(Fact, frozen=True, kw_only=True, tag="event_resolved"):
    pass


class EvidenceDiscovered(Fact, frozen=True, kw_only=True, tag="evidence_discovered"):
    pass


class EvidenceCollected(Fact, frozen=True, kw_only=True, tag="evidence_collected"):
    pass


class EvidenceExposed(Fact, frozen=True, kw_only=True, tag="evidence_exposed"):
    pass


class LeaderDefeated(Fact, frozen=True, kw_only=True, tag="leader_defeated"):
    pass


class DoubtGained(Fact, frozen=True, kw_only=True, tag="doubt_gained"):
    pass


class BeliefGained(Fact, frozen=True, kw_only=True, tag="belief_gained"):
    pass


class CardSacrificed(Fact, frozen=True, kw_only=True, tag="card_sacrificed"):
    pass


class VigilantUsed(Fact, frozen=True, kw_only=True, tag="vigilant_used"):
    pass


class CardCoordinated(Fact, frozen=True, kw_only=True, tag="card_coordinated"):
    pass


class CoordinatedCardReturned(Fact, frozen=True, kw_only=True, tag="coordinated_card_returned"):
    pass


class ActionsEnded(Fact, frozen=True, kw_only=True, tag="actions_ended"):
    pass


class StrikePhaseBegan(Fact, frozen=True, kw_only=True, tag="strike_phase_began"):
    pass


class StrikeDue(Fact, frozen=True, kw_only=True, tag="strike_due"):
    pass


class StrikeDeckReshuffled(Fact, frozen=True, kw_only=True, tag="strike_deck_reshuffled"):
    pass


class StrikeTaken(Fact, frozen=True, kw_only=True, tag="strike_taken"):
    pass


class StrikeMissed(Fact, frozen=True, kw_only=True, tag="strike_missed"):
    pass


class StrikeCancelled(Fact, frozen=True, kw_only=True, tag="strike_cancelled"):
    pass


class StrikeAvoided(Fact, frozen=True, kw_only=True, tag="strike_avoided"):
    pass


class WoundAdded(Fact, frozen=True, kw_only=True, tag="wound_added"):
    pass


class ScarAdded(Fact, frozen=True, kw_only=True, tag="scar_added"):
    pass


class PlayerDefeated(Fact, frozen=True, kw_only=True, tag="player_defeated"):
    pass


class PlayerFought(Fact, frozen=True, kw_only=True, tag="player_fought"):
    pass


class CardsRequested(Fact, frozen=True, kw_only=True, tag="cards_requested"):
    pass


class DeckReshuffled(Fact, frozen=True, kw_only=True, tag="deck_reshuffled"):
    pass


class TurnCleanedUp(Fact, frozen=True, kw_only=True, tag="turn_cleaned_up"):
    pass


class TurnEnded(Fact, frozen=True, kw_only=True, tag="turn_ended"):
    pass


class TurnBegan(Fact, frozen=True, kw_only=True, tag="turn_began"):
    pass


class TheEndBegan(Fact, frozen=True, kw_only=True, tag="the_end_began"):
    pass


class ClonePlaced(Fact, frozen=True, kw_only=True, tag="clone_placed"):
    pass


class EndGameDamaged(Fact, frozen=True, kw_only=True, tag="end_game_damaged"):
    pass


class EndGameDefeated(Fact, frozen=True, kw_only=True, tag="end_game_defeated"):
    pass


class EffectResolved(Fact, frozen=True, kw_only=True, tag="effect_resolved"):
    pass


class ManualEffectApplied(Fact, frozen=True, kw_only=True, tag="manual_effect_applied"):
    pass


class GameWon(Fact, frozen=True, kw_only=True, tag="game_won"):
    pass


class GameLost(Fact, frozen=True, kw_only=True, tag="game_lost"):
    pass


class SetupCompleted(Fact, frozen=True, kw_only=True, tag="setup_completed"):
    pass

Event = EndGameMoved | ConspiracyCardPlaced | CardPushed | CardEnteredSector | SeasonChanged | RunnerMoved | ActionPhaseBegan | CardPlayed | VirtualCardPlayed | PointsGained | PointsSpent | AbilityActivated | BeliefActivated | DoubtResolved | SlotScanned | CardRevealed | CharacterRecruited | SpecialAgentRecruited | BureauSlotRefilled | FightDeclared | EnemyDefeated | FightFailed | CardDefeated | AllyGained | EventResolved | EvidenceDiscovered | EvidenceCollected | EvidenceExposed | LeaderDefeated | DoubtGained | BeliefGained | CardSacrificed | VigilantUsed | CardCoordinated | CoordinatedCardReturned | ActionsEnded | StrikePhaseBegan | StrikeDue | StrikeDeckReshuffled | StrikeTaken | StrikeMissed | StrikeCancelled | StrikeAvoided | WoundAdded | ScarAdded | PlayerDefeated | PlayerFought | CardsRequested | DeckReshuffled | TurnCleanedUp | TurnEnded | TurnBegan | TheEndBegan | ClonePlaced | EndGameDamaged | EndGameDefeated | EffectResolved | ManualEffectApplied | GameWon | GameLost | SetupCompleted | CardsDrawn
EVENT_TYPES = (EndGameMoved, ConspiracyCardPlaced, CardPushed, CardEnteredSector, SeasonChanged, RunnerMoved, ActionPhaseBegan, CardPlayed, VirtualCardPlayed, PointsGained, PointsSpent, AbilityActivated, BeliefActivated, DoubtResolved, SlotScanned, CardRevealed, CharacterRecruited, SpecialAgentRecruited, BureauSlotRefilled, FightDeclared, EnemyDefeated, FightFailed, CardDefeated, AllyGained, EventResolved, EvidenceDiscovered, EvidenceCollected, EvidenceExposed, LeaderDefeated, DoubtGained, BeliefGained, CardSacrificed, VigilantUsed, CardCoordinated, CoordinatedCardReturned, ActionsEnded, StrikePhaseBegan, StrikeDue, StrikeDeckReshuffled, StrikeTaken, StrikeMissed, StrikeCancelled, StrikeAvoided, WoundAdded, ScarAdded, PlayerDefeated, PlayerFought, CardsRequested, DeckReshuffled, TurnCleanedUp, TurnEnded, TurnBegan, TheEndBegan, ClonePlaced, EndGameDamaged, EndGameDefeated, EffectResolved, ManualEffectApplied, GameWon, GameLost, SetupCompleted, CardsDrawn)


# -- the state (§1.7) ----------------------------------------------------------------------------------------
# Every record declares its fields in sorted order (state hashes need no sorting, see core.state_bytes).

OptionValue = str | int | bool | list[str | int] | dict[str, str | int]


class _Rec(msgspec.Struct, kw_only=True):
    pass


class AcademyDeck(_Rec):
    characters: list[str] = []
    count: int = 0
    syndicate_seen: int = 0


class Audit(_Rec):
    declared: int = 0


class Slot(_Rec):
    attached: list[str] = []
    beneath: list[str] = []
    card: str = ""
    origin: str = ""
    revealed_before: bool = False
    state: str = "empty"
    via_x: bool = False


class CloneEvidence(_Rec):
    card: str = ""
    priority: int = 0


class Segment(_Rec):
    cards: list[str] = []
    label: str = ""
    quota: dict[str, int] = {}
    remaining: int = 0
    seasons: list[int] = []
    seen: dict[str, int] = {}


class ConspiracyDeck(_Rec):
    segments: list[Segment] = []


class Draws(_Rec):
    """A pile's history: cards drawn from it since its last reshuffle, and reshuffles."""
    drawn: int = 0
    shuffles: int = 0


class Evidence(_Rec):
    card: str = ""
    in_end_game: bool = False
    leader: str = ""
    locked: bool = False
    state: str = "undiscovered"


class GameOutcome(_Rec):
    reason: str = ""
    result: str = ""
    winners: list[str] = []


class Pending(_Rec):
    count: int = 0
    group: int = 0
    kind: str = ""
    location: str = ""
    origin: str = ""
    reason: str = ""
    seat: str = ""
    source: str = ""
    strike_no: int = 0
    strikes: int = 0
    trigger: str = ""


class PlayEntry(_Rec):
    activated: bool = False
    card: str = ""
    virtual_of: str = ""


class Player(_Rec):
    avatar: str = ""
    climax: list[str] = []
    coordinated_out: str = ""
    deck: list[str] = []
    defeated: bool = False
    discard: list[str] = []
    hand: list[str] = []
    known_top: list[str] = []
    play: list[PlayEntry] = []
    scars: list[str] = []
    skip_next_turn: bool = False
    symptoms: int = 0
    vigilant: list[str] = []
    wounds: list[str] = []


class SpecialAgents(_Rec):
    cards: list[str] = []


class StrikeDeck(_Rec):
    blind: int = 0
    cards: list[str] = []


class Played(_Rec):
    card: str = ""
    cls: str = msgspec.field(default="", name="class")


class Turn(_Rec):
    attack: dict[str, int] = {}
    avoid_used: list[str] = []
    belief_card_activated: bool = False
    belief_text_resolved: bool = False
    beliefs_played: int = 0
    coordinate_forbidden: bool = False
    coordinated: dict[str, str] = {}
    doubt_resolved: bool = False
    end_game_fights: int = 0
    fight_target: str = ""
    grants: list[str] = []
    groups: int = 0
    lessons_resolved: bool = False
    number: int = 1
    phase: str = "setup"
    play_log: list[Played] = []
    played_classes: dict[str, int] = {}
    recruit: dict[str, int] = {}
    seat: str = ""
    solo_coordinated: bool = False
    step: str = ""
    strike_queue: list[str] = []
    virtual_played: list[str] = []


class State(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """The spec's state model; paths are its paths (``shadows.1``, ``players.alice.hand``).

    Every field is required except those added later, which have defaults and are left out of the
    encoding while they hold them (``omit_defaults``), so a match that never uses them keeps the state
    bytes and hashes it always had."""

    academy_deck: AcademyDeck
    audit: Audit
    belief_stack: int
    bureau: dict[str, Slot]
    #: the climax cards dealt at this game's setup (a series, R48), [] otherwise
    climax_dealt: list[str] = []
    clone_evidence: list[CloneEvidence]
    conspiracy_deck: ConspiracyDeck
    defeated_characters: list[str]
    defeated_conspiracy: list[str]
    doubt_stack: int
    #: each pile's history of draws (``players.<seat>.deck``, ``strike_deck``, a reveal's pool): with the
    #: seed, what a digital match draws from it next (:mod:`.draws`); left out while empty
    draws: dict[str, Draws] = {}
    end_game_damage: dict[str, int]
    end_game_strikes: dict[str, list[str]]
    evidence: dict[str, Evidence]
    options: dict[str, OptionValue]
    outcome: GameOutcome
    pending: list[Pending]
    players: dict[str, Player]
    revealed_before: list[str]
    season: str
    seats: list[str]
    sector: list[str]
    shadows: dict[str, Slot]
    special_agents: SpecialAgents
    status: str
    strike_deck: StrikeDeck
    strike_discard: list[str]
    the_end: bool
    turn: Turn
    #: the Leader X brought into play as a fourth Leader (R45, §5.6), "" until then
    x_leader: str = ""
