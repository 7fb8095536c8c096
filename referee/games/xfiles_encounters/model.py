"""Intents, events and the state of Legendary Encounters: X-Files (spec §1.7, §4, §4.28).

Intents are the spec's verbs with its parameter names. Events are the spec's facts (§4.28): each says
in its fields what happened (seat, card, location, what now waits), and :mod:`.fold` computes the change
(a declared effect alone carries state paths, :mod:`.manual`), so replay never re-runs a procedure. The
state (§1.7) is in :mod:`.state` and the declared change ops (§4.26) in :mod:`.opkinds`; both are
re-exported here, so ``model.State`` and ``model.OpMove`` are where they always were.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from referee.engine.decision import EventBase, IntentBase

from .manual import MANUAL_PATHS as MANUAL_PATHS, MANUAL_VOCABULARY as MANUAL_VOCABULARY  # re-exported
from .opkinds import (  # the declared change ops of §4.26, re-exported
    Bucket as Bucket, OpMove as OpMove, OpGain as OpGain, OpDefeat as OpDefeat, OpDiscard as OpDiscard,
    OpDraw as OpDraw, OpPoints as OpPoints, OpHeal as OpHeal, OpScar as OpScar, OpAddScar as OpAddScar,
    OpStrike as OpStrike, OpReveal as OpReveal, OpHide as OpHide, OpPlace as OpPlace, OpAttach as OpAttach,
    OpBeneath as OpBeneath, OpGainBelief as OpGainBelief, OpGainDoubt as OpGainDoubt,
    OpBeliefText as OpBeliefText, OpDoubtText as OpDoubtText, OpCounter as OpCounter, OpGrant as OpGrant,
    OpSwitchAvatars as OpSwitchAvatars, OpShuffle as OpShuffle, OpPeek as OpPeek, OpLock as OpLock,
    OpEndGameDamage as OpEndGameDamage, OpDefeatPlayer as OpDefeatPlayer, OpLoseGame as OpLoseGame, Op as Op,
)
from .state import (  # the state of §1.7, re-exported
    AcademyDeck as AcademyDeck, Audit as Audit, Slot as Slot, CloneEvidence as CloneEvidence,
    Segment as Segment, ConspiracyDeck as ConspiracyDeck, Draws as Draws, Evidence as Evidence,
    GameOutcome as GameOutcome, Pending as Pending, PlayEntry as PlayEntry, Player as Player,
    SpecialAgents as SpecialAgents, StrikeDeck as StrikeDeck, Played as Played, Turn as Turn, State as State,
    OptionValue as OptionValue,
)


class Pay(msgspec.Struct, frozen=True):
    """One part of a payment: ``bucket:amount``."""

    bucket: Bucket
    amount: int


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


class Triggered(msgspec.Struct, frozen=True, kw_only=True):
    """A text that triggers: SOURCE's TRIGGER (at LOCATION, for SEAT) waits to be resolved (§3.2)."""

    source: str
    trigger: str
    location: str = ""
    seat: str = ""


class Change(msgspec.Struct, frozen=True):
    """A state path (``turn`` or ``players.alice``) and its new value."""

    path: str
    value: Any


#: the event vocabulary decide speaks now. 1: every event carried the state paths it changed, with their
#: new values, in ``changes`` (every log written before issue 28 item 5); 2: a kind with a fold handler
#: is a domain fact (its fields say what happened, :mod:`.fold` computes the change). An event says which
#: it is in ``vocabulary``; one stored without that field is of vocabulary 1.
VOCABULARY = 2


