"""Copycat: intents (what a player or the table asks), events (facts the referee records) and the state.

Identifiers are the rules spec's (``shared/rules/copycat.md``): the thirteen intent verbs and their
parameter names (§4), the state paths (§1.4, §1.5). The notation is generated from these Structs:
``args`` (:class:`EffectArgs`) nests itself through ``then`` (``args.then.drawn=A12,A13``),
``lay_down`` takes ``choices.<card>=coin|vp``, and a list of :data:`ManualOp` is tagged colon-joined
items (``ops=move:c20:street.3:players.cleo.temp_discard,adjust:players.cleo.score:-1``).

Secrecy is declared on the Structs (:mod:`referee.engine.secrecy`): the cards drawn into a hand, the
order card chosen face down and the cards kept with Brainstorming are ``__private__`` (their seat and
the arbiter see them). Cards laid on the street, played, bought, exchanged or trashed are public.

Every Struct declares its fields in alphabetical order (the state hashes need no sorting).
"""

from __future__ import annotations

import msgspec

from referee.engine.decision import EventBase, IntentBase, named

# -- intents (§4) -----------------------------------------------------------------------------------------


class EffectArgs(msgspec.Struct, frozen=True, kw_only=True):
    """The arguments of a card's or an office's effect (§4.0.4); ``then`` those of the copied or
    re-used effect, to any depth."""

    __private__ = ("drawn",)

    cards: tuple[str, ...] = ()
    choice: str | None = None
    count: int | None = None
    declared: tuple[MoveOp | AdjustOp, ...] = ()
    drawn: tuple[str, ...] | None = None
    pay_cards: tuple[str, ...] = ()
    pay_offices: tuple[str, ...] = ()
    refill: tuple[str, ...] | None = None
    target_card: str | None = None
    target_office: str | None = None
    then: EffectArgs | None = None


class MoveOp(msgspec.Struct, frozen=True, kw_only=True, tag="move", tag_field="op"):
    """A declared move of one card between two zones (§4.12)."""

    card: str
    from_: str = named("from")
    to: str


class AdjustOp(msgspec.Struct, frozen=True, kw_only=True, tag="adjust", tag_field="op"):
    """A declared change of one counter (§4.12)."""

    counter: str
    delta: int


ManualOp = MoveOp | AdjustOp


class _Intent(IntentBase, frozen=True):
    """Base of the intents (tagged by ``type``, frozen, keyword-only)."""


class Setup(_Intent, frozen=True, kw_only=True, tag="setup"):
    """Lay out the game (§2): street slots 1-11, doctorates, first office card, bus order [chance: a digital match fills them]."""

    __secret__ = ("doctorates",)

    bus: tuple[str, ...] | None = None
    doctorates: tuple[str, ...] | None = None
    first_office: str | None = None
    street: tuple[str, ...] | None = None


class DrawHand(_Intent, frozen=True, kw_only=True, tag="draw_hand"):
    """Planning A (§4.1): draw 5 cards from your deck (and take back the kept ones) [chance: drawn]."""

    __private__ = ("drawn",)

    drawn: tuple[str, ...] | None = None


class ChooseOrderCard(_Intent, frozen=True, kw_only=True, tag="choose_order_card"):
    """Planning B (§4.2): lay one hand card face down for turn order (none with an empty hand)."""

    __private__ = ("card",)

    card: str | None = None


class PlaceWorker(_Intent, frozen=True, kw_only=True, tag="place_worker"):
    """Actions (§4.3): send one of your workers to an office."""

    office: str


class PlayCard(_Intent, frozen=True, kw_only=True, tag="play_card"):
    """Actions (§4.4): play a purple, blue or gray card from your hand, with its effect's arguments."""

    args: EffectArgs | None = None
    card: str


class UseOffice(_Intent, frozen=True, kw_only=True, tag="use_office"):
    """Actions or buying (§4.5): use the ability of an office where your worker stands."""

    args: EffectArgs | None = None
    office: str


class Pass(_Intent, frozen=True, kw_only=True, tag="pass"):
    """Actions (§4.6): place no more workers this phase (only at the start of a turn)."""


class EndTurn(_Intent, frozen=True, kw_only=True, tag="end_turn"):
    """Actions or buying (§4.7): end your turn (in buying: score it)."""


