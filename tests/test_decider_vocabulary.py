"""One decider for every game: checks are spelled ``check`` (a ruling "stands as played" may waive it) or
``require``/``fail`` (never waived), and ``RulesBase.decide`` runs a game's table of deciders on its decision
and keeps the state after it for ``applied``. X-Files' game rules can now be ruled away; what a move cannot
be carried out without still cannot."""

from __future__ import annotations

import ast
import os
import re
import tomllib
from typing import Any

import pytest

from conftest import ROOT
from referee.engine.decision import Decision
from referee.engine.protocol import Accepted, Deciders, Rejected, RulesBase
from referee.games.xfiles_encounters.codes import Code
from referee.service import Referee
from referee.store.memory import MemoryStore
from support.sources import nodes

GAMES = ("android", "by_all_means", "copycat", "war_of_shadows", "xfiles_encounters")
#: the tests that parse the sources run on the worker of tests/test_layering.py, which has parsed them already
#: (tests/support/sources.py)
SOURCES = pytest.mark.xdist_group("layering")
#: how checks were spelled before the games shared one vocabulary
OLD_SPELLINGS = re.compile(r"\.need\(|\.refuse\(|\.violated\(|raise Refuse\(|raise Refusal\(|\bRefuse = |class Refuse\b|waivable=|"
                           r"NEVER_WAIVED|WAIVABLE\b|def applied\(|def decide\(")


# -- the engine ----------------------------------------------------------------------------------------------


def _evolve(state: int, event: int) -> int:
    return state + event


def test_a_check_is_waived_by_a_ruling_naming_it_and_a_require_never():
    waived = Decision("g/", 0, _evolve, waive=frozenset({"g/limit", "g/missing"}))
    waived.check(False, "limit", "over the limit")  # waived: goes on
    with pytest.raises(Exception) as exc:
        waived.require(False, "missing", "no such card")
    assert getattr(exc.value, "code", None) == "g/missing"
    plain = Decision("g/", 0, _evolve)
    with pytest.raises(Exception) as exc:
        plain.check(False, "limit", "over the limit")
    assert getattr(exc.value, "code", None) == "g/limit"


def _add(tx: Decision, intent: int) -> None:
    tx.require(tx.state + intent >= 0, "below_zero", "the counter cannot go below 0")
    tx.emit(intent)
    tx.check(tx.state <= 3, "above_three", "the counter stops at 3")


class _Counting(RulesBase):
    """A game of one counter: ``intent`` is added; above 3 is a rule (waivable), below 0 impossible."""

    deciders = Deciders({int: _add})

    def decision(self, state: Any, seat: str, chance: Any, waive: frozenset[str]) -> Decision:
        return Decision("count/", state, _evolve, waive=waive)

    # the rest of what every game defines (RulesBase declares them abstract)
    def setup(self, chance: Any) -> int:
        return 0

    def actors(self, state: Any, intent: Any) -> frozenset[str]:
        return frozenset({"a"})

    def filled_intent(self, state: Any, seat: str, intent: Any, chance: Any) -> Any:
        return intent

    def check_input(self, intent: Any) -> None:
        return None

    def evolve(self, state: Any, event: Any) -> Any:
        return _evolve(state, event)

    def view(self, state: Any, seat: Any) -> dict[str, Any]:
        return {"count": state}

    def hidden_ids(self, state: Any, seat: Any) -> frozenset[str]:
        return frozenset()

    def outcome(self, state: Any) -> None:
        return None


def test_rules_base_decides_and_keeps_the_state_after_an_accepted_decision():
    rules = _Counting()
    state = 1
    verdict = rules.decide(state, "a", 2, None)
    assert isinstance(verdict, Accepted) and verdict.events == (2,)
    assert rules.applied(state, verdict) == 3
    assert rules.applied(state, Accepted((2,))) is None  # another verdict: matched by identity only
    refused = rules.decide(state, "a", 5, None)
    assert isinstance(refused, Rejected) and refused.code == "count/above_three"
    assert rules.applied(state, verdict) == 3  # a refusal keeps nothing
    ruled = rules.decide(state, "a", 5, None, waive=frozenset({"count/above_three"}))
    assert isinstance(ruled, Accepted) and rules.applied(state, ruled) == 6
    still = rules.decide(state, "a", -4, None, waive=frozenset({"count/below_zero"}))
    assert isinstance(still, Rejected) and still.code == "count/below_zero"