class Fact(EventBase, frozen=True, kw_only=True):
    """An event: public fields say what happened. ``vocabulary`` is the vocabulary it was recorded in
    (:data:`VOCABULARY`); ``changes`` (arbiter only) holds the state paths a vocabulary-1 event or a
    declared effect changed, with their new values; ``step`` and ``fight`` (a fact's) are where the
    turn's procedure goes on after it, when the fact moved it."""

    __secret__ = ("changes",)
    seat: str = ""
    card: str = ""
    where: str = ""
    n: int = 0
    text: str = ""
    changes: tuple[Change, ...] = ()
    vocabulary: int = 1
    #: a fact's last words, where the turn's procedure (§3) goes on after it when the fact moved it: the
    #: step, and the fight a Swift strike interrupted (``target:card``, "" once it is over)
    step: str | None = None
    fight: str | None = None


class CardsDrawn(Fact, frozen=True, kw_only=True, tag="cards_drawn"):
    """SEAT draws CARDS (N of them) into hand, answering the draw pending first: the cards are the
    drawing seat's own to see. They leave the deck (counted drawn from it) unless the deck was just
    ``reshuffled`` (then :class:`DeckReshuffled` made the new deck) or there was no pile to draw from
    (``from_pile`` false: nothing left anywhere, the draw completes empty)."""

    __private__ = ("cards",)
    __owner__ = "seat"
    cards: tuple[str, ...] = ()
    reshuffled: bool = False
    from_pile: bool = True
    #: the «on draw» texts the cards trigger (one group, first), and whether a Doubt drawn in the Action
    #: phase now waits to be resolved before them
    triggers: tuple[Triggered, ...] = ()
    doubt: bool = False


class Moved(Fact, frozen=True, kw_only=True):
    """The card at WHERE (a Shadows slot; a Bureau slot for an Ambush there) moves to ``to``: an empty
    Shadows slot, or the Sector (``sector``; at its entry side, a face-down card waiting there to be
    revealed, last). It moves as it lies, face up or down: CARD names it only when face up. What a
    face-down card is stays in the state, which only the arbiter sees; no event says it."""

    to: str = ""


class EndGameMoved(Moved, frozen=True, kw_only=True, tag="end_game_moved"):
    """The End Game card at WHERE moves one place left (Conspiracy phase), to ``to``."""


class ConspiracyCardPlaced(Fact, frozen=True, kw_only=True, tag="conspiracy_card_placed"):
    """The top card of the Conspiracy deck (its first stack with cards left, TEXT) enters the Shadows at
    WHERE face down, coming to rest at ``to`` (past Stationary cards; the Sector when no slot is left).
    The stack's known cards (set up or put back) are its first: the card is the first of them, if any,
    as the state records; the season is the stack's."""

    to: str = ""


class CardPushed(Moved, frozen=True, kw_only=True, tag="card_pushed"):
    """The card at WHERE is pushed on to ``to`` by a card entering its place (TEXT ``ambush``: an Ambush
    card revealed goes to the Sector at once, to its front)."""


class CardEnteredSector(Moved, frozen=True, kw_only=True, tag="card_entered_sector"):
    """The card at WHERE enters the Sector (``to``)."""


class SeasonChanged(Fact, frozen=True, kw_only=True, tag="season_changed"):
    """The Conspiracy deck reaches the stack TEXT: the season is now that stack's."""


class RunnerMoved(Moved, frozen=True, kw_only=True, tag="runner_moved"):
    """The face-up Runner CARD at WHERE runs one place left, to ``to``."""


class ActionPhaseBegan(Fact, frozen=True, kw_only=True, tag="action_phase_began"):
    """SEAT's Action phase begins; ``doubt``: a Doubt in hand waits to be resolved first."""

    doubt: bool = False


class CardPlayed(Fact, frozen=True, kw_only=True, tag="card_played"):
    """SEAT plays CARD from hand: it goes to the play area and the turn's play log under its class
    (``cls``, "" for a Belief); a character of a class counts toward that class, a Belief toward the
    Beliefs played."""

    cls: str = ""
    belief: bool = False


class VirtualCardPlayed(Fact, frozen=True, kw_only=True, tag="virtual_card_played"):
    """SEAT plays the virtual copy of CARD that ``helper`` coordinated (TEXT names the helper too): into
    the play area as a copy, logged and counted like a card played."""

    helper: str = ""
    cls: str = ""
    belief: bool = False


