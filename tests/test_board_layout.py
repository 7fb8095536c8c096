"""Boards placed as the table lies (issue 25, item 2): the shared ``map`` layout (``schemas.board``: an
area's column and row, the board's links; ``referee.engine.present.placed`` and ``grid_of``), Android's
city placed by the points of its map data, War of Shadows' regions by its ``places`` module (presentation
only), and ``referee show`` printing a map row by row. The pages themselves are checked in Chromium by
``tests/test_board_layout_browser.py``."""

from __future__ import annotations

import os
import tomllib
from importlib import resources

import msgspec

import pytest

from cli import render
from cli.boards import map_rows
from conftest import ROOT
from referee.engine.present import grid_of, in_place_order, placed
from referee.service import Referee
from referee.store.memory import MemoryStore
from referee.transcript import import_transcript
from schemas.board import Area, Board, Link
from schemas.http import StateAnswer

WOS_BOARDS = ("demo", "TM-1")


# -- the shared mechanism ------------------------------------------------------------------------------------------

def test_an_area_without_a_place_encodes_as_before():
    """Positions and links are optional and omitted at their defaults: a board that places nothing is
    the same bytes as before (the viewer's pages and the HTTP answers of other games do not change)."""
    assert msgspec.json.encode(Area(id="a", lines=("x",))) == b'{"id":"a","lines":["x"]}'
    assert msgspec.json.encode(Board(title="T", layout="regions")) == b'{"title":"T","layout":"regions"}'
    assert msgspec.json.encode(Link(a="p", b="q")) == b'{"a":"p","b":"q"}'


def test_grid_of_keeps_the_order_of_the_points_without_their_empty_space():
    at = grid_of([("w", 0, 50), ("n", 10, 0), ("e", 90, 50), ("s", 10, 99), ("c", 40, 50)])
    # distinct x: 0, 10, 40, 90 -> four columns; 0 and 10 share no row but w and n... w is row 2, n row 1:
    # columns 1 and 2 hold rows {2} and {1, 3}: disjoint, drawn as one
    assert at["w"][0] == at["n"][0] == at["s"][0] and at["c"][0] == at["w"][0] + 1 and at["e"][0] == at["c"][0] + 1
    assert at["n"][1] < at["w"][1] == at["c"][1] == at["e"][1] < at["s"][1]
    assert len(set(at.values())) == len(at)  # no two areas in one cell


def test_grid_of_gives_two_areas_at_one_point_two_cells():
    at = grid_of([("a", 5, 5), ("b", 5, 5), ("c", 6, 5)])
    assert len(set(at.values())) == 3 and at["a"][1] == at["b"][1] == at["c"][1]


def test_placed_puts_what_it_cannot_place_after_the_map_and_keeps_only_its_own_links():
    areas = [Area(id="a"), Area(id="b"), Area(id="c"), Area(id="d")]
    links = [Link(a="a", b="b"), Link(a="b", b="a"), Link(a="a", b="zz"), Link(a="c", b="a", kind="sea")]
    board = placed("M", areas, {"a": (1, 1), "b": (2, 1), "c": (2, 1)}, links=links, covers=("k",))
    spots = {x.id: (x.x, x.y) for x in board.areas}
    assert board.layout == "map" and board.covers == ("k",)
    assert spots["a"] == (1, 1) and spots["b"] == (2, 1)
    assert spots["c"] == (1, 2) and spots["d"] == (2, 2)  # c's cell was b's; d had none: the rows after
    assert [(x.a, x.b, x.kind) for x in board.links] == [("a", "b", ""), ("c", "a", "sea")]  # once, only its own
    facts = {x.id: x.facts for x in board.areas}
    assert facts["a"] == (("sea", "c"),) and facts["c"] == (("sea", "a"),) and facts["b"] == ()
    assert [x.id for x in in_place_order(reversed(board.areas))] == ["a", "b", "c", "d"]


def test_placed_with_no_places_lays_the_areas_out_square_in_order():
    board = placed("M", [Area(id=str(n)) for n in range(5)], {})
    assert [(a.x, a.y) for a in board.areas] == [(1, 1), (2, 1), (3, 1), (1, 2), (2, 2)]


# -- War of Shadows: the bundled boards placed by hand -------------------------------------------------------

def _wos_map(cards: str):
    r = Referee(MemoryStore())
    mid = r.new_match("war_of_shadows", ["anna", "boris", "vera"], cards=cards).id
    return r, mid, r.show(mid, seat="anna").boards[0]


