"""What a tournament's readers are answered (issue 23 point 7): a player's token reads the same tables
in the export as in the pairings; the tournament's event streams refuse a Last-Event-ID that is not
an event's number as the match's stream does (422, the one error shape) and number on from one that
is; ``--as-of`` past any count of records is bad input, not an internal error."""

from __future__ import annotations

import json

import pytest

from referee.service import Referee
from referee.tournament.access import TournamentAccess
from schemas.tournament import CreateTournament
from support.apps import app_client
from support.pile import PILE


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def hall(db_store):
    """A paired first round of five players (two tables and a bye), on each backend."""
    store = db_store
    made = TournamentAccess(Referee(store, games=[PILE])).create(CreateTournament(
        name="Views cup", game="pile", rounds=2, seed=3, chance="digital", options={"stones": "2"},
        players=["ann", "ben", "cy", "dee", "eve"]))
    with app_client(lambda: Referee(store, games=[PILE])) as c:
        tid = made.tournament
        paired = c.post(f"/tournaments/{tid}/pair", json={}, headers=bearer(made.tokens.organiser))
        assert paired.status_code == 201, paired.text
        yield c, tid, made.tokens


def _error(answer, status, code):
    assert answer.status_code == status, answer.text
    body = answer.json()
    assert set(body) - {"said"} == {"code", "message", "detail"} and body["code"] == code, body
    return body


def _pairings(c, tid, token):
    rounds = c.get(f"/tournaments/{tid}/pairings", headers=bearer(token)).json()["rounds"]
    return ({t["match_id"] for r in rounds for t in r["tables"]},
            {b for r in rounds for b in r["byes"]})


def _exported(c, tid, token, fmt="json"):
    answer = c.get(f"/tournaments/{tid}/export", params={"format": fmt}, headers=bearer(token))
    assert answer.status_code == 200, answer.text
    return answer.text


def test_a_players_export_shows_the_tables_its_pairings_show(hall):
    c, tid, tokens = hall
    every, _ = _pairings(c, tid, tokens.spectator)
    assert len(every) == 2
    for player, token in tokens.players.items():
        mine, byes = _pairings(c, tid, token)
        data = json.loads(_exported(c, tid, token))
        assert {t["match_id"] for r in data["rounds"] for t in r["tables"]} == mine, player
        assert {b for r in data["rounds"] for b in r["byes"]} == byes, player
        assert all(player in t["seats"] for r in data["rounds"] for t in r["tables"])
        assert len(data["standings"]) == 5  # the standings are everyone's
        for fmt in ("md", "html"):
            text = _exported(c, tid, token, fmt)
            assert [m for m in every if m in text] == sorted(mine), (player, fmt)
    assert sum(len(_pairings(c, tid, t)[0]) for t in tokens.players.values()) == 4  # four seated, one bye
    for token in (tokens.spectator, tokens.organiser):
        data = json.loads(_exported(c, tid, token))
        assert {t["match_id"] for r in data["rounds"] for t in r["tables"]} == every == _pairings(c, tid, token)[0]


@pytest.mark.parametrize("route", ["events", "table"])
def test_a_bad_last_event_id_is_422_like_a_matchs(hall, route):
    c, tid, tokens = hall
    url = f"/tournaments/{tid}/events"
    if route == "table":
        url = f"/tournaments/{tid}/matches/{sorted(_pairings(c, tid, tokens.spectator)[0])[0]}/events"
    for bad in ("x", "-1", "1.5", "²"):
        answer = c.get(url, params={"follow": "false"},
                       headers={**bearer(tokens.spectator), "Last-Event-ID": bad.encode("latin-1")})
        body = _error(answer, 422, "events/bad_last_event_id")
        assert "Last-Event-ID" in body["message"]
    resumed = c.get(url, params={"follow": "false"}, headers={**bearer(tokens.spectator), "Last-Event-ID": "7"})
    assert resumed.status_code == 200
    assert [line for line in resumed.text.splitlines() if line.startswith("id:")] == ["id: 8"]
    fresh = c.get(url, params={"follow": "false"}, headers=bearer(tokens.spectator))
    assert [line for line in fresh.text.splitlines() if line.startswith("id:")] == ["id: 1"]


def test_as_of_past_any_count_is_bad_input(cli):
    tid = cli("tournament", "new", "Open", "--game", "by_all_means", "--players", "a,b,c", "--json").json["id"]
    for huge in ("1000000000000000000000000000000", str(2**63), "1000000001"):
        r = cli("tournament", "standings", tid, "--as-of", huge)
        assert r.code == 2 and f"--as-of counts records from 1 to 1,000,000,000, not {huge}" in r.err, r.err
        r = cli("tournament", "standings", tid, "--as-of", huge, "--explain", "a")
        assert r.code == 2 and "--as-of counts records" in r.err
    assert len(cli("tournament", "standings", tid, "--as-of", "1000", "--json").json["rows"]) == 3
    r = cli("tournament", "standings", tid, "--after-round", "3")
    assert r.code == 2 and "round 3 has not been paired: no round has been yet" in r.err


def test_a_half_bye_past_any_round_is_bad_input(cli):
    tid = cli("tournament", "new", "Open", "--game", "by_all_means", "--players", "a,b,c", "--json").json["id"]
    before = cli("tournament", "log", tid, "--json").json
    r = cli("tournament", "bye", tid, "a", "--round", "1000000000000000000000000000000")
    assert r.code == 2 and "a round is numbered from 1 to 100,000" in r.err, r.err
    assert cli("tournament", "log", tid, "--json").json == before
    assert cli("tournament", "bye", tid, "a", "--round", "100000").code == 0
