"""The fold: an event applied to the state.

Design (issue 28 item 5). An event states a fact in the game's words, never a state path: which agent,
which card from which zone to which zone, how many points of which class, which evidence, which strike.
Each kind of fact has one handler, registered in :data:`HANDLERS` (the engine's Handlers table, as the
other games' folds): the turn's facts here, the board's (the Shadows row and the Sector, reveals, strikes
and their answers, players defeated) in :mod:`.boardfacts`, the shapes they share (points gained or spent, a
card moved between zones, what waits) in :mod:`.shapes`. A handler computes the change from the event's
fields and the state: it is the one place that knows where a fact lives in the state, so a renamed state
field changes a handler, not what stored logs mean, and a rules fix reads as "which fact changed". What
only the arbiter may see is declared on the event (``__secret__``, ``__private__`` and ``__owner__``,
:mod:`referee.engine.secrecy`), as for every event; a face-down card moves as it lies, so what it is
stays in the state and no event says it.

Vocabularies (the upcast rule). Every event says the vocabulary it was recorded in (``Fact.vocabulary``;
absent, as in every log written before, it is 1):

* vocabulary 1: the event carries, in ``changes``, every top-level state path it changed (two levels
  deep: ``turn.attack``, ``players.alice``) with the new value; it folds by writing them back
  (:func:`.upcast.apply_changes`), as it always did. That is the upcast: an old event keeps meaning
  exactly what it meant, whatever its kind's handler says today.
* vocabulary 2: a fact, folded by its kind's handler, then its last words (``step`` and ``fight``: where
  the turn's procedure goes on, when the fact moved it). Every kind but one is a fact when newly
  adjudicated: declared manual effects (§4.25) keep path deltas for good, in the declared-effect
  vocabulary :mod:`.manual` lists as data (the parts of the state they may name and the fields of the
  records those hold; versioned: ``ManualEffectApplied.paths``). Whatever a fact's fold would leave
  different from what decide did is kept with it as paths (``txn.Tx.say``), so a log always folds to what
  was decided; the cross-check below refuses it instead, and none is left over the replays, the random
  game and the scenarios.

The audit compares like with like (:func:`same_verdict`): an entry stored in vocabulary 1, re-adjudicated
now, means the same when both verdicts fold its state to the same state.

``txn.CHECK`` (tests) folds every event as decide emits it and compares the result, entry by entry, with
the working copy decide changed: the fold of the facts must give exactly the state the recorded paths
would have, and no kind but the declared effect may be said as paths (``tests/test_xfiles_events.py``
runs it over the replays, a random game, the scenarios and the rarer facts).
"""

from __future__ import annotations

from typing import Any

import msgspec

from . import boardfacts as boardfacts  # registers the board's facts in HANDLERS
from . import model as m
from .data import BUCKETS
from .model import Fact, State
from .shapes import (
    HANDLERS as HANDLERS, add_doubt, add_texts, add_waiting, bumped, counted_declared, drew_from, into_play, less,
    removed_at, to_discard, with_player, with_turn,
)
from .state import fresh_turn
from .upcast import apply_changes as apply_changes


# -- the facts ---------------------------------------------------------------------------------------------


@HANDLERS.on(m.CardPlayed)
def _card_played(state: State, e: m.CardPlayed) -> State:
    hand = list(state.players[e.seat].hand)
    hand.remove(e.card)
    state = with_player(state, e.seat, hand=hand)
    return into_play(state, e.seat, m.PlayEntry(card=e.card), e.cls, e.belief)


@HANDLERS.on(m.VirtualCardPlayed)
def _virtual_card_played(state: State, e: m.VirtualCardPlayed) -> State:
    state = with_turn(state, virtual_played=[*state.turn.virtual_played, e.helper])
    return into_play(state, e.seat, m.PlayEntry(card=e.card, virtual_of=e.helper), e.cls, e.belief)


@HANDLERS.on(m.PointsGained)
def _points_gained(state: State, e: m.PointsGained) -> State:
    return with_turn(state, **{e.currency: bumped(getattr(state.turn, e.currency), e.bucket, e.n)})


