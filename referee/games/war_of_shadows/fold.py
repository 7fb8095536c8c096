"""The fold: ``evolve(state, event)`` applies one recorded fact. No validation, no choices.

Total over every event tag ever written: a table of one small handler per kind of event, which a test
checks against the event union; an event of no known kind raises. Events carry everything they
change, so the fold needs no board data. Manual-effect deltas are applied by :class:`Zones`, which
``rules`` also uses to check a declaration before accepting it (one implementation of what a delta
does, so the check and the fold cannot disagree).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import msgspec
from msgspec.structs import replace

from referee.engine.dispatch import Handlers

from .data import SLOTS, card_empire
from .model import (
    Event,
    ActionDone,
    AgentCollected,
    AgentMoved,
    AgentPhase,
    AgentPlaced,
    AnnihilationDeclared,
    AttackLaunched,
    AuditFlag,
    AuditFlagRaised,
    BannersAdded,
    BannersDelta,
    BannersMoved,
    BannersReturned,
    CardPlayed,
    CardResolved,
    CardResolving,
    CardsDiscarded,
    CardsDrawn,
    CiNamed,
    CiScored,
    Combat,
    CombatPending,
    CombatResolved,
    Cursor,
    DeckShuffled,
    Delta,
    DiscardDelta,
    DiscardPhase,
    DrawDelta,
    EmpirePhaseEnded,
    FanaticEmpireDealt,
    FinalRevealed,
    FirstPlayerPassed,
    FirstPlayerSet,
    FortTriggered,
    GameEnded,
    GameOutcome,
    LoyaltyArranged,
    LoyaltyRevealed,
    LoyaltySwapped,
    ManualEffectApplied,
    MoveAgentDelta,
    MoveBannersDelta,
    NoteDelta,
    PendingNaming,
    PhaseChanged,
    PlacementSkipped,
    Player,
    PositionActivated,
    PositionEnded,
    PositionPassed,
    PositionSkipped,
    RevealPhase,
    RoundMarkerPlaced,
    RoundStarted,
    Score,
    ScoreComputed,
    ScoreDelta,
    SetupCompleted,
    SocietyChosen,
    State,
    SubActivationOpened,
    SupplyLimitEnforced,
    SwapSkipped,
    Token,
    TransferCardDelta,
    WinnerDeclared,
)

RESERVE = "reserve"


def token_id(seat: str, empire: str) -> str:
    """The id of a seat's loyalty token of an empire, as events carry it (redactable)."""
    return f"loyalty:{seat}:{empire}"


def fanatic_id(seat: str, empire: str) -> str:
    return f"fanatic:{seat}:{empire}"


def token_empire(token: str) -> str:
    return token.rsplit(":", 1)[1]


def is_position(place: str) -> bool:
    return "." in place


