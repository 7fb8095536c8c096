"""By All Means: intents (what a player asks), events (facts the referee records) and the state.

Identifiers are the rules spec's (``shared/rules/by-all-means.md``): intent verbs and parameter names
(section 4), zones, counters and state paths (section 1.4). The notation is generated from these
Structs: a field's encoded name is the parameter as typed (``from_`` is written ``from``); each
intent's docstring is its help line in ``referee games by_all_means``.

Secrecy: an intent or event class may name fields that only their owner may see (``__private__``;
the owner is the actor for an intent, the seat in ``__owner__`` for an event) and fields nobody but
the referee may see (``__secret__``). The game's ``redact`` applies them (and decides the cases that
depend on the card, e.g. a face-down graffiti agent).
"""

from __future__ import annotations

from typing import Literal

import msgspec

from referee.engine.decision import EventBase, IntentBase, named

Slot = Literal["hand", "buf1", "buf2", "buf3", "buf4"]


_f = named  # a field written otherwise than its Python name (``from``)


class _Intent(IntentBase, frozen=True):
    """Base of the intents (the engine's: tagged by ``type``, frozen, keyword-only)."""


# -- setup (R-SETUP) ----------------------------------------------------------------------------------


class ShuffleArchive(_Intent, frozen=True, kw_only=True, tag="shuffle_archive"):
    """Shuffle a player's archive (the opponent's right, before that owner's opening draw)."""

    owner: str
    archive: Literal["main", "extra"]


class ReformArchives(_Intent, frozen=True, kw_only=True, tag="reform_archives"):
    """Deal a player's deck into the two archives again (before that owner's opening draw)."""

    owner: str


class DrawOpeningHand(_Intent, frozen=True, kw_only=True, tag="draw_opening_hand"):
    """Draw the opening hand from the main archive [chance: the cards drawn]."""

    __private__ = ("cards",)
    cards: tuple[str, ...] = ()


class RecordLot(_Intent, frozen=True, kw_only=True, tag="record_lot"):
    """Record who won the lot for choosing the turn order [chance]."""

    winner: str | None = None


class ChooseOrder(_Intent, frozen=True, kw_only=True, tag="choose_order"):
    """The lot winner names the first player."""

    first: str


class Mulligan(_Intent, frozen=True, kw_only=True, tag="mulligan"):
    """Return 0-4 hand cards to the extra archive and draw as many from the main archive [chance: drawn]."""

    __private__ = ("return_", "drawn")
    return_: tuple[str, ...] = _f("return", ())
    drawn: tuple[str, ...] = ()


# -- turn flow ----------------------------------------------------------------------------------------


class DrawStartCards(_Intent, frozen=True, kw_only=True, tag="draw_start_cards"):
    """Empty hand at the start of the turn: draw two from the main archive (not an action) [chance]."""

    __private__ = ("cards",)
    cards: tuple[str, ...] = ()


class EndTurn(_Intent, frozen=True, kw_only=True, tag="end_turn"):
    """End your turn (unused actions are lost); the opponent may react, then closes the turn."""


class CloseTurn(_Intent, frozen=True, kw_only=True, tag="close_turn"):
    """(Non-active player) close the opponent's turn: overpopulation, empty archive, culling, status check."""


# -- main actions -------------------------------------------------------------------------------------


class DrawMain(_Intent, frozen=True, kw_only=True, tag="draw_main"):
    """Main action: draw a card from your main archive [chance: the card]."""

    __private__ = ("card",)
    card: str | None = None


class PlayDigits(_Intent, frozen=True, kw_only=True, tag="play_digits"):
    """Main action: a digit combination (sum 5, 7, 9, 11 or 13) from hand and own buffer cards."""

    hand: tuple[str, ...] = ()
    buffer: tuple[str, ...] = ()
    option: Literal["steal", "move_symbol"] | None = None
    move_from: str | None = None
    symbol: str | None = None
    move_to: str | None = None
    to_buffer: tuple[str, ...] = ()
    lilac_as: tuple[str, ...] = ()


class PlaySymbols(_Intent, frozen=True, kw_only=True, tag="play_symbols"):
    """Main action: a symbol combination of two sources (hand:CARD:SYM, buf1:SYM, CELL[/agent|/graffiti]:SYM)."""

    use: tuple[str, ...]
    archive: str | None = None
    cards: tuple[str, ...] = ()
    card: str | None = None
    target: str | None = None
    option: Literal["restore", "remove", "gain", "drain"] | None = None
    opp: str | None = None
    own: str | None = None
    to_buffer: tuple[str, ...] = ()
    lilac_as: tuple[str, ...] = ()


