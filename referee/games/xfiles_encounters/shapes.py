"""The shapes X-Files' facts share, and the table of their folds (:data:`HANDLERS`): points gained or spent,
a card into a zone or out of a board location, what waits to be resolved (first or last, texts as one
group), a pile drawn from. The facts themselves are in :mod:`.fold` and :mod:`.boardfacts`; each still names
what happened, these are only how the state changes with it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import msgspec

from referee.engine.dispatch import Handlers

from . import model as m
from .model import State

Handler = Callable[[State, Any], State]

#: the fold of each kind of domain fact (vocabulary 2)
HANDLERS: Handlers[Handler] = Handlers("xfiles_encounters fold")


def with_turn(state: State, **fields: Any) -> State:
    return msgspec.structs.replace(state, turn=msgspec.structs.replace(state.turn, **fields))


def with_player(state: State, seat: str, **fields: Any) -> State:
    players = dict(state.players)
    players[seat] = msgspec.structs.replace(players[seat], **fields)
    return msgspec.structs.replace(state, players=players)


def bumped(counts: dict[str, int], key: str, n: int) -> dict[str, int]:
    return {**counts, key: counts[key] + n}


def add_waiting(state: State, item: m.Pending, first: bool) -> State:
    """An item waits: first (it answers what was just done) or last (§3.1)."""
    return msgspec.structs.replace(state, pending=[item, *state.pending] if first else [*state.pending, item])


def add_texts(state: State, triggered: tuple[m.Triggered, ...], first: bool) -> State:
    """Texts triggered together wait as one new group of effects, first or last (§3.2)."""
    if not triggered:
        return state
    group = state.turn.groups + 1
    state = with_turn(state, groups=group)
    items = [m.Pending(kind="effect", seat=t.seat, source=t.source, location=t.location, trigger=t.trigger, group=group)
             for t in triggered]
    return msgspec.structs.replace(state, pending=[*items, *state.pending] if first else [*state.pending, *items])


def add_doubt(state: State, seat: str) -> State:
    return add_waiting(state, m.Pending(kind="doubt", seat=seat), first=True)


def into_play(state: State, seat: str, entry: m.PlayEntry, cls: str, belief: bool) -> State:
    """A card (or a copy) enters SEAT's play area and the turn's play log; it counts toward its class or
    the Beliefs played."""
    p = state.players[seat]
    state = with_player(state, seat, play=[*p.play, entry])
    t = state.turn
    fields: dict[str, Any] = {"play_log": [*t.play_log, m.Played(card=entry.card, cls=cls)]}
    if belief:
        fields["beliefs_played"] = t.beliefs_played + 1
    elif cls and cls != "none":
        fields["played_classes"] = bumped(t.played_classes, cls, 1)
    return with_turn(state, **fields)



def drew_from(state: State, pile: str, n: int, shuffled: bool = False) -> State:
    """N more cards drawn from PILE (after a reshuffle: the first N of its new order)."""
    was = state.draws.get(pile, m.Draws())
    now = m.Draws(drawn=n, shuffles=was.shuffles + 1) if shuffled else m.Draws(drawn=was.drawn + n, shuffles=was.shuffles)
    return msgspec.structs.replace(state, draws={**state.draws, pile: now})


def less(cards: list[str], gone: Any) -> list[str]:
    """CARDS without those GONE (one copy each), sorted."""
    return sorted((Counter(cards) - Counter(gone)).elements())


def emptied(slot: m.Slot) -> m.Slot:
    """A slot emptied (cards attached to it stay)."""
    return m.Slot(attached=slot.attached)


def removed_at(state: State, location: str, card: str) -> State:
    """CARD taken out of a board location: a slot empties (what lay beneath is defeated), a Sector entry goes."""
    zone, _, idx = location.partition(".")
    if zone in ("shadows", "bureau"):
        slots: dict[str, m.Slot] = getattr(state, zone)
        slot = slots[idx]
        if slot.card == card:
            return msgspec.structs.replace(state, **{zone: {**slots, idx: emptied(slot)}},
                                           defeated_conspiracy=[*state.defeated_conspiracy, *slot.beneath])
    if card in state.sector:
        sector = list(state.sector)
        sector.remove(card)
        return msgspec.structs.replace(state, sector=sector)
    return state


def to_discard(state: State, seat: str, *cards: str) -> State:
    return with_player(state, seat, discard=sorted([*state.players[seat].discard, *cards]))



def counted_declared(state: State) -> State:
    return msgspec.structs.replace(state, audit=m.Audit(declared=state.audit.declared + 1))
