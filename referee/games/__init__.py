"""The game registry: one explicit tuple of games, found by id or alias. Nothing registers itself."""

from __future__ import annotations

from referee.engine.protocol import Game

from .by_all_means import GAME as BY_ALL_MEANS
from .war_of_shadows import GAME as WAR_OF_SHADOWS

GAMES: tuple[Game, ...] = (BY_ALL_MEANS, WAR_OF_SHADOWS)


class UnknownGame(LookupError):
    pass


def get_game(name: str) -> Game:
    key = name.strip().lower().replace("-", "_")
    for game in GAMES:
        if key == game.id or key in game.aliases:
            return game
    known = ", ".join(g.id for g in GAMES)
    raise UnknownGame(f"unknown game {name!r}; known games: {known}")