class Zones:
    """A mutable working copy of the parts of the state a manual effect can change.

    ``apply`` returns None when the delta was possible, else a sentence saying why not (the state of
    the copy is then unspecified: the caller discards it)."""

    def __init__(self, state: State, counted: bool) -> None:
        self.banners = {r: dict(v) for r, v in state.banners.items()}
        self.supply = dict(state.banner_supply)
        self.deck = {e: list(v) for e, v in state.deck.items()}
        self.hands = {p: list(pl.hand) for p, pl in state.players.items()}
        self.reserve = {p: pl.agent_reserve for p, pl in state.players.items()}
        self.bonus = {p: pl.bonus for p, pl in state.players.items()}
        self.council = {e: dict(v) for e, v in state.council.items()}
        self.region_agents = {r: list(v) for r, v in state.region_agents.items()}
        self.counted = counted
        self.secret = dict(state.secret_discards)

    def _hand_take(self, player: str, card: str) -> str | None:
        hand = self.hands.get(player)
        if hand is None:
            return f"{player} is not a player"
        empire = card_empire(card) or card
        for entry in (card, empire) if self.counted else (card,):
            if entry in hand:
                hand.remove(entry)
                return None
        return f"{card} is not in {player}'s hand"

    def _to_deck(self, card: str) -> None:
        empire = card_empire(card) or card
        self.deck[empire] = sorted([*self.deck[empire], empire if self.counted else card])

    def apply(self, delta: Delta) -> str | None:
        match delta:
            case BannersDelta(region=region, empire=empire, delta=n):
                have = self.banners[region][empire]
                if have + n < 0:
                    return f"{region} holds {have} {empire} banner(s); cannot remove {-n}"
                if self.supply[empire] - n < 0:
                    return f"the {empire} supply holds {self.supply[empire]}; cannot add {n}"
                if self.supply[empire] - n > 20:
                    return f"the {empire} supply would hold {self.supply[empire] - n} (at most 20)"
                self.banners[region][empire] = have + n
                self.supply[empire] -= n
            case MoveBannersDelta(from_=src, to=dst, empire=empire, count=n):
                if n < 1:
                    return f"move at least 1 banner, not {n}"
                have = self.banners[src][empire]
                if have < n:
                    return f"{src} holds {have} {empire} banner(s); cannot move {n}"
                self.banners[src][empire] = have - n
                self.banners[dst][empire] += n
            case DrawDelta(player=player, card=card):
                empire = card_empire(card) or card
                entry = empire if self.counted else card
                if entry not in self.deck.get(empire, []):
                    return f"{card} is not in the {empire} deck"
                if player not in self.hands:
                    return f"{player} is not a player"
                self.deck[empire].remove(entry)
                self.hands[player].append(entry)
                self.secret.pop(card, None)
            case DiscardDelta(player=player, card=card):
                why = self._hand_take(player, card)
                if why:
                    return why
                self._to_deck(card)
            case TransferCardDelta(from_player=src, to_player=dst, card=card):
                if dst not in self.hands:
                    return f"{dst} is not a player"
                why = self._hand_take(src, card)
                if why:
                    return why
                self.hands[dst].append((card_empire(card) or card) if self.counted else card)
            case MoveAgentDelta(player=player, from_=src, to=dst):
                if player not in self.reserve:
                    return f"{player} is not a player"
                if src == RESERVE:
                    if self.reserve[player] < 1:
                        return f"{player} has no agent in reserve"
                    self.reserve[player] -= 1
                elif is_position(src):
                    e, p = src.split(".", 1)
                    if self.council[e][p] != player:
                        return f"{player} has no agent on {src}"
                    self.council[e][p] = None
                else:
                    if player not in self.region_agents[src]:
                        return f"{player} has no agent in {src}"
                    self.region_agents[src].remove(player)
                if dst == RESERVE:
                    self.reserve[player] += 1
                elif is_position(dst):
                    e, p = dst.split(".", 1)
                    if self.council[e][p] is not None:
                        return f"{dst} is not free (it holds {self.council[e][p]}'s agent)"
                    self.council[e][p] = player
                else:
                    if player in self.region_agents[dst]:
                        return f"{player} already has an agent in {dst}"
                    self.region_agents[dst] = sorted([*self.region_agents[dst], player])
            case ScoreDelta(player=player, delta=n):
                if player not in self.bonus:
                    return f"{player} is not a player"
                self.bonus[player] += n
            case NoteDelta():
                return None  # a note changes nothing
            case _:
                raise TypeError(f"unknown delta {delta!r}")
        return None

    def write(self, state: State) -> State:
        players = {
            p: replace(pl, hand=tuple(sorted(self.hands[p])), agent_reserve=self.reserve[p], bonus=self.bonus[p])
            for p, pl in state.players.items()
        }
        return replace(
            state,
            banners={r: dict(v) for r, v in self.banners.items()},
            banner_supply=dict(self.supply),
            deck={e: tuple(sorted(v)) for e, v in self.deck.items()},
            players=players,
            council={e: dict(v) for e, v in self.council.items()},
            region_agents={r: tuple(sorted(v)) for r, v in self.region_agents.items()},
            secret_discards=dict(sorted(self.secret.items())),
        )


# -- small immutable updates -------------------------------------------------------------------------------


def _player(state: State, seat: str, **changes: Any) -> State:
    players = dict(state.players)
    players[seat] = replace(players[seat], **changes)
    return replace(state, players=players)


def _banners(state: State, region: str, empire: str, delta: int) -> State:
    banners = dict(state.banners)
    row = dict(banners[region])
    row[empire] = row[empire] + delta
    banners[region] = row
    return replace(state, banners=banners)


