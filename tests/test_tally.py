"""A new game through the whole engine with no change outside its folder (issue 11): Tally, in
tests/support/tally/, 1 to 5 seats, one shared deck no seat owns, a secret look, and a team that wins
or loses together. It is created, played, shown, exported in every format, served over HTTP and
audited; its outcomes read as a team's win or loss, never a draw."""

from __future__ import annotations

import glob
import json
import os
import random

import pytest

from conftest import ROOT
from referee.errors import BadInput
from referee.export import export
from referee.scenario import run_file
from referee.service import Referee
from referee.store.memory import MemoryStore
from support.apps import app_client
from support.tally import TALLY

FORMATS = ("txt", "md", "html", "json")


@pytest.mark.parametrize("path", sorted(glob.glob(os.path.join(ROOT, "tests", "support", "tally", "scenarios", "*.toml"))),
                         ids=os.path.basename)
def test_scenario(path):
    result = run_file(path, games=[TALLY])
    assert result.passed, [f.render(path) for f in result.failures]


@pytest.mark.parametrize("seats", [1, 5])
def test_random_play_of_one_and_five_seats_ends_as_a_team(seats):
    r = Referee(MemoryStore(), games=[TALLY])
    players = ["ann", "ben", "cy", "dee", "eve"][:seats]
    for seed in range(6):
        m = r.new_match("tally", players, seed=seed, options={"target": 7})
        rng = random.Random(seed)
        while r.show(m.id).outcome is None:
            pick = r.load(m.id).rules.random_intent(r.state_at(r.load(m.id))[1], rng)
            assert pick is not None
            from referee.engine.notation import format_intent

            assert r.submit(m.id, pick[0], format_intent(pick[1])).accepted
        outcome = r.show(m.id).outcome
        assert outcome is not None and outcome.kind in ("team_win", "team_loss")
        assert list(outcome.winners) == (players if outcome.kind == "team_win" else [])
        for fmt in ("txt", "md", "html"):
            text = export(r, m.id, fmt, players[0])
            assert ("the team won" in text) if outcome.kind == "team_win" else ("everyone lost" in text)
            assert "draw (" not in text
        assert json.loads(export(r, m.id, "json", players[0]))["outcome"]["kind"] == outcome.kind
        assert r.audit(m.id).clean


def test_the_deck_belongs_to_no_seat():
    r = Referee(MemoryStore(), games=[TALLY])
    assert r.new_match("tally", ["ann", "ben"], decks={"shared": "shared"})
    with pytest.raises(BadInput, match="one deck, 'shared'"):
        r.new_match("tally", ["ann", "ben"], decks={"ann": "shared"})


def test_a_secret_look_shows_the_card_to_one_seat_alone():
    r = Referee(MemoryStore(), games=[TALLY])
    m = r.new_match("tally", ["ann", "ben", "cy"], seed=4)
    top = r.show(m.id).state["deck"][0]
    assert r.submit(m.id, "ann", "peek").accepted
    name = r.load(m.id).rules.names[top]
    mine = export(r, m.id, "md", "ann")
    assert f"looks at the top card: {top} {name}" in mine
    for role in ("ben", "spectator"):
        for fmt in FORMATS:
            text = export(r, m.id, fmt, role)
            assert f"{top} {name}" not in text and f'"card": "{top}"' not in text
        assert "looks at the top card: ?" in export(r, m.id, "md", role)


def test_over_http_with_one_and_five_seats(db_store):
    store = db_store  # on each backend
    with app_client(lambda: Referee(store, games=[TALLY])) as c:
        for players in (["solo"], ["ann", "ben", "cy", "dee", "eve"]):
            made = c.post("/matches", json={"game": "tally", "players": players, "chance": "digital",
                                            "options": {"target": 6}})
            assert made.status_code == 201, made.text
            mid, tokens = made.json()["match"]["id"], made.json()["tokens"]
            for _ in range(60):
                state = c.get(f"/matches/{mid}/state", headers={"Authorization": f"Bearer {tokens['arbiter']}"}).json()
                if state["outcome"] is not None:
                    break
                seat = state["state"]["active"]
                h = {"Authorization": f"Bearer {tokens['seats'][seat]}"}
                legal = c.get(f"/matches/{mid}/legal", headers=h).json()["legal"][seat]
                assert not any("card=D" in t for t in legal if t.startswith("draw"))  # the referee draws
                answer = c.post(f"/matches/{mid}/intents", json={"intent": legal[0]}, headers=h)
                assert answer.status_code == 201 and answer.json()["verdict"] == "accepted", answer.text
            final = c.get(f"/matches/{mid}/state", headers={"Authorization": f"Bearer {tokens['spectator']}"}).json()
            assert final["outcome"]["kind"] in ("team_win", "team_loss") and final["seed"] is not None
            for fmt in FORMATS:
                assert c.get(f"/matches/{mid}/export", params={"format": fmt},
                             headers={"Authorization": f"Bearer {tokens['spectator']}"}).status_code == 200
            audit = c.get(f"/matches/{mid}/audit", headers={"Authorization": f"Bearer {tokens['arbiter']}"}).json()
            assert audit["clean"] is True
            doc = json.loads(c.get(f"/matches/{mid}/export", params={"format": "json"},
                                   headers={"Authorization": f"Bearer {tokens['arbiter']}"}).text)
            assert doc["outcome"]["kind"] in ("team_win", "team_loss")


def test_a_transcript_carries_its_result_and_the_import_checks_it():
    from referee.transcript import import_transcript

    r = Referee(MemoryStore(), games=[TALLY])
    text = "game: tally\nplayers: ann\noption: target=1\nann: draw card=D1\nann: play card=D1\n"
    first = import_transcript(r, text)
    out = export(r, first.match_id, "txt", "arbiter")
    assert "result: the team won (exact tally): ann" in out
    assert not import_transcript(r, out).problems
    wrong = import_transcript(r, out.replace("result: the team won", "result: ann won"))
    assert [p.code for p in wrong.problems] == ["transcript/result_differs"]
