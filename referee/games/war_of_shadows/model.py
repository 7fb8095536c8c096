"""War of Shadows: intents (what a player asks), events (facts the referee records) and the state.

Identifiers are the rules spec's (``shared/rules/war-of-shadows.md``): the 22 intent verbs and
their parameter names (§4), the state paths (§1.7), the event names (§3.4). The notation is
generated from these Structs: a field's encoded name is the parameter as typed (``from_`` is written
``from``), records are dotted keys (``variant.mode=fixed``), a mapping is one dotted key per entry
(``assignments.raven=lion``), a word-or-record field is either (``effect=manual`` or
``effect.primitive=relocate_agent``), and each intent's docstring is its help line.

Secrecy is declared on the Structs (:mod:`referee.engine.secrecy`): ``__private__`` fields are seen only
by their ``__owner__`` (the seat in that field, or the actor when it is empty) and the arbiter; the fanatic
empires dealt are ``__private_by_key__`` (each seat sees its own). Discards are private or public by the
match's ``discard_visibility`` (``redact`` in ``rules.py``). A loyalty token in an event is
``loyalty:<seat>:<empire>`` and a dealt fanatic empire ``fanatic:<seat>:<empire>`` (``hidden_ids`` lists
the ones a seat may not see, which the leak tests search every answer for).
"""

from __future__ import annotations

from typing import Literal

import msgspec

from referee.engine.decision import EventBase, IntentBase, named


_f = named  # a field written otherwise than its Python name (``from``)


# -- intents (§4) -------------------------------------------------------------------------------------


class _Intent(IntentBase, frozen=True):
    """Base of the intents (the engine's: tagged by ``type``, frozen, keyword-only)."""


class Modules(msgspec.Struct, frozen=True, kw_only=True):
    region_agents: bool | None = None
    keep_secrets: bool | None = None
    to_each_their_own: bool | None = None
    counter_intelligence: bool | None = None


class ConfigureMatch(_Intent, frozen=True, kw_only=True, tag="configure_match"):
    """Create the match (S1): done by the match header; as an intent it is always already_configured."""

    player_count: int | None = None
    seats: tuple[str, ...] = ()
    modules: Modules | None = None
    options: dict[str, str] = {}
    board: str | None = None
    cards: str | None = None
    mode: Literal["physical", "digital"] | None = None
    seed: int | None = None


class ChooseSociety(_Intent, frozen=True, kw_only=True, tag="choose_society"):
    """Take a society's player board, its 9 agents and 5 loyalty tokens (S2; player: default you)."""

    player: str | None = None
    society: str


class SetFirstPlayer(_Intent, frozen=True, kw_only=True, tag="set_first_player"):
    """Record who holds the first-player token (S7) [chance: digital picks the player]."""

    player: str | None = None
    method: Literal["agreed", "random"] = "agreed"


class DealFanaticEmpire(_Intent, frozen=True, kw_only=True, tag="deal_fanatic_empire"):
    """To each their own (§6.3): one empire dealt to each player, secretly [chance]."""

    __private_by_key__ = ("assignments",)

    assignments: dict[str, str] = {}


class Arrangement(msgspec.Struct, frozen=True, kw_only=True):
    fanaticism: str | None = None
    devotion: str | None = None
    involvement: str | None = None
    indifference: str | None = None
    opposition: str | None = None


class ArrangeLoyalty(_Intent, frozen=True, kw_only=True, tag="arrange_loyalty"):
    """Lay the 5 loyalty tokens face down (S8): arrangement.<slot>=<empire> ×5, or =unrecorded [chance, hidden]."""

    __private__ = ("arrangement",)
    __owner__ = "player"

    player: str | None = None
    arrangement: Literal["unrecorded"] | Arrangement | None = None


class CollectAgent(_Intent, frozen=True, kw_only=True, tag="collect_agent"):
    """Agent phase step 1: take one of your agents back from a council position (or region, §6.1)."""

    player: str | None = None
    from_: str = _f("from")