def _supply(state: State, empire: str, delta: int) -> State:
    supply = dict(state.banner_supply)
    supply[empire] = supply[empire] + delta
    return replace(state, banner_supply=supply)


def _cursor(state: State, **changes: Any) -> State:
    assert state.cursor is not None
    return replace(state, cursor=replace(state.cursor, **changes))


def _set_place(state: State, place: str, seat: str | None, remove_seat: str | None = None) -> State:
    """Put ``seat``'s agent on a council position (or, with ``seat`` None, free it), or add/remove a
    seat in a region's agents."""
    if is_position(place):
        e, p = place.split(".", 1)
        council = dict(state.council)
        row = dict(council[e])
        row[p] = seat
        council[e] = row
        return replace(state, council=council)
    agents = dict(state.region_agents)
    current = list(agents[place])
    if remove_seat is not None and remove_seat in current:
        current.remove(remove_seat)
    if seat is not None:
        current.append(seat)
    agents[place] = tuple(sorted(current))
    return replace(state, region_agents=agents)


def _hand_remove(hand: tuple[str, ...], cards: tuple[str, ...]) -> tuple[str, ...]:
    out = list(hand)
    for card in cards:
        if card in out:
            out.remove(card)
        else:  # counted mode: an unidentified card of that empire
            out.remove(card_empire(card) or card)
    return tuple(out)


def _to_decks(state: State, cards: tuple[str, ...], counted: bool) -> State:
    deck = dict(state.deck)
    for card in cards:
        empire = card_empire(card) or card
        deck[empire] = tuple(sorted([*deck[empire], empire if counted else card]))
    return replace(state, deck=deck)


def _end_combat(state: State, ev: CombatResolved) -> State:
    state = _banners(state, ev.region, ev.attacker, ev.attacker_left - ev.attacking)
    state = _supply(state, ev.attacker, ev.attacking - ev.attacker_left)
    if ev.defender is not None:
        state = _banners(state, ev.region, ev.defender, ev.defender_left - ev.defending)
        state = _supply(state, ev.defender, ev.defending - ev.defender_left)
    if ev.pending and state.cursor is not None:
        state = _cursor(state, combat=None)
    return state


def evolve(state: State, event: Event, counted: bool = False) -> State:
    """Apply one event. ``counted``: the match tracks cards by deck only (card_identity_mode)."""
    handler = HANDLERS.get(type(event))
    if handler is None:
        raise TypeError(f"war_of_shadows: unknown event {event!r}")
    return handler(state, event, counted)


Handler = Callable[[State, Any, bool], State]
#: one handler per kind of event: (state, event, counted) -> the state after it
HANDLERS: Handlers[Handler] = Handlers("war_of_shadows fold")
_on = HANDLERS.on


@_on(SetupCompleted, PositionPassed, DeckShuffled)
def _unchanged(state: State, event: Any, counted: bool) -> State:
    return state


# -- setup ---------------------------------------------------------------------------------------------------

@_on(SocietyChosen)
def _society_chosen(state: State, event: SocietyChosen, counted: bool) -> State:
    return _player(state, event.player, society=event.society)


@_on(FirstPlayerSet)
def _first_player_set(state: State, event: FirstPlayerSet, counted: bool) -> State:
    return replace(state, first_player=event.player)


@_on(FanaticEmpireDealt)
def _fanatic_empire_dealt(state: State, event: FanaticEmpireDealt, counted: bool) -> State:
    return replace(_player(state, event.player, fanatic_dealt=token_empire(event.token)), fanatic_deal_recorded=True)


@_on(LoyaltyArranged)
def _loyalty_arranged(state: State, event: LoyaltyArranged, counted: bool) -> State:
    if event.tokens:
        loyalty = {slot: Token(empire=token_empire(t)) for slot, t in zip(SLOTS, event.tokens)}
    else:
        loyalty = {slot: Token(empire=None) for slot in SLOTS}
    return _player(state, event.player, loyalty=loyalty)


# -- rounds, phases and the agents ---------------------------------------------------------------------------

