"""The English templates of X-Files's refusal messages, by code, and the phrases they embed: a recorded
message is read in another language through them (:mod:`referee.engine.messages`). Each template is the
message as the rules build it, its values as ``{fields}`` (a field may be empty: a did-you-mean hint left
out); ``N_`` marks it for the catalog. A message no template matches is shown as recorded (in English)."""

from __future__ import annotations

from referee.engine.messages import Messages, N_

from .codes import Code


MESSAGES = Messages({
    Code.ALREADY_ACTIVATED: (
        N_("{card}'s ability was already used this turn"),
    ),
    Code.ALREADY_COORDINATED: (
        N_('the solo coordinate was already used this turn'),
        N_('{seat} already coordinated a card this turn'),
    ),
    Code.AVOID_ALREADY_USED: (
        N_('{source} already avoided a strike this turn'),
    ),
    Code.AVOID_NOT_AVAILABLE: (
        N_('an End Game damage draw cannot be avoided'),
        N_('nothing lets {source} avoid this strike'),
    ),
    Code.AVOID_ONLY_FIRST_STRIKE: (
        N_('only the first strike of {item} can be avoided (this is strike {item2})'),
    ),
    Code.AVOID_TOO_LATE: (
        N_('a Strike card has already been drawn for this strike'),
    ),
    Code.BAD_LOCATION: (
        N_('{location} is not a location this intent can use ({locations})'),
        N_('{location} does not exist now ({zone} has {limit} place(s))'),
        N_('{named} is not undiscovered evidence (undiscovered: {choices})'),
        N_('with evidence_order=priority_ascending the topmost undiscovered evidence is revealed (evidence.{hidden}), not {named}'),
        N_('evidence_order=chosen: name the evidence to reveal (evidence=evidence.P: {choices})'),
    ),
    Code.BAD_PAYMENT: (
        N_('pay adds up to {sum}; the cost is {cost}'),
        N_('pay takes {amount} from {bucket}, which holds {pool}'),
    ),
    Code.BELIEF_ALREADY_ACTIVATED: (
        N_('a Belief card was already activated this turn'),
    ),
    Code.BELIEF_TEXT_ALREADY_RESOLVED: (
        N_("the avatar's Belief text was already resolved this turn"),
        N_('Lessons from the Past was already resolved this turn'),
    ),
    Code.CANCEL_NOT_AVAILABLE: (
        N_('an End Game damage draw cannot be cancelled'),
        N_('{card} cannot cancel itself here (solo, after a Belief, only Fear)'),
        N_('{cancel} cannot cancel a Strike card'),
    ),
    Code.CANNOT_FIGHT_SELF: (
        N_('fighting yourself is for solo play only'),
    ),
    Code.CARD_NOT_IN_HAND: (
        N_("{card} is not in {seat}'s hand"),
    ),
    Code.CARD_NOT_IN_PLAY: (
        N_("{card} is not in {seat}'s play area"),
        N_("{card} is not in {seat}'s play area or Vigilant cards"),
        N_("{card} is not among {seat}'s Vigilant cards or play area"),
    ),
    Code.CLASS_CONDITION_UNMET: (
        N_('no other {class} card was played this turn'),
    ),
    Code.COORDINATE_CARDS_FORBIDDEN: (
        N_('the solo Mulder Doubt forbids Coordinate cards this turn'),
        N_('the solo Mulder Doubt forbids Coordinate cards this turn (mulder_solo_forbids=play_and_coordinate)'),
    ),
    Code.COORDINATE_ON_OWN_TURN: (
        N_("Coordinate is for other players' turns"),
    ),
    Code.COST_REQUIRED: (
        N_("{card}'s fight value has a star: give cost=N from its text"),
    ),
    Code.DISCARD_NOT_IN_HAND: (
        N_("{discard} is not in {seat}'s hand"),
    ),
    Code.DOUBT_ALREADY_RESOLVED: (
        N_('a Doubt was already resolved this turn'),
    ),
    Code.DOUBT_TEXT_SUPPRESSED: (
        N_('Cassandra Spender is face up: the Doubt is defeated without its text'),
    ),
    Code.DRAW_INCONSISTENT: (
        N_('name the {want} card(s) drawn (draw cards=a,b,...)'),
        N_('{seat} draws {want} card(s) (deck {deck}, discard {discard}), not {n}'),
        N_("{cards} cannot come from {seat}'s deck"),
        N_('the known top card(s) {cards} must be drawn first'),
        N_('the whole deck ({n} cards) is drawn first'),
        N_("{cards} cannot come from {seat}'s deck or reshuffled discard"),
    ),
    Code.EFFECT_SOURCE_MISMATCH: (
        N_("the pending effect is {pending}'s, not {source}'s"),
    ),
    Code.EVIDENCE_LOCKED: (
        N_('evidence.{slot} is locked'),
    ),
    Code.EVIDENCE_NOT_DISCOVERED: (
        N_('no evidence has been discovered through {card} yet'),
    ),
    Code.FIGHT_PLAYER_NOT_GRANTED: (
        N_('no effect told {seat} to fight {seat2}'),
    ),
    Code.FRIGHTENING_DISCARD_REQUIRED: (
        N_('{card} is Frightening: name a card to discard (discard=CARD)'),
    ),
    Code.FRIGHTENING_EMPTY_HAND: (
        N_("{card} is Frightening and {seat}'s hand is empty"),
    ),
    Code.IMMUNITY_EXCLUDES_POINTS: (
        N_('needs {cost} {currency} from classes other than {classes}; only {sum} qualify'),
        N_('pay names {bucket}, which the target is immune to'),
    ),
    Code.INVALID_RECIPIENT: (
        N_('{seat} has been defeated'),
    ),
    Code.LEADER_ALREADY_DISCOVERED: (
        N_('evidence was already discovered through {card}'),
    ),
    Code.LESSONS_UNAVAILABLE: (
        N_('{seat} has no Reincarnation climax card'),
    ),
    Code.MANUAL_CHANGE_INVALID: (
        N_("a Leader comes into play from outside the game only as X's fourth Leader (R45): cite source=mr_x, not {source}"),
        N_('X (mr_x) is not face up: it cannot bring a fourth Leader into play'),
        N_('X has already brought its fourth Leader ({card}) into play'),
        N_('solo, Body Swap switches your avatar with one from the box at random (R46): resolve it with no ops, then reveal card=<avatar>'),
        N_('Susanne Modeski is not face up'),
        N_('Susanne Modeski recruits one Lone Gunmen card from outside the game for its cost: {want}'),
        N_('{card} is not a Lone Gunmen card (Susanne Modeski recruits only those)'),
        N_("the Lone Gunmen are this game's Academy characters: none of their cards is outside the game"),
        N_("Susanne Modeski's recruit is {want}"),
        N_("Body Swap switches {seat}'s avatar with the next player's, {partner}'s (R45): resolve it with no ops or ops=switch_avatars:{seat2}:{partner2}"),
        N_('op {tag}: {why}'),
        N_('a manual effect names at least one change (ops=...)'),
        N_('Extinction is face up: {card}, discarded to use it, is defeated instead (defeat:{card2}:...)'),
    ),
    Code.NOTHING_COORDINATED: (
        N_('{seat} coordinated no card this turn'),
    ),
    Code.NOTHING_PENDING: (
        N_('no Doubt is waiting to be resolved'),
        N_('nothing is awaited: no {kinds} is pending'),
    ),
    Code.NOT_A_LEADER: (
        N_('{card} is not a Leader'),
    ),
    Code.NOT_ENOUGH_ATTACK: (
        N_('needs {cost} {currency}, {seat} has {total}'),
    ),
    Code.NOT_ENOUGH_RECRUIT: (
        N_('needs {cost} {currency}, {seat} has {total}'),
    ),
    Code.NOT_FIGHTABLE: (
        N_('{card} is a {type}: only Enemies, Syndicate Agents and End Games are fought'),
        N_('the End Game may be fought {limit} time(s) per turn'),
    ),
    Code.NOT_PLAYABLE: (
        N_("{card} is played only on other players' turns"),
        N_('{card} is a {type}: only characters and Beliefs are played (a Doubt is resolved, never played)'),
        N_('{card} is a {type}: only characters and Beliefs are played'),
    ),
    Code.NOT_RECRUITABLE: (
        N_('{card} is a {type}, not an Academy character (fight it instead)'),
        N_('{card} is a {type}, not an Academy character'),
    ),
    Code.NOT_VIGILANT: (
        N_('{card} is not Vigilant'),
    ),
    Code.NO_ACTIVATE_ABILITY: (
        N_('{card} has no «on Activate» ability'),
    ),
    Code.NO_BELIEF_IN_PLAY: (
        N_('{seat} has no unactivated Belief in play'),
    ),
    Code.NO_COORDINATE_KEYWORD: (
        N_('{card} has no Coordinate keyword'),
    ),
    Code.NO_DOUBT_IN_HAND: (
        N_('{seat} has no Doubt in hand'),
    ),
    Code.NO_HIDDEN_EVIDENCE: (
        N_('no undiscovered evidence is left'),
    ),
    Code.NO_SACRIFICE_ABILITY: (
        N_('{card} has no Sacrifice ability'),
    ),
    Code.PENDING_INPUT: (
        N_('waiting for {front}; {tag} must wait'),
    ),
    Code.PLAYER_DEFEATED: (
        N_("{seat}'s avatar has been defeated; {seat2} no longer plays"),
    ),
    Code.REVEAL_INCONSISTENT: (
        N_('name the card revealed (reveal card=ID)'),
        N_('{card} cannot be the hidden card at {loc} ({why})'),
    ),
    Code.SLOT_EMPTY: (
        N_('{location} is empty'),
        N_('{target} is empty'),
    ),
    Code.SLOT_NOT_HIDDEN: (
        N_('the card at {location} is already face up'),
    ),
    Code.SLOT_NOT_REVEALED: (
        N_('the card at {location} is face down (scan it first)'),
        N_('the card at {target} is face down'),
        N_('the card at {location} is face down'),
    ),
    Code.SOURCE_NOT_AVAILABLE: (
        N_("{source} is not in {seat}'s control or face up"),
        N_('{cancel} is not a card'),
        N_("{cancel} is not in {seat}'s control or face up"),
    ),
    Code.SPECIAL_AGENTS_EXHAUSTED: (
        N_('the Special Agent stack is empty'),
    ),
    Code.STEALTH_IN_SHADOWS: (
        N_('{card} has Stealth: it cannot be fought in the Shadows'),
    ),
    Code.STRIKE_CARD_UNAVAILABLE: (
        N_('name the Strike card drawn (take_strike card=ID)'),
        N_('{card} is not in the Strike deck'),
    ),
    Code.TARGET_PLAYER_DEFEATED: (
        N_('{seat} has been defeated'),
    ),
    Code.VIRTUAL_ALREADY_PLAYED: (
        N_("the copy of {seat}'s {card} was already played"),
    ),
    Code.WRONG_PHASE: (
        N_('declared effects wait until setup is complete'),
        N_('{tag} belongs to the {phases} phase; it is the {turn} phase'),
        N_('resolve_doubt belongs to the action phase; it is the {turn} phase'),
        N_('solo: coordinate in your own action phase'),
        N_('coordinate is not possible during setup'),
        N_("coordinate only in the current player's action phase (coordinate_window)"),
        N_("Susanne Modeski's recruit is the current player's, in their action phase"),
    ),
}, phrases=(
    N_('{kind} for {what} from {seat}'),
    N_('{kind} from {seat}'),
    N_('{kind} for {what} from the current player'),
    N_('{kind} from the current player'),
    N_('Symptoms are tracked only while Infection is face up (R45)'),
    N_('a counter is at least 0'),
    N_('draws at least 1 card'),
    N_('no card may lie right of an End Game card (R36)'),
    N_("peek reads a player's deck (players.<seat>.deck)"),
    N_('unknown op'),
    N_('bucket {bucket}'),
    N_('no card at {location} to put it beneath'),
    N_('no copy of {card} is left outside the game'),
    N_('no face-up card in a slot at {location}'),
    N_('no hidden card at {location}'),
    N_('takes {need} {kind}; the pool holds {pool}'),
    N_('unknown card {card}'),
    N_('{card} cannot come from the Academy deck'),
    N_('{card} is not at {zone}'),
    N_('{card} is not in the Special Agent stack'),
    N_('{card} is not in {zone}'),
    N_('{flag} is already set this turn'),
    N_('{location} is not a slot'),
    N_('{card} is not an End Game card in play (or n < 0)'),
    N_('{location} is not evidence.1-3'),
    N_('{seat} is not a seat'),
    N_('{seat} has {n} wound(s); k={k}'),
    N_('{zone} is not a deck'),
    N_('{seat} has been defeated'),
    N_('{zone} is not a zone a card can be put into'),
    N_('{zone} is not a zone a card can be taken from'),
    N_('{zone} already holds a card'),
))
