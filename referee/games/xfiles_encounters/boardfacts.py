"""The fold of the board's facts (issue 28 item 5; :mod:`.fold` has the design): the Shadows row and the
Sector, reveals, strikes and their answers, players defeated, a fight that does not go on, a text
resolved. A card moves between places as it lies: what a face-down card is stays in the state and no
event says it."""

from __future__ import annotations

from typing import Any

import msgspec

from . import model as m
from .model import State
from .shapes import (
    HANDLERS, add_texts, add_waiting, counted_declared, drew_from, emptied, to_discard, with_player, with_turn,
)


# -- the Shadows row and the Sector (§3.3) --------------------------------------------------------------------


def _take(state: State, where: str) -> tuple[State, m.Slot]:
    """The card in the slot WHERE taken out (attached cards stay; out of the Bureau, what lay beneath it
    is defeated as it leaves), and the slot as it was."""
    zone, _, idx = where.partition(".")
    slots: dict[str, m.Slot] = getattr(state, zone)
    slot = slots[idx]
    state = msgspec.structs.replace(state, **{zone: {**slots, idx: emptied(slot)}})
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
    return add_waiting(state, item, first=False)


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
        state = drew_from(state, e.pool, 1)
    if e.category:
        state = _seen(state, e.pool.partition(".")[2], e.category)
    zone, _, n = e.where.partition(".")
    if zone == "avatar_box":
        state = with_player(state, e.seat, avatar=e.card, wounds=[], scars=[], symptoms=0)
    elif zone == "climax":
        state = with_player(state, n, climax=[*state.players[n].climax, e.card])
        state = msgspec.structs.replace(state, climax_dealt=[*state.climax_dealt, e.card])
    elif zone == "special_agents":
        cards = list(state.special_agents.cards)
        cards.remove(e.card)
        state = to_discard(msgspec.structs.replace(state, special_agents=m.SpecialAgents(cards=cards)), e.seat, e.card)
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
    state = add_texts(state, e.triggers, first=True)
    if e.ally:
        state = add_waiting(state, m.Pending(kind="ally", seat=e.seat, source=e.card, location=e.where), first=True)
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
    return drew_from(state, "strike_deck", 0, shuffled=True)


@HANDLERS.on(m.StrikeDeckReshuffled)
def _strike_deck_reshuffled(state: State, e: m.StrikeDeckReshuffled) -> State:
    return _reshuffle_strikes(state)


def _strike_drawn(state: State, e: m.StrikeDrawn) -> State:
    state = msgspec.structs.replace(state, pending=state.pending[1:])
    cards = list(state.strike_deck.cards)
    cards.remove(e.card)
    deck = msgspec.structs.replace(state.strike_deck, cards=cards)
    state = drew_from(msgspec.structs.replace(state, strike_deck=deck), "strike_deck", 1)
    return _reshuffle_strikes(state) if e.reshuffled else state


def _used(state: State, grant: str, declared: bool) -> State:
    """The effect's grant used up, or the entry resting on a declaration."""
    if grant:
        grants = list(state.turn.grants)
        grants.remove(grant)
        state = with_turn(state, grants=grants)
    return counted_declared(state) if declared else state


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
    return with_player(state, e.seat, wounds=[*state.players[e.seat].wounds, e.card])


@HANDLERS.on(m.StrikeAvoided)
def _strike_avoided(state: State, e: m.StrikeAvoided) -> State:
    item = state.pending[0]
    state = _used(msgspec.structs.replace(state, pending=state.pending[1:]), e.grant, e.declared)
    state = with_turn(state, avoid_used=[*state.turn.avoid_used, e.key])
    if item.strikes > 1:
        second = m.Pending(kind="strike", seat=e.seat, source=item.source, strike_no=2, strikes=item.strikes,
                           reason=item.reason)
        state = add_waiting(state, second, first=True)
    return state


@HANDLERS.on(m.StrikeFollowedUp)
def _strike_followed_up(state: State, e: m.StrikeFollowedUp) -> State:
    group = state.turn.groups + 1
    state = with_turn(state, groups=group)
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
        state = with_player(state, e.seat, scars=[*p.scars, *p.wounds], wounds=[], skip_next_turn=True)
    elif not e.out:
        state = with_player(state, e.seat, defeated=True)
    else:
        if p.coordinated_out:
            state = with_turn(state, coordinated={**state.turn.coordinated, e.seat: ""})
        struck = sorted([*state.strike_discard, *p.wounds, *(s for s in p.scars if s)]) if e.strikes_back \
            else state.strike_discard
        state = with_player(state, e.seat, defeated=True, hand=[], deck=[], discard=[], vigilant=[], play=[],
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
            state = with_player(state, s, play=[x for x in play if not x.virtual_of])
    return with_turn(state, strike_queue=[])


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
