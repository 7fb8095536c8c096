"""The game registry: one explicit table of games, found by id or alias. Nothing registers itself.

Each row names a game's id, its aliases and its package. A package is imported only when its game is
first asked for, so ``referee play`` loads the rules of its own match's game alone (start-up stays
lean as games are added); ``GAMES`` (every game, in table order) imports them all.
"""

from __future__ import annotations

import importlib
from typing import Any

from referee.engine.protocol import Game

#: (id, aliases, package) — the aliases are checked against each Game by a test
ENTRIES: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("by_all_means", ("bam", "vse_sredstva_horoshi"), "by_all_means"),
    ("war_of_shadows", ("wos", "voina_tenei"), "war_of_shadows"),
    ("xfiles_encounters", ("xfiles", "x_files", "legendary_xfiles"), "xfiles_encounters"),
    ("android", ("new_angeles", "android_murder"), "android"),
    ("copycat", ("podrazhatel", "fremde_federn"), "copycat"),
)


class UnknownGame(LookupError):
    """No game has that id or alias."""


def _key(name: str) -> str:
    return name.strip().lower().replace("-", "_")


def load(game_id: str) -> Game:
    """The game with this id (its package is imported now if it was not yet)."""
    for gid, _aliases, package in ENTRIES:
        if gid == game_id:
            return importlib.import_module(f"{__name__}.{package}").GAME  # type: ignore[no-any-return]
    raise UnknownGame(f"unknown game {game_id!r}; known games: {', '.join(ids())}")


def ids() -> tuple[str, ...]:
    return tuple(gid for gid, _a, _p in ENTRIES)


def find(name: str) -> Game | None:
    """The game named by an id or alias, or None."""
    key = _key(name)
    for gid, aliases, _package in ENTRIES:
        if key == gid or key in aliases:
            return load(gid)
    return None


def get_game(name: str) -> Game:
    game = find(name)
    if game is None:
        raise UnknownGame(f"unknown game {name!r}; known games: {', '.join(ids())}")
    return game


def all_games() -> tuple[Game, ...]:
    return tuple(load(gid) for gid in ids())


def __getattr__(name: str) -> Any:
    if name == "GAMES":
        return all_games()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