class PlaceAgent(_Intent, frozen=True, kw_only=True, tag="place_agent"):
    """Agent phase step 2: put an agent on a free council position (or a region, §6.1)."""

    player: str | None = None
    to: str


class Placement(msgspec.Struct, frozen=True):
    region: str
    n: int


class AddBanners(_Intent, frozen=True, kw_only=True, tag="add_banners"):
    """Council action: add `count` (the printed variant) banners to regions the empire controls."""

    player: str | None = None
    position: str
    count: int
    placements: tuple[Placement, ...] = ()


class Attack(_Intent, frozen=True, kw_only=True, tag="attack"):
    """Council action: move `count` banners into an adjacent enemy region; resolve=false opens the combat window."""

    player: str | None = None
    position: str
    from_: str = _f("from")
    to: str
    count: int
    resolve: bool = True


class ResolveCombat(_Intent, frozen=True, kw_only=True, tag="resolve_combat"):
    """Resolve the combat left pending by attack resolve=false."""

    player: str | None = None
    position: str


class Variant(msgspec.Struct, frozen=True, kw_only=True):
    mode: Literal["fixed", "per_symbol"]
    n: int | None = None
    symbol: str | None = None
    divisor: int | None = None


class TakeCards(_Intent, frozen=True, kw_only=True, tag="take_cards"):
    """Council action: draw empire cards (cards=ids drawn; counted mode: cards=N; digital: omit) [chance, hidden]."""

    __private__ = ("cards",)
    __owner__ = "player"

    player: str | None = None
    position: str
    variant: Variant
    cards: tuple[str, ...] = ()


class MoveAgent(_Intent, frozen=True, kw_only=True, tag="move_agent"):
    """Council action: move the active agent to another position of this council and act there."""

    player: str | None = None
    position: str
    destination: str


class PassPosition(_Intent, frozen=True, kw_only=True, tag="pass_position"):
    """Decline the position's action (only with allow_pass, or when no offered action is available)."""

    player: str | None = None
    position: str


class EndPosition(_Intent, frozen=True, kw_only=True, tag="end_position"):
    """Close a finished activation (optional: the next intent closes it implicitly)."""

    player: str | None = None
    position: str


class Effect(msgspec.Struct, frozen=True, kw_only=True):
    primitive: str
    destination: str | None = None
    target: str | None = None
    from_: str | None = _f("from", None)
    to: str | None = None
    count: int | None = None
    region: str | None = None
    empire: str | None = None
    placements: tuple[Placement, ...] = ()


class PlayCard(_Intent, frozen=True, kw_only=True, tag="play_card"):
    """Play an ability of a card from hand, paying its cost (effect=manual or effect.primitive=<id> …)."""

    player: str | None = None
    card: str
    ability: int
    timing: Literal["before", "during", "after"]
    position: str
    extra_cost_cards: tuple[str, ...] = ()
    effect: Literal["manual"] | Effect
    declared_cost: tuple[str, ...] = ()


class BannersDelta(msgspec.Struct, frozen=True, tag_field="type", tag="banners"):
    region: str
    empire: str
    delta: int


class MoveBannersDelta(msgspec.Struct, frozen=True, tag_field="type", tag="move_banners"):
    from_: str = msgspec.field(name="from")  # not _f: mypy must see it has no default
    to: str
    empire: str
    count: int


class DrawDelta(msgspec.Struct, frozen=True, tag_field="type", tag="draw"):
    __private__ = ("card",)
    __owner__ = "player"
    player: str
    card: str


class DiscardDelta(msgspec.Struct, frozen=True, tag_field="type", tag="discard"):
    player: str
    card: str


class TransferCardDelta(msgspec.Struct, frozen=True, tag_field="type", tag="transfer_card"):
    __private__ = ("card",)
    __owner__ = ("from_player", "to_player")
    from_player: str
    to_player: str
    card: str


class MoveAgentDelta(msgspec.Struct, frozen=True, tag_field="type", tag="move_agent"):
    player: str
    from_: str = msgspec.field(name="from")  # not _f: mypy must see it has no default
    to: str


