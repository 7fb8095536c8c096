"""Results reported by the seats over HTTP (issue 26, item 5): ``POST /tournaments/{id}/rounds/{r}/tables/{n}/
report`` takes a player's token for that player's own seat only (another's, the organiser's and the
spectators' are 403 in the JSON error shape); two seats agreeing make the table's result; a disagreement is
listed in the organiser's hall snapshot and settled by the organiser's ``/results``; reports after the
result are refused. On SQLite and PostgreSQL."""

from __future__ import annotations

import json

import pytest

from referee.service import Referee
from support.apps import app_client
from support.pile import PILE

ADMIN = "the-server-admin-token"


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def client(db_store):
    store = db_store
    with app_client(lambda: Referee(store, games=[PILE]), admin_token=ADMIN) as c:
        yield c


def _error(answer, status, code=None):
    assert answer.status_code == status, answer.text
    body = answer.json()
    assert set(body) - {"said"} == {"code", "message", "detail"}
    if code:
        assert body["code"] == code, body
    return body


def _paired(client):
    made = client.post("/tournaments", json={"name": "Cardboard cup", "game": "pile", "rounds": 2, "seed": 3,
                                             "players": ["ann", "ben", "cy", "dee"]}, headers=bearer(ADMIN))
    assert made.status_code == 201, made.text
    tid, tokens = made.json()["tournament"], made.json()["tokens"]
    paired = client.post(f"/tournaments/{tid}/pair", json={"tokens": False}, headers=bearer(tokens["organiser"]))
    assert paired.status_code == 201, paired.text
    return tid, tokens, paired.json()["tables"]


def _report(client, tid, token, table, result, **body):
    return client.post(f"/tournaments/{tid}/rounds/1/tables/{table}/report", json={"result": result, **body},
                       headers=bearer(token))


def _snapshot(client, tid, token):
    answer = client.get(f"/tournaments/{tid}/events?follow=false", headers=bearer(token))
    assert answer.status_code == 200, answer.text
    data = next(line[5:].strip() for line in answer.text.splitlines() if line.startswith("data:"))
    return json.loads(data)


def test_two_seats_agree_over_http_and_the_standings_move(client):
    tid, tokens, tables = _paired(client)
    a, b = tables[0]["seats"]
    first = _report(client, tid, tokens["players"][a], 1, f"win:{a}")
    assert first.status_code == 201, first.text
    assert first.json()["waiting"] == [b] and not first.json()["agreed"]
    # a spectator reads that a seat reported, not what
    spec = client.get(f"/tournaments/{tid}/pairings", headers=bearer(tokens["spectator"])).json()
    row = next(t for t in spec["rounds"][0]["tables"] if t["table"] == 1)
    assert row["reports"] == [{"player": a, "result": "reported", "typed": "", "record": None}]
    done = _report(client, tid, tokens["players"][b], 1, f"win:{a}", seat=b)
    assert done.status_code == 201 and done.json()["agreed"], done.text
    points = {r["player"]: r["values"]["points"]
              for r in client.get(f"/tournaments/{tid}/standings?after_round=1",
                                  headers=bearer(tokens["spectator"])).json()["rows"]}
    assert points[a] == "3" and points[b] == "0"
    spec = client.get(f"/tournaments/{tid}/pairings", headers=bearer(tokens["spectator"])).json()
    row = next(t for t in spec["rounds"][0]["tables"] if t["table"] == 1)
    assert row["source"] == "reported" and {r["result"] for r in row["reports"]} == {"agreed"}
    late = _report(client, tid, tokens["players"][a], 1, f"win:{b}")
    _error(late, 422, "tournament/has_result")
    audit = client.get(f"/tournaments/{tid}/audit", headers=bearer(tokens["organiser"])).json()
    assert audit["clean"], audit


def test_only_the_seats_own_player_token_reports(client):
    tid, tokens, tables = _paired(client)
    a, b = tables[0]["seats"]
    elsewhere = tables[1]["seats"][0]
    records = client.get(f"/tournaments/{tid}", headers=bearer(tokens["organiser"])).json()["records"]
    _error(_report(client, tid, tokens["organiser"], 1, f"win:{a}", seat=a), 403, "auth/forbidden")
    _error(_report(client, tid, tokens["spectator"], 1, f"win:{a}"), 403, "auth/forbidden")
    _error(_report(client, tid, tokens["players"][elsewhere], 1, f"win:{a}"), 403, "auth/forbidden")
    other = _error(_report(client, tid, tokens["players"][a], 1, f"win:{a}", seat=b), 403, "auth/forbidden")
    assert f"not {b}'s" in other["message"]
    _error(_report(client, tid, "not-a-token", 1, f"win:{a}"), 401)
    _error(_report(client, tid, tokens["players"][a], 1, f"win:{a}", extra=1), 400)
    _error(_report(client, tid, tokens["players"][a], 1, "win:zed"), 422, "tournament/bad_result")
    now = client.get(f"/tournaments/{tid}", headers=bearer(tokens["organiser"])).json()["records"]
    assert now == records  # nothing written by any refusal


def test_a_disagreement_is_listed_on_the_console_and_the_organiser_settles_it(client):
    tid, tokens, tables = _paired(client)
    a, b = tables[1]["seats"]
    assert _report(client, tid, tokens["players"][a], 2, f"win:{a}").status_code == 201
    split = _report(client, tid, tokens["players"][b], 2, f"win:{b}")
    assert split.status_code == 201 and split.json()["disagree"]
    snap = _snapshot(client, tid, tokens["organiser"])
    [confirm] = snap["console"]["to_confirm"]
    assert confirm["table"] == 2 and [s["typed"] for s in confirm["sides"]] == [f"win:{a}", f"win:{b}"]
    assert next(t for t in snap["tables"] if t["table"] == 2)["state"] == "disagree"
    # the table's own players read what each reported; the spectators only that they did
    mine = _snapshot(client, tid, tokens["players"][a])
    assert [r["typed"] for r in mine["tables"][0]["reports"]] == [f"win:{a}", f"win:{b}"]
    public = _snapshot(client, tid, tokens["spectator"])
    assert f"win:{b}" not in json.dumps(public) and "to_confirm" not in json.dumps(public)
    # the console's button: the existing result route, with the side's words
    side = confirm["sides"][1]
    settled = client.post(f"/tournaments/{tid}/results", headers=bearer(tokens["organiser"]), json={
        "round": 1, "table": 2, "result": side["typed"], "scores": side["scores"],
        "reason": "settled from the hall's console: the seats' reports disagreed"})
    assert settled.status_code == 201, settled.text
    assert next(r for r in settled.json()["standings"]["rows"] if r["player"] == b)["values"]["points"] == "3"
    snap = _snapshot(client, tid, tokens["organiser"])
    assert snap["console"]["to_confirm"] == []
    row = next(t for t in snap["tables"] if t["table"] == 2)
    assert (row["state"], row["source"]) == ("finished", "arbiter")
