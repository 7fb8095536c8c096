"""The decision being built: the engine's :class:`Decision` in this game's code scope, folding each
event as it is emitted (so a later check sees it)."""

from __future__ import annotations

from typing import Any

from referee.engine.decision import Decision

from .fold import evolve
from .model import State


class Tx(Decision):
    __slots__ = ("players", "seat")

    def __init__(self, players: tuple[str, ...], state: State, seat: str, waive: frozenset[str]) -> None:
        super().__init__("template/", state, waive=waive)
        self.players = players
        self.seat = seat

    def apply(self, state: Any, event: Any) -> Any:
        return evolve(self.players, state, event)