class ScoreDelta(msgspec.Struct, frozen=True, tag_field="type", tag="score"):
    player: str
    delta: int


class NoteDelta(msgspec.Struct, frozen=True, tag_field="type", tag="note"):
    """A declared effect's note: changes nothing, kept for the account."""


Delta = (
    BannersDelta | MoveBannersDelta | DrawDelta | DiscardDelta | TransferCardDelta | MoveAgentDelta | ScoreDelta
    | NoteDelta
)


class ManualEffect(_Intent, frozen=True, kw_only=True, tag="manual_effect"):
    """Declare what a manual card effect did, as deltas (checked for consistency, flagged for audit)."""

    player: str | None = None
    card: str
    description: str = ""
    deltas: tuple[Delta, ...] = ()


class DiscardCards(_Intent, frozen=True, kw_only=True, tag="discard_cards"):
    """Discard phase: discard down to 5 cards (counted mode: empire names)."""

    player: str | None = None
    cards: tuple[str, ...] = ()


class Revealed(msgspec.Struct, frozen=True, kw_only=True):
    fanaticism: str | None = None
    devotion: str | None = None
    involvement: str | None = None
    indifference: str | None = None
    opposition: str | None = None


class SwapLoyalty(_Intent, frozen=True, kw_only=True, tag="swap_loyalty"):
    """Reveal phase: swap two face-down tokens and reveal them (revealed.<slot>=<empire> for both)."""

    player: str | None = None
    slot_a: str
    slot_b: str
    revealed: Revealed | None = None


class SkipSwap(_Intent, frozen=True, kw_only=True, tag="skip_swap"):
    """Reveal phase: do not swap this time."""

    player: str | None = None


class CiNameEmpire(_Intent, frozen=True, kw_only=True, tag="ci_name_empire"):
    """Counter-intelligence (§6.4): name an empire not yet revealed on your left neighbour's board."""

    player: str | None = None
    empire: str


class CiReveal(_Intent, frozen=True, kw_only=True, tag="ci_reveal"):
    """Counter-intelligence, unrecorded loyalty: reveal the slot of the empire you were asked for."""

    player: str | None = None
    empire: str
    slot: str


class FinalReveal(_Intent, frozen=True, kw_only=True, tag="final_reveal"):
    """Final scoring, unrecorded loyalty: turn all your tokens face up (arrangement.<slot>=<empire> ×5)."""

    player: str | None = None
    arrangement: Arrangement | None = None


Intent = (
    ConfigureMatch | ChooseSociety | SetFirstPlayer | DealFanaticEmpire | ArrangeLoyalty | CollectAgent | PlaceAgent
    | AddBanners | Attack | ResolveCombat | TakeCards | MoveAgent | PassPosition | EndPosition | PlayCard
    | ManualEffect | DiscardCards | SwapLoyalty | SkipSwap | CiNameEmpire | CiReveal | FinalReveal
)

SETUP_INTENTS = (ConfigureMatch, ChooseSociety, SetFirstPlayer, DealFanaticEmpire, ArrangeLoyalty)
ACTION_INTENTS = (AddBanners, Attack, TakeCards, MoveAgent)


# -- events (§3.4 and one per intent effect) --------------------------------------------------------------


class _Event(EventBase, frozen=True):
    """Base of the events (the engine's: tagged by ``type``, frozen, keyword-only)."""


class SocietyChosen(_Event, frozen=True, kw_only=True, tag="society_chosen"):
    player: str
    society: str


class FirstPlayerSet(_Event, frozen=True, kw_only=True, tag="first_player_set"):
    player: str
    method: str


class FanaticEmpireDealt(_Event, frozen=True, kw_only=True, tag="fanatic_empire_dealt"):
    __private__ = ("token",)
    __owner__ = "player"
    player: str
    token: str  # fanatic:<seat>:<empire>


class LoyaltyArranged(_Event, frozen=True, kw_only=True, tag="loyalty_arranged"):
    __private__ = ("tokens",)
    __owner__ = "player"
    player: str
    tokens: tuple[str, ...] = ()  # loyalty:<seat>:<empire> in slot order; () = unrecorded


