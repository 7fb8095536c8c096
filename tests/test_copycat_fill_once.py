"""Copycat judges a digital match's intent once (issue 27): filling its chance facts is a judgement of the
intent already, so ``decide`` of the filled intent takes the filling's decision instead of judging it
again; the verdict is the one a second judgement reaches, for every intent of a seeded random game, and
a ruling's waived codes (or another state) are judged afresh."""

from __future__ import annotations

import random

from referee.engine import core
from referee.engine.protocol import Accepted, RulesBase
from referee.games.copycat import decide as copycat_decide
from referee.service import Referee
from referee.store.memory import MemoryStore


def test_each_intent_of_a_digital_game_is_judged_once_and_as_a_second_judgement_would(monkeypatch):
    referee = Referee(MemoryStore())
    match = referee.new_match("copycat", ["anna", "ben", "cleo"], seed=41, cards="spec_fixture")
    loaded = referee.load(match.id)
    rules, config = loaded.rules, loaded.config
    state = rules.setup(core.chance_for(config, "setup"))
    chance = core.play_chance(config)
    judged: list[object] = []
    judge = type(copycat_decide.DECIDERS).judge

    def counting(self, tx, intent):
        judged.append(intent)
        return judge(self, tx, intent)

    monkeypatch.setattr(type(copycat_decide.DECIDERS), "judge", counting)
    rng = random.Random(5)
    once = 0
    for _ in range(150):
        pick = rules.random_intent(state, rng)
        if pick is None or rules.outcome(state) is not None:
            break
        seat, intent = pick
        judged.clear()
        filled, verdict = core.adjudicate(rules, state, seat, intent, chance)
        calls = len(judged)
        again = RulesBase.decide(rules, state, seat, filled, chance)  # the second judgement it used to make
        assert core.canonical(verdict) == core.canonical(again), (seat, intent)
        if isinstance(verdict, Accepted) and calls:
            assert calls == 1, (seat, intent, calls)
            once += 1
        state = core.apply(rules, state, verdict)
    assert once >= 100  # the game went on: setup, draws, plays, clean-ups


def test_a_ruling_or_another_state_is_judged_afresh():
    referee = Referee(MemoryStore())
    match = referee.new_match("copycat", ["anna", "ben"], seed=7, cards="spec_fixture")
    loaded = referee.load(match.id)
    rules, config = loaded.rules, loaded.config
    state = rules.setup(core.chance_for(config, "setup"))
    chance = core.play_chance(config)
    seat, intent = rules.random_intent(state, random.Random(1))
    filled = rules.filled_intent(state, seat, intent, chance)
    assert rules._reached is not None and rules._reached[2] is filled
    other = rules.setup(core.chance_for(config, "setup"))  # equal, not the same state
    assert core.canonical(rules.decide(other, seat, filled, chance)) == core.canonical(
        RulesBase.decide(rules, other, seat, filled, chance))
    assert rules._reached is None  # taken (and not matched): the next decide judges afresh