class LayDown(_Intent, frozen=True, kw_only=True, tag="lay_down"):
    """Buying (§4.8): lay down the hand but the cards kept (Brainstorming); choices.CARD=coin|vp for Charity evenings."""

    __private__ = ("keep",)

    choices: dict[str, str] = {}
    keep: tuple[str, ...] = ()


class ActivateCard(_Intent, frozen=True, kw_only=True, tag="activate_card"):
    """Buying (§4.9): resolve a laid-down card that needs a choice (Charity evening, Press Secretary, Team Bonus)."""

    args: EffectArgs | None = None
    card: str


class Buy(_Intent, frozen=True, kw_only=True, tag="buy"):
    """Buying (§4.10): buy the card in a street slot (``spend`` extra coins on a doctorate)."""

    card: str | None = None
    slot: int
    spend: int | None = None


class Cleanup(_Intent, frozen=True, kw_only=True, tag="cleanup"):
    """Clean-up (§4.11): the next office card and the street refill [chance: both]."""

    office_drawn: str | None = None
    street_refill: tuple[str, ...] | None = None


class ManualEffect(_Intent, frozen=True, kw_only=True, tag="manual_effect"):
    """Record a change the rules cannot derive (§4.12): checked for consistency, flagged for audit."""

    ops: tuple[MoveOp | AdjustOp, ...] = ()
    reason: str | None = None
    source: str | None = None


Intent = (Setup | DrawHand | ChooseOrderCard | PlaceWorker | PlayCard | UseOffice | Pass | EndTurn | LayDown
          | ActivateCard | Buy | Cleanup | ManualEffect)

#: the intents whose deciders draw nothing and check no chance fact (no draw, refill or office card, and a
#: laid-down card's effect is never a draw): a digital match has nothing to fill in them, so filling one
#: runs no decision (``tests/test_copycat_chance.py`` holds a full fill of each to the intent itself)
DRAWS_NOTHING = (ChooseOrderCard, PlaceWorker, Pass, EndTurn, LayDown, Buy, ManualEffect)


# -- events -------------------------------------------------------------------------------------------------


class _Event(EventBase, frozen=True):
    """Base of the events."""


class LaidOut(_Event, frozen=True, kw_only=True, tag="laid_out"):
    """The setup facts (§2): everything else follows from the match's data and player count. A digital
    match shuffles each deck once (§2 steps 2, 3, 6): ``decks`` (each seat's, top first), ``bands``
    (supply bands II-V) and ``departments`` (office departments 1-5) in their drawn order, the
    arbiter's alone; a physical match leaves them empty (unordered piles, sorted by id)."""

    __secret__ = ("doctorates", "decks", "bands", "departments")

    bands: tuple[tuple[str, ...], ...] = ()
    bus: tuple[str, ...]
    decks: dict[str, tuple[str, ...]] = {}
    departments: tuple[tuple[str, ...], ...] = ()
    doctorates: tuple[str, ...]
    first_office: str
    street: tuple[str, ...]


class CardsDrawn(_Event, frozen=True, kw_only=True, tag="cards_drawn"):
    """Cards drawn into ``seat``'s hand: ``from_deck`` first, then (after the discard pile became the
    deck, ``reshuffled``) ``from_discard``; in a digital match ``new_deck`` is the order of the reshuffled
    deck's remaining cards (the arbiter's alone)."""

    __private__ = ("from_deck", "from_discard")
    __secret__ = ("new_deck",)
    __owner__ = "seat"

    from_deck: tuple[str, ...]
    from_discard: tuple[str, ...] = ()
    new_deck: tuple[str, ...] | None = None
    reshuffled: bool = False
    seat: str


class KeptTaken(_Event, frozen=True, kw_only=True, tag="kept_taken"):
    """The cards kept last round join ``seat``'s hand; the hand is drawn."""

    seat: str


class CardsKept(_Event, frozen=True, kw_only=True, tag="cards_kept"):
    """Hand cards kept for the next round (Brainstorming), hidden."""

    __private__ = ("cards",)
    __owner__ = "seat"

    cards: tuple[str, ...]
    seat: str