class SetupCompleted(_Event, frozen=True, kw_only=True, tag="setup_completed"):
    """Every setup fact is in: the first round begins."""


class RoundStarted(_Event, frozen=True, kw_only=True, tag="round_started"):
    round: int


class PhaseChanged(_Event, frozen=True, kw_only=True, tag="phase_changed"):
    phase: str


class AgentCollected(_Event, frozen=True, kw_only=True, tag="agent_collected"):
    player: str
    from_: str = _f("from")


class AgentPlaced(_Event, frozen=True, kw_only=True, tag="agent_placed"):
    player: str
    to: str


class PlacementSkipped(_Event, frozen=True, kw_only=True, tag="placement_skipped"):
    player: str
    step: str  # collect | place
    reason: str


class PositionActivated(_Event, frozen=True, kw_only=True, tag="position_activated"):
    position: str
    acting_player: str


class PositionSkipped(_Event, frozen=True, kw_only=True, tag="position_skipped"):
    position: str


class PositionPassed(_Event, frozen=True, kw_only=True, tag="position_passed"):
    position: str
    player: str


class PositionEnded(_Event, frozen=True, kw_only=True, tag="position_ended"):
    position: str


class BannersAdded(_Event, frozen=True, kw_only=True, tag="banners_added"):
    empire: str
    position: str
    placements: tuple[Placement, ...]


class AttackLaunched(_Event, frozen=True, kw_only=True, tag="attack_launched"):
    empire: str
    position: str
    from_: str = _f("from")
    to: str
    count: int
    defender: str | None


class FortTriggered(_Event, frozen=True, kw_only=True, tag="fort_triggered"):
    region: str
    empire: str
    destroyed: int = 1


class CombatPending(_Event, frozen=True, kw_only=True, tag="combat_pending"):
    region: str
    attacker: str
    defender: str | None
    a_in: int
    a_after_fort: int
    d: int
    fort: bool


class CombatResolved(_Event, frozen=True, kw_only=True, tag="combat_resolved"):
    region: str
    attacker: str
    defender: str | None
    fort: bool
    a_in: int
    a_after_fort: int
    attacking: int  # attacking banners when it resolved (after the fort and any reinforcement)
    defending: int  # defending banners when it resolved
    attacker_left: int
    defender_left: int
    losses: int
    result: str  # attacker_won | defender_won | no_winner
    annihilation: bool = False
    pending: bool = False  # it was the activation's pending combat


class CardsDrawn(_Event, frozen=True, kw_only=True, tag="cards_drawn"):
    __private__ = ("cards",)
    __owner__ = "player"
    player: str
    empire: str
    cards: tuple[str, ...]  # ids (tracked) or the empire name once per card (counted)
    position: str = ""


class AgentMoved(_Event, frozen=True, kw_only=True, tag="agent_moved"):
    player: str
    from_: str = _f("from")
    to: str
    swapped_with: str | None = None


class SubActivationOpened(_Event, frozen=True, kw_only=True, tag="sub_activation_opened"):
    position: str
    by: str  # move_agent | relocate_agent | borrow_action


class ActionDone(_Event, frozen=True, kw_only=True, tag="action_done"):
    position: str


class SupplyLimitRemoval(msgspec.Struct, frozen=True):
    region: str
    empire: str
    removed: int


class SupplyLimitEnforced(_Event, frozen=True, kw_only=True, tag="supply_limit_enforced"):
    empire_phase: str
    removals: tuple[SupplyLimitRemoval, ...] = ()


class EmpirePhaseEnded(_Event, frozen=True, kw_only=True, tag="empire_phase_ended"):
    empire: str


class RoundMarkerPlaced(_Event, frozen=True, kw_only=True, tag="round_marker_placed"):
    round: int


class FirstPlayerPassed(_Event, frozen=True, kw_only=True, tag="first_player_passed"):
    from_: str = _f("from")
    to: str