class PlayNeutral(_Intent, frozen=True, kw_only=True, tag="play_neutral"):
    """Main action: the neutral combination (a lilac card from hand with another symbol); no effect."""

    lilac: str
    with_: str = _f("with")
    to_buffer: tuple[str, ...] = ()
    lilac_as: tuple[str, ...] = ()


class DeployAgent(_Intent, frozen=True, kw_only=True, tag="deploy_agent"):
    """Main action: put an agent (or graffiti agent, face up) on the field; a second copy becomes its shadow."""

    card: str
    from_: Slot = _f("from", "hand")
    cell: str | None = None
    replace: str | None = None
    via: Literal["price", "condition"] = "price"
    changes: tuple[str, ...] = ()
    note: str = ""
    lilac_as: tuple[str, ...] = ()


class DeployTerritory(_Intent, frozen=True, kw_only=True, tag="deploy_territory"):
    """Main action: put a territory on the field (central first, then next to a territory)."""

    card: str
    from_: Slot = _f("from", "hand")
    cell: str
    move_agent: str | None = None
    lilac_as: tuple[str, ...] = ()


class DeployGraffiti(_Intent, frozen=True, kw_only=True, tag="deploy_graffiti"):
    """Main action: a graffiti (face up) or a graffiti agent (face down) on a territory."""

    card: str
    from_: Slot = _f("from", "hand")
    cell: str
    lilac_as: tuple[str, ...] = ()


class PlayPlot(_Intent, frozen=True, kw_only=True, tag="play_plot"):
    """Main action: play a plot for its price; its text is declared as changes (checked, flagged for audit)."""

    card: str
    from_: Slot = _f("from", "hand")
    changes: tuple[str, ...] = ()
    note: str = ""
    attach: str | None = None


# -- agent actions ------------------------------------------------------------------------------------


class AgentDraw(_Intent, frozen=True, kw_only=True, tag="agent_draw"):
    """Agent action: the agent turns and you draw from your extra archive [chance: the card]."""

    __private__ = ("card",)
    agent: str
    card: str | None = None


class AgentAttackPlayer(_Intent, frozen=True, kw_only=True, tag="agent_attack_player"):
    """Agent action: the agent turns; the opponent loses its efficiency in reputation (you too if reckless)."""

    agent: str


class AgentAttackAgent(_Intent, frozen=True, kw_only=True, tag="agent_attack_agent"):
    """Agent action: attack a revealed opponent agent (efficiency >= resilience sends it to utility)."""

    agent: str
    target: str


class ActivateAbility(_Intent, frozen=True, kw_only=True, tag="activate_ability"):
    """Use an activated ability of a field object you control; its result is declared as changes."""

    object: str
    ability: str
    changes: tuple[str, ...] = ()
    note: str = ""


# -- free intents -------------------------------------------------------------------------------------


class Utilize(_Intent, frozen=True, kw_only=True, tag="utilize"):
    """Not an action: recycle a card with Utilization from hand and draw one [chance: drawn]."""

    __private__ = ("drawn",)
    card: str
    drawn: str | None = None


class DiscardForEffect(_Intent, frozen=True, kw_only=True, tag="discard_for_effect"):
    """Not an action: discard a 'Discard this card' card for its effect (declared as changes)."""

    card: str
    from_: str = _f("from", "hand")
    changes: tuple[str, ...] = ()
    note: str = ""


class DeclareEffect(_Intent, frozen=True, kw_only=True, tag="declare_effect"):
    """Not an action: declare a card text's effect as changes (checked for consistency, flagged for audit)."""

    source: str
    timing: Literal["turn_start", "turn_end", "on_enter", "on_leave", "trigger", "static", "other"] = "other"
    changes: tuple[str, ...] = ()
    note: str = ""


class Choose(_Intent, frozen=True, kw_only=True, tag="choose"):
    """Answer the pending decision (option=..., target=CELL or cards=C1,C2)."""

    option: str | None = None
    target: str | None = None
    cards: tuple[str, ...] = ()


Intent = (
    ShuffleArchive | ReformArchives | DrawOpeningHand | RecordLot | ChooseOrder | Mulligan | DrawStartCards
    | EndTurn | CloseTurn | DrawMain | PlayDigits | PlaySymbols | PlayNeutral | DeployAgent | DeployTerritory
    | DeployGraffiti | PlayPlot | AgentDraw | AgentAttackPlayer | AgentAttackAgent | ActivateAbility
    | Utilize | DiscardForEffect | DeclareEffect | Choose
)

