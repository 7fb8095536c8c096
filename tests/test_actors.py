"""One meaning of ``actors`` for every game (``DecidingHooks`` in referee/engine/protocol.py): the actors
whose intent the rules adjudicate now, the framework refusing anyone else with ``turn/not_your_turn``.
Checked on random legal play of each of the five games (a seeded digital match): every seat offered a
legal intent is among ``actors(state, intent)``; the actors are seats or the game's declared other
actors, nobody else; and they follow from the intent's kind and the state alone, never its arguments."""

from __future__ import annotations

import random

import pytest

from referee.engine import core
from referee.engine.protocol import Accepted, Rejected
from referee.games import GAMES
from referee.games._template import GAME as TEMPLATE
from referee.service import Referee
from referee.store.memory import MemoryStore
from schemas import MatchConfig

SEED = 2028
MOVES = 40


def _play(game_id: str):
    """(rules, state) at each step of a seeded random game, played by picks from the legal intents."""
    referee = Referee(MemoryStore())
    game = referee.game(game_id)
    seats = [f"p{i}" for i in range(max(game.min_players, min(3, game.max_players)))]
    loaded = referee.load(referee.new_match(game.id, seats, seed=SEED).id)
    rules = loaded.rules
    state = referee.state_at(loaded)[1]
    chance = core.play_chance(rules.config)
    rng = random.Random(SEED)
    for _ in range(MOVES):
        if rules.outcome(state) is not None:
            return
        yield rules, state
        pick = rules.random_intent(state, rng)
        if pick is None:
            return
        seat, intent = pick
        _, verdict = core.adjudicate(rules, state, seat, intent, chance)
        assert isinstance(verdict, Accepted), f"{game_id}: random_intent offered {intent!r} to {seat}: {verdict}"
        state = core.apply(rules, state, verdict)


@pytest.mark.parametrize("game", [g.id for g in GAMES])
def test_actors_mean_the_same_in_every_game(game):
    declared = next(g for g in GAMES if g.id == game).capabilities.other_actors
    steps = offered = 0
    for rules, state in _play(game):
        allowed = set(rules.players) | set(declared)
        steps += 1
        by_kind: dict[type, frozenset[str]] = {}
        for seat in rules.players:
            for intent in rules.legal_intents(state, seat):
                offered += 1
                actors = rules.actors(state, intent)
                assert seat in actors, f"{game}: {seat} may play {intent!r}, but actors are {sorted(actors)}"
                assert actors <= allowed, f"{game}: actors {sorted(actors - allowed)} are neither seats nor declared"
                first = by_kind.setdefault(type(intent), actors)
                assert actors == first, f"{game}: actors of {type(intent).__name__} differ by its arguments"
    assert steps >= 5 and offered >= steps, f"{game}: only {steps} positions, {offered} legal intents checked"


def test_an_actor_outside_actors_is_refused_before_the_rules():
    """The gate itself: a seat the game's ``actors`` leaves out is refused turn/not_your_turn, naming who
    may act (the template's rules check the turn first, so its actors are the seat to move)."""
    rules = TEMPLATE.bind(MatchConfig(game="template", players=("alice", "bob"), options={"stones": 5}))
    state = rules.setup(None)
    take = TEMPLATE.intent_type(count=1)
    assert rules.actors(state, take) == {"alice"}
    _, verdict = core.adjudicate(rules, state, "bob", take, None)
    assert isinstance(verdict, Rejected) and verdict.code == "turn/not_your_turn"
    assert "may act: alice" in verdict.message
    _, verdict = core.adjudicate(rules, state, "alice", take, None)
    assert isinstance(verdict, Accepted)