class OrderCardChosen(_Event, frozen=True, kw_only=True, tag="order_card_chosen"):
    """A hand card laid face down for turn order."""

    __private__ = ("card",)
    __owner__ = "seat"

    card: str | None
    seat: str


class OrderRevealed(_Event, frozen=True, kw_only=True, tag="order_revealed"):
    """The order cards turned up (§3.2 B, C): the new bus; the cards go to the temporary discards."""

    bus: tuple[str, ...]
    cards: dict[str, str | None]
    numbers: dict[str, int]


class CardsMoved(_Event, frozen=True, kw_only=True, tag="cards_moved"):
    """Public cards moved between zones of ``seat`` (``hand``, ``play_area``, ``temp_discard``,
    ``doctorates``, ``kept``) or to ``box`` / from ``street.<n>``."""

    cards: tuple[str, ...]
    from_: str = named("from")
    seat: str
    to: str


# -- counters and flags, each a fact of the game (what was once a state path and a delta: upcast.py reads those)


class CoinsGained(_Event, frozen=True, kw_only=True, tag="coins_gained"):
    """``seat`` gains ``coins`` this turn: doublable by a Garden party, or (a copied or re-used effect's,
    ``duplicate_coins_doublable=false``) plain."""

    coins: int
    doublable: bool = True
    seat: str


class VpGained(_Event, frozen=True, kw_only=True, tag="vp_gained"):
    """``seat`` gains ``vp`` victory points this turn (scored at the end of its buying turn)."""

    seat: str
    vp: int


class PurchasesGained(_Event, frozen=True, kw_only=True, tag="purchases_gained"):
    """``seat`` may buy ``count`` more cards this turn (a purchase permit)."""

    count: int
    seat: str


class PurchaseDue(_Event, frozen=True, kw_only=True, tag="purchase_due"):
    """The special permit's purchase must be the seat's next move (``special_buy_deferred=false``); a
    :class:`Bought` makes it."""


class PurchaseForfeited(_Event, frozen=True, kw_only=True, tag="purchase_forfeited"):
    """``seat`` did something else than the purchase that was due: that purchase is lost."""

    seat: str


class CardUsed(_Event, frozen=True, kw_only=True, tag="card_used"):
    """``seat``'s ``card`` acts for the first time this round (played, activated, laid down with its
    effect, or paid with)."""

    card: str
    seat: str


class CardPending(_Event, frozen=True, kw_only=True, tag="card_pending"):
    """``seat``'s ``card`` is laid down without acting: it waits for a choice, or has no effect there."""

    card: str
    seat: str


class CardUsedAgain(_Event, frozen=True, kw_only=True, tag="card_used_again"):
    """``seat``'s ``card`` is copied or re-used: one more use this round."""

    card: str
    seat: str


class OfficeUsed(_Event, frozen=True, kw_only=True, tag="office_used"):
    """``seat``'s worker on ``office`` has acted ``times`` times this round (2: Team Bonus)."""

    office: str
    seat: str
    times: int


class TurnActed(_Event, frozen=True, kw_only=True, tag="turn_acted"):
    """The actions turn has acted (a card played, an office used): it may no longer pass."""


class PlacementsGained(_Event, frozen=True, kw_only=True, tag="placements_gained"):
    """``count`` more placements this turn."""

    count: int


class ElbowPermitsGained(_Event, frozen=True, kw_only=True, tag="elbow_permits_gained"):
    """``count`` more elbow permits this turn (a worker may join an occupied office)."""

    count: int


class FreePlacementGained(_Event, frozen=True, kw_only=True, tag="free_placement_gained"):
    """One more placement this turn, which spends no worker (``team_bonus_mode=free_placement``)."""


class FreePlacementUsed(_Event, frozen=True, kw_only=True, tag="free_placement_used"):
    """``seat``'s placement is the free one: the worker it sends costs nothing."""

    seat: str


class PermitsKept(_Event, frozen=True, kw_only=True, tag="permits_kept"):
    """``seat`` keeps ``count`` unused elbow permits for its next turn of this phase (``elbow_scope=phase``)."""

    count: int
    seat: str


class PlacementsKept(_Event, frozen=True, kw_only=True, tag="placements_kept"):
    """``seat`` keeps ``count`` unused extra placements for its next turn of this phase
    (``extra_placement_scope=phase``)."""

    count: int
    seat: str


