"""Small edits of the state that the fold (:mod:`.fold`) and the declared deltas (:mod:`.deltas`) share:
a player's or a suspect's fields replaced, a lead put somewhere, a card taken from or put under its deck,
a pile's history of draws counted on. Pure functions: the state in, a new state out."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from .model import Draws, State
from .txn import BoundRules


def with_player(state: State, seat: str, **changes: Any) -> State:
    players = dict(state.players)
    players[seat] = replace(players[seat], **changes)
    return replace(state, players=players)


def sorted_add(items: tuple[str, ...], *new: str) -> tuple[str, ...]:
    return tuple(sorted((*items, *new)))


def without(items: tuple[str, ...], item: str) -> tuple[str, ...]:
    out = list(items)
    if item in out:
        out.remove(item)
    return tuple(out)


def drew(state: State, pile: str, n: int = 1) -> State:
    """``n`` more drawn from ``pile`` (``n`` = -1: a drawn card went back where it was): its next draw
    has a new key."""
    h = state.draws.get(pile, Draws())
    return replace(state, draws={**state.draws, pile: replace(h, drawn=max(0, h.drawn + n))})


def reshuffled(state: State, pile: str) -> State:
    h = state.draws.get(pile, Draws())
    return replace(state, draws={**state.draws, pile: Draws(drawn=0, shuffles=h.shuffles + 1)})


def deck_of(rules: BoundRules, card: str) -> tuple[str, str] | None:
    c = rules.data.cards.get(card)
    return None if c is None else (c.detective, c.deck)


def take_card(rules: BoundRules, state: State, card: str) -> State:
    """``card`` out of the face-down part of its deck."""
    where = deck_of(rules, card)
    if where is None or where[0] not in state.decks:
        return state
    det, kind = where
    decks = {k: dict(v) for k, v in state.decks.items()}
    d = decks[det][kind]
    if card not in d.face_down:
        return state
    decks[det][kind] = replace(d, face_down=without(d.face_down, card))
    return drew(replace(state, decks=decks), f"{det}.{kind}")


def to_bottom(rules: BoundRules, state: State, card: str) -> State:
    where = deck_of(rules, card)
    if where is None or where[0] not in state.decks:
        return state
    det, kind = where
    decks = {k: dict(v) for k, v in state.decks.items()}
    d = decks[det][kind]
    decks[det][kind] = replace(d, bottom=(*d.bottom, card))
    return replace(state, decks=decks)


def with_suspect(state: State, sus: str, **changes: Any) -> State:
    suspects = dict(state.suspects)
    suspects[sus] = replace(suspects[sus], **changes)
    return replace(state, suspects=suspects)


def set_lead(state: State, lead: str, where: str) -> State:
    t, _, owner = lead.partition(".")
    leads = {k: dict(v) for k, v in state.leads.items()}
    leads[t][owner] = where
    return replace(state, leads=leads)
