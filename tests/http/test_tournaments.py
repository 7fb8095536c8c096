"""The tournament routes (issue 14): the organiser's token writes, players read their own pairings and
the standings, spectators read everything public; a whole round played over HTTP with the match
tokens the pairing answers; every refusal in the one error shape."""

from __future__ import annotations

import pytest

from referee.service import Referee
from support.apps import app_client
from support.pile import PILE


ADMIN = "the-server-admin-token"


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def client(db_store):
    store = db_store  # on each backend
    with app_client(lambda: Referee(store, games=[PILE]), admin_token=ADMIN) as c:
        yield c


def _error(answer, status, code=None):
    assert answer.status_code == status, answer.text
    body = answer.json()
    assert set(body) - {"said"} == {"code", "message", "detail"}
    if code:
        assert body["code"] == code, body
    return body


def _create(client, **extra):
    body = {"name": "Hall cup", "game": "pile", "rounds": 2, "seed": 3, "chance": "digital",
            "options": {"stones": "2"}, "players": ["ann", "ben", "cy"], **extra}
    answer = client.post("/tournaments", json=body, headers=bearer(ADMIN))
    assert answer.status_code == 201, answer.text
    return answer.json()


def _play_out(client, table):
    """Play a Pile match to its end over HTTP with the arbiter's token the pairing answered."""
    h = bearer(table["tokens"]["arbiter"])
    mid = table["match_id"]
    for _ in range(20):
        state = client.get(f"/matches/{mid}/state", headers=h).json()
        if state["outcome"] is not None:
            return
        legal = client.get(f"/matches/{mid}/legal", headers=h).json()["legal"]
        seat, intent = next((s, i) for s, xs in legal.items() for i in xs if i.startswith(("take", "start")))
        assert client.post(f"/matches/{mid}/intents", json={"intent": intent, "seat": seat}, headers=h).status_code == 201
    raise AssertionError("the match did not end")


def test_a_tournament_over_http(client):
    made = _create(client)
    tid, tokens = made["tournament"], made["tokens"]
    org, spec, ann = bearer(tokens["organiser"]), bearer(tokens["spectator"]), bearer(tokens["players"]["ann"])
    added = client.post(f"/tournaments/{tid}/players", json={"player": "dee", "name": "Dee"}, headers=org)
    assert added.status_code == 201 and added.json()["token"]
    _error(client.post(f"/tournaments/{tid}/players", json={"player": "eve"}, headers=ann), 403, "auth/forbidden")
    _error(client.post(f"/tournaments/{tid}/pair", json={}, headers=spec), 403)
    paired = client.post(f"/tournaments/{tid}/pair", json={}, headers=org)
    assert paired.status_code == 201, paired.text
    r1 = paired.json()
    assert len(r1["tables"]) == 2 and all(set(t["tokens"]) >= set(t["seats"]) for t in r1["tables"])
    # a player reads their own table only; the spectators every table
    mine = client.get(f"/tournaments/{tid}/pairings", headers=ann).json()["rounds"][0]["tables"]
    assert len(mine) == 1 and "ann" in mine[0]["seats"]
    assert len(client.get(f"/tournaments/{tid}/pairings", headers=spec).json()["rounds"][0]["tables"]) == 2
    blocked = _error(client.post(f"/tournaments/{tid}/pair", json={}, headers=org), 422, "tournament/round_open")
    assert "round 1 table 1" in blocked["message"]
    for table in r1["tables"]:
        _play_out(client, table)
    r2 = client.post(f"/tournaments/{tid}/pair", json={}, headers=org)
    assert r2.status_code == 201, r2.text
    table = client.get(f"/tournaments/{tid}/standings", headers=ann).json()
    assert sorted(r["values"]["points"] for r in table["rows"]) == ["0", "0", "3", "3"]
    winner = next(r["player"] for r in table["rows"] if r["values"]["points"] == "3")
    explained = client.get(f"/tournaments/{tid}/standings", params={"explain": winner, "after_round": 1}, headers=spec)
    assert explained.json()["values"][0]["value"] == "3"
    t1 = r2.json()["tables"][0]
    fixed = client.post(f"/tournaments/{tid}/results", json={"round": 2, "table": 1, "result": f"win:{t1['seats'][0]}",
                                                               "reason": "paper"}, headers=org)
    assert fixed.status_code == 201, fixed.text
    assert client.post(f"/tournaments/{tid}/players/dee", json={"drop": True, "reason": "left"}, headers=org).json()["dropped"]
    html = client.get(f"/tournaments/{tid}/export", params={"format": "html"}, headers=spec)
    assert html.status_code == 200 and html.text.startswith("<!doctype html>")
    assert client.get(f"/tournaments/{tid}/audit", headers=org).json()["clean"] is True
    _error(client.get(f"/tournaments/{tid}/audit", headers=ann), 403)
    assert client.get(f"/tournaments/{tid}", headers=ann).json()["you"] == {"role": "player", "player": "ann"}


def test_tokens_and_bad_requests_get_the_error_shape(client):
    made = _create(client)
    other = _create(client, name="Other")
    tid = made["tournament"]
    _error(client.get(f"/tournaments/{tid}/standings"), 401, "auth/missing")
    _error(client.get(f"/tournaments/{tid}/standings", headers=bearer("nope")), 401, "auth/unknown_token")
    _error(client.get(f"/tournaments/{tid}/standings", headers=bearer(other["tokens"]["organiser"])), 403,
           "auth/other_tournament")
    _error(client.post("/tournaments", json={"name": "x", "game": "pile", "tiebreaks": ["bogus"]}, headers=bearer(ADMIN)), 422,
           "tournament/bad_tiebreak")
    _error(client.post("/tournaments", json={"name": "x", "game": "pile", "format": "knockout"}, headers=bearer(ADMIN)), 400)
    _error(client.post("/tournaments", json={"name": "x", "game": "nogame"}, headers=bearer(ADMIN)), 404)
    org = bearer(made["tokens"]["organiser"])
    _error(client.post(f"/tournaments/{tid}/results", json={"round": 1, "table": 1, "result": "draw"}, headers=org), 404)
    _error(client.get(f"/tournaments/{tid}/export", params={"format": "pdf"}, headers=org), 422)
    _error(client.post(f"/tournaments/{tid}/players/ghost", json={"drop": True}, headers=org), 404)