class CardPlayed(_Event, frozen=True, kw_only=True, tag="card_played"):
    player: str
    card: str
    ability: int
    timing: str
    position: str
    paid: tuple[str, ...] = ()
    effect: str = "manual"
    declared_cost: tuple[str, ...] = ()


class DeckShuffled(_Event, frozen=True, kw_only=True, tag="deck_shuffled"):
    empire: str


class CardResolving(_Event, frozen=True, kw_only=True, tag="card_resolving"):
    card: str
    kind: str  # manual | replacement


class CardResolved(_Event, frozen=True, kw_only=True, tag="card_resolved"):
    card: str


class AnnihilationDeclared(_Event, frozen=True, kw_only=True, tag="annihilation_declared"):
    region: str


class BannersMoved(_Event, frozen=True, kw_only=True, tag="banners_moved"):
    from_: str = _f("from")
    to: str
    empire: str
    count: int
    why: str = ""  # reinforcement | move_banners | disband


class BannersReturned(_Event, frozen=True, kw_only=True, tag="banners_returned"):
    region: str
    empire: str
    count: int
    why: str = ""


class ManualEffectApplied(_Event, frozen=True, kw_only=True, tag="manual_effect_applied"):
    player: str
    card: str
    description: str = ""
    deltas: tuple[Delta, ...] = ()


class AuditFlagRaised(_Event, frozen=True, kw_only=True, tag="audit_flag_raised"):
    kind: str
    card: str | None = None
    note: str = ""


class CardsDiscarded(_Event, frozen=True, kw_only=True, tag="cards_discarded"):
    player: str
    cards: tuple[str, ...]
    private: bool = True


class LoyaltySwapped(_Event, frozen=True, kw_only=True, tag="loyalty_swapped"):
    player: str
    slot_a: str
    slot_b: str


class LoyaltyRevealed(_Event, frozen=True, kw_only=True, tag="loyalty_revealed"):
    player: str
    slot: str
    empire: str
    why: str = "swap"  # swap | counter_intelligence | game_end


class SwapSkipped(_Event, frozen=True, kw_only=True, tag="swap_skipped"):
    player: str


class CiNamed(_Event, frozen=True, kw_only=True, tag="ci_named"):
    player: str
    target: str
    empire: str


class CiScored(_Event, frozen=True, kw_only=True, tag="ci_scored"):
    player: str
    target: str
    empire: str
    slot: str
    points: int


class GameEnded(_Event, frozen=True, kw_only=True, tag="game_ended"):
    unrevealed: tuple[tuple[str, int], ...] = ()  # (seat, face-down tokens when the game ended)


class FinalRevealed(_Event, frozen=True, kw_only=True, tag="final_revealed"):
    player: str
    arrangement: tuple[str, ...]  # empires in slot order


class ScoreComputed(_Event, frozen=True, kw_only=True, tag="score_computed"):
    player: str
    base: int
    region_agents: int
    keep_secrets: int
    ci_bonus: int
    bonus: int
    total: int


class WinnerDeclared(_Event, frozen=True, kw_only=True, tag="winner_declared"):
    winners: tuple[str, ...]
    reason: str


Event = (
    SocietyChosen | FirstPlayerSet | FanaticEmpireDealt | LoyaltyArranged | SetupCompleted | RoundStarted
    | PhaseChanged | AgentCollected | AgentPlaced | PlacementSkipped | PositionActivated | PositionSkipped
    | PositionPassed | PositionEnded | BannersAdded | AttackLaunched | FortTriggered | CombatPending
    | CombatResolved | CardsDrawn | AgentMoved | SubActivationOpened | ActionDone | SupplyLimitEnforced
    | EmpirePhaseEnded | RoundMarkerPlaced | FirstPlayerPassed | CardPlayed | DeckShuffled | CardResolving
    | CardResolved | AnnihilationDeclared | BannersMoved | BannersReturned | ManualEffectApplied
    | AuditFlagRaised | CardsDiscarded | LoyaltySwapped | LoyaltyRevealed | SwapSkipped | CiNamed | CiScored
    | GameEnded | FinalRevealed | ScoreComputed | WinnerDeclared
)


