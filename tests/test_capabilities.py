"""A game's capabilities are declared once, as data on its Game (``Game.capabilities``), and front ends
read them: each declaration must say what the game's rules really do, a flag set exactly when the rules
override the hook it stands for, and the other actors the game's ``actors`` may name."""

from __future__ import annotations

import pytest

from referee.engine.protocol import Capabilities, RulesBase
from referee.games import GAMES
from referee.games._template import GAME as TEMPLATE
from support.pile import PileGame
from support.tally import TallyGame

#: each flag of Capabilities, and the hook of the rules it declares
HOOKS = {"continuation": "carry_over", "confirmations": "confirmer", "listing": "listing", "opening": "in_opening"}

EVERY_GAME = [*GAMES, PileGame(), TallyGame(), TEMPLATE]


def test_every_flag_names_a_hook():
    flags = {f for f in Capabilities.__struct_fields__ if f != "other_actors"}
    assert flags == set(HOOKS)
    assert all(hasattr(RulesBase, hook) for hook in HOOKS.values())


@pytest.mark.parametrize("game", EVERY_GAME, ids=lambda g: g.id)
def test_a_flag_is_declared_exactly_when_the_rules_override_its_hook(game):
    declared = game.capabilities
    for flag, hook in HOOKS.items():
        overridden = getattr(game.rules_type, hook) is not getattr(RulesBase, hook)
        assert getattr(declared, flag) == overridden, (
            f"{game.id}: capabilities.{flag}={getattr(declared, flag)}, but its rules "
            f"{'override' if overridden else 'do not override'} {hook}")


def test_the_bundled_games_declare_what_they_have():
    caps = {g.id: g.capabilities for g in GAMES}
    assert caps["xfiles_encounters"].continuation
    assert [g for g, c in caps.items() if c.continuation] == ["xfiles_encounters"]
    assert {g for g, c in caps.items() if c.opening} == {g.id for g in GAMES}  # every game has a template
    assert {g: c.other_actors for g, c in caps.items() if c.other_actors} == {
        "android": ("arbiter",), "copycat": ("table",)}
