"""Engine mechanisms the next games need, built once for all and tested on the test game (issue 11):
options whose values are lists and maps, and (see test_notation.py) records that nest themselves."""

from __future__ import annotations

import os

import pytest
from litestar.testing import TestClient

from conftest import ROOT
from referee.errors import BadInput
from referee.export import export
from referee.http import create_app
from referee.scenario import run_file
from referee.service import Referee
from referee.store.memory import MemoryStore
from referee.transcript import import_transcript
from support.pile import PILE

SCEN = os.path.join(ROOT, "tests", "scenarios", "pile")


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


def test_list_and_map_options_over_http():
    store = MemoryStore()
    with TestClient(create_app(lambda: Referee(store, games=[PILE]))) as c:
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
    assert r.state(m.id)["state"]["pile"] == 13
    refused = r.submit(m.id, "alice", "refill count=3")
    assert refused.verdict.code == "turn/not_your_turn" and "may act: table" in refused.verdict.message
    with pytest.raises(BadInput, match="reserved role name"):
        r.new_match("pile", ["alice", "table"])
    text = "game: pile\nplayers: alice, bob\nalice: start first=alice tokens=K01,K02\ntable: refill count=2\n"
    summary = import_transcript(r, text)
    assert summary.accepted == 2 and "table: refill count=2" in export(r, summary.match_id, "txt", "arbiter")
    assert r.audit(summary.match_id)["clean"]


def test_the_arbiter_acts_for_another_actor_over_http():
    store = MemoryStore()
    with TestClient(create_app(lambda: Referee(store, games=[PILE]))) as c:
        made = c.post("/matches", json={"game": "pile", "players": ["alice", "bob"]}).json()
        mid, tokens = made["match"]["id"], made["tokens"]
        arbiter = {"Authorization": f"Bearer {tokens['arbiter']}"}
        c.post(f"/matches/{mid}/intents", json={"intent": "start first=alice tokens=K01,K02", "seat": "alice"}, headers=arbiter)
        answer = c.post(f"/matches/{mid}/intents", json={"intent": "refill count=1", "seat": "table"}, headers=arbiter)
        assert answer.status_code == 201 and answer.json()["verdict"] == "accepted"
        seat = c.post(f"/matches/{mid}/intents", json={"intent": "refill count=1", "seat": "table"},
                      headers={"Authorization": f"Bearer {tokens['seats']['alice']}"})
        assert seat.status_code == 403
