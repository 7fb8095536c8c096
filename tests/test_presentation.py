"""Presentation comes from the game (issue 11): each game draws its own table (``Rules.boards``: a
grid, a map of regions, the seats' tableaux, a shared row) from one role's view, and the CLI's ``show``
and the HTML step-through draw any game's boards alike, knowing nothing of any game's fields."""

from __future__ import annotations

import json
import os
import re

import msgspec

import pytest

from cli import render
from conftest import ROOT
from referee.export import export
from referee.service import Referee
from referee.store.memory import MemoryStore
from referee.transcript import import_transcript
from schemas.board import Area, Board
from schemas.http import StateAnswer
from support.pile import PILE
from support.tally import TALLY

GENERIC = ("cli/render.py", "referee/export.py", "cli/main.py", "referee/service.py", "referee/appending.py",
           "referee/moves.py", "referee/acts.py", "referee/viewer/__init__.py",
           "referee/viewer/viewer.js", "referee/viewer/viewer.css")
#: words only a game knows: By All Means' field and its slots, War of Shadows' map and council
GAME_WORDS = ("territory", "graffiti", "attached", "field", "banners", "council", "region", "isBoard")


@pytest.mark.parametrize("path", GENERIC)
def test_no_generic_module_knows_a_games_fields(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as fh:
        source = fh.read()
    found = [w for w in GAME_WORDS if re.search(rf"['\"]{w}['\".]|\b{w}\(", source)]
    assert not found, f"{path} names {found}"


def _shown(capsys, answer: StateAnswer, raw: bool = True) -> str:
    capsys.readouterr()
    render.state(answer, raw=raw)
    return capsys.readouterr().out


def test_the_cli_draws_every_layout(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "160")
    boards = (
        Board(title="Grid", layout="grid", covers=("g",), areas=(
            Area(id="a1", row="1", col="a", lines=("knight (ann)",)), Area(id="b1", row="1", col="b"),
            Area(id="a2", row="2", col="a"), Area(id="b2", row="2", col="b", lines=("rook (ben)", "tapped")))),
        Board(title="Map", layout="regions", covers=("m",), areas=(Area(id="north", label="2 cities", lines=("ann 3",)),)),
        Board(title="Seats", layout="tableau", covers=("s",), areas=(
            Area(id="ann", facts=(("coins", "4"), ("vp", "1"))), Area(id="ben", facts=(("coins", "2"),)))),
        Board(title="Street", layout="row", covers=("r",), areas=(Area(id="1", label="$3", lines=("c07",)), Area(id="2"))),
    )
    answer = StateAnswer(match_id="m", game="g", seq=3, as_="referee", state_hash="", outcome=None,
                         state={"g": 1, "m": 2, "s": 3, "r": 4, "phase": "market", "turn": {"active": "ann"}}, boards=boards)
    out = _shown(capsys, answer)
    for text in ("Grid", "knight (ann)", "rook (ben)", "Map", "north", "2 cities", "ann 3", "Seats", "coins", "vp",
                 "Street", "1 ($3)", "c07", "phase", "market", "Turn", "active"):
        assert text in out, (text, out)
    assert out.index("Grid") < out.index("Map") < out.index("Seats") < out.index("Street")
    # covered keys are drawn by their boards, not listed again as facts
    assert not re.search(r"^\s*g\s+1\s*$", out, re.M) and not re.search(r"^\s*r\s+4\s*$", out, re.M)
    # without --raw: the headline and the boards; the other fields are named, not dumped
    short = _shown(capsys, msgspec.structs.replace(answer, headline="ann to act · market"), raw=False)
    lines = short.splitlines()
    assert lines[1] == "ann to act · market" and lines[2] == "Grid"
    assert "market" not in short.replace("ann to act · market", "") and "phase, turn: --raw shows every field" in short


def test_a_test_game_draws_its_table_and_a_seat_sees_only_its_own_hand(capsys):
    r = Referee(MemoryStore(), games=[TALLY])
    m = r.new_match("tally", ["ann", "ben"], position={"hands.ann": ["D4"], "hands.ben": ["D5"], "played": ["D1"]})
    answer = r.show(m.id, seat="ann")
    assert [b.layout for b in answer.boards] == ["row", "tableau"]
    hands = {a.id: a.lines for a in answer.boards[1].areas}
    assert hands == {"ann": ("D4",), "ben": ("?",)}
    out = _shown(capsys, answer)
    assert "Table" in out and "target 10" in out and "D1" in out and "D4" in out and "D5" not in out
    page = export(r, m.id, "html", "ann")
    shown = [json.loads(x) for x in re.findall(r'<script type="application/json" class="state">(.*?)</script>', page)]
    initial = json.loads(re.search(r'<script type="application/json" id="initial">(.*?)</script>', page).group(1))
    # the row is drawn as a picture, the hands (a tableau) and the rest of the view are sections in words
    assert initial["b"][0] == initial["s"][0] == "="  # the first frame gives them whole, the others as patches
    assert [b["layout"] for b in initial["b"][1]] == ["row"]
    assert [(b["title"], b["layout"]) for b in initial["s"][1]] == [("Hands", "tableau"), ("Turn and match", "list")]
    assert "hands" not in initial["s"][1][1]["covers"] and initial["f"]["hands.ann"] == "D4"
    assert "D5" not in page and shown == []  # no entries yet: the page carries the state after setup alone


def test_the_default_is_the_seats_tableau_and_nothing_when_there_are_no_seats(capsys):
    r = Referee(MemoryStore(), games=[PILE])
    m = r.new_match("pile", ["alice", "bob"])
    assert r.show(m.id).boards == ()  # pile's view has no players map: nothing to draw but facts
    out = _shown(capsys, r.show(m.id))
    assert "pile" in out


def test_both_games_draw_their_own_boards():
    path = os.path.join(ROOT, "replays", "by_all_means", "club-night.txt")
    r = Referee(MemoryStore())
    with open(path, encoding="utf-8") as fh:
        bam = import_transcript(r, fh.read(), path, os.path.dirname(path)).match_id
    field, players = r.show(bam, seat="bob").boards
    assert (field.layout, players.layout) == ("grid", "tableau") and len(field.areas) == 12
    assert any("T14 (alice, 3)" in line for a in field.areas for line in a.lines)
    wos = r.new_match("war_of_shadows", ["anna", "boris", "vera"], cards="demo").id
    titles = [(b.title, b.layout) for b in r.show(wos, seat="anna").boards]
    assert titles == [("Map", "map"), ("Council", "grid"), ("Players", "tableau")]
    council = r.show(wos).boards[1]
    assert {a.row for a in council.areas} == {"bear", "lion", "horse", "elephant", "eagle"}