class PointsGained(Fact, frozen=True, kw_only=True, tag="points_gained"):
    """N points of ``currency`` (attack or recruit) in the ``bucket`` of a class, from CARD."""

    currency: str = ""
    bucket: str = ""


class PointsSpent(Fact, frozen=True, kw_only=True, tag="points_spent"):
    """SEAT spends N points of ``currency``, taken from the buckets as ``paid`` lists them."""

    currency: str = ""
    paid: tuple[Pay, ...] = ()


class AbilityActivated(Fact, frozen=True, kw_only=True, tag="ability_activated"):
    """SEAT uses the «on Activate» ability of a copy of CARD in play not yet used this turn."""


class BeliefActivated(Fact, frozen=True, kw_only=True, tag="belief_activated"):
    """SEAT activates a played Belief for TEXT (``avatar``: the avatar's Belief text; ``lessons``: Lessons
    from the Past, whose Reincarnation climax card is spent): the Belief goes back to its stack."""


class DoubtResolved(Fact, frozen=True, kw_only=True, tag="doubt_resolved"):
    """SEAT resolves the Doubt waiting first: it goes back to its stack (``suppressed``: Cassandra Spender
    is face up, so its text does nothing; ``forbids_coordinate``: solo Mulder's Doubt forbids Coordinate
    cards this turn)."""

    suppressed: bool = False
    forbids_coordinate: bool = False


class SlotScanned(Fact, frozen=True, kw_only=True, tag="slot_scanned"):
    """SEAT paid to scan the hidden card at WHERE (its stack: ``origin``): a reveal of it is pending first."""

    origin: str = ""


class CardRevealed(Fact, frozen=True, kw_only=True, tag="card_revealed"):
    """The reveal pending first is answered: CARD is the hidden card at WHERE (a Shadows or Bureau slot,
    ``sector.N``, ``evidence.P``, ``clone_evidence.I``, ``special_agents``: into SEAT's discard pile,
    ``avatar_box``: SEAT's avatar now, its wounds and scars gone with the old one to the box; or
    ``climax.SEAT``: a climax card dealt). A card not known before is one more shown from ``pool`` (as
    ``state.draws`` counts it), and, from a Conspiracy stack (``segment.LABEL``), counts toward that
    stack's ``category``; a Syndicate Agent first seen in the Bureau counts toward those the Academy deck
    held (``syndicate``). Evidence revealed is discovered (exposed by The End), through the Leader that
    asked for it. What waits then, first: the texts it triggers (``triggers``, one group), an Ally revealed
    in the Shadows to be given (``ally``), the Clone's set-aside evidence to be revealed (``clone``)."""

    pool: str = ""
    category: str = ""
    syndicate: bool = False
    triggers: tuple[Triggered, ...] = ()
    ally: bool = False
    clone: bool = False


class CharacterRecruited(Fact, frozen=True, kw_only=True, tag="character_recruited"):
    """SEAT hires CARD from the Bureau slot WHERE into the discard pile; ``slot_text``: the slot's own text
    then waits to be resolved (last, a group of its own)."""

    slot_text: bool = False


class SpecialAgentRecruited(Fact, frozen=True, kw_only=True, tag="special_agent_recruited"):
    """SEAT paid for the top Special Agent: its reveal is pending first."""


class BureauSlotRefilled(Fact, frozen=True, kw_only=True, tag="bureau_slot_refilled"):
    """The top Academy card goes face down into the Bureau slot WHERE."""


class FightDeclared(Fact, frozen=True, kw_only=True, tag="fight_declared"):
    """SEAT fights CARD at WHERE for a cost of N: an End Game fought counts toward its limit a turn
    (``end_game``), a Frightening card makes SEAT discard ``discard`` from hand, a cost taken from the
    card's text rests on a declaration (``declared``)."""

    end_game: bool = False
    discard: str = ""
    declared: bool = False


