"""Intents, events and the state, as msgspec Structs (frozen; intents and events tagged by ``type``
with the verb the notation types: ``take count=2``)."""

from __future__ import annotations

import msgspec

from referee.engine.decision import EventBase, IntentBase


class Take(IntentBase, frozen=True, kw_only=True, tag="take"):
    """Take 1 to 3 stones from the pile (R2)."""

    count: int


Intent = Take


class Taken(EventBase, frozen=True, kw_only=True, tag="taken"):
    seat: str
    count: int


Event = Taken


class State(msgspec.Struct, frozen=True, kw_only=True):
    pile: int
    active: str
    last: str | None = None


__all__ = ["Event", "Intent", "State", "Take", "Taken"]