class KeptPermitsTaken(_Event, frozen=True, kw_only=True, tag="kept_permits_taken"):
    """``seat``'s turn begins with the ``count`` elbow permits it kept."""

    count: int
    seat: str


class KeptPlacementsTaken(_Event, frozen=True, kw_only=True, tag="kept_placements_taken"):
    """``seat``'s turn begins with the ``count`` extra placements it kept."""

    count: int
    seat: str


class WorkersRecruited(_Event, frozen=True, kw_only=True, tag="workers_recruited"):
    """``count`` workers come from ``seat``'s spare supply into play for this round."""

    count: int
    seat: str


class Doubled(_Event, frozen=True, kw_only=True, tag="doubled"):
    """``seat``'s ``what`` (``coins`` or ``tokens``) are doubled once more this round; ``capped``: they are
    at the doubling cap, and this doubling does nothing."""

    capped: bool = False
    seat: str
    what: str


class Passed(_Event, frozen=True, kw_only=True, tag="passed"):
    """``seat`` places no more workers this phase."""

    seat: str


class PassLifted(_Event, frozen=True, kw_only=True, tag="pass_lifted"):
    """A placement wakes ``seat``, who had passed (``pass_is_final=false``)."""

    seat: str


class HandLaidDown(_Event, frozen=True, kw_only=True, tag="hand_laid_down"):
    """``seat`` has laid down its hand this buying turn."""

    seat: str


class FinalRound(_Event, frozen=True, kw_only=True, tag="final_round"):
    """The game's last clean-up (``final_round_cleanup``): the round stays ``round``, the last one."""

    round: int


class WorkerPlaced(_Event, frozen=True, kw_only=True, tag="worker_placed"):
    """A worker of ``seat`` sent to ``office``, taking the ``tokens`` lying there."""

    elbow: bool = False
    office: str
    seat: str
    tokens: int = 0


class StreetShifted(_Event, frozen=True, kw_only=True, tag="street_shifted"):
    """The street compacted to the left, ``removed`` first going to the box, then ``refill`` from the
    supply on the right (clean-up, special purchase permit)."""

    refill: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()


class Bought(_Event, frozen=True, kw_only=True, tag="bought"):
    """``seat`` bought the card in ``slot`` for ``price`` (+ ``spend`` on a doctorate), taking the red
    cards to its left (``reds``); a purchase that was due (:class:`PurchaseDue`) is made."""

    card: str
    price: int
    reds: tuple[str, ...] = ()
    seat: str
    slot: int
    spend: int = 0


class TurnStarted(_Event, frozen=True, kw_only=True, tag="turn_started"):
    """``seat``'s turn begins in ``phase`` (``actions`` or ``buying``)."""

    phase: str
    seat: str


class Scored(_Event, frozen=True, kw_only=True, tag="scored"):
    """``seat``'s buying turn is over: ``total`` VP (pending + tokens × value × (1 + doublings))."""

    seat: str
    tokens: int
    total: int


class PhaseChanged(_Event, frozen=True, kw_only=True, tag="phase_changed"):
    """The round moves on to ``phase``."""

    phase: str


class RoundCleaned(_Event, frozen=True, kw_only=True, tag="round_cleaned"):
    """Clean-up (§3.5): tokens on empty offices, cards to the discards, workers home, ``office_drawn``
    into play; (the street is a :class:`StreetShifted` of its own); the next round begins."""

    office_drawn: str | None = None


class EndTriggered(_Event, frozen=True, kw_only=True, tag="end_triggered"):
    """The round triggered the end (§3.6) and the match cleans up once more first
    (``final_round_cleanup``)."""

    triggers: tuple[str, ...]


class GameEnded(_Event, frozen=True, kw_only=True, tag="game_ended"):
    """The round that triggered the end is complete (§3.6, §6)."""

    reason: str
    scores: dict[str, int]
    triggers: tuple[str, ...]
    winners: tuple[str, ...]


class ManualApplied(_Event, frozen=True, kw_only=True, tag="manual_applied"):
    """Declared changes (§4.12), applied as declared and flagged for audit. Their paths are those of the
    declared-effect ``vocabulary`` (``manual.VOCABULARY``) of that version: always written, so a log keeps
    what its paths meant (1, the default, is also what a log from before the versions holds)."""

    ops: tuple[MoveOp | AdjustOp, ...]
    reason: str = ""
    vocabulary: int = 1