class EnemyDefeated(Fact, frozen=True, kw_only=True, tag="enemy_defeated"):
    """The Enemy or Syndicate Agent CARD at WHERE is defeated: onto the defeated Conspiracy pile (what lay
    beneath it too); its «on defeat» texts wait first (``triggers``)."""

    triggers: tuple[Triggered, ...] = ()


class FightFailed(Fact, frozen=True, kw_only=True, tag="fight_failed"):
    """The fight against CARD at WHERE, interrupted by a Swift strike, does not go on: the fighter is out
    (or saved, skipping a turn) or CARD has left play (the fight is over: its ``fight`` is "")."""


class CardDefeated(Fact, frozen=True, kw_only=True, tag="card_defeated"):
    """CARD is defeated, from WHERE when on the board (TEXT: why): onto the defeated Conspiracy pile, or,
    a character or an Ally (``character``), onto the defeated characters; its «on defeat» texts wait
    first (``triggers``)."""

    character: bool = False
    triggers: tuple[Triggered, ...] = ()


class AllyGained(Fact, frozen=True, kw_only=True, tag="ally_gained"):
    """SEAT gains the Ally CARD revealed at WHERE (the pending choice made): into SEAT's discard pile."""


class EventResolved(Fact, frozen=True, kw_only=True, tag="event_resolved"):
    """The Event CARD, its text resolved, has left play from WHERE (its defeat is the event before)."""


class EvidenceDiscovered(Fact, frozen=True, kw_only=True, tag="evidence_discovered"):
    """SEAT declares the Leader CARD's discover condition met: the evidence at WHERE waits to be revealed
    first (TEXT: the note); the entry rests on a declaration."""


class EvidenceCollected(Fact, frozen=True, kw_only=True, tag="evidence_collected"):
    """SEAT declares a collect condition met: the evidence CARD at WHERE is collected (TEXT: the note); the
    entry rests on a declaration."""


class EvidenceExposed(Fact, frozen=True, kw_only=True, tag="evidence_exposed"):
    """The End exposes the evidence: every piece not collected is in the End Game; the N undiscovered
    ones (``reveals``: their slots) wait to be revealed for SEAT, first, then the «at The End» texts of
    face-up Syndicate Agents in the Bureau and of evidence in the End Game (``triggers``, one group)."""

    reveals: tuple[str, ...] = ()
    triggers: tuple[Triggered, ...] = ()


class LeaderDefeated(Fact, frozen=True, kw_only=True, tag="leader_defeated"):
    """The Leader CARD has left play from WHERE (its defeat is the event before)."""


class DoubtGained(Fact, frozen=True, kw_only=True, tag="doubt_gained"):
    """SEAT takes a Doubt from the stack into the discard pile."""


class BeliefGained(Fact, frozen=True, kw_only=True, tag="belief_gained"):
    """SEAT takes a Belief from the stack into the discard pile."""


class CardSacrificed(Fact, frozen=True, kw_only=True, tag="card_sacrificed"):
    """SEAT defeats CARD from ``zone`` (play, vigilant or hand) for its Sacrifice ability: onto the defeated
    characters, or, a virtual copy, back to the seat that coordinated it when the options say so."""

    zone: str = ""


class VigilantUsed(Fact, frozen=True, kw_only=True, tag="vigilant_used"):
    """SEAT uses the Vigilant card CARD; ``discarded``: it is discarded to do so from that zone (vigilant or
    play), into the discard pile unless ``defeated`` (Extinction: the defeat is said next)."""

    discarded: str = ""
    defeated: bool = False


class CardCoordinated(Fact, frozen=True, kw_only=True, tag="card_coordinated"):
    """SEAT sets CARD from hand aside for the current player (``solo``: the solo player discards it to
    coordinate with themselves) and is to draw a replacement."""

    solo: bool = False


class CoordinatedCardReturned(Fact, frozen=True, kw_only=True, tag="coordinated_card_returned"):
    """The card SEAT coordinated this turn, CARD, comes back to SEAT's discard pile (unless SEAT is out)."""