@pytest.mark.parametrize("cards", WOS_BOARDS)
def test_war_of_shadows_regions_sharing_a_border_touch_on_the_map(cards):
    from referee.games.war_of_shadows.places import PLACES

    r, mid, board = _wos_map(cards)
    rules = r.load(mid).rules
    assert board.layout == "map" and board.title == "Map"
    spots = {a.id: (a.x, a.y) for a in board.areas}
    assert set(spots) == set(rules.board.region_ids) and len(set(spots.values())) == len(spots)
    assert set(PLACES[rules.board.board_id]) == set(spots)  # every region of a bundled board is placed by hand
    land = [(ln.a, ln.b) for ln in board.links if not ln.kind]
    sea = [(ln.a, ln.b) for ln in board.links if ln.kind == "sea"]
    assert len(land) == len(rules.board.land) // 2 and len(sea) == len(rules.board.sea) // 2
    for a, b in land:  # side by side or corner to corner
        assert max(abs(spots[a][0] - spots[b][0]), abs(spots[a][1] - spots[b][1])) == 1, (a, b)
    for a, b in sea:  # a sea lane is said in words on both shores too
        facts = {x.id: dict(x.facts) for x in board.areas}
        assert b in facts[a]["sea"] and a in facts[b]["sea"]
    # what is on a region is drawn as before: banners, who holds it
    lines = {a.id: a.lines for a in board.areas}
    assert all(any(line.startswith("held by") for line in lines[a.id]) for a in board.areas if a.owner)


def test_the_places_name_only_regions_of_the_bundled_boards_and_is_no_part_of_their_data():
    from referee.games.war_of_shadows import GAME
    from referee.games.war_of_shadows.places import PLACES

    text = resources.files("referee.games.war_of_shadows").joinpath(GAME.card_sets["boards"]).read_text("utf-8")
    boards = {b["board_id"]: {r["id"] for r in b["regions"]} for b in tomllib.loads(text)["board"]}
    assert set(PLACES) <= set(boards)
    for bid, regions in PLACES.items():
        assert set(regions) <= boards[bid]
    for name in GAME.card_sets.values():  # the data a match stores and hashes carries no positions
        data = resources.files("referee.games.war_of_shadows").joinpath(name).read_text("utf-8")
        assert "(2, 1)" not in data and "[demo]" not in data and "column" not in data


# -- Android: the city placed by its map data's points ---------------------------------------------------------------

def _android(cards: str = "demo"):
    r = Referee(MemoryStore(), clock=lambda: "")
    mid = r.new_match("android", ["raymond", "rachel", "louis", "caprice"], cards=cards, position={"phase": "day"}).id
    return r, mid


@pytest.mark.parametrize("cards", ["demo", "FX-1"])
def test_androids_city_lies_as_new_angeles_the_beanstalk_and_heinlein(cards):
    r, mid = _android(cards)
    rules = r.load(mid).rules
    city = r.show(mid, seat="rachel").boards[0]
    assert city.layout == "map" and city.title.startswith("New Angeles, the Beanstalk and Heinlein")
    spots = {a.id: (a.x, a.y) for a in city.areas}
    assert set(spots) == set(rules.map.order) and len(set(spots.values())) == len(spots)
    bean = rules.map.beanstalk
    assert [(ln.a, ln.b, ln.kind) for ln in city.links] == [(a, b, "beanstalk") for a, b in zip(bean, bean[1:])]
    assert len({spots[b][0] for b in bean}) == 1  # the Beanstalk is one column, Earth end on top
    assert [spots[b][1] for b in bean] == sorted(spots[b][1] for b in bean)
    earth = [spots[lid][1] for lid in rules.map.order if rules.loc(lid).body == "earth" and lid not in bean]
    moon = [spots[lid][1] for lid in rules.map.order if rules.loc(lid).body == "moon" and lid not in bean]
    assert max(earth) < min(moon)  # New Angeles above, Heinlein below, the Beanstalk from one to the other
    assert spots[bean[0]][1] <= min(earth) + 3 and max(earth) < spots[bean[-1]][1] <= min(moon)
    assert max(x for x, _y in spots.values()) <= 8  # a dozen sparse columns drawn as a page's few


def test_an_android_location_shows_its_qualities_its_vp_and_the_warrants_on_it():
    r, mid = _android()
    assert r.submit(mid, "arbiter", "manual_effect deltas=warrant:rachel:jinteki:place").accepted
    areas = {a.id: a for a in r.show(mid, seat="louis").boards[0].areas}
    assert areas["jinteki"].label == "H4, business, normal, major, restricted"
    assert "warrant (rachel)" in areas["jinteki"].lines
    assert any(p.kind == "warrant" and p.owner == "rachel" for p in areas["jinteki"].pieces)
    assert areas["starlight_crusade"].label.endswith("trauma bank (-1 VP each)")
    assert ("ability", "2 TIME: gain 1 political favor") in areas["city_hall"].facts