@HANDLERS.on(m.PointsSpent)
def _points_spent(state: State, e: m.PointsSpent) -> State:
    pool = dict(getattr(state.turn, e.currency))
    for part in e.paid:
        pool[part.bucket] -= part.amount
    return with_turn(state, **{e.currency: pool})


@HANDLERS.on(m.SlotScanned)
def _slot_scanned(state: State, e: m.SlotScanned) -> State:
    return add_waiting(state, m.Pending(kind="reveal", seat=e.seat, location=e.where, origin=e.origin), first=True)


@HANDLERS.on(m.SpecialAgentRecruited)
def _special_agent_recruited(state: State, e: m.SpecialAgentRecruited) -> State:
    item = m.Pending(kind="reveal", seat=e.seat, location="special_agents", origin="special_agents")
    return add_waiting(state, item, first=True)


@HANDLERS.on(m.CardsRequested)
def _cards_requested(state: State, e: m.CardsRequested) -> State:
    return add_waiting(state, m.Pending(kind="draw", seat=e.seat, count=e.n), first=False)


@HANDLERS.on(m.CardsDrawn)
def _cards_drawn(state: State, e: m.CardsDrawn) -> State:
    state = msgspec.structs.replace(state, pending=state.pending[1:])
    p = state.players[e.seat]
    if e.from_pile and not e.reshuffled:
        state = drew_from(with_player(state, e.seat, deck=less(p.deck, e.cards)), f"players.{e.seat}.deck", len(e.cards))
    state = with_player(state, e.seat, hand=sorted([*p.hand, *e.cards]), known_top=p.known_top[len(e.cards):])
    state = add_texts(state, e.triggers, first=True)
    return add_doubt(state, e.seat) if e.doubt else state


@HANDLERS.on(m.DeckReshuffled)
def _deck_reshuffled(state: State, e: m.DeckReshuffled) -> State:
    p = state.players[e.seat]
    state = with_player(state, e.seat, deck=less(p.discard, e.cards), discard=[])
    return drew_from(state, f"players.{e.seat}.deck", len(e.cards), shuffled=True)


@HANDLERS.on(m.ActionPhaseBegan)
def _action_phase_began(state: State, e: m.ActionPhaseBegan) -> State:
    state = with_turn(state, phase="action")
    return add_doubt(state, e.seat) if e.doubt else state


@HANDLERS.on(m.ActionsEnded)
def _actions_ended(state: State, e: m.ActionsEnded) -> State:
    t = state.turn
    return with_turn(state, attack={**t.attack, **{b: 0 for b in BUCKETS}}, recruit={**t.recruit, **{b: 0 for b in BUCKETS}})


@HANDLERS.on(m.StrikePhaseBegan)
def _strike_phase_began(state: State, e: m.StrikePhaseBegan) -> State:
    return with_turn(state, phase="strike", strike_queue=list(e.queue))


@HANDLERS.on(m.TurnEnded)
def _turn_ended(state: State, e: m.TurnEnded) -> State:
    return state


@HANDLERS.on(m.TurnBegan)
def _turn_began(state: State, e: m.TurnBegan) -> State:
    if e.first:
        return with_turn(msgspec.structs.replace(state, status="in_progress"), phase="conspiracy")
    for seat in e.skipped:
        state = with_player(state, seat, skip_next_turn=False)
    turn = msgspec.convert(fresh_turn(list(state.seats), e.seat, e.n, "conspiracy"), m.Turn)
    return msgspec.structs.replace(state, turn=turn)


@HANDLERS.on(m.CharacterRecruited)
def _character_recruited(state: State, e: m.CharacterRecruited) -> State:
    state = to_discard(removed_at(state, e.where, e.card), e.seat, e.card)
    n = e.where.partition(".")[2]
    text = m.Triggered(source=f"bureau_slot.{n}", trigger="bureau_slot", seat=e.seat)
    return add_texts(state, (text,), first=False) if e.slot_text else state


@HANDLERS.on(m.BureauSlotRefilled)
def _bureau_slot_refilled(state: State, e: m.BureauSlotRefilled) -> State:
    idx = e.where.partition(".")[2]
    slot = msgspec.structs.replace(state.bureau[idx], state="hidden", card="", origin="academy", beneath=[],
                                   revealed_before=False)
    deck = msgspec.structs.replace(state.academy_deck, count=state.academy_deck.count - 1)
    return msgspec.structs.replace(state, bureau={**state.bureau, idx: slot}, academy_deck=deck)