class ActionsEnded(Fact, frozen=True, kw_only=True, tag="actions_ended"):
    """SEAT ends the Action phase: every point left vanishes."""


class StrikePhaseBegan(Fact, frozen=True, kw_only=True, tag="strike_phase_began"):
    """SEAT's Strike phase begins: the cards that strike, in order (``queue``: ``sector:CARD`` or
    ``shadows.N:CARD``), N of them."""

    queue: tuple[str, ...] = ()


class StrikeDue(Fact, frozen=True, kw_only=True, tag="strike_due"):
    """SEAT is to be struck by ``source`` (CARD when it is a card; TEXT: why): a strike (the ``strike_no``-th
    of ``strikes``) waits first, or last (``last``); ``end_game``: a fight against the End Game at
    ``location`` makes SEAT take an End Game strike. ``passed``: the Strike phase took that many entries
    off the front of its queue (this striker, and any no longer in place)."""

    source: str = ""
    strikes: int = 1
    strike_no: int = 1
    last: bool = False
    end_game: bool = False
    location: str = ""
    passed: int = 0


class StrikeDeckReshuffled(Fact, frozen=True, kw_only=True, tag="strike_deck_reshuffled"):
    """The Strike deck has no card left to draw: the Strike discard pile becomes the new Strike deck."""


class StrikeDrawn(Fact, frozen=True, kw_only=True):
    """The strike pending first is answered: SEAT draws the Strike card CARD from the Strike deck (the
    next draw from it is the card under it); ``reshuffled``: the deck, run out by this draw, at once
    became the Strike discard pile reshuffled (``strike_reshuffle_timing`` on_empty)."""

    reshuffled: bool = False


class StrikeTaken(StrikeDrawn, frozen=True, kw_only=True, tag="strike_taken"):
    """An End Game strike is answered: the Strike card drawn goes under the End Game ``source`` (its damage
    is said next)."""

    source: str = ""


class StrikeMissed(StrikeDrawn, frozen=True, kw_only=True, tag="strike_missed"):
    """The Strike card drawn is a miss: onto the Strike discard pile."""


class StrikeCancelled(StrikeDrawn, frozen=True, kw_only=True, tag="strike_cancelled"):
    """The Strike card drawn is cancelled by TEXT: onto the Strike discard pile; the cancel uses up the
    effect's ``grant`` when one allowed it, or rests on a declaration (``declared``)."""

    grant: str = ""
    declared: bool = False


class StrikeAvoided(Fact, frozen=True, kw_only=True, tag="strike_avoided"):
    """SEAT avoids the strike pending first with TEXT (CARD: the striker, when a card): the avoid counts
    against ``key`` this turn, uses up the effect's ``grant`` when one allowed it, or rests on a declaration
    (``declared``); the second strike of a multiple strike then waits first."""

    key: str = ""
    grant: str = ""
    declared: bool = False


class WoundAdded(StrikeDrawn, frozen=True, kw_only=True, tag="wound_added"):
    """The Strike card drawn wounds SEAT for N damage: it goes to SEAT's wounds."""


class StrikeFollowedUp(Fact, frozen=True, kw_only=True, tag="strike_followed_up"):
    """What SEAT's strike by ``source`` (the ``strike_no``-th of ``strikes``, TEXT: why) leaves waiting first,
    once its Strike card CARD is dealt with: a redraw (``ferocious``: the card was a miss), then the texts
    it triggers (``triggers``: the Strike card's own, the striker's «on strike»), then the next strike of
    a multiple strike (``again``); they make a new group."""

    source: str = ""
    strike_no: int = 1
    strikes: int = 1
    ferocious: bool = False
    again: bool = False
    triggers: tuple[Triggered, ...] = ()


class ScarAdded(Fact, frozen=True, kw_only=True, tag="scar_added"):
    """SEAT takes the top Strike card face down under the avatar, unseen, as a scar (the next draw from
    the Strike deck is the card under it)."""


