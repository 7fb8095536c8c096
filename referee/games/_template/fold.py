"""The fold: one event applied to the state. Total over every event ever written; no checks, no choices."""

from __future__ import annotations

import msgspec

from .model import Event, State, Taken


def evolve(players: tuple[str, ...], state: State, event: Event) -> State:
    match event:
        case Taken(seat=seat, count=count):
            nxt = players[(players.index(seat) + 1) % len(players)]
            return msgspec.structs.replace(state, pile=state.pile - count, active=nxt, last=seat)
    raise TypeError(f"unknown event {event!r}")