#: intents of the setup phases
SETUP_INTENTS = (ShuffleArchive, ReformArchives, DrawOpeningHand, RecordLot, ChooseOrder, Mulligan)
OPENING_INTENTS = (ShuffleArchive, ReformArchives, DrawOpeningHand, RecordLot)


# -- state --------------------------------------------------------------------------------------------
#
# Every state struct declares its fields in alphabetical order: the canonical encoding of a state then
# needs no sorting and a state hash costs half as much (referee.engine.core.state_bytes; tests/test_properties.py
# holds every game to it). Views put the fields in reading order (view.py).


class Territory(msgspec.Struct, frozen=True, kw_only=True):
    active_symbols: tuple[str, ...] = ()
    card: str
    controller: str
    #: referee bookkeeping (not in views): the loyalty changes this territory's arrows made at entry
    impacts: tuple[tuple[int, int], ...] = ()
    #: referee bookkeeping (not in views): printed influence applied at entry, and influence actually
    #: taken from the opponent (red)
    inf: int = 0
    inf_taken: int = 0
    loyalty: int
    oid: int = 0
    owner: str


class Agent(msgspec.Struct, frozen=True, kw_only=True):
    active_symbols: tuple[str, ...] = ()
    card: str
    controller: str
    entered_turn: int = 0
    inf: int = 0
    inf_taken: int = 0
    oid: int = 0
    owner: str
    shadow: str | None = None
    shadow_owner: str | None = None
    turned: bool = False


class Graffiti(msgspec.Struct, frozen=True, kw_only=True):
    active_symbols: tuple[str, ...] = ()
    card: str
    controller: str
    face: Literal["up", "down"] = "up"
    inf: int = 0
    inf_taken: int = 0
    oid: int = 0
    owner: str


class AttachedPlot(msgspec.Struct, frozen=True, kw_only=True):
    card: str
    oid: int = 0
    owner: str


class Cell(msgspec.Struct, frozen=True, kw_only=True):
    agent: Agent | None = None
    attached: tuple[AttachedPlot, ...] = ()
    graffiti: Graffiti | None = None
    territory: Territory | None = None


class Planned(msgspec.Struct, frozen=True, kw_only=True):
    """A card in a buffer slot (a "planned object")."""

    active_symbols: tuple[str, ...] = ()
    card: str
    oid: int = 0
    owner: str


class Archive(msgspec.Struct, frozen=True, kw_only=True):
    #: exact order, top first (archive tracking ``exact`` only)
    cards: tuple[str, ...] = ()
    count: int = 0


class Lost(msgspec.Struct, frozen=True, kw_only=True):
    extra: int = 0
    main: int = 0


class Player(msgspec.Struct, frozen=True, kw_only=True):
    actions_lost_next_turn: Lost = Lost()
    buffer: dict[str, Planned | None] = {}
    extra_archive: Archive = Archive()
    hand: tuple[str, ...] = ()
    influence: int = 0
    main_archive: Archive = Archive()
    mulligan_done: bool = False
    opening_drawn: bool = False
    reputation: int = 6
    trust: int = 10
    unseen: tuple[str, ...] = ()
    utility: tuple[str, ...] = ()


class ComboKey(msgspec.Struct, frozen=True, kw_only=True):
    effect: str
    objects: tuple[str, ...]


class AgentAction(msgspec.Struct, frozen=True, kw_only=True):
    kind: str
    oid: int


class Turn(msgspec.Struct, frozen=True, kw_only=True):
    active: str | None = None
    agent_actions: tuple[AgentAction, ...] = ()
    combos: tuple[ComboKey, ...] = ()
    draw_only_slot: bool = False
    extra_left: int = 0
    main_left: int = 0
    number: int = 0
    #: the non-active player has acted in this step (orders the turn_start / turn_end windows)
    opponent_acted: bool = False
    reactions_used: int = 0
    step: Literal["start", "actions", "end", "reactions"] = "start"


class NeutralCard(msgspec.Struct, frozen=True, kw_only=True):
    card: str
    oid: int
    #: where it came from: "hand" (a combination's hand card), "buffer" (a digit combination's
    #: buffer card) or "plot" (a plot played for its price)
    origin: str
    owner: str


class Neutral(msgspec.Struct, frozen=True, kw_only=True):
    cards: tuple[NeutralCard, ...] = ()
    symbols: tuple[str, ...] = ()