@HANDLERS.on(m.AbilityActivated)
def _ability_activated(state: State, e: m.AbilityActivated) -> State:
    play = list(state.players[e.seat].play)
    i = next(i for i, x in enumerate(play) if x.card == e.card and not x.activated)
    play[i] = msgspec.structs.replace(play[i], activated=True)
    return with_player(state, e.seat, play=play)


@HANDLERS.on(m.EndGameDamaged)
def _end_game_damaged(state: State, e: m.EndGameDamaged) -> State:
    damage = {**state.end_game_damage, e.card: state.end_game_damage.get(e.card, 0) + e.n}
    return msgspec.structs.replace(state, end_game_damage=damage)


@HANDLERS.on(m.DoubtGained)
def _doubt_gained(state: State, e: m.DoubtGained) -> State:
    return to_discard(msgspec.structs.replace(state, doubt_stack=state.doubt_stack - 1), e.seat, "doubt")


@HANDLERS.on(m.BeliefGained)
def _belief_gained(state: State, e: m.BeliefGained) -> State:
    return to_discard(msgspec.structs.replace(state, belief_stack=state.belief_stack - 1), e.seat, "belief")


@HANDLERS.on(m.GameWon)
def _game_won(state: State, e: m.GameWon) -> State:
    outcome = m.GameOutcome(result="won", reason=e.text, winners=list(state.seats))
    return msgspec.structs.replace(state, status="won", outcome=outcome, pending=[])


@HANDLERS.on(m.GameLost)
def _game_lost(state: State, e: m.GameLost) -> State:
    return msgspec.structs.replace(state, status="lost", outcome=m.GameOutcome(result="lost", reason=e.text), pending=[])


@HANDLERS.on(m.CoordinatedCardReturned)
def _coordinated_card_returned(state: State, e: m.CoordinatedCardReturned) -> State:
    if not state.players[e.seat].defeated:
        state = to_discard(state, e.seat, e.card)
    state = with_player(state, e.seat, coordinated_out="")
    return with_turn(state, coordinated={**state.turn.coordinated, e.seat: ""})


@HANDLERS.on(m.TurnCleanedUp)
def _turn_cleaned_up(state: State, e: m.TurnCleanedUp) -> State:
    if e.phase:
        state = with_turn(state, phase=e.phase)
    if e.passed:
        state = with_turn(state, strike_queue=state.turn.strike_queue[e.passed:])
    state = add_texts(state, e.triggers, first=False)
    if not e.discarded:
        return state
    p = state.players[e.seat]
    played = [x.card for x in p.play if not x.virtual_of]
    return with_player(state, e.seat, play=[], hand=[], vigilant=sorted([*p.vigilant, *e.vigilant]),
                   discard=sorted([*p.discard, *less(played, e.vigilant), *p.hand]))


@HANDLERS.on(m.FightDeclared)
def _fight_declared(state: State, e: m.FightDeclared) -> State:
    if e.declared:
        state = counted_declared(state)
    if e.discard:
        hand = list(state.players[e.seat].hand)
        hand.remove(e.discard)
        state = to_discard(with_player(state, e.seat, hand=hand), e.seat, e.discard)
    if e.end_game:
        state = with_turn(state, end_game_fights=state.turn.end_game_fights + 1)
    return state


@HANDLERS.on(m.EnemyDefeated, m.CardDefeated)
def _card_defeated(state: State, e: m.EnemyDefeated | m.CardDefeated) -> State:
    if e.where:
        state = removed_at(state, e.where, e.card)
    if isinstance(e, m.CardDefeated) and e.character:
        state = msgspec.structs.replace(state, defeated_characters=sorted([*state.defeated_characters, e.card]))
    else:
        state = msgspec.structs.replace(state, defeated_conspiracy=[*state.defeated_conspiracy, e.card])
    return add_texts(state, e.triggers, first=True)


@HANDLERS.on(m.LeaderDefeated)
def _leader_defeated(state: State, e: m.LeaderDefeated) -> State:
    return state


