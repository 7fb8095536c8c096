"""Binding a match's configuration to its game's rules, once per process per configuration.

Binding checks the configuration (its options, its card data parsed and validated) and builds the
game's rules object and the position after setup: 15 to 30 ms for X-Files, Copycat and War of
Shadows, most of it reading their card data. Both are a pure function of the game and the
configuration, and neither changes afterwards: a rules object's own caches (the last decision it
reached, By All Means' scan of a field) are matched by the identity of the state they were made for,
which lives as long as the cache holds it, so matches sharing one rules object never see each
other's; states are never changed in place. So a process keeps the latest :data:`BOUND_MAX` bindings,
keyed by the game and the sha256 of the configuration's canonical bytes: a server binds a
configuration once however many commands read its matches, and a match created and then played in
one process is bound once. A configuration that fails to bind is not kept (it raises each time).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from schemas import MatchConfig

from .engine import core
from .engine.hashing import canonical, sha256_hex
from .engine.protocol import Game, Rules

#: how many bindings a process keeps (the least recently used goes first)
BOUND_MAX = 128

_bound: OrderedDict[tuple[Game, str], tuple[Rules[Any, Any, Any], Any]] = OrderedDict()
_lock = threading.Lock()


def config_key(config: MatchConfig) -> str:
    """The sha256 of the configuration's canonical bytes (sorted keys and fields)."""
    return sha256_hex(canonical(config))


def bind(game: Game, config: MatchConfig) -> tuple[Rules[Any, Any, Any], Any]:
    """(the rules, the position after setup) of ``config`` under ``game``, made once per process while
    kept. Raises :class:`~referee.engine.protocol.ConfigError` for a configuration the game refuses."""
    key = (game, config_key(config))
    with _lock:
        found = _bound.get(key)
        if found is not None:
            _bound.move_to_end(key)
            return found
    rules = game.bind(config)
    state = rules.setup(core.chance_for(config, "setup"))
    if config.position:
        state = rules.apply_position(state, config.position)
    with _lock:
        _bound[key] = (rules, state)
        _bound.move_to_end(key)
        while len(_bound) > BOUND_MAX:
            _bound.popitem(last=False)
    return rules, state


def forget() -> None:
    """Drop every kept binding (for a benchmark's first-time figures)."""
    with _lock:
        _bound.clear()