class Pending(msgspec.Struct, frozen=True, kw_only=True):
    """A decision awaited from ``decider``; ``resume`` says what finishes after the answer."""

    actor: str
    #: agent_limit: the cells of the agents that may be given up
    cells: tuple[str, ...] = ()
    #: close_turn: the cards culled at C3 (for the on-leave window of option on_leave_before_status_check)
    culled: tuple[str, ...] = ()
    decider: str
    #: the effect that opened the decision (unreliable_pr, slander, blackmail, sabotage)
    effect: str = ""
    kind: str
    #: the suspended combination's cleanup (with ``spent`` and ``to_buffer``): the lilac choices
    lilac_as: tuple[str, ...] = ()
    resume: Literal["cleanup", "close_turn", "none"] = "cleanup"
    #: on_leave_window: the seats still to declare
    seats: tuple[str, ...] = ()
    #: the symbol spent from each hand card of the suspended combination (card oid -> symbol)
    spent: tuple[tuple[int, str], ...] = ()
    #: who owns the cards a sabotage discards
    target: str = ""
    #: the hand cards (object ids) the suspended combination puts in the buffer
    to_buffer: tuple[int, ...] = ()


class OutcomeState(msgspec.Struct, frozen=True, kw_only=True):
    reason: str
    winners: tuple[str, ...]


class State(msgspec.Struct, frozen=True, kw_only=True):
    field: dict[str, Cell] = {}
    #: a territory has been on the field (option recenter_when_empty=false)
    field_used: bool = False
    first_player: str | None = None
    lot_winner: str | None = None
    manual_effects: int = 0
    neutral_zone: Neutral = Neutral()
    next_oid: int = 1
    outcome: OutcomeState | None = None
    pending: Pending | None = None
    phase: Literal["opening", "order", "mulligan", "play", "over"] = "opening"
    players: dict[str, Player] = {}
    #: a digital match's history of shuffles, which its chance outcomes are derived from (``chance.py``):
    #: ``<seat>.main_archive`` / ``<seat>.extra_archive`` how often that archive was shuffled (exact
    #: tracking), ``<seat>.pool`` how often cards went back into the seat's unseen pool (pool tracking: the
    #: pool counts as shuffled again). Left out of the encoding until the first one (``UNSET``), so a
    #: match without any keeps the state bytes and hashes it always had.
    shuffles: dict[str, int] | msgspec.UnsetType = msgspec.UNSET
    turn: Turn = Turn()


# -- events -------------------------------------------------------------------------------------------


class _Event(EventBase, frozen=True):
    """Base of the events (the engine's: tagged by ``type``, frozen, keyword-only)."""


class PhaseChanged(_Event, frozen=True, kw_only=True, tag="phase_changed"):
    phase: str


class ArchiveShuffled(_Event, frozen=True, kw_only=True, tag="archive_shuffled"):
    __secret__ = ("order",)
    owner: str
    archive: str
    order: tuple[str, ...] = ()


class ArchivesReformed(_Event, frozen=True, kw_only=True, tag="archives_reformed"):
    __secret__ = ("main", "extra")
    owner: str
    main: tuple[str, ...] = ()
    extra: tuple[str, ...] = ()


class LotRecorded(_Event, frozen=True, kw_only=True, tag="lot_recorded"):
    winner: str


class OrderChosen(_Event, frozen=True, kw_only=True, tag="order_chosen"):
    first: str


class SetupDone(_Event, frozen=True, kw_only=True, tag="setup_done"):
    """``what`` is ``opening_drawn`` or ``mulligan_done``."""

    seat: str
    what: str


class ArchiveOrdered(_Event, frozen=True, kw_only=True, tag="archive_ordered"):
    """Exact tracking: an archive's new order (after a shuffle), top first."""

    __secret__ = ("cards",)
    owner: str
    archive: str
    cards: tuple[str, ...]


class TurnBegan(_Event, frozen=True, kw_only=True, tag="turn_began"):
    number: int
    active: str
    main_left: int
    extra_left: int
    draw_only_slot: bool
    untapped: tuple[str, ...] = ()


class StepChanged(_Event, frozen=True, kw_only=True, tag="step_changed"):
    step: str


class ActionSpent(_Event, frozen=True, kw_only=True, tag="action_spent"):
    """``slot`` is ``main``, ``extra`` or ``draw_only``."""

    slot: str


class ComboPlayed(_Event, frozen=True, kw_only=True, tag="combo_played"):
    """A combination was played (``kind`` digits, symbols or neutral); ``key`` feeds the repeat rule."""

    seat: str
    kind: str
    effect: str
    key: ComboKey | None = None


class AgentActed(_Event, frozen=True, kw_only=True, tag="agent_acted"):
    oid: int
    kind: str


