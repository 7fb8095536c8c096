"""The game template (``referee/games/_template/``, registered nowhere) is a working game: set up, one
intent accepted, one refused, a waivable rule waived by a ruling, a game played to its end, and an audit
that re-adjudicates it clean, on each store backend. So the package a new game is copied from cannot rot."""

from __future__ import annotations

import pytest

from referee.engine.protocol import Accepted, Rejected
from referee.errors import BadInput
from referee.games import _template, ids
from referee.service import Referee
from referee.store.memory import MemoryStore
from schemas import MatchConfig

GAME = _template.GAME


def test_the_template_is_not_registered():
    assert "template" not in ids() and GAME.id == "template"


def test_the_rules_alone_decide_and_fold():
    rules = GAME.bind(MatchConfig(game="template", players=("alice", "bob"), options={"stones": 4}))
    state = rules.setup(None)
    assert (state.pile, state.active) == (4, "alice")
    ok = rules.decide(state, "alice", _template.model.Take(count=3), None)
    assert isinstance(ok, Accepted) and ok.events == (_template.model.Taken(seat="alice", count=3),)
    after = rules.evolve(state, ok.events[0])
    assert (after.pile, after.active, after.last) == (1, "bob", "alice")
    too_many = rules.decide(after, "bob", _template.model.Take(count=2), None)
    assert isinstance(too_many, Rejected) and too_many.code == "template/not_enough" and too_many.rule == "R2"
    assert rules.legal_intents(after, "bob") == [_template.model.Take(count=1)]
    assert rules.legal_intents(after, "alice") == []


def test_a_match_on_the_template_plays_refuses_and_audits_clean(db_store):
    r = Referee(db_store, games=[GAME], clock=lambda: "")
    m = r.new_match("template", ["alice", "bob"], options={"stones": 5})
    assert r.submit(m.id, "alice", "take count=2").accepted
    refused = r.submit(m.id, "bob", "take count=4")
    assert isinstance(refused.verdict, Rejected) and refused.verdict.code == "template/bad_count"
    assert "take 1 to 3 stones, not 4" in refused.verdict.message
    not_yours = r.submit(m.id, "alice", "take count=1")
    assert isinstance(not_yours.verdict, Rejected) and not_yours.verdict.code == "turn/not_your_turn"
    assert r.show(m.id).state["pile"] == 3  # the refusals changed nothing
    assert r.submit(m.id, "bob", "take count=3").accepted
    assert r.result(m.id) is not None and r.result(m.id).winners == ("bob",)
    report = r.audit(m.id)
    assert report.clean and report.entries == 4


def test_the_front_ends_read_the_game_base_defaults():
    info = Referee(MemoryStore(), games=[GAME]).describe_game("template")
    assert (info.aliases, info.card_sets, info.default_card_set, info.players) == ([], [], None, (2, 4))
    assert [v.verb for v in info.intents] == ["take"] and [o.name for o in info.options] == ["stones"]


def test_a_bad_option_is_refused_with_nothing_written(db_store):
    r = Referee(db_store, games=[GAME], clock=lambda: "")
    with pytest.raises(BadInput, match="stones"):
        r.new_match("template", ["alice", "bob"], options={"stones": 0})
    assert r.matches() == []