Event = (LaidOut | CardsDrawn | KeptTaken | CardsKept | OrderCardChosen | OrderRevealed | CardsMoved | WorkerPlaced
         | StreetShifted | Bought | TurnStarted | Scored | PhaseChanged | RoundCleaned | GameEnded | ManualApplied
         | EndTriggered | CoinsGained | VpGained | PurchasesGained | PurchaseDue | PurchaseForfeited | CardUsed
         | CardPending | CardUsedAgain | OfficeUsed | TurnActed | PlacementsGained | ElbowPermitsGained
         | FreePlacementGained | FreePlacementUsed | PermitsKept | PlacementsKept | KeptPermitsTaken
         | KeptPlacementsTaken | WorkersRecruited | Doubled | Passed | PassLifted | HandLaidDown | FinalRound)


# -- state (§1.4, §1.5) -------------------------------------------------------------------------------------


class Coins(msgspec.Struct, frozen=True, kw_only=True):
    doublable: int = 0
    plain: int = 0
    spent: int = 0


class Player(msgspec.Struct, frozen=True, kw_only=True):
    buys_left: int = 0
    card_uses: dict[str, int] = {}
    coin_doublings: int = 0
    coins: Coins = Coins()
    deck: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()
    doctorates: tuple[str, ...] = ()
    done: bool = False
    drawn_this_round: bool = False
    extra_workers: int = 0
    hand: tuple[str, ...] = ()
    kept: tuple[str, ...] = ()
    #: elbow permits / extra placements carried to the seat's next turn of this phase
    #: (``elbow_scope=phase``, ``extra_placement_scope=phase``)
    kept_permits: int = 0
    kept_placements: int = 0
    laid_down: bool = False
    order_card: str | None = None
    order_chosen: bool = False
    passed: bool = False
    play_area: tuple[str, ...] = ()
    round_vp: int = 0
    score: int = 0
    temp_discard: tuple[str, ...] = ()
    token_doublings: int = 0
    vp_pending: int = 0
    vp_tokens: int = 0
    workers_available: int = 0


class Office(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    uses: dict[str, int] = {}
    vp_tokens: int = 0
    workers: tuple[str, ...] = ()


class Turn(msgspec.Struct, frozen=True, kw_only=True):
    acted: bool = False
    #: the special permit's purchase must come next (``special_buy_deferred=false``)
    buy_now: bool = False
    elbow_permits: int = 0
    #: placements that spend no worker (``team_bonus_mode=free_placement``)
    free_placements: int = 0
    placed: tuple[str, ...] = ()
    placements_left: int = 0


class Band(msgspec.Struct, frozen=True, kw_only=True):
    cards: tuple[str, ...] = ()
    stage: str


class Supply(msgspec.Struct, frozen=True, kw_only=True):
    bands: tuple[Band, ...] = ()


class Department(msgspec.Struct, frozen=True, kw_only=True):
    cards: tuple[str, ...] = ()
    department: int


class OfficeDeck(msgspec.Struct, frozen=True, kw_only=True):
    bands: tuple[Department, ...] = ()


class Result(msgspec.Struct, frozen=True, kw_only=True):
    reason: str
    scores: dict[str, int]
    triggers: tuple[str, ...]
    winners: tuple[str, ...]


STAGES = ("II", "III", "IV", "V")
SLOTS = tuple(str(n) for n in range(1, 12))


class State(msgspec.Struct, frozen=True, kw_only=True):
    box: tuple[str, ...] = ()
    bus: tuple[str, ...] = ()
    current: str | None = None
    doctorate_bought: bool = False
    end_triggers: tuple[str, ...] = ()
    office_deck: OfficeDeck = OfficeDeck()
    offices: dict[str, Office] = {}
    outcome: Result | None = None
    phase: str = "setup"
    players: dict[str, Player] = {}
    round: int = 0
    street: dict[str, str | None] = {}
    supply: Supply = Supply()
    turn: Turn = Turn()
    vp_token_supply: int = 25
    worker_supply: dict[str, int] = {}
