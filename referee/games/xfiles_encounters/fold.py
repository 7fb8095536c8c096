"""The fold: an event applied to the state.

Design (issue 28 item 5). An event states a fact in the game's words, never a state path: which agent,
which card from which zone to which zone, how many points of which class, which evidence, which strike.
Each kind of fact has one handler here, registered in :data:`HANDLERS` (the engine's Handlers table, as
the other games' folds), which computes the change from the event's fields and the state: the handler
is the one place that knows where a fact lives in the state, so a renamed state field changes a handler,
not what stored logs mean, and a rules fix reads as "which fact changed". Many kinds share a shape
(points gained or spent, a card moved between zones, a phase or step reached): the helpers below are
those shapes; the event still names the fact. What only the arbiter may see is declared on the event
(``__secret__``, ``__private__`` and ``__owner__``, :mod:`referee.engine.secrecy`), as for every event.

Vocabularies (the upcast rule). Every event says the vocabulary it was recorded in (``Fact.vocabulary``;
absent, as in every log written before, it is 1):

* vocabulary 1: the event carries, in ``changes``, every top-level state path it changed (two levels
  deep: ``turn.attack``, ``players.alice``) with the new value; it folds by writing them back
  (:func:`apply_changes`), as it always did. That is the upcast: an old event keeps meaning exactly
  what it meant, whatever its kind's handler says today.
* vocabulary 2: a fact, folded by its kind's handler, then its last words (``step`` and ``fight``: where
  the turn's procedure goes on, when the fact moved it). A kind not yet stated as a fact is still said
  in vocabulary 1 (its paths), and declared manual effects (§4.25) keep path deltas for good, over the
  parts of the state :data:`.model.MANUAL_PATHS` allows (versioned: ``ManualEffectApplied.paths``).
  Whatever a fact's fold leaves different from what decide did is kept with it as paths too
  (``txn.Tx.say``), so a log always folds to what was decided.

The audit compares like with like (:func:`same_verdict`): an entry stored in vocabulary 1, re-adjudicated
now, means the same when both verdicts fold its state to the same state.

``txn.CHECK`` (tests) folds every event as decide emits it and compares the result, entry by entry, with
the working copy decide changed: the fold of the facts must give exactly the state the recorded paths
would have (``tests/test_xfiles_events.py`` runs it over the replays, a random game and the scenarios).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import msgspec

from referee.engine.dispatch import Handlers

from . import model as m
from .data import BUCKETS
from .model import Change, Fact, State
from .state import fresh_turn

Handler = Callable[[State, Any], State]

#: the fold of each kind of domain fact (vocabulary 2)
HANDLERS: Handlers[Handler] = Handlers("xfiles_encounters fold")


def _field_types(cls: type) -> dict[str, Any]:
    import msgspec.inspect as mi

    info = mi.type_info(cls)
    assert isinstance(info, mi.StructType)
    return {f.encode_name: f.type for f in info.fields}


#: the type of each top-level field of the state, and of each field of its records
_TOP = _field_types(State)


def _as(tp: Any) -> Any:
    """The Python type of an inspected type (to convert a change's value to)."""
    import msgspec.inspect as mi

    if isinstance(tp, mi.StructType):
        return tp.cls
    if isinstance(tp, mi.DictType):
        return dict[str, _as(tp.value_type)]  # type: ignore[misc]
    if isinstance(tp, mi.ListType):
        return list[_as(tp.item_type)]  # type: ignore[misc]
    if isinstance(tp, mi.UnionType):
        return Any
    if isinstance(tp, mi.StrType):
        return str
    if isinstance(tp, mi.IntType):
        return int
    if isinstance(tp, mi.BoolType):
        return bool
    return Any


def apply_changes(state: State, changes: tuple[Change, ...]) -> State:
    """The state with each change written (the fold of one event)."""
    import msgspec.inspect as mi

    updates: dict[str, Any] = {}
    for ch in changes:
        top, _, sub = ch.path.partition(".")
        tp = _TOP[top]
        if not sub:
            updates[top] = msgspec.convert(ch.value, _as(tp))
            continue
        current = updates[top] if top in updates else getattr(state, top)
        if isinstance(tp, mi.DictType):
            updates[top] = {**current, sub: msgspec.convert(ch.value, _as(tp.value_type))}
        else:
            inner = {f.encode_name: f for f in tp.fields}[sub]
            updates[top] = msgspec.structs.replace(current, **{inner.name: msgspec.convert(ch.value, _as(inner.type))})
    return msgspec.structs.replace(state, **updates) if updates else state


# -- the shapes facts share --------------------------------------------------------------------------------


def _turn(state: State, **fields: Any) -> State:
    return msgspec.structs.replace(state, turn=msgspec.structs.replace(state.turn, **fields))


def _player(state: State, seat: str, **fields: Any) -> State:
    players = dict(state.players)
    players[seat] = msgspec.structs.replace(players[seat], **fields)
    return msgspec.structs.replace(state, players=players)


def _bump(counts: dict[str, int], key: str, n: int) -> dict[str, int]:
    return {**counts, key: counts[key] + n}


def _pending(state: State, item: m.Pending, first: bool) -> State:
    """An item waits: first (it answers what was just done) or last (§3.1)."""
    return msgspec.structs.replace(state, pending=[item, *state.pending] if first else [*state.pending, item])


def _effects(state: State, triggered: tuple[m.Triggered, ...], first: bool) -> State:
    """Texts triggered together wait as one new group of effects, first or last (§3.2)."""
    if not triggered:
        return state
    group = state.turn.groups + 1
    state = _turn(state, groups=group)
    items = [m.Pending(kind="effect", seat=t.seat, source=t.source, location=t.location, trigger=t.trigger, group=group)
             for t in triggered]
    return msgspec.structs.replace(state, pending=[*items, *state.pending] if first else [*state.pending, *items])


def _doubt_waits(state: State, seat: str) -> State:
    return _pending(state, m.Pending(kind="doubt", seat=seat), first=True)


def _played(state: State, seat: str, entry: m.PlayEntry, cls: str, belief: bool) -> State:
    """A card (or a copy) enters SEAT's play area and the turn's play log; it counts toward its class or
    the Beliefs played."""
    p = state.players[seat]
    state = _player(state, seat, play=[*p.play, entry])
    t = state.turn
    fields: dict[str, Any] = {"play_log": [*t.play_log, m.Played(card=entry.card, cls=cls)]}
    if belief:
        fields["beliefs_played"] = t.beliefs_played + 1
    elif cls and cls != "none":
        fields["played_classes"] = _bump(t.played_classes, cls, 1)
    return _turn(state, **fields)


# -- the facts ---------------------------------------------------------------------------------------------


@HANDLERS.on(m.CardPlayed)
def _card_played(state: State, e: m.CardPlayed) -> State:
    hand = list(state.players[e.seat].hand)
    hand.remove(e.card)
    state = _player(state, e.seat, hand=hand)
    return _played(state, e.seat, m.PlayEntry(card=e.card), e.cls, e.belief)


@HANDLERS.on(m.VirtualCardPlayed)
def _virtual_card_played(state: State, e: m.VirtualCardPlayed) -> State:
    state = _turn(state, virtual_played=[*state.turn.virtual_played, e.helper])
    return _played(state, e.seat, m.PlayEntry(card=e.card, virtual_of=e.helper), e.cls, e.belief)


@HANDLERS.on(m.PointsGained)
def _points_gained(state: State, e: m.PointsGained) -> State:
    return _turn(state, **{e.currency: _bump(getattr(state.turn, e.currency), e.bucket, e.n)})


@HANDLERS.on(m.PointsSpent)
def _points_spent(state: State, e: m.PointsSpent) -> State:
    pool = dict(getattr(state.turn, e.currency))
    for part in e.paid:
        pool[part.bucket] -= part.amount
    return _turn(state, **{e.currency: pool})


@HANDLERS.on(m.SlotScanned)
def _slot_scanned(state: State, e: m.SlotScanned) -> State:
    return _pending(state, m.Pending(kind="reveal", seat=e.seat, location=e.where, origin=e.origin), first=True)


@HANDLERS.on(m.SpecialAgentRecruited)
def _special_agent_recruited(state: State, e: m.SpecialAgentRecruited) -> State:
    item = m.Pending(kind="reveal", seat=e.seat, location="special_agents", origin="special_agents")
    return _pending(state, item, first=True)


@HANDLERS.on(m.CardsRequested)
def _cards_requested(state: State, e: m.CardsRequested) -> State:
    return _pending(state, m.Pending(kind="draw", seat=e.seat, count=e.n), first=False)


def _drew(state: State, pile: str, n: int, shuffled: bool = False) -> State:
    """N more cards drawn from PILE (after a reshuffle: the first N of its new order)."""
    was = state.draws.get(pile, m.Draws())
    now = m.Draws(drawn=n, shuffles=was.shuffles + 1) if shuffled else m.Draws(drawn=was.drawn + n, shuffles=was.shuffles)
    return msgspec.structs.replace(state, draws={**state.draws, pile: now})


def _less(cards: list[str], gone: Any) -> list[str]:
    """CARDS without those GONE (one copy each), sorted."""
    return sorted((Counter(cards) - Counter(gone)).elements())


def _empty_slot(slot: m.Slot) -> m.Slot:
    """A slot emptied (cards attached to it stay)."""
    return m.Slot(attached=slot.attached)


def _remove_at(state: State, location: str, card: str) -> State:
    """CARD taken out of a board location: a slot empties (what lay beneath is defeated), a Sector entry goes."""
    zone, _, idx = location.partition(".")
    if zone in ("shadows", "bureau"):
        slots: dict[str, m.Slot] = getattr(state, zone)
        slot = slots[idx]
        if slot.card == card:
            return msgspec.structs.replace(state, **{zone: {**slots, idx: _empty_slot(slot)}},
                                           defeated_conspiracy=[*state.defeated_conspiracy, *slot.beneath])
    if card in state.sector:
        sector = list(state.sector)
        sector.remove(card)
        return msgspec.structs.replace(state, sector=sector)
    return state


def _to_discard(state: State, seat: str, *cards: str) -> State:
    return _player(state, seat, discard=sorted([*state.players[seat].discard, *cards]))


@HANDLERS.on(m.CardsDrawn)
def _cards_drawn(state: State, e: m.CardsDrawn) -> State:
    state = msgspec.structs.replace(state, pending=state.pending[1:])
    p = state.players[e.seat]
    if e.from_pile and not e.reshuffled:
        state = _drew(_player(state, e.seat, deck=_less(p.deck, e.cards)), f"players.{e.seat}.deck", len(e.cards))
    state = _player(state, e.seat, hand=sorted([*p.hand, *e.cards]), known_top=p.known_top[len(e.cards):])
    state = _effects(state, e.triggers, first=True)
    return _doubt_waits(state, e.seat) if e.doubt else state


@HANDLERS.on(m.DeckReshuffled)
def _deck_reshuffled(state: State, e: m.DeckReshuffled) -> State:
    p = state.players[e.seat]
    state = _player(state, e.seat, deck=_less(p.discard, e.cards), discard=[])
    return _drew(state, f"players.{e.seat}.deck", len(e.cards), shuffled=True)


@HANDLERS.on(m.ActionPhaseBegan)
def _action_phase_began(state: State, e: m.ActionPhaseBegan) -> State:
    state = _turn(state, phase="action")
    return _doubt_waits(state, e.seat) if e.doubt else state


@HANDLERS.on(m.ActionsEnded)
def _actions_ended(state: State, e: m.ActionsEnded) -> State:
    t = state.turn
    return _turn(state, attack={**t.attack, **{b: 0 for b in BUCKETS}}, recruit={**t.recruit, **{b: 0 for b in BUCKETS}})


@HANDLERS.on(m.StrikePhaseBegan)
def _strike_phase_began(state: State, e: m.StrikePhaseBegan) -> State:
    return _turn(state, phase="strike", strike_queue=list(e.queue))


@HANDLERS.on(m.TurnEnded)
def _turn_ended(state: State, e: m.TurnEnded) -> State:
    return state


@HANDLERS.on(m.TurnBegan)
def _turn_began(state: State, e: m.TurnBegan) -> State:
    if e.first:
        return _turn(msgspec.structs.replace(state, status="in_progress"), phase="conspiracy")
    for seat in e.skipped:
        state = _player(state, seat, skip_next_turn=False)
    turn = msgspec.convert(fresh_turn(list(state.seats), e.seat, e.n, "conspiracy"), m.Turn)
    return msgspec.structs.replace(state, turn=turn)


@HANDLERS.on(m.CharacterRecruited)
def _character_recruited(state: State, e: m.CharacterRecruited) -> State:
    state = _to_discard(_remove_at(state, e.where, e.card), e.seat, e.card)
    n = e.where.partition(".")[2]
    text = m.Triggered(source=f"bureau_slot.{n}", trigger="bureau_slot", seat=e.seat)
    return _effects(state, (text,), first=False) if e.slot_text else state


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
    return _player(state, e.seat, play=play)


@HANDLERS.on(m.EndGameDamaged)
def _end_game_damaged(state: State, e: m.EndGameDamaged) -> State:
    damage = {**state.end_game_damage, e.card: state.end_game_damage.get(e.card, 0) + e.n}
    return msgspec.structs.replace(state, end_game_damage=damage)


@HANDLERS.on(m.DoubtGained)
def _doubt_gained(state: State, e: m.DoubtGained) -> State:
    return _to_discard(msgspec.structs.replace(state, doubt_stack=state.doubt_stack - 1), e.seat, "doubt")


@HANDLERS.on(m.BeliefGained)
def _belief_gained(state: State, e: m.BeliefGained) -> State:
    return _to_discard(msgspec.structs.replace(state, belief_stack=state.belief_stack - 1), e.seat, "belief")


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
        state = _to_discard(state, e.seat, e.card)
    state = _player(state, e.seat, coordinated_out="")
    return _turn(state, coordinated={**state.turn.coordinated, e.seat: ""})


@HANDLERS.on(m.TurnCleanedUp)
def _turn_cleaned_up(state: State, e: m.TurnCleanedUp) -> State:
    if e.phase:
        state = _turn(state, phase=e.phase)
    if e.passed:
        state = _turn(state, strike_queue=state.turn.strike_queue[e.passed:])
    state = _effects(state, e.triggers, first=False)
    if not e.discarded:
        return state
    p = state.players[e.seat]
    played = [x.card for x in p.play if not x.virtual_of]
    return _player(state, e.seat, play=[], hand=[], vigilant=sorted([*p.vigilant, *e.vigilant]),
                   discard=sorted([*p.discard, *_less(played, e.vigilant), *p.hand]))


@HANDLERS.on(m.FightDeclared)
def _fight_declared(state: State, e: m.FightDeclared) -> State:
    if e.declared:
        state = _declared(state)
    if e.discard:
        hand = list(state.players[e.seat].hand)
        hand.remove(e.discard)
        state = _to_discard(_player(state, e.seat, hand=hand), e.seat, e.discard)
    if e.end_game:
        state = _turn(state, end_game_fights=state.turn.end_game_fights + 1)
    return state


@HANDLERS.on(m.EnemyDefeated, m.CardDefeated)
def _card_defeated(state: State, e: m.EnemyDefeated | m.CardDefeated) -> State:
    if e.where:
        state = _remove_at(state, e.where, e.card)
    if isinstance(e, m.CardDefeated) and e.character:
        state = msgspec.structs.replace(state, defeated_characters=sorted([*state.defeated_characters, e.card]))
    else:
        state = msgspec.structs.replace(state, defeated_conspiracy=[*state.defeated_conspiracy, e.card])
    return _effects(state, e.triggers, first=True)


@HANDLERS.on(m.LeaderDefeated)
def _leader_defeated(state: State, e: m.LeaderDefeated) -> State:
    return state


@HANDLERS.on(m.EndGameDefeated)
def _end_game_defeated(state: State, e: m.EndGameDefeated) -> State:
    if e.where:
        state = _remove_at(state, e.where, e.card)
    return msgspec.structs.replace(state, defeated_conspiracy=[*state.defeated_conspiracy, e.card])


@HANDLERS.on(m.AllyGained)
def _ally_gained(state: State, e: m.AllyGained) -> State:
    state = msgspec.structs.replace(state, pending=state.pending[1:])
    return _to_discard(_remove_at(state, e.where, e.card), e.seat, e.card)


@HANDLERS.on(m.CardCoordinated)
def _card_coordinated(state: State, e: m.CardCoordinated) -> State:
    p = state.players[e.seat]
    hand = list(p.hand)
    hand.remove(e.card)
    state = _player(state, e.seat, hand=hand)
    if e.solo:
        state = _turn(_to_discard(state, e.seat, e.card), solo_coordinated=True)
    else:
        state = _player(state, e.seat, coordinated_out=e.card)
        state = _turn(state, coordinated={**state.turn.coordinated, e.seat: e.card})
    return _pending(state, m.Pending(kind="draw", seat=e.seat, count=1), first=False)


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
    state = _player(msgspec.structs.replace(state, belief_stack=state.belief_stack + 1), e.seat, **fields)
    return _turn(state, **turn)


@HANDLERS.on(m.DoubtResolved)
def _doubt_resolved(state: State, e: m.DoubtResolved) -> State:
    hand = list(state.players[e.seat].hand)
    hand.remove("doubt")
    state = _player(state, e.seat, hand=hand)
    state = msgspec.structs.replace(state, doubt_stack=state.doubt_stack + 1, pending=state.pending[1:])
    return _turn(state, doubt_resolved=True, **({"coordinate_forbidden": True} if e.forbids_coordinate else {}))


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
        state = _player(state, e.seat, play=play)
    else:
        cards = list(getattr(p, e.zone))
        cards.remove(e.card)
        state = _player(state, e.seat, **{e.zone: cards})
    hits = bool(state.options["virtual_defeat_hits_owner"])
    if virtual and hits:
        state = _turn(_player(state, virtual, coordinated_out=""), coordinated={**state.turn.coordinated, virtual: ""})
    if not virtual or hits:
        state = msgspec.structs.replace(state, defeated_characters=sorted([*state.defeated_characters, e.card]))
    return state


@HANDLERS.on(m.VigilantUsed)
def _vigilant_used(state: State, e: m.VigilantUsed) -> State:
    p = state.players[e.seat]
    if e.discarded == "vigilant":
        vigilant = list(p.vigilant)
        vigilant.remove(e.card)
        state = _player(state, e.seat, vigilant=vigilant)
    elif e.discarded == "play":
        play = list(p.play)
        play.remove(next(x for x in play if x.card == e.card))
        state = _player(state, e.seat, play=play)
    return _to_discard(state, e.seat, e.card) if e.discarded and not e.defeated else state


@HANDLERS.on(m.PlayerFought)
def _player_fought(state: State, e: m.PlayerFought) -> State:
    grants = list(state.turn.grants)
    grants.remove(f"fight_player:{e.seat}")
    return _turn(state, grants=grants)


def _declared(state: State) -> State:
    return msgspec.structs.replace(state, audit=m.Audit(declared=state.audit.declared + 1))


@HANDLERS.on(m.EvidenceDiscovered)
def _evidence_discovered(state: State, e: m.EvidenceDiscovered) -> State:
    item = m.Pending(kind="reveal", seat=e.seat, location=e.where, origin="discover", source=e.card)
    return _declared(_pending(state, item, first=True))


@HANDLERS.on(m.EvidenceCollected)
def _evidence_collected(state: State, e: m.EvidenceCollected) -> State:
    n = e.where.partition(".")[2]
    evidence = msgspec.structs.replace(state.evidence[n], state="collected", in_end_game=False)
    return _declared(msgspec.structs.replace(state, evidence={**state.evidence, n: evidence}))


@HANDLERS.on(m.StrikeDue)
def _strike_due(state: State, e: m.StrikeDue) -> State:
    if e.passed:
        state = _turn(state, strike_queue=state.turn.strike_queue[e.passed:])
    if e.end_game:
        item = m.Pending(kind="end_game_strike", seat=e.seat, source=e.source, location=e.location)
    else:
        item = m.Pending(kind="strike", seat=e.seat, source=e.source, strike_no=e.strike_no, strikes=e.strikes,
                         reason=e.text)
    return _pending(state, item, first=not e.last)


@HANDLERS.on(m.TheEndBegan)
def _the_end_began(state: State, e: m.TheEndBegan) -> State:
    return msgspec.structs.replace(state, the_end=True)


@HANDLERS.on(m.ScarAdded)
def _scar_added(state: State, e: m.ScarAdded) -> State:
    deck = msgspec.structs.replace(state.strike_deck, blind=state.strike_deck.blind + 1)
    state = _drew(msgspec.structs.replace(state, strike_deck=deck), "strike_deck", 1)
    return _player(state, e.seat, scars=[*state.players[e.seat].scars, ""])


@HANDLERS.on(m.EvidenceExposed)
def _evidence_exposed(state: State, e: m.EvidenceExposed) -> State:
    evidence = {p: ev if ev.state == "collected" else msgspec.structs.replace(ev, in_end_game=True)
                for p, ev in state.evidence.items()}
    group = state.turn.groups + 1
    items = [m.Pending(kind="reveal", seat=e.seat, location=f"evidence.{p}", origin="the_end") for p in e.reveals]
    items += [m.Pending(kind="effect", seat=t.seat, source=t.source, location=t.location, trigger=t.trigger, group=group)
              for t in e.triggers]
    state = msgspec.structs.replace(state, evidence=evidence, pending=[*items, *state.pending])
    return _turn(state, groups=group)


# -- the Shadows row and the Sector (§3.3) --------------------------------------------------------------------


def _take(state: State, where: str) -> tuple[State, m.Slot]:
    """The card in the slot WHERE taken out (attached cards stay; out of the Bureau, what lay beneath it
    is defeated as it leaves), and the slot as it was."""
    zone, _, idx = where.partition(".")
    slots: dict[str, m.Slot] = getattr(state, zone)
    slot = slots[idx]
    state = msgspec.structs.replace(state, **{zone: {**slots, idx: _empty_slot(slot)}})
    if zone == "bureau":
        state = msgspec.structs.replace(state, defeated_conspiracy=[*state.defeated_conspiracy, *slot.beneath])
    return state, slot


def _put(state: State, to: str, card: m.Slot) -> State:
    """CARD (a slot's moving part) comes to rest at TO: an empty Shadows slot, or the Sector."""
    if to == "sector":
        return _enter_sector(state, card)
    idx = to.partition(".")[2]
    slot = m.Slot(attached=state.shadows[idx].attached, beneath=card.beneath, card=card.card, origin=card.origin,
                  revealed_before=card.revealed_before, state=card.state, via_x=card.via_x)
    return msgspec.structs.replace(state, shadows={**state.shadows, idx: slot})


def _enter_sector(state: State, card: m.Slot) -> State:
    """CARD enters the Sector at the entry side: what lay beneath it is defeated; face down, it waits to be
    revealed there (last; a known face-down card keeps its identity in what waits)."""
    ident = card.card if card.state == "revealed" else ""
    sector = [ident, *state.sector] if state.options["sector_entry_side"] == "left" else [*state.sector, ident]
    seen = state.revealed_before
    if card.revealed_before and card.card and card.card not in seen:
        seen = [*seen, card.card]
    state = msgspec.structs.replace(state, sector=sector, revealed_before=seen,
                                    defeated_conspiracy=[*state.defeated_conspiracy, *card.beneath])
    if card.state == "revealed":
        return state
    item = m.Pending(kind="reveal", location="sector", origin=card.origin or "placed", source=card.card)
    return _pending(state, item, first=False)


@HANDLERS.on(m.CardPushed, m.CardEnteredSector, m.EndGameMoved, m.RunnerMoved)
def _moved(state: State, e: m.Moved) -> State:
    state, card = _take(state, e.where)
    return _put(state, e.to, card)


@HANDLERS.on(m.SeasonChanged)
def _season_changed(state: State, e: m.SeasonChanged) -> State:
    return msgspec.structs.replace(state, season=e.text)


@HANDLERS.on(m.ConspiracyCardPlaced)
def _conspiracy_card_placed(state: State, e: m.ConspiracyCardPlaced) -> State:
    deck = state.conspiracy_deck
    i = next(i for i, seg in enumerate(deck.segments) if seg.remaining > 0)
    seg = deck.segments[i]
    card = m.Slot(state="hidden", card=seg.cards[0] if seg.cards else "", origin=seg.label)
    segments = list(deck.segments)
    segments[i] = msgspec.structs.replace(seg, remaining=seg.remaining - 1, cards=seg.cards[1:])
    state = msgspec.structs.replace(state, conspiracy_deck=msgspec.structs.replace(deck, segments=segments),
                                    season=seg.label)
    return _put(state, e.to, card)


@HANDLERS.on(m.ClonePlaced)
def _clone_placed(state: State, e: m.ClonePlaced) -> State:
    aside = [m.CloneEvidence(priority=int(p)) for p in ("1", "2", "3") if state.evidence[p].in_end_game]
    state = msgspec.structs.replace(state, clone_evidence=aside)
    if e.to != "conspiracy_deck":
        return _put(state, e.to, m.Slot(state="hidden", card=e.card, origin="placed"))
    deck = state.conspiracy_deck
    stack = m.Segment(label="placed", remaining=1, cards=[e.card])
    return msgspec.structs.replace(state, conspiracy_deck=msgspec.structs.replace(
        deck, segments=[stack, *deck.segments]))


# -- reveals (§3.4, §4.23) ------------------------------------------------------------------------------------


@HANDLERS.on(m.CardRevealed)
def _card_revealed(state: State, e: m.CardRevealed) -> State:
    item = state.pending[0]
    state = msgspec.structs.replace(state, pending=state.pending[1:])
    if e.pool:
        state = _drew(state, e.pool, 1)
    if e.category:
        state = _seen(state, e.pool.partition(".")[2], e.category)
    zone, _, n = e.where.partition(".")
    if zone == "avatar_box":
        state = _player(state, e.seat, avatar=e.card, wounds=[], scars=[], symptoms=0)
    elif zone == "climax":
        state = _player(state, n, climax=[*state.players[n].climax, e.card])
        state = msgspec.structs.replace(state, climax_dealt=[*state.climax_dealt, e.card])
    elif zone == "special_agents":
        cards = list(state.special_agents.cards)
        cards.remove(e.card)
        state = _to_discard(msgspec.structs.replace(state, special_agents=m.SpecialAgents(cards=cards)), e.seat, e.card)
    elif zone == "clone_evidence":
        aside = list(state.clone_evidence)
        aside[int(n)] = msgspec.structs.replace(aside[int(n)], card=e.card)
        state = msgspec.structs.replace(state, clone_evidence=aside)
    elif zone == "evidence":
        fields: dict[str, Any] = {"card": e.card, "state": "exposed" if item.origin == "the_end" else "discovered"}
        if item.origin == "discover":
            fields["leader"] = item.source
        evidence = msgspec.structs.replace(state.evidence[n], **fields)
        state = msgspec.structs.replace(state, evidence={**state.evidence, n: evidence})
    elif zone == "sector":
        sector = list(state.sector)
        sector[int(n) - 1] = e.card
        seen = state.revealed_before if e.card in state.revealed_before else [*state.revealed_before, e.card]
        state = msgspec.structs.replace(state, sector=sector, revealed_before=seen)
    else:
        slots: dict[str, m.Slot] = getattr(state, zone)
        slot = msgspec.structs.replace(slots[n], state="revealed", card=e.card, revealed_before=True)
        state = msgspec.structs.replace(state, **{zone: {**slots, n: slot}})
        if e.syndicate:
            deck = state.academy_deck
            state = msgspec.structs.replace(state, academy_deck=msgspec.structs.replace(
                deck, syndicate_seen=deck.syndicate_seen + 1))
    state = _effects(state, e.triggers, first=True)
    if e.ally:
        state = _pending(state, m.Pending(kind="ally", seat=e.seat, source=e.card, location=e.where), first=True)
    if e.clone:
        items = [m.Pending(kind="reveal", seat=e.seat, location=f"clone_evidence.{i}", origin="clone")
                 for i, x in enumerate(state.clone_evidence) if not x.card]
        state = msgspec.structs.replace(state, pending=[*items, *state.pending])
    return state


def _seen(state: State, label: str, category: str) -> State:
    """One more card of ``category`` seen from the Conspiracy stack LABEL."""
    deck = state.conspiracy_deck
    i = next(i for i, seg in enumerate(deck.segments) if seg.label == label)
    segments = list(deck.segments)
    seg = segments[i]
    segments[i] = msgspec.structs.replace(seg, seen={**seg.seen, category: seg.seen.get(category, 0) + 1})
    return msgspec.structs.replace(state, conspiracy_deck=msgspec.structs.replace(deck, segments=segments))


# -- strikes (§3.6, §3.7, §4.19, §4.20) -------------------------------------------------------------------------


def _reshuffle_strikes(state: State) -> State:
    state = msgspec.structs.replace(state, strike_deck=m.StrikeDeck(cards=sorted(state.strike_discard)),
                                    strike_discard=[])
    return _drew(state, "strike_deck", 0, shuffled=True)


@HANDLERS.on(m.StrikeDeckReshuffled)
def _strike_deck_reshuffled(state: State, e: m.StrikeDeckReshuffled) -> State:
    return _reshuffle_strikes(state)


def _strike_drawn(state: State, e: m.StrikeDrawn) -> State:
    state = msgspec.structs.replace(state, pending=state.pending[1:])
    cards = list(state.strike_deck.cards)
    cards.remove(e.card)
    deck = msgspec.structs.replace(state.strike_deck, cards=cards)
    state = _drew(msgspec.structs.replace(state, strike_deck=deck), "strike_deck", 1)
    return _reshuffle_strikes(state) if e.reshuffled else state


def _used(state: State, grant: str, declared: bool) -> State:
    """The effect's grant used up, or the entry resting on a declaration."""
    if grant:
        grants = list(state.turn.grants)
        grants.remove(grant)
        state = _turn(state, grants=grants)
    return _declared(state) if declared else state


@HANDLERS.on(m.StrikeTaken)
def _strike_taken(state: State, e: m.StrikeTaken) -> State:
    state = _strike_drawn(state, e)
    taken = {**state.end_game_strikes, e.source: [*state.end_game_strikes.get(e.source, []), e.card]}
    return msgspec.structs.replace(state, end_game_strikes=taken)


@HANDLERS.on(m.StrikeMissed, m.StrikeCancelled)
def _strike_discarded(state: State, e: m.StrikeMissed | m.StrikeCancelled) -> State:
    if isinstance(e, m.StrikeCancelled):
        state = _used(state, e.grant, e.declared)
    state = _strike_drawn(state, e)
    return msgspec.structs.replace(state, strike_discard=sorted([*state.strike_discard, e.card]))


@HANDLERS.on(m.WoundAdded)
def _wound_added(state: State, e: m.WoundAdded) -> State:
    state = _strike_drawn(state, e)
    return _player(state, e.seat, wounds=[*state.players[e.seat].wounds, e.card])


@HANDLERS.on(m.StrikeAvoided)
def _strike_avoided(state: State, e: m.StrikeAvoided) -> State:
    item = state.pending[0]
    state = _used(msgspec.structs.replace(state, pending=state.pending[1:]), e.grant, e.declared)
    state = _turn(state, avoid_used=[*state.turn.avoid_used, e.key])
    if item.strikes > 1:
        second = m.Pending(kind="strike", seat=e.seat, source=item.source, strike_no=2, strikes=item.strikes,
                           reason=item.reason)
        state = _pending(state, second, first=True)
    return state


@HANDLERS.on(m.StrikeFollowedUp)
def _strike_followed_up(state: State, e: m.StrikeFollowedUp) -> State:
    group = state.turn.groups + 1
    state = _turn(state, groups=group)
    items: list[m.Pending] = []
    if e.ferocious:
        items.append(m.Pending(kind="strike", seat=e.seat, source=e.source, strike_no=e.strike_no, strikes=e.strikes,
                               reason="ferocious"))
    items += [m.Pending(kind="effect", seat=t.seat, source=t.source, location=t.location, trigger=t.trigger,
                        group=group) for t in e.triggers]
    if e.again:
        items.append(m.Pending(kind="strike", seat=e.seat, source=e.source, strike_no=e.strike_no + 1,
                               strikes=e.strikes, reason=e.text))
    return msgspec.structs.replace(state, pending=[*items, *state.pending])


# -- players defeated, fights and texts ------------------------------------------------------------------------


@HANDLERS.on(m.PlayerDefeated)
def _player_defeated(state: State, e: m.PlayerDefeated) -> State:
    p = state.players[e.seat]
    if e.saved:
        state = _player(state, e.seat, scars=[*p.scars, *p.wounds], wounds=[], skip_next_turn=True)
    elif not e.out:
        state = _player(state, e.seat, defeated=True)
    else:
        if p.coordinated_out:
            state = _turn(state, coordinated={**state.turn.coordinated, e.seat: ""})
        struck = sorted([*state.strike_discard, *p.wounds, *(s for s in p.scars if s)]) if e.strikes_back \
            else state.strike_discard
        state = _player(state, e.seat, defeated=True, hand=[], deck=[], discard=[], vigilant=[], play=[],
                        coordinated_out="", climax=[], wounds=[], scars=[])
        state = msgspec.structs.replace(
            state, strike_discard=struck, belief_stack=state.belief_stack + e.beliefs,
            doubt_stack=state.doubt_stack + e.doubts,
            defeated_characters=sorted([*state.defeated_characters, *e.cards]),
            pending=[i for i in state.pending if i.seat != e.seat or i.kind == "effect"])
    if not e.turn_ends:
        return state
    seat = state.turn.seat
    state = msgspec.structs.replace(state, pending=[i for i in state.pending if i.seat != seat and i.kind != "strike"])
    for s in state.seats:
        play = state.players[s].play
        if any(x.virtual_of for x in play):
            state = _player(state, s, play=[x for x in play if not x.virtual_of])
    return _turn(state, strike_queue=[])


@HANDLERS.on(m.FightFailed, m.SetupCompleted)
def _nothing_more(state: State, e: m.FightFailed | m.SetupCompleted) -> State:
    return state


@HANDLERS.on(m.EffectResolved)
def _effect_resolved(state: State, e: m.EffectResolved) -> State:
    pending = list(state.pending)
    del pending[next(i for i, x in enumerate(pending) if x.source == e.source)]
    if e.reveal:
        pending.insert(0, m.Pending(kind="reveal", seat=e.seat, location="avatar_box", origin=e.source))
    return msgspec.structs.replace(state, pending=pending)


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
                state = _turn(state, step=event.step)
            if event.fight is not None:
                state = _turn(state, fight_target=event.fight)
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