@HANDLERS.on(m.EndGameDefeated)
def _end_game_defeated(state: State, e: m.EndGameDefeated) -> State:
    if e.where:
        state = removed_at(state, e.where, e.card)
    return msgspec.structs.replace(state, defeated_conspiracy=[*state.defeated_conspiracy, e.card])


@HANDLERS.on(m.AllyGained)
def _ally_gained(state: State, e: m.AllyGained) -> State:
    state = msgspec.structs.replace(state, pending=state.pending[1:])
    return to_discard(removed_at(state, e.where, e.card), e.seat, e.card)


@HANDLERS.on(m.CardCoordinated)
def _card_coordinated(state: State, e: m.CardCoordinated) -> State:
    p = state.players[e.seat]
    hand = list(p.hand)
    hand.remove(e.card)
    state = with_player(state, e.seat, hand=hand)
    if e.solo:
        state = with_turn(to_discard(state, e.seat, e.card), solo_coordinated=True)
    else:
        state = with_player(state, e.seat, coordinated_out=e.card)
        state = with_turn(state, coordinated={**state.turn.coordinated, e.seat: e.card})
    return add_waiting(state, m.Pending(kind="draw", seat=e.seat, count=1), first=False)


@HANDLERS.on(m.BeliefActivated)
def _belief_activated(state: State, e: m.BeliefActivated) -> State:
    p = state.players[e.seat]
    play = list(p.play)
    play.remove(next(x for x in play if x.card == "belief" and not x.activated))
    fields: dict[str, Any] = {"play": play}
    turn: dict[str, Any] = {"belief_card_activated": True}
    if e.text == "avatar":
        turn["belief_text_resolved"] = True
    else:
        turn["lessons_resolved"] = True
        climax = list(p.climax)
        climax.remove("reincarnation")
        fields["climax"] = climax
    state = with_player(msgspec.structs.replace(state, belief_stack=state.belief_stack + 1), e.seat, **fields)
    return with_turn(state, **turn)


@HANDLERS.on(m.DoubtResolved)
def _doubt_resolved(state: State, e: m.DoubtResolved) -> State:
    hand = list(state.players[e.seat].hand)
    hand.remove("doubt")
    state = with_player(state, e.seat, hand=hand)
    state = msgspec.structs.replace(state, doubt_stack=state.doubt_stack + 1, pending=state.pending[1:])
    return with_turn(state, doubt_resolved=True, **({"coordinate_forbidden": True} if e.forbids_coordinate else {}))


@HANDLERS.on(m.EventResolved)
def _event_resolved(state: State, e: m.EventResolved) -> State:
    return state


@HANDLERS.on(m.CardSacrificed)
def _card_sacrificed(state: State, e: m.CardSacrificed) -> State:
    p = state.players[e.seat]
    virtual = ""
    if e.zone == "play":
        play = list(p.play)
        entry = next(x for x in play if x.card == e.card)
        play.remove(entry)
        virtual = entry.virtual_of
        state = with_player(state, e.seat, play=play)
    else:
        cards = list(getattr(p, e.zone))
        cards.remove(e.card)
        state = with_player(state, e.seat, **{e.zone: cards})
    hits = bool(state.options["virtual_defeat_hits_owner"])
    if virtual and hits:
        state = with_turn(with_player(state, virtual, coordinated_out=""), coordinated={**state.turn.coordinated, virtual: ""})
    if not virtual or hits:
        state = msgspec.structs.replace(state, defeated_characters=sorted([*state.defeated_characters, e.card]))
    return state


@HANDLERS.on(m.VigilantUsed)
def _vigilant_used(state: State, e: m.VigilantUsed) -> State:
    p = state.players[e.seat]
    if e.discarded == "vigilant":
        vigilant = list(p.vigilant)
        vigilant.remove(e.card)
        state = with_player(state, e.seat, vigilant=vigilant)
    elif e.discarded == "play":
        play = list(p.play)
        play.remove(next(x for x in play if x.card == e.card))
        state = with_player(state, e.seat, play=play)
    return to_discard(state, e.seat, e.card) if e.discarded and not e.defeated else state