def test_show_names_a_maps_places_and_its_borders_alike():
    """``show`` gives each location by its name, its Beanstalk neighbours too (a link names the areas it
    joins by the same names)."""
    from referee.engine.present import named_boards

    r, mid = _android()
    shown = r.show(mid, seat="louis")
    rows = {a.id: label for _w, a, label in map_rows(named_boards(shown.boards, shown.names)[0])}
    assert rows["Root"] == "F3, civic, normal; beanstalk: Midway"
    assert rows["Castle Club"].endswith("baggage bank; beanstalk: Midway, Challenger Memorial Ferry")


def test_a_token_bank_is_worth_what_the_option_token_vp_says(tmp_path):
    text = resources.files("referee.games.android").joinpath("data/demo.toml").read_text("utf-8")
    text = text.replace('bank = "hit"', 'bank = "haas"', 1)
    path = tmp_path / "haas.toml"
    path.write_text(text, encoding="utf-8")
    r = Referee(MemoryStore(), clock=lambda: "")
    mid = r.new_match("android", ["raymond", "rachel", "louis"], cards=str(path), options={"token_vp": {"haas": 2}},
                      position={"phase": "day"}).id
    labels = {a.id: a.label for b in r.show(mid).boards[:1] for a in b.areas}
    assert labels["humanity_labor"].endswith("haas bank (+2 VP each)")


# -- referee show -----------------------------------------------------------------------------------------------------

def test_show_prints_a_map_row_by_row(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "160")
    r, mid, board = _wos_map("demo")
    rows = map_rows(board)
    assert [a.id for _w, a, _l in rows] == [a.id for a in in_place_order(board.areas)]
    assert [w for w, _a, _l in rows if w] == ["row 1", "row 2", "row 3", "row 4"]
    capsys.readouterr()
    render.state(r.show(mid, seat="anna"))
    out = capsys.readouterr().out
    table = out.split("\nMap\n")[1].split("└")[0]
    printed = [line.split("│")[2].strip() for line in table.splitlines() if line.startswith("│")]
    assert printed == [a.id for _w, a, _l in rows]  # frostmere, ironvale, sunreach, highmoor, ... as the table lies
    first = next(line for line in out.splitlines() if "frostmere" in line)
    assert "row 1" in first and "bear home, 1 city, fort; sea: saltmarsh" in first


def test_show_through_the_cli_prints_the_map_the_same_without_rich(tmp_path):
    """``referee show`` to a pipe (cli/boards.py's writer) prints the map as rich would."""
    from typer.testing import CliRunner

    from cli.main import app

    db = str(tmp_path / "m.db")
    path = os.path.join(ROOT, "replays", "war_of_shadows", "ember-coast.txt")
    runner = CliRunner()
    got = runner.invoke(app, ["--db", db, "import", path])
    assert got.exit_code == 0, got.output
    mid = next(w for w in got.output.split() if len(w) == 12 and w.isalnum())
    shown = runner.invoke(app, ["--db", db, "show", mid, "--as", "anna"])
    assert shown.exit_code == 0, shown.output
    lines = shown.output.splitlines()
    at = lines.index("Map")
    assert [c.strip() for c in lines[at + 2].split("│")[1:4]] == ["row 1", "frostmere", "bear home, 1 city, fort; sea: saltmarsh"]
    assert "row 2" in lines[at + 5] and "highmoor" in lines[at + 5]


def _answer(board: Board) -> StateAnswer:
    return StateAnswer(match_id="m", game="g", seq=1, as_="referee", state_hash="", outcome=None, state={"k": 1},
                       boards=(board,))


def test_both_renderers_draw_a_placed_board_alike(capsys, monkeypatch):
    """The pipe writer (cli/boards.py) and rich (cli/render.py) print one map the same bytes."""
    from cli import boards as fast

    board = placed("Map", [Area(id="b", label="two", lines=("x 1",)), Area(id="a", lines=("y",)), Area(id="c")],
                   {"a": (1, 1), "b": (2, 1), "c": (1, 2)}, covers=("k",))
    table = fast._draw(fast._board(board))
    capsys.readouterr()
    monkeypatch.setenv("COLUMNS", "100")
    render.state(_answer(board))
    out = capsys.readouterr().out
    assert "\n".join(table) in out
    assert table[2].split("│")[1].strip() == "row 1" and "a" in table[2] and "b" in table[3]
