"""Declared effects (§4.30): ``manual_effect`` and the deltas every other intent may carry, checked
delta by delta in sequence, applied with their automatic consequences (three hits kill a suspect; an
emptied deck reshuffles its face-up discards) and flagged for audit."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from msgspec import structs

from referee.engine.codes import TurnCode

from .cancel import cancel_last_action, from_text, inverse
from .codes import Code
from .deltas import problem
from .deviation import deviations
from .model import (
    Event,
    Intent,
    CancelLastActionDelta, CardDelta, DeckReshuffled, DeltaApplied, DigDeeper, HitDelta, ManualEffect, PlayDarkCard,
    PlayLightCard, Popped, ResolveGeneralEvent, ResolvePlots, ResolveSpecificEvent, State, SuspectKilled,
    UseLocationAbility,
)
from .txn import R_MANUAL, BoundRules, Tx


def check_deltas(tx: Tx, deltas: Sequence[Any]) -> None:
    """Every delta possible in sequence, without recording them (a Tx on a copy)."""
    trial = Tx(tx.rules, tx.s, tx.seat, frozenset())
    apply_deltas(trial, deltas)


def apply_deltas(tx: Tx, deltas: Sequence[Any], what: str = "") -> None:
    for i, delta in enumerate(deltas, start=1):
        if isinstance(delta, CancelLastActionDelta):
            cancel_last_action(tx, i, apply_deltas)
            continue
        why = problem(tx.rules, tx.s, delta)
        if why is not None:
            tag = type(delta).__struct_config__.tag
            tx.fail(Code.MANUAL_INCONSISTENT, f"{what + ': ' if what else ''}delta {i} ({tag}): {why}", R_MANUAL)
        if tx.undo is not None:
            tx.undo.extend(inverse(tx.rules, tx.s, delta))
        before = tx.s
        tx.emit(DeltaApplied(seat=tx.seat, delta=delta))
        if isinstance(delta, HitDelta) and tx.s.suspects[delta.suspect].hits >= 3 and tx.s.suspects[delta.suspect].alive:
            tx.emit(SuspectKilled(suspect=delta.suspect))
        for why in deviations(tx.rules, before, tx.s, delta):
            tx.flag("rule_deviation", why)
        if isinstance(delta, CardDelta):
            for det, kinds in sorted(tx.s.decks.items()):
                for kind, d in sorted(kinds.items()):
                    if not d.face_down and d.bottom:
                        tx.emit(DeckReshuffled(deck=f"{det}.{kind}"))


def manual_effect(tx: Tx, it: ManualEffect) -> None:
    s = tx.s
    top = s.pending[0] if s.pending else None
    declaring = top is not None and top.seat == tx.seat and top.step in ("effect_declaration", "piece_bonus")
    if tx.seat != "arbiter":
        allowed = (s.phase == "day" and tx.seat == s.active_seat) or declaring
        tx.require(allowed, TurnCode.NOT_YOUR_TURN, f"{tx.seat} may declare an effect only in its own turn "
                   "(or when a declaration is pending for it)", R_MANUAL)
    if it.source is not None:
        named = [st for st in s.pending if st.source == it.source]
        if named:
            tx.require(named[0] is top, Code.MANUAL_NO_WINDOW, f"{it.source} is pending but {top.step if top else ''} comes first", R_MANUAL)
    elif tx.seat != "arbiter" and top is not None and not declaring \
            and not any(isinstance(d, CancelLastActionDelta) for d in it.deltas):
        tx.fail(Code.TURN_STEP_PENDING, f"{top.seat} must finish {top.step} first", R_MANUAL)
    apply_deltas(tx, it.deltas)
    if top is not None and it.source is not None and it.source == top.source:
        tx.emit(Popped(step=top.step))
    tx.flag("manual_effect", it.source or it.note or "declared effect")


_ = structs

#: the intents that may carry declared deltas
WITH_DELTAS = (ManualEffect, PlayLightCard, PlayDarkCard, UseLocationAbility, DigDeeper, ResolveGeneralEvent,
               ResolveSpecificEvent, ResolvePlots)


def _public(rules: BoundRules, state: State, card: str) -> bool:
    """Whether ``card`` lies where everyone sees it: face up at the bottom of its deck, or in play."""
    c = rules.data.cards[card]
    deck = state.decks.get(c.detective, {}).get(c.deck)
    return (deck is not None and card in deck.bottom) or any(card in p.in_play for p in state.players.values())


def _holds_from(rules: BoundRules, state: State, seat: str, card: str) -> bool:
    """Whether ``seat`` holds cards of ``card``'s deck, as its public hand origins show."""
    c = rules.data.cards[card]
    origins = (rules.data.cards.get(x) for x in state.players[seat].hand)
    return any(o is not None and (o.detective, o.deck) == (c.detective, c.deck) for o in origins)


def confirmer(rules: BoundRules, state: State, seat: str, intent: Intent) -> str | None:
    """Who must confirm a declared effect before it is adjudicated, because it changes another seat's
    hidden hand (§1.11): the seat a ``card:`` delta puts a card into the hand of, and the seat whose hand
    it may take the card from — one whose public hand origins show cards of that card's deck, when the
    card is in none of the zones ``seat`` sees (its own hand, the face-up discards, cards in play). Two
    seats: the arbiter. Decided from the intent and what ``seat`` sees, never from the other hands' ids;
    the arbiter's own declarations are adjudicated at once."""
    if seat == "arbiter" or not isinstance(intent, WITH_DELTAS):
        return None
    who: set[str] = set()
    mine = state.players[seat].hand if seat in state.players else ()
    deltas = list(intent.deltas)
    if any(isinstance(d, CancelLastActionDelta) for d in deltas) and state.last_action is not None:
        deltas += from_text(state.last_action.undo)  # what «Отмена» would undo is declared as well
    for d in deltas:
        if not isinstance(d, CardDelta):
            continue
        owner, _, zone = d.zone.partition(".")
        if zone == "hand" and owner != seat and owner in state.players:
            who.add(owner)
        if d.card not in rules.data.cards or d.card in mine or _public(rules, state, d.card):
            continue
        who.update(s for s in state.players if s != seat and _holds_from(rules, state, s, d.card))
    if not who:
        return None
    return who.pop() if len(who) == 1 else "arbiter"


def redact(item: Intent | Event, actor: str | None, seat: str | None) -> Intent | Event:
    """The Structs' declarations, plus one case from a public fact of the entry: a ``card:`` delta into
    ``<seat>.hand`` shows its card to that seat, who receives it (and so may confirm it knowingly)."""
    from msgspec.structs import replace

    from referee.engine.secrecy import redact as by_declaration

    shown: Any = by_declaration(item, actor, seat)  # a copy of the item's own class
    result: Intent | Event = shown
    if seat is None or shown is item:
        return result
    if isinstance(item, DeltaApplied) and isinstance(item.delta, CardDelta) and item.delta.zone == f"{seat}.hand":
        result = replace(shown, delta=item.delta)
    elif isinstance(item, WITH_DELTAS) and any(isinstance(d, CardDelta) and d.zone == f"{seat}.hand" for d in item.deltas):
        deltas = tuple(d if isinstance(d, CardDelta) and d.zone == f"{seat}.hand" else e
                       for d, e in zip(item.deltas, shown.deltas, strict=True))
        result = replace(shown, deltas=deltas)
    return result
