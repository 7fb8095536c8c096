"""A game's capabilities are declared once, as data on its Game (``Game.capabilities``), and front ends
read them: each declaration must say what the game's rules really do, a flag set exactly when the rules
override the hook it stands for, and the other actors the game's ``actors`` may name."""

from __future__ import annotations

import pytest

from referee.engine.protocol import Capabilities, GameBase, RulesBase
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


# -- the engine reads the declared capability ------------------------------------------------------------------


class _Undeclared(PileGame):
    """Pile whose Game leaves ``confirmations`` undeclared, though its rules still answer ``confirmer``."""

    capabilities = Capabilities(other_actors=("table",))


def test_the_bound_rules_carry_the_declared_confirmations():
    from schemas import MatchConfig

    assert all(type(g).bind is GameBase.bind for g in EVERY_GAME)  # every game binds through the one bind
    config = MatchConfig(game="pile", players=("alice", "bob"))
    assert PileGame().bind(config).confirmations is True and _Undeclared().bind(config).confirmations is False


def test_a_move_is_held_only_for_a_game_that_declares_confirmations():
    """The engine asks ``confirmer`` only when the game declares ``confirmations``: the same guess at
    another seat's token waits for that seat under Pile, and is adjudicated at once (refused, naming the
    wrong token) under a Pile that does not declare it."""
    from referee.service import Referee
    from referee.store.memory import MemoryStore

    for game, held in ((PileGame(), True), (_Undeclared(), False)):
        r = Referee(MemoryStore(), games=[game], clock=lambda: "")
        m = r.new_match("pile", ["alice", "bob"])
        r.submit(m.id, "alice", "start first=alice tokens=K01,K02")
        res = r.submit(m.id, "alice", "guess seat=bob token=K03", blind=True)
        assert res.held is held, game
        if not held:
            assert res.verdict.code == "pile/wrong_guess" and r.show(m.id).state["pile"] == 10
