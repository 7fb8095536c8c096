"""Engine mechanisms the next games need, built once for all and tested on the test games (issue 11):
options whose values are lists and maps, views checked per seat, actors that are not seats, positions
completed by the game, and (see test_notation.py) records that nest themselves."""

from __future__ import annotations

import os

import pytest

from conftest import ROOT
from referee.errors import BadInput
from referee.export import export
from referee.scenario import run_file
from referee.service import Referee
from referee.store.memory import MemoryStore
from referee.transcript import import_transcript
from referee.engine.position import PositionError, PositionShape, write_paths
from support.apps import app_client
from support.pile import PILE
from support.tally import TALLY

SCEN = os.path.join(ROOT, "tests", "support", "pile_scenarios")


def test_a_scenario_takes_list_and_map_options_as_toml():
    result = run_file(os.path.join(SCEN, "list_and_map_options.toml"), games=[PILE])
    assert result.passed, [f.what for f in result.failures]


def test_list_and_map_options_typed_after_option_and_in_transcripts():
    r = Referee(MemoryStore(), games=[PILE])
    m = r.new_match("pile", ["alice", "bob"], options={"bans": "2,3", "nicknames": "alice:Al,bob:Bo"})
    assert r.load(m.id).config.options == {"bans": [2, 3], "nicknames": {"alice": "Al", "bob": "Bo"}}
    text = "game: pile\nplayers: alice, bob\noption: bans=3\noption: nicknames=alice:Al\nalice: start first=alice tokens=K01,K02\nalice: take 3\n"
    summary = import_transcript(r, text)
    assert [p.code for p in summary.problems] == ["pile/banned_count"]
    out = export(r, summary.match_id, "txt", "arbiter")
    assert "option: bans=3" in out and "option: nicknames=alice:Al" in out
    again = import_transcript(r, out)
    assert r.load(again.match_id).config.options == r.load(summary.match_id).config.options


@pytest.mark.parametrize(("options", "fragment"), [
    ({"bans": "2,x"}, "each item is a whole number"),
    ({"bans": "4"}, "each item is one of 1, 2, 3"),
    ({"nicknames": "alice"}, "takes name:value pairs"),
    ({"stones": [1, 2]}, "takes one value"),
])
def test_bad_list_and_map_values_name_what_is_expected(options, fragment):
    r = Referee(MemoryStore(), games=[PILE])
    with pytest.raises(BadInput, match=fragment):
        r.new_match("pile", ["alice", "bob"], options=options)


def test_list_and_map_options_over_http(db_store):
    store = db_store  # on each backend
    with app_client(lambda: Referee(store, games=[PILE])) as c:
        made = c.post("/matches", json={"game": "pile", "players": ["alice", "bob"],
                                        "options": {"bans": [1], "nicknames": {"alice": "Al"}}})
        assert made.status_code == 201, made.text
        games = c.get("/games/pile").json()
        assert {o["name"]: o["default"] for o in games["options"]}["bans"] == []


def test_a_scenario_checks_what_a_seat_sees(tmp_path):
    path = tmp_path / "v.toml"
    path.write_text('''game = "pile"
players = ["alice", "bob"]
[[steps]]
actor = "alice"
intent = "start first=alice tokens=K01,K02"
[steps.view.bob]
"tokens.alice" = "K01"
[steps.view.carol]
pile = 10
''', encoding="utf-8")
    result = run_file(str(path), games=[PILE])
    what = [f.what for f in result.failures]
    assert any(w.startswith('view.bob: tokens.alice: expected "K01", got "?"') for w in what), what
    assert any("view.carol:" in w and "not a seat" in w for w in what), what


def test_an_actor_that_is_not_a_seat_submits_its_own_intents():
    """Copycat's table deals and cleans up: a game names actors besides its seats."""
    r = Referee(MemoryStore(), games=[PILE])
    m = r.new_match("pile", ["alice", "bob"])
    r.submit(m.id, "alice", "start first=alice tokens=K01,K02")
    assert r.submit(m.id, "table", "refill count=3").accepted
    assert r.show(m.id).state["pile"] == 13
    refused = r.submit(m.id, "alice", "refill count=3")
    assert refused.verdict.code == "turn/not_your_turn" and "may act: table" in refused.verdict.message
    with pytest.raises(BadInput, match="reserved role name"):
        r.new_match("pile", ["alice", "table"])
    text = "game: pile\nplayers: alice, bob\nalice: start first=alice tokens=K01,K02\ntable: refill count=2\n"
    summary = import_transcript(r, text)
    assert summary.accepted == 2 and "table: refill count=2" in export(r, summary.match_id, "txt", "arbiter")
    assert r.audit(summary.match_id).clean