class ReactionUsed(_Event, frozen=True, kw_only=True, tag="reaction_used"):
    seat: str


class OpponentActed(_Event, frozen=True, kw_only=True, tag="opponent_acted"):
    seat: str


class CounterChanged(_Event, frozen=True, kw_only=True, tag="counter_changed"):
    seat: str
    counter: str
    before: int
    after: int
    cause: str = ""


class ActionsLost(_Event, frozen=True, kw_only=True, tag="actions_lost"):
    seat: str
    main: int
    extra: int


class CardMoved(_Event, frozen=True, kw_only=True, tag="card_moved"):
    """One card moves between zones. ``src``/``dst``: ``<seat>.hand``, ``<seat>.utility``,
    ``<seat>.main_archive``, ``<seat>.extra_archive``, ``<seat>.bufN``, ``<cell>/territory``,
    ``<cell>/agent``, ``<cell>/graffiti``, ``<cell>/shadow``, ``<cell>/attached``, ``neutral``.
    The object placed at a field, buffer or neutral destination is built from the other fields."""

    card: str
    owner: str
    src: str
    dst: str
    oid: int = 0
    controller: str | None = None
    tokens: tuple[str, ...] = ()
    loyalty: int = 0
    face: str = "up"
    entered_turn: int = 0
    origin: str = ""
    at: Literal["top", "bottom"] = "top"
    cause: str = ""


class ArchiveCardsMoved(_Event, frozen=True, kw_only=True, tag="archive_cards_moved"):
    """Cards move face down from one archive to another (download); ids known in exact tracking only."""

    __secret__ = ("cards",)
    owner: str
    src: str
    dst: str
    count: int
    cards: tuple[str, ...] = ()
    at: Literal["top", "bottom"] = "top"


class TokensChanged(_Event, frozen=True, kw_only=True, tag="tokens_changed"):
    ref: str
    before: tuple[str, ...]
    after: tuple[str, ...]
    cause: str = ""


class SymbolSpent(_Event, frozen=True, kw_only=True, tag="symbol_spent"):
    """An active token leaves its object for the neutral zone (a symbol combination)."""

    ref: str
    symbol: str


class SymbolsCleared(_Event, frozen=True, kw_only=True, tag="symbols_cleared"):
    symbols: tuple[str, ...]


class AgentTurned(_Event, frozen=True, kw_only=True, tag="agent_turned"):
    cell: str
    turned: bool
    cause: str = ""


class LoyaltyChanged(_Event, frozen=True, kw_only=True, tag="loyalty_changed"):
    cell: str
    before: int
    after: int
    cause: str = ""


class AgentMoved(_Event, frozen=True, kw_only=True, tag="agent_moved"):
    src: str
    dst: str


class InfluenceBooked(_Event, frozen=True, kw_only=True, tag="influence_booked"):
    """Bookkeeping on a field object: the influence its entry applied (for the reversal on leaving)."""

    ref: str
    inf: int
    inf_taken: int


class ImpactsBooked(_Event, frozen=True, kw_only=True, tag="impacts_booked"):
    """Bookkeeping: the loyalty changes a territory's arrows made at entry (undone on leaving with
    option impact_on_leave=revert)."""

    cell: str
    impacts: tuple[tuple[int, int], ...]


class DecisionOpened(_Event, frozen=True, kw_only=True, tag="decision_opened"):
    pending: Pending


class DecisionClosed(_Event, frozen=True, kw_only=True, tag="decision_closed"):
    kind: str
    decider: str
    answer: str


class ManualApplied(_Event, frozen=True, kw_only=True, tag="manual_applied"):
    """A declared (manual) effect was applied: counted in ``manual_effects`` and flagged for audit."""

    seat: str
    source: str
    note: str = ""
    skipped: tuple[str, ...] = ()


class GameOver(_Event, frozen=True, kw_only=True, tag="game_over"):
    winners: tuple[str, ...]
    reason: str


Event = (
    PhaseChanged | ArchiveShuffled | ArchivesReformed | LotRecorded | OrderChosen | SetupDone | ArchiveOrdered
    | TurnBegan | StepChanged | ActionSpent | ComboPlayed | AgentActed | ReactionUsed | OpponentActed
    | CounterChanged | ActionsLost | CardMoved | ArchiveCardsMoved | TokensChanged | SymbolSpent
    | SymbolsCleared | AgentTurned | LoyaltyChanged | AgentMoved | InfluenceBooked | ImpactsBooked
    | DecisionOpened | DecisionClosed | ManualApplied | GameOver
)