# -- state (§1.7) ------------------------------------------------------------------------------------------
#
# Every state struct declares its fields in alphabetical order: the canonical encoding of a state then
# needs no sorting (referee.engine.core.state_bytes; tests/test_properties.py holds every game to it).


class Token(msgspec.Struct, frozen=True, kw_only=True):
    empire: str | None = None  # None: not known to the referee (unrecorded loyalty)
    revealed: bool = False


class Score(msgspec.Struct, frozen=True, kw_only=True):
    base: int
    bonus: int
    ci_bonus: int
    keep_secrets: int
    region_agents: int
    total: int


class Player(msgspec.Struct, frozen=True, kw_only=True):
    agent_reserve: int = 9
    bonus: int = 0
    ci_bonus: int = 0
    fanatic_dealt: str | None = None
    final_revealed: bool = False
    hand: tuple[str, ...] = ()
    loyalty: dict[str, Token] = {}  # slot -> token; empty until arranged
    score: Score | None = None
    society: str | None = None
    swaps_made: int = 0
    unrevealed_at_end: int | None = None


class Combat(msgspec.Struct, frozen=True, kw_only=True):
    a_after_fort: int
    a_in: int
    annihilation: bool = False
    attacker: str
    d: int
    defender: str | None
    fort: bool = False
    region: str


class Cursor(msgspec.Struct, frozen=True, kw_only=True):
    acting_player: str | None = None
    combat: Combat | None = None
    empire: str
    position: str  # bare position name (sheriff...)
    resolving_card: str | None = None
    resolving_kind: str | None = None  # manual | replacement
    stage: str = "pending"  # pending | combat_pending | done
    sub_by: str | None = None  # move_agent | relocate_agent | borrow_action
    sub_position: str | None = None  # full id of an open sub-activation


class AgentPhase(msgspec.Struct, frozen=True, kw_only=True):
    collected: tuple[str, ...] = ()
    collected_from: dict[str, str] = {}
    placements_made: int = 0


class DiscardPhase(msgspec.Struct, frozen=True, kw_only=True):
    discarded: tuple[str, ...] = ()


class PendingNaming(msgspec.Struct, frozen=True, kw_only=True):
    empire: str
    player: str
    target: str


class RevealPhase(msgspec.Struct, frozen=True, kw_only=True):
    decided: tuple[str, ...] = ()
    named: tuple[str, ...] = ()
    pending_naming: PendingNaming | None = None


class AuditFlag(msgspec.Struct, frozen=True, kw_only=True):
    card: str | None = None
    kind: str


class GameOutcome(msgspec.Struct, frozen=True, kw_only=True):
    reason: str
    winners: tuple[str, ...]


class State(msgspec.Struct, frozen=True, kw_only=True):
    agent_phase: AgentPhase = AgentPhase()
    audit_flags: tuple[AuditFlag, ...] = ()
    banner_supply: dict[str, int] = {}
    banners: dict[str, dict[str, int]] = {}
    council: dict[str, dict[str, str | None]] = {}
    cursor: Cursor | None = None
    deck: dict[str, tuple[str, ...]] = {}
    discard_phase: DiscardPhase = DiscardPhase()
    fanatic_deal_recorded: bool = False
    first_player: str | None = None
    outcome: GameOutcome | None = None
    phase: str = "SETUP"
    players: dict[str, Player] = {}
    region_agents: dict[str, tuple[str, ...]] = {}
    reveal_phase: RevealPhase = RevealPhase()
    round: int = 1
    round_markers_placed: int = 0
    seats: tuple[str, ...] = ()
    #: cards discarded privately that are still in their deck: card -> the seat who discarded it
    secret_discards: dict[str, str] = {}
    #: a digital match's history of shuffles, which its draws are derived from (``chance.py``): empire ->
    #: how often cards went back into that deck (the deck counts as shuffled again). Left out of the
    #: encoding until the first one (``UNSET``), so a match without any keeps the hashes it always had.
    shuffles: dict[str, int] | msgspec.UnsetType = msgspec.UNSET