def test_the_table_runs_before_the_decider_after_and_again_on_a_refusal():
    seen: list[str] = []

    def before(tx: Decision, intent: Any) -> None:
        seen.append("before")
        tx.require(intent != "blocked" or tx.state > 0, "blocked", "blocked until something is added")

    def again(tx: Decision, start: Any, intent: Any) -> bool:
        seen.append("again")
        tx.state, tx.events = start, []
        tx.emit(1)  # what makes the intent possible comes first
        return True

    plain = Deciders({str: lambda tx, intent: seen.append(intent)}, before=before, after=lambda tx, i: seen.append("after"))
    plain.judge(Decision("g/", 1, _evolve), "go")
    assert seen == ["before", "go", "after"]
    with pytest.raises(Exception) as exc:
        plain.judge(Decision("g/", 0, _evolve), "blocked")
    assert getattr(exc.value, "code", None) == "g/blocked"
    seen.clear()
    retried = Deciders({str: lambda tx, intent: seen.append(intent)}, before=before, again=again)
    tx = Decision("g/", 0, _evolve)
    retried.judge(tx, "blocked")
    assert seen == ["before", "again", "before", "blocked"] and tx.events == [1] and tx.state == 1
    with pytest.raises(TypeError, match="no decider for the intent int"):
        plain.judge(Decision("g/", 0, _evolve), 5)


@pytest.mark.parametrize("game", GAMES)
def test_a_game_declares_its_table_and_writes_no_judge(game):
    import importlib

    from referee.games import GAMES as REGISTERED

    rules_type = next(g for g in REGISTERED if g.id == game).rules_type
    assert isinstance(rules_type.deciders, Deciders)
    assert rules_type.deciders is importlib.import_module(f"referee.games.{game}.decide").DECIDERS
    assert rules_type.judge is RulesBase.judge and rules_type.decide is RulesBase.decide


def test_every_game_speaks_the_one_vocabulary():
    found = []
    for game in GAMES:
        base = os.path.join(ROOT, "referee", "games", game)
        for name in sorted(os.listdir(base)):
            if name.endswith(".py"):
                with open(os.path.join(base, name), encoding="utf-8") as fh:
                    for n, line in enumerate(fh, 1):
                        if OLD_SPELLINGS.search(line):
                            found.append(f"{game}/{name}:{n}: {line.strip()}")
    assert found == []


# -- X-Files: a ruling lets a game rule's refusal stand ------------------------------------------------------


def _xfiles_at(scenario: str) -> tuple[Referee, str]:
    with open(os.path.join(ROOT, "tests", "scenarios", "xfiles_encounters", scenario), "rb") as fh:
        spec = tomllib.load(fh)
    r = Referee(MemoryStore(), clock=lambda: "")
    m = r.new_match("xfiles_encounters", spec["players"], cards=spec["cards"], options=spec["options"],
                    position=spec["position"])
    return r, m.id


def _play(r: Referee, mid: str, seat: str, text: str, expect: str = "accepted") -> Any:
    res = r.submit(mid, seat, text)
    assert ("accepted" if res.accepted else res.verdict.code) == expect, text
    return res


def test_an_xfiles_ruling_lets_a_stealth_fight_in_the_shadows_stand():
    r, mid = _xfiles_at("s13_stealth.toml")
    for card in ("strike_team", "strike_team", "strike_team", "fx_burks_theory"):
        _play(r, mid, "alice", f"play_card card={card}")
    refused = _play(r, mid, "alice", "fight target=shadows.1", "xfiles_encounters/stealth_in_shadows")
    ruled = r.rule_stands(mid, refused.seq, reason="the table played the Stalker as not stealthy")
    assert ruled.accepted
    state = r.show(mid).state
    assert state["defeated_conspiracy"] == ["fx_s1_stalker"] and state["shadows"]["1"]["state"] == "empty"
    assert r.verify(mid) == []


def test_an_xfiles_ruling_cannot_play_a_card_that_is_not_there():
    r, mid = _xfiles_at("s13_stealth.toml")
    refused = _play(r, mid, "alice", "play_card card=doubt", "xfiles_encounters/card_not_in_hand")
    ruled = r.rule_stands(mid, refused.seq, reason="let it be")
    assert not ruled.accepted and ruled.verdict.code == "ruling/still_illegal"
    assert "card_not_in_hand" in ruled.verdict.message
    assert r.show(mid).state["players"]["alice"]["hand"].count("strike_team") == 3


def _xfiles_waivable() -> frozenset[str]:
    """The codes X-Files spells ``check`` (a ruling may waive them), read from its source."""
    codes = set()
    base = os.path.join(ROOT, "referee", "games", "xfiles_encounters")
    for name in sorted(os.listdir(base)):
        if name.endswith(".py"):
            for node in nodes(os.path.join(base, name)):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "check":
                    codes.update(str(Code[n.attr]) for n in ast.walk(node.args[1])
                                 if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "Code")
    return frozenset(codes)