@HANDLERS.on(m.PlayerFought)
def _player_fought(state: State, e: m.PlayerFought) -> State:
    grants = list(state.turn.grants)
    grants.remove(f"fight_player:{e.seat}")
    return with_turn(state, grants=grants)




@HANDLERS.on(m.EvidenceDiscovered)
def _evidence_discovered(state: State, e: m.EvidenceDiscovered) -> State:
    item = m.Pending(kind="reveal", seat=e.seat, location=e.where, origin="discover", source=e.card)
    return counted_declared(add_waiting(state, item, first=True))


@HANDLERS.on(m.EvidenceCollected)
def _evidence_collected(state: State, e: m.EvidenceCollected) -> State:
    n = e.where.partition(".")[2]
    evidence = msgspec.structs.replace(state.evidence[n], state="collected", in_end_game=False)
    return counted_declared(msgspec.structs.replace(state, evidence={**state.evidence, n: evidence}))


@HANDLERS.on(m.StrikeDue)
def _strike_due(state: State, e: m.StrikeDue) -> State:
    if e.passed:
        state = with_turn(state, strike_queue=state.turn.strike_queue[e.passed:])
    if e.end_game:
        item = m.Pending(kind="end_game_strike", seat=e.seat, source=e.source, location=e.location)
    else:
        item = m.Pending(kind="strike", seat=e.seat, source=e.source, strike_no=e.strike_no, strikes=e.strikes,
                         reason=e.text)
    return add_waiting(state, item, first=not e.last)


@HANDLERS.on(m.TheEndBegan)
def _the_end_began(state: State, e: m.TheEndBegan) -> State:
    return msgspec.structs.replace(state, the_end=True)


@HANDLERS.on(m.ScarAdded)
def _scar_added(state: State, e: m.ScarAdded) -> State:
    deck = msgspec.structs.replace(state.strike_deck, blind=state.strike_deck.blind + 1)
    state = drew_from(msgspec.structs.replace(state, strike_deck=deck), "strike_deck", 1)
    return with_player(state, e.seat, scars=[*state.players[e.seat].scars, ""])


@HANDLERS.on(m.EvidenceExposed)
def _evidence_exposed(state: State, e: m.EvidenceExposed) -> State:
    evidence = {p: ev if ev.state == "collected" else msgspec.structs.replace(ev, in_end_game=True)
                for p, ev in state.evidence.items()}
    group = state.turn.groups + 1
    items = [m.Pending(kind="reveal", seat=e.seat, location=f"evidence.{p}", origin="the_end") for p in e.reveals]
    items += [m.Pending(kind="effect", seat=t.seat, source=t.source, location=t.location, trigger=t.trigger, group=group)
              for t in e.triggers]
    state = msgspec.structs.replace(state, evidence=evidence, pending=[*items, *state.pending])
    return with_turn(state, groups=group)


def evolve(state: State, event: Any) -> State:
    """The state after ``event``: a domain fact through its kind's handler, then whatever paths it
    records (none, for a fact decide states in full; an old or not yet converted event's all)."""
    if not isinstance(event, Fact):
        raise TypeError(f"unknown event {event!r}")
    if event.vocabulary >= 2:
        handler = HANDLERS.get(type(event))
        if handler is not None:
            state = handler(state, event)
            if event.step is not None:
                state = with_turn(state, step=event.step)
            if event.fight is not None:
                state = with_turn(state, fight_target=event.fight)
    return apply_changes(state, event.changes) if event.changes else state


def same_verdict(state: State, recorded: Any, derived: Any) -> bool:
    """The audit's like with like: an entry whose events were all recorded in vocabulary 1 (their paths)
    means what the verdict derived now means when both fold ``state`` to the same state. Its events
    said the same public facts, but the facts now come in more events (a declared effect, a pending
    strike said on its own), so they are compared by what they do."""
    from referee.engine.protocol import Accepted

    if not isinstance(recorded, Accepted) or not isinstance(derived, Accepted):
        return False
    if not recorded.events or any(not isinstance(e, Fact) or e.vocabulary >= m.VOCABULARY for e in recorded.events):
        return False
    old, new = state, state
    for event in recorded.events:
        old = evolve(old, event)
    for event in derived.events:
        new = evolve(new, event)
    return bool(old == new)