class PlayerDefeated(Fact, frozen=True, kw_only=True, tag="player_defeated"):
    """SEAT is defeated (§3.11). ``saved`` (no_death, before The End): the wounds become scars and the next
    turn is skipped instead. ``out`` (after The End): SEAT leaves the game, every card of theirs defeated
    (``cards`` onto the defeated characters, ``beliefs`` and ``doubts`` back to their stacks, climax cards
    out), their wounds and scars gone (face up onto the Strike discard pile when ``strikes_back``), and what
    waited for them but texts. Otherwise the team is about to lose. ``turn_ends``: it was SEAT's turn, which
    ends at once: what waits for them and every strike go, virtual copies leave play, the Strike phase's
    queue empties (the step goes on to the board checks)."""

    saved: bool = False
    out: bool = False
    cards: tuple[str, ...] = ()
    beliefs: int = 0
    doubts: int = 0
    strikes_back: bool = False
    turn_ends: bool = False


class PlayerFought(Fact, frozen=True, kw_only=True, tag="player_fought"):
    """TEXT (the current player) fights SEAT, as an effect granted: the grant is used up."""


class CardsRequested(Fact, frozen=True, kw_only=True, tag="cards_requested"):
    """SEAT is to draw N cards: a draw is pending last."""


class DeckReshuffled(Fact, frozen=True, kw_only=True, tag="deck_reshuffled"):
    """SEAT's deck runs out during a draw: the discard pile becomes the new deck, from which ``cards``
    are drawn now (the seat's own to see)."""

    __private__ = ("cards",)
    __owner__ = "seat"
    cards: tuple[str, ...] = ()


class TurnCleanedUp(Fact, frozen=True, kw_only=True, tag="turn_cleaned_up"):
    """SEAT's turn is being cleaned up (TEXT: which part): the turn enters ``phase`` (when given); the
    «on cleanup» texts that trigger wait last (``triggers``); when ``discarded``, SEAT's played cards go to
    the discard pile but for those kept as Vigilant (``vigilant``), and the hand is discarded too."""

    phase: str = ""
    triggers: tuple[Triggered, ...] = ()
    discarded: bool = False
    vigilant: tuple[str, ...] = ()
    #: the Strike phase over: entries taken off its queue, their card no longer in place
    passed: int = 0


class TurnEnded(Fact, frozen=True, kw_only=True, tag="turn_ended"):
    """SEAT's turn N ends."""


class TurnBegan(Fact, frozen=True, kw_only=True, tag="turn_began"):
    """Turn N begins for SEAT: the game's ``first`` turn (setup is over), or a fresh turn after the last,
    the seats in ``skipped`` having sat out the turn they had to skip."""

    first: bool = False
    skipped: tuple[str, ...] = ()


class TheEndBegan(Fact, frozen=True, kw_only=True, tag="the_end_began"):
    """The End Game CARD is revealed: The End begins."""


class ClonePlaced(Fact, frozen=True, kw_only=True, tag="clone_placed"):
    """Replication places the Clone (CARD, whose identity is public) face down at ``to``: a Shadows slot
    (the cards in its way pushed on first), the Sector, or the top of the Conspiracy deck
    (``conspiracy_deck``, a stack of its own); the N pieces of evidence in the End Game are set aside for
    it, face down."""

    to: str = ""


class EndGameDamaged(Fact, frozen=True, kw_only=True, tag="end_game_damaged"):
    """The End Game CARD takes N damage."""


class EndGameDefeated(Fact, frozen=True, kw_only=True, tag="end_game_defeated"):
    """The End Game CARD is defeated: from WHERE (when on the board) onto the defeated Conspiracy pile."""


class EffectResolved(Fact, frozen=True, kw_only=True, tag="effect_resolved"):
    """The text of ``source`` (CARD when a card; TEXT: its trigger) waiting in the front group of effects is
    resolved: it stops waiting (what it changes is the declared effect said next, or, Body Swap, the
    avatars switched as a declared effect); ``reveal``: solo Body Swap's avatar from the box now waits to
    be revealed for SEAT, first."""

    source: str = ""
    reveal: bool = False