@_on(RoundStarted)
def _round_started(state: State, event: RoundStarted, counted: bool) -> State:
    rnd = event.round
    return replace(
        state, round=rnd, phase="AGENT_COLLECT" if rnd >= 2 else "AGENT_PLACE", agent_phase=AgentPhase(),
        cursor=None,
    )


@_on(PhaseChanged)
def _phase_changed(state: State, event: PhaseChanged, counted: bool) -> State:
    phase = event.phase
    if phase == "DISCARD":
        return replace(state, phase=phase, discard_phase=DiscardPhase(), cursor=None)
    if phase in ("REVEAL", "CI_SWAP"):
        return replace(state, phase=phase, reveal_phase=RevealPhase(), cursor=None)
    if phase == "CI_REVEAL":
        return replace(state, phase=phase, reveal_phase=replace(state.reveal_phase, named=(), pending_naming=None))
    if phase == "AGENT_PLACE":
        return replace(state, phase=phase, agent_phase=replace(state.agent_phase, placements_made=0))
    return replace(state, phase=phase, cursor=None)


@_on(AgentCollected)
def _agent_collected(state: State, event: AgentCollected, counted: bool) -> State:
    player, src = event.player, event.from_
    state = _set_place(state, src, None, remove_seat=player)
    ap = state.agent_phase
    state = replace(state, agent_phase=replace(
        ap, collected=(*ap.collected, player), collected_from={**ap.collected_from, player: src}))
    return _player(state, player, agent_reserve=state.players[player].agent_reserve + 1)


@_on(AgentPlaced)
def _agent_placed(state: State, event: AgentPlaced, counted: bool) -> State:
    state = _set_place(state, event.to, event.player)
    ap = state.agent_phase
    state = replace(state, agent_phase=replace(ap, placements_made=ap.placements_made + 1))
    return _player(state, event.player, agent_reserve=state.players[event.player].agent_reserve - 1)


@_on(PlacementSkipped)
def _placement_skipped(state: State, event: PlacementSkipped, counted: bool) -> State:
    ap = state.agent_phase
    if event.step == "collect":
        return replace(state, agent_phase=replace(ap, collected=(*ap.collected, event.player)))
    return replace(state, agent_phase=replace(ap, placements_made=ap.placements_made + 1))


@_on(AgentMoved)
def _agent_moved(state: State, event: AgentMoved, counted: bool) -> State:
    state = _set_place(state, event.from_, event.swapped_with)
    return _set_place(state, event.to, event.player)


@_on(RoundMarkerPlaced)
def _round_marker_placed(state: State, event: RoundMarkerPlaced, counted: bool) -> State:
    return replace(state, round_markers_placed=event.round)


@_on(FirstPlayerPassed)
def _first_player_passed(state: State, event: FirstPlayerPassed, counted: bool) -> State:
    return replace(state, first_player=event.to)


# -- the empire phase: positions, banners, combat ------------------------------------------------------------

@_on(PositionActivated)
def _position_activated(state: State, event: PositionActivated, counted: bool) -> State:
    e, p = event.position.split(".", 1)
    return replace(state, phase="EMPIRE_PHASE", cursor=Cursor(empire=e, position=p, acting_player=event.acting_player))


@_on(PositionSkipped, PositionEnded, EmpirePhaseEnded)
def _position_closed(state: State, event: Any, counted: bool) -> State:
    return replace(state, cursor=None)


@_on(SubActivationOpened)
def _sub_activation_opened(state: State, event: SubActivationOpened, counted: bool) -> State:
    return _cursor(state, sub_position=event.position, sub_by=event.by, stage="pending")


@_on(ActionDone)
def _action_done(state: State, event: ActionDone, counted: bool) -> State:
    cur = state.cursor
    assert cur is not None
    if cur.sub_position is not None and cur.sub_position == event.position:
        return _cursor(state, sub_position=None, sub_by=None, stage="done")
    return _cursor(state, stage="done")


@_on(BannersAdded)
def _banners_added(state: State, event: BannersAdded, counted: bool) -> State:
    for placement in event.placements:
        state = _banners(state, placement.region, event.empire, placement.n)
        state = _supply(state, event.empire, -placement.n)
    return state