def _ruled_steps() -> list[tuple[str, int]]:
    waivable = _xfiles_waivable()
    found = []
    folder = os.path.join(ROOT, "tests", "scenarios", "xfiles_encounters")
    for name in sorted(os.listdir(folder)):
        with open(os.path.join(folder, name), "rb") as fh:
            steps = tomllib.load(fh).get("steps", [])
        found += [(name, k) for k, step in enumerate(steps) if step.get("expect", "").removeprefix("rejected:") in waivable]
    return found


@SOURCES
def test_xfiles_declares_its_game_rules_waivable_and_its_structure_not():
    waivable = {c.removeprefix("xfiles_encounters/") for c in _xfiles_waivable()}
    assert {"stealth_in_shadows", "already_coordinated", "belief_already_activated", "doubt_already_resolved"} <= waivable
    assert not waivable & {"wrong_phase", "pending_input", "nothing_pending", "card_not_in_hand", "slot_empty",
                           "bad_payment", "draw_inconsistent", "player_defeated"}


#: scenario steps whose ruling is still refused, by the check that fails once the first is waived: the Belief
#: text limit after the Belief card limit; a Doubt's type (``not_playable`` at its ``fail``, not the
#: waivable turn restriction); no Doubt pending
STILL_ILLEGAL = {("s19_beliefs.toml", 6): "belief_text_already_resolved", ("s20_doubt.toml", 3): "not_playable",
                 ("s20_doubt.toml", 4): "nothing_pending"}


@pytest.mark.parametrize("scenario,k", _ruled_steps(), ids=lambda v: str(v))
def test_every_xfiles_refusal_a_scenario_shows_for_a_game_rule_can_be_ruled_to_stand(scenario, k):
    """Each step of the spec's scenarios refused for a waivable rule: ruled to stand, it is played (no
    error on the way) and the match audits clean, or the ruling is refused for the check still failing."""
    with open(os.path.join(ROOT, "tests", "scenarios", "xfiles_encounters", scenario), "rb") as fh:
        steps = tomllib.load(fh)["steps"]
    r, mid = _xfiles_at(scenario)
    for step in steps[:k]:
        r.submit(mid, step["actor"], step["intent"])
    refused = _play(r, mid, steps[k]["actor"], steps[k]["intent"], steps[k]["expect"].removeprefix("rejected:"))
    before = r.show(mid).state
    ruled = r.rule_stands(mid, refused.seq, reason="the table's reading")
    still = STILL_ILLEGAL.get((scenario, k))
    if still is None:
        assert ruled.accepted, ruled.verdict
        assert r.show(mid).state != before
    else:
        assert ruled.verdict.code == "ruling/still_illegal"
        assert f"waived: xfiles_encounters/{still}:" in ruled.verdict.message
        assert r.show(mid).state == before
    assert r.verify(mid) == []


# -- rejection codes are a StrEnum per game ------------------------------------------------------------------


def _spelled_codes(base: str, prefix: str) -> list[str]:
    """Where a module of the game package at ``base`` writes one of its codes (``prefix/…``) as a string: a
    check's code, or any other string constant (a ``ConfigError``'s, a module constant's) but a docstring and
    the enum's own values in ``codes.py``."""
    literal = []
    spelled = re.compile(rf"{prefix}/[a-z0-9_]+(/[a-z0-9_]+)?")
    for name in sorted(os.listdir(base)):
        if not name.endswith(".py"):
            continue
        path = os.path.join(base, name)
        for node in nodes(path):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr in ("check", "require", "fail"):
                at = 0 if node.func.attr == "fail" else 1
                arg = node.args[at] if len(node.args) > at else None
                if isinstance(arg, ast.Constant):
                    literal.append(f"{name}:{node.lineno}: {arg.value}")
        declared = _enum_value_lines(path) if name == "codes.py" else set()
        literal += [f"{name}:{n}: {text}" for n, text in _string_constants(path)
                    if spelled.fullmatch(text) and n not in declared]
    return literal


@SOURCES
@pytest.mark.parametrize("game", GAMES + ("_template",))
def test_a_games_codes_are_its_enum_and_no_module_spells_one_as_a_string(game):
    """Every code of a game, its refusals' and its configuration's (options, card and board data, decks, a
    starting position, a series), is a member of its ``Code``, used wherever it is raised."""
    import importlib

    prefix = game.lstrip("_")
    codes = importlib.import_module(f"referee.games.{game}.codes").Code
    assert all(re.fullmatch(rf"{prefix}/[a-z0-9_]+(/[a-z0-9_]+)?", c.value) for c in codes)
    assert len({c.value for c in codes}) == len(codes)
    assert _spelled_codes(os.path.join(ROOT, "referee", "games", game), prefix) == []