class ManualEffectApplied(Fact, frozen=True, kw_only=True, tag="manual_effect_applied"):
    """SEAT applies the changes declared for TEXT's effect (§4.25, §4.26: a card's text the referee does
    not have, or declared ops): they stay state paths with their new values (``changes``), written in
    the declared-effect vocabulary ``paths`` (:mod:`.manual`: which parts of the state a declaration may
    change, :data:`MANUAL_PATHS`, and the fields of the records they hold), the one kind that does."""

    paths: int = 1


class GameWon(Fact, frozen=True, kw_only=True, tag="game_won"):
    """The team wins (TEXT: why); nothing is pending any more."""


class GameLost(Fact, frozen=True, kw_only=True, tag="game_lost"):
    """The team loses (TEXT: why); nothing is pending any more."""


class SetupCompleted(Fact, frozen=True, kw_only=True, tag="setup_completed"):
    """Not said by this referee (the first :class:`TurnBegan` says setup is over); kept so that a log
    holding one still decodes. As a fact it changes nothing."""

Event = EndGameMoved | ConspiracyCardPlaced | CardPushed | CardEnteredSector | SeasonChanged | RunnerMoved | ActionPhaseBegan | CardPlayed | VirtualCardPlayed | PointsGained | PointsSpent | AbilityActivated | BeliefActivated | DoubtResolved | SlotScanned | CardRevealed | CharacterRecruited | SpecialAgentRecruited | BureauSlotRefilled | FightDeclared | EnemyDefeated | FightFailed | CardDefeated | AllyGained | EventResolved | EvidenceDiscovered | EvidenceCollected | EvidenceExposed | LeaderDefeated | DoubtGained | BeliefGained | CardSacrificed | VigilantUsed | CardCoordinated | CoordinatedCardReturned | ActionsEnded | StrikePhaseBegan | StrikeDue | StrikeDeckReshuffled | StrikeTaken | StrikeMissed | StrikeCancelled | StrikeAvoided | StrikeFollowedUp | WoundAdded | ScarAdded | PlayerDefeated | PlayerFought | CardsRequested | DeckReshuffled | TurnCleanedUp | TurnEnded | TurnBegan | TheEndBegan | ClonePlaced | EndGameDamaged | EndGameDefeated | EffectResolved | ManualEffectApplied | GameWon | GameLost | SetupCompleted | CardsDrawn
EVENT_TYPES = (EndGameMoved, ConspiracyCardPlaced, CardPushed, CardEnteredSector, SeasonChanged, RunnerMoved, ActionPhaseBegan, CardPlayed, VirtualCardPlayed, PointsGained, PointsSpent, AbilityActivated, BeliefActivated, DoubtResolved, SlotScanned, CardRevealed, CharacterRecruited, SpecialAgentRecruited, BureauSlotRefilled, FightDeclared, EnemyDefeated, FightFailed, CardDefeated, AllyGained, EventResolved, EvidenceDiscovered, EvidenceCollected, EvidenceExposed, LeaderDefeated, DoubtGained, BeliefGained, CardSacrificed, VigilantUsed, CardCoordinated, CoordinatedCardReturned, ActionsEnded, StrikePhaseBegan, StrikeDue, StrikeDeckReshuffled, StrikeTaken, StrikeMissed, StrikeCancelled, StrikeAvoided, StrikeFollowedUp, WoundAdded, ScarAdded, PlayerDefeated, PlayerFought, CardsRequested, DeckReshuffled, TurnCleanedUp, TurnEnded, TurnBegan, TheEndBegan, ClonePlaced, EndGameDamaged, EndGameDefeated, EffectResolved, ManualEffectApplied, GameWon, GameLost, SetupCompleted, CardsDrawn)