@_on(AttackLaunched)
def _attack_launched(state: State, event: AttackLaunched, counted: bool) -> State:
    state = _banners(state, event.from_, event.empire, -event.count)
    return _banners(state, event.to, event.empire, event.count)


@_on(FortTriggered)
def _fort_triggered(state: State, event: FortTriggered, counted: bool) -> State:
    return _supply(_banners(state, event.region, event.empire, -event.destroyed), event.empire, event.destroyed)


@_on(CombatPending)
def _combat_pending(state: State, event: CombatPending, counted: bool) -> State:
    combat = Combat(region=event.region, attacker=event.attacker, defender=event.defender, a_in=event.a_in,
                    a_after_fort=event.a_after_fort, d=event.d, fort=event.fort)
    return _cursor(state, stage="combat_pending", combat=combat)


@_on(CombatResolved)
def _combat_resolved(state: State, event: CombatResolved, counted: bool) -> State:
    return _end_combat(state, event)


@_on(AnnihilationDeclared)
def _annihilation_declared(state: State, event: AnnihilationDeclared, counted: bool) -> State:
    assert state.cursor is not None and state.cursor.combat is not None
    return _cursor(state, combat=replace(state.cursor.combat, annihilation=True))


@_on(SupplyLimitEnforced)
def _supply_limit_enforced(state: State, event: SupplyLimitEnforced, counted: bool) -> State:
    for r in event.removals:
        state = _supply(_banners(state, r.region, r.empire, -r.removed), r.empire, r.removed)
    return state


@_on(BannersMoved)
def _banners_moved(state: State, event: BannersMoved, counted: bool) -> State:
    return _banners(_banners(state, event.from_, event.empire, -event.count), event.to, event.empire, event.count)


@_on(BannersReturned)
def _banners_returned(state: State, event: BannersReturned, counted: bool) -> State:
    return _supply(_banners(state, event.region, event.empire, -event.count), event.empire, event.count)


# -- cards ---------------------------------------------------------------------------------------------------

@_on(CardsDrawn)
def _cards_drawn(state: State, event: CardsDrawn, counted: bool) -> State:
    player, cards = event.player, event.cards
    deck = dict(state.deck)
    rest = list(deck[event.empire])
    for c in cards:
        rest.remove(c)
    deck[event.empire] = tuple(rest)
    secret = {k: v for k, v in state.secret_discards.items() if k not in cards}
    state = replace(state, deck=deck, secret_discards=secret)
    return _player(state, player, hand=tuple(sorted((*state.players[player].hand, *cards))))


@_on(CardPlayed)
def _card_played(state: State, event: CardPlayed, counted: bool) -> State:
    cards = (event.card, *event.paid)
    state = _player(state, event.player, hand=_hand_remove(state.players[event.player].hand, cards))
    return _to_decks(state, cards, counted)


@_on(CardResolving)
def _card_resolving(state: State, event: CardResolving, counted: bool) -> State:
    return _cursor(state, resolving_card=event.card, resolving_kind=event.kind)


@_on(CardResolved)
def _card_resolved(state: State, event: CardResolved, counted: bool) -> State:
    return _cursor(state, resolving_card=None, resolving_kind=None)


@_on(ManualEffectApplied)
def _manual_effect_applied(state: State, event: ManualEffectApplied, counted: bool) -> State:
    zones = Zones(state, counted)
    for delta in event.deltas:
        zones.apply(delta)
    return zones.write(state)


@_on(AuditFlagRaised)
def _audit_flag_raised(state: State, event: AuditFlagRaised, counted: bool) -> State:
    return replace(state, audit_flags=(*state.audit_flags, AuditFlag(kind=event.kind, card=event.card)))


@_on(CardsDiscarded)
def _cards_discarded(state: State, event: CardsDiscarded, counted: bool) -> State:
    player, cards = event.player, event.cards
    state = _player(state, player, hand=_hand_remove(state.players[player].hand, cards))
    state = _to_decks(state, cards, counted)
    dp = state.discard_phase
    state = replace(state, discard_phase=replace(dp, discarded=(*dp.discarded, player)))
    if event.private and not counted:
        secret = dict(state.secret_discards)
        for c in cards:
            secret[c] = player
        state = replace(state, secret_discards=dict(sorted(secret.items())))
    return state