def test_a_game_code_spelled_as_a_string_is_found(tmp_path):
    """The check above fails on a configuration code written as a string, the way they all were; the enum's
    values, a docstring naming a code and a member used are not a spelling."""
    (tmp_path / "codes.py").write_text('from enum import StrEnum\n\n\nclass Code(StrEnum):\n'
                                       '    BAD_OPTION = "template/bad_option"\n', encoding="utf-8")
    (tmp_path / "rules.py").write_text('"""Raises template/bad_option."""\n\n\ndef f():\n'
                                       '    raise ConfigError(Code.BAD_OPTION, "no")\n', encoding="utf-8")
    assert _spelled_codes(str(tmp_path), "template") == []
    (tmp_path / "options.py").write_text('def g():\n    raise ConfigError("template/bad_option", "no")\n',
                                         encoding="utf-8")
    assert _spelled_codes(str(tmp_path), "template") == ["options.py:2: template/bad_option"]


# -- the framework's codes are a StrEnum per scope ---------------------------------------------------------


def _all_scopes() -> dict[str, type]:
    """Every scope of codes the product names by an enum: the framework's and the service layer's
    (:mod:`referee.engine.codes`), the HTTP front ends' (:mod:`referee.httpcodes`), a token's
    (:class:`referee.auth.AuthCode`), a tournament's (:class:`referee.tournament.codes.TournamentCode`) and
    the CLI's own (:mod:`cli.codes`)."""
    from cli.codes import SCOPES as CLI
    from referee.auth import AuthCode
    from referee.engine.codes import SCOPES as ENGINE
    from referee.httpcodes import SCOPES as HTTP
    from referee.tournament.codes import TournamentCode

    scopes: dict[str, type] = {**ENGINE, **HTTP, **CLI, "auth": AuthCode, "tournament": TournamentCode}
    assert len(scopes) == len(ENGINE) + len(HTTP) + len(CLI) + 2, "a scope is declared twice"
    return scopes


def test_the_framework_codes_are_an_enum_per_scope():
    for scope, codes in _all_scopes().items():
        assert all(re.fullmatch(rf"{scope}/[a-z0-9_]+", c.value) and c.name == c.value.split("/")[1].upper()
                   for c in codes), scope
        assert len({c.value for c in codes}) == len(codes)


def _string_constants(path: str) -> list[tuple[int, str]]:
    """The string constants of a module that are not docstrings (an f-string's text parts included)."""
    walked = nodes(path)
    docs = {id(node.body[0].value) for node in walked
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body
            and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    return [(node.lineno, node.value) for node in walked
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs]


#: the modules that declare the enums (a member's value is its code's one spelling)
ENUM_MODULES = ("referee/engine/codes.py", "referee/httpcodes.py", "referee/auth.py", "referee/tournament/codes.py",
                "cli/codes.py")


def _enum_value_lines(path: str) -> set[int]:
    """The lines of a module where a ``StrEnum`` member is given its value (the rest of it spells no code)."""
    return {item.lineno for node in nodes(path) if isinstance(node, ast.ClassDef)
            and any(isinstance(b, ast.Name) and b.id == "StrEnum" for b in node.bases)
            for item in node.body if isinstance(item, ast.Assign)}


@SOURCES
def test_no_module_spells_a_framework_code_as_a_string():
    """Every code of an enum's scope (the framework's, the service layer's, the HTTP front ends', tokens',
    tournaments', the CLI's) is named by its enum member wherever the product writes one: the service
    layer, the engine, the games, tournaments, the HTTP apps, the CLI. The store sits below the
    engine (it imports none of it: tests/test_layering.py), so its one code (``input/durability``, a bad
    durability setting) stays a string in its own words."""
    scopes = _all_scopes()
    code = re.compile(rf"({'|'.join(scopes)})/[a-z0-9_]+")
    found = []
    for top in ("referee", "cli"):
        for folder, _, files in os.walk(os.path.join(ROOT, top)):
            if os.path.relpath(folder, ROOT).replace(os.sep, "/").startswith("referee/store"):
                continue
            for name in sorted(files):
                path = os.path.join(folder, name)
                rel = os.path.relpath(path, ROOT).replace(os.sep, "/")
                if name.endswith(".py"):
                    declared = _enum_value_lines(path) if rel in ENUM_MODULES else set()
                    found += [f"{rel}:{n}: {text}" for n, text in _string_constants(path)
                              if code.fullmatch(text) and n not in declared]
    assert found == []
