"""Inline card data in scenario files follows the game's own card schema (issue 11): each game names
its card file's top-level tables and the field keying their entries (``Game.card_tables``), and the
scenario runner merges a file's inline tables over its card set table by table."""

from __future__ import annotations

import os
import sys

from referee.engine.datafile import load_toml
from referee.games.by_all_means import GAME as BAM
from referee.games.war_of_shadows import GAME as WOS
from referee.scenario import _cards_text, run_file
from referee.service import Referee
from referee.store.memory import MemoryStore
from support.tally import TALLY

INLINE_TALLY = '''game = "tally"
players = ["ann"]
[options]
target = 7

[[card]]
id = "D6"
name = "Six Lanterns, dimmed"
value = 7

[[deck]]
id = "shared"
cards = ["D6", "D1"]

[position]
played = []

[[steps]]
actor = "ann"
intent = "draw card=D6"
[steps.state]
deck = ["D1"]

[[steps]]
actor = "ann"
intent = "play card=D6"

[outcome]
winners = ["ann"]
kind = "team_win"
scores = { tally = 7 }
'''


def test_a_keyed_inline_entry_replaces_its_namesake_and_keeps_the_others(tmp_path):
    path = tmp_path / "inline.toml"
    path.write_text(INLINE_TALLY, encoding="utf-8")
    result = run_file(str(path), games=[TALLY])
    assert result.passed, [f.what for f in result.failures]
    _name, text = _cards_text(Referee(MemoryStore(), games=[TALLY]), load_toml(INLINE_TALLY), str(tmp_path))
    merged = load_toml(text or "")
    assert [c["id"] for c in merged["card"]] == ["D1", "D2", "D3", "D4", "D5", "D6"]
    assert merged["card"][-1]["value"] == 7 and merged["deck"] == [{"id": "shared", "cards": ["D6", "D1"]}]


def test_a_table_the_games_card_file_does_not_have_is_refused(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text(INLINE_TALLY + '\n[[combination]]\npair = ["s1", "s2"]\n', encoding="utf-8")
    result = run_file(str(path), games=[TALLY])
    assert not result.passed
    assert "unknown key(s) combination" in result.failures[0].what and "card, cards, chance" in result.failures[0].what


def test_each_game_merges_by_its_own_schema(tmp_path):
    referee = Referee(MemoryStore())
    bam = {"game": "by_all_means", "card": [{"id": "TR1", "name": "Inline Harbor"}],
           "combination": [{"pair": ["s1", "s2"], "effect": "expose"}], "set": {"name": "Inline"}}
    merged = load_toml(_cards_text(referee, bam, str(tmp_path))[1] or "")
    ids = [c["id"] for c in merged["card"]]
    assert ids.count("TR1") == 1 and ids[-1] == "TR1" and len(ids) >= 20
    assert merged["combination"] == bam["combination"] and merged["set"]["name"] == "Inline"
    assert merged["set"]["id"]  # the set's other fields are kept
    wos = {"game": "war_of_shadows", "cards": "boards", "board": [{"board_id": "demo", "name": "Replaced"},
                                                                  {"board_id": "extra", "name": "Added"}]}
    boards = load_toml(_cards_text(referee, wos, str(tmp_path))[1] or "")["board"]
    names = {b["board_id"]: b["name"] for b in boards}
    assert names["demo"] == "Replaced" and names["extra"] == "Added" and len(boards) == 3
    assert BAM.card_tables["card"] == "id" and WOS.card_tables["board"] == "board_id"


def test_the_bundled_card_files_hold_only_their_games_tables():
    for game in (BAM, WOS, TALLY):
        root = os.path.dirname(sys.modules[type(game).__module__].__file__ or "")
        for rel in game.card_sets.values():
            with open(os.path.join(root, rel), encoding="utf-8") as fh:
                data = load_toml(fh.read())
            assert data and set(data) <= set(game.card_tables), (game.id, rel, sorted(data))