# -- loyalty, the reveal and the end -------------------------------------------------------------------------

@_on(LoyaltySwapped)
def _loyalty_swapped(state: State, event: LoyaltySwapped, counted: bool) -> State:
    a, b = event.slot_a, event.slot_b
    pl = state.players[event.player]
    loyalty = dict(pl.loyalty)
    loyalty[a], loyalty[b] = loyalty[b], loyalty[a]
    rp = state.reveal_phase
    state = replace(state, reveal_phase=replace(rp, decided=(*rp.decided, event.player)))
    return _player(state, event.player, loyalty=loyalty, swaps_made=pl.swaps_made + 1)


@_on(LoyaltyRevealed)
def _loyalty_revealed(state: State, event: LoyaltyRevealed, counted: bool) -> State:
    loyalty = dict(state.players[event.player].loyalty)
    loyalty[event.slot] = Token(empire=event.empire, revealed=True)
    return _player(state, event.player, loyalty=loyalty)


@_on(SwapSkipped)
def _swap_skipped(state: State, event: SwapSkipped, counted: bool) -> State:
    rp = state.reveal_phase
    return replace(state, reveal_phase=replace(rp, decided=(*rp.decided, event.player)))


@_on(CiNamed)
def _ci_named(state: State, event: CiNamed, counted: bool) -> State:
    pending = PendingNaming(player=event.player, target=event.target, empire=event.empire)
    return replace(state, reveal_phase=replace(state.reveal_phase, pending_naming=pending))


@_on(CiScored)
def _ci_scored(state: State, event: CiScored, counted: bool) -> State:
    player, target = event.player, event.target
    loyalty = dict(state.players[target].loyalty)
    loyalty[event.slot] = Token(empire=event.empire, revealed=True)
    state = _player(state, target, loyalty=loyalty)
    state = _player(state, player, ci_bonus=state.players[player].ci_bonus + event.points)
    rp = state.reveal_phase
    return replace(state, reveal_phase=replace(rp, named=(*rp.named, player), pending_naming=None))


@_on(GameEnded)
def _game_ended(state: State, event: GameEnded, counted: bool) -> State:
    for seat, n in event.unrevealed:
        state = _player(state, seat, unrevealed_at_end=n)
    return state


@_on(FinalRevealed)
def _final_revealed(state: State, event: FinalRevealed, counted: bool) -> State:
    loyalty = {slot: Token(empire=e, revealed=True) for slot, e in zip(SLOTS, event.arrangement)}
    return _player(state, event.player, loyalty=loyalty, final_revealed=True)


@_on(ScoreComputed)
def _score_computed(state: State, event: ScoreComputed, counted: bool) -> State:
    score = Score(base=event.base, region_agents=event.region_agents, keep_secrets=event.keep_secrets,
                  ci_bonus=event.ci_bonus, bonus=event.bonus, total=event.total)
    return _player(state, event.player, score=score)


@_on(WinnerDeclared)
def _winner_declared(state: State, event: WinnerDeclared, counted: bool) -> State:
    return replace(state, phase="GAME_OVER", cursor=None, outcome=GameOutcome(winners=event.winners, reason=event.reason))


__all__ = ["Player", "RESERVE", "Zones", "evolve", "fanatic_id", "is_position", "token_empire", "token_id"]


def count_shuffles(before: State, after: State) -> State:
    """``after`` with each deck that cards went back into counted as shuffled once more
    (``State.shuffles``: a digital match's draws are derived from it)."""
    if after.deck is before.deck:
        return after
    was = before.deck
    # a deck the event left alone is the very same tuple (a fold replaces only the decks it changes)
    back = [e for e, cards in after.deck.items()
            if cards is not was.get(e) and Counter(cards) - Counter(was.get(e, ()))]
    if not back:
        return after
    counts = dict(shuffles(after))
    for empire in back:
        counts[empire] = counts.get(empire, 0) + 1
    return replace(after, shuffles=dict(sorted(counts.items())))


def shuffles(state: State) -> dict[str, int]:
    """``State.shuffles`` (empty while unset)."""
    return {} if isinstance(state.shuffles, msgspec.UnsetType) else state.shuffles