def test_the_arbiter_acts_for_another_actor_over_http(db_store):
    store = db_store  # on each backend
    with app_client(lambda: Referee(store, games=[PILE])) as c:
        made = c.post("/matches", json={"game": "pile", "players": ["alice", "bob"]}).json()
        mid, tokens = made["match"]["id"], made["tokens"]
        arbiter = {"Authorization": f"Bearer {tokens['arbiter']}"}
        c.post(f"/matches/{mid}/intents", json={"intent": "start first=alice tokens=K01,K02", "seat": "alice"}, headers=arbiter)
        answer = c.post(f"/matches/{mid}/intents", json={"intent": "refill count=1", "seat": "table"}, headers=arbiter)
        assert answer.status_code == 201 and answer.json()["verdict"] == "accepted"
        seat = c.post(f"/matches/{mid}/intents", json={"intent": "refill count=1", "seat": "table"},
                      headers={"Authorization": f"Bearer {tokens['seats']['alice']}"})
        assert seat.status_code == 403


# -- positions: written by the engine, completed by the game -----------------------------------------------


def test_a_position_is_completed_by_the_game_from_what_it_places():
    result = run_file(os.path.join(ROOT, "tests", "support", "tally", "scenarios", "position_completed.toml"), games=[TALLY])
    assert result.passed, [f.what for f in result.failures]


def test_a_listed_supply_is_kept_and_checked_not_recomputed():
    r = Referee(MemoryStore(), games=[TALLY])
    m = r.new_match("tally", ["ann"], position={"played": ["D3"], "deck": ["D6", "D1", "D2", "D4", "D5", "D1", "D2"]})
    _seq, state = r.state_at(r.load(m.id), None)
    assert state.deck == ("D6", "D1", "D2", "D4", "D5", "D1", "D2") and state.tally == 3
    with pytest.raises(BadInput) as info:
        r.new_match("tally", ["ann"], position={"played": ["D3"], "tally": 4})
    assert info.value.code == "tally/invalid_position" and "played cards add up to 3, not 4" in info.value.message


@pytest.mark.parametrize(
    "position,fragment",
    [
        ({"deck_size": 3}, "'deck_size' is derived from the rest of the state"),
        ({"hands.zed": ["D1"]}, "'zed' is not a seat (ann, ben)"),
        ({"colour": "red"}, "unknown position path 'colour'"),
        ({"hands.ann.first": "D1"}, "'hands.ann' holds no fields"),
        ({"played": ["D6", "D6"]}, "played: no 'D6' left in the shared deck"),
        ({"played": "D1"}, "the position does not fit the state"),
        ({"active": "zed"}, "active: 'zed' is not a seat"),
    ],
)
def test_a_bad_position_is_refused_naming_the_path(position, fragment):
    r = Referee(MemoryStore(), games=[TALLY])
    with pytest.raises(BadInput) as info:
        r.new_match("tally", ["ann", "ben"], position=position)
    assert info.value.code == "tally/invalid_position" and fragment in info.value.message, info.value.message
    assert r.matches() == []


def test_position_shapes_match_patterns_and_open_maps():
    shape = PositionShape(derived=("**.count", "board.*.owner"), open_maps=("slots", "cursor.**"), seat_maps=("players",))
    assert shape.is_derived(["deck", "count"]) and shape.is_derived(["board", "b1", "owner", "x"])
    assert shape.is_derived(["count"]) and not shape.is_derived(["board", "b1", "cards"])
    assert shape.is_open(["cursor"]) and shape.is_open(["cursor", "combat", "x"]) and not shape.is_open(["slots", "s1"])
    data = {"slots": {}, "players": {"ann": {"hand": []}}, "cursor": None}
    placed = write_paths(data, {"slots.s1.card": "X", "players.ann.hand": ["Y"]}, shape, ["ann"])
    assert data["slots"] == {"s1": {"card": "X"}} and "players.ann" in placed and "slots" in placed
    assert "players.ann.score" not in placed and placed.under("slots") == ("slots.s1.card",)
    with pytest.raises(PositionError, match="cursor is empty; give the whole record"):
        write_paths(data, {"cursor.at": 1}, PositionShape(), ["ann"])
    write_paths(data, {"cursor.combat.region": "r1"}, shape, ["ann"])  # an open record is built key by key
    assert data["cursor"] == {"combat": {"region": "r1"}}
    merged = {"rec": {"a": 1, "b": 2}}
    write_paths(merged, {"rec": {"b": 3}}, PositionShape(merge_records=True), [])
    assert merged == {"rec": {"a": 1, "b": 3}}
    write_paths(merged, {"rec": {"b": 4}}, PositionShape(), [])
    assert merged == {"rec": {"b": 4}}
