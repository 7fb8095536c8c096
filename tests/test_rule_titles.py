"""An English message names the rulebook's section in English; the rule reference keeps the heading as the
rulebook prints it (issue 24 item 5). Each game declares one table of the sections its refusals cite
(section, English, Russian); the citation a refusal records never changes (the log's hashes cover it), an
English sentence reads it through the table, and the JSON answer carries both."""

from __future__ import annotations

import ast
import glob
import importlib
import os
import re

import pytest

from conftest import ROOT
from referee.engine.rulebook import Rulebook
from referee.export import export
from referee.service import Referee
from referee.store.memory import MemoryStore
from referee.transcript import import_transcript

GAMES = ("android", "by_all_means", "copycat", "war_of_shadows", "xfiles_encounters")
CYRILLIC = re.compile(r"[\u0400-\u04FF]")
HEADING = re.compile(r"«([^«»]*(?:«[^«»]*»[^«»]*)*)»")
#: a citation as a game writes one: a section number, a rule id, or a heading
CITATION = re.compile(r"^(§\d|R\d\d\b|R-[A-Z]|«)")
REPLAYS = sorted(glob.glob(os.path.join(ROOT, "replays", "*", "*.txt")))


def _citations(game: str) -> list[str]:
    """Every string constant of the game's package that is a citation (docstrings aside)."""
    found: set[str] = set()
    base = os.path.join(ROOT, "referee", "games", game)
    for name in sorted(os.listdir(base)):
        if not name.endswith(".py") or name == "rulebook.py":
            continue
        with open(os.path.join(base, name), encoding="utf-8") as fh:
            tree = ast.parse(fh.read())
        docs = {id(n.body[0].value) for n in ast.walk(tree)
                if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and n.body
                and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
        found |= {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
                  and id(n) not in docs and CITATION.match(n.value)}
    return sorted(found)


def _book(game: str) -> Rulebook:
    return importlib.import_module(f"referee.games.{game}").GAME.rulebook  # type: ignore[no-any-return]


@pytest.mark.parametrize("game", GAMES)
def test_every_citation_a_game_writes_reads_in_english_and_names_its_russian_heading(game):
    book = _book(game)
    citations = _citations(game)
    assert citations, game
    for rule in citations:
        english = book.english(rule)
        assert not CYRILLIC.search(english), (game, rule, english)
        named = book.sections(rule)
        for heading in HEADING.findall(rule):  # every printed heading the citation gives is a section of the table
            assert heading in [s.russian for s in named], (game, rule, named)
        if CYRILLIC.search(rule) is None and re.fullmatch(r"(R\d\d|R-[A-Z-]+)(, (R\d\d|R-[A-Z-]+|§[\d.]+))*", rule):
            ids = re.findall(r"R\d\d|R-[A-Z]+(?:-[A-Z]+)*", rule)  # a rule id alone: the table names it, in both
            assert [s.section for s in named] == ids, (game, rule)
            assert all(s.english and s.english in english for s in named), (game, rule, english)
    for row in book.rows:
        assert row.english and not CYRILLIC.search(row.english), (game, row)
        assert row.section and (row.russian == "" or not row.russian.isascii() or row.russian.isupper()), (game, row)


def test_the_table_reads_a_citation_as_the_issue_asks():
    book = _book("war_of_shadows")
    assert book.english("§4.7 «ФАЗА АГЕНТОВ», Этап 2") == "§4.7 Agents phase, step 2"
    assert [(s.section, s.english, s.russian) for s in book.sections("§4.19 «ФАЗА СБРОСА», «Предел руки»")] == [
        ("§4.19", "Discard phase", "ФАЗА СБРОСА"), ("§4.19", "Hand limit", "Предел руки")]
    assert book.english("§4.15, §3.3") == "§4.15, §3.3 Empire phases"  # a number alone is named too
    assert _book("xfiles_encounters").english("R35") == "R35 Cleanup phase"
    assert Rulebook().english("§4.7 «ФАЗА АГЕНТОВ»") == "§4.7 «ФАЗА АГЕНТОВ»"  # a game without a table: as recorded


@pytest.mark.parametrize("path", REPLAYS, ids=lambda p: os.path.relpath(p, ROOT))
def test_every_refusal_of_a_replay_is_english_where_people_read_it_and_printed_where_machines_do(path):
    r = Referee(MemoryStore())
    with open(path, encoding="utf-8") as fh:
        summary = import_transcript(r, fh.read(), path, os.path.dirname(path))
    refused = [e for e in r.log(summary.match_id) if e.rejection is not None and e.rejection.rule]
    assert refused, path
    for e in refused:
        why = e.rejection
        assert not CYRILLIC.search(f"{why.code}: {why.message} ({why.rule_english})"), (path, e.seq, why)
        assert why.rule_english == _book(summary.game).english(why.rule)
        for heading in HEADING.findall(why.rule):
            assert heading in [s.russian for s in why.sections], (path, e.seq, why)
        if summary.game in ("by_all_means", "xfiles_encounters"):  # cited by id: the Russian heading is in sections
            assert why.sections and all(s.russian and CYRILLIC.search(s.russian) for s in why.sections), why
    for problem in summary.problems:
        assert not CYRILLIC.search(f"{problem.message} ({problem.rule_english})"), problem
    for fmt in ("txt", "md", "html"):  # what people read: the exports, as any role sees them
        assert not CYRILLIC.search(export(r, summary.match_id, fmt, "spectator")), (path, fmt)
    printed = [e.rejection.rule for e in refused if CYRILLIC.search(e.rejection.rule)]
    assert (summary.game in ("android", "copycat", "war_of_shadows")) == bool(printed), (path, printed)


def test_play_says_the_section_in_english_and_its_json_keeps_both(cli):
    mid = cli("new", "copycat", "--players", "anna,boris", "--json").json["id"]
    said = cli("play", mid, "anna", "setup street=c01")
    assert said.code == 1 and "(§2 Preparing the game)" in said.out and not CYRILLIC.search(said.out), said.out
    again = cli("play", mid, "anna", "setup street=c01", "--json").json["rejection"]
    assert again["rule"] == "§2 «Подготовка к игре»" and again["rule_english"] == "§2 Preparing the game"
    logged = cli("log", mid, "--json").json[0]["rejection"]
    assert logged["sections"] == [{"section": "§2", "english": "Preparing the game", "russian": "Подготовка к игре"}]
