"""JSON bodies are strict (issue 23): a string, a float or a boolean where a route's body takes an integer
(``"rounds": "3"``, ``"expected_seq": 1.0``), or a string where it takes a boolean, is a 400 in the one
error shape naming the field and the type expected, and nothing is written. Every route with a JSON
body, every integer and boolean field of it."""

from __future__ import annotations

import msgspec
import msgspec.inspect as mi
import pytest

from referee.service import Referee
from support.apps import app_client
from support.pile import PILE

ADMIN = "adm"


@pytest.fixture
def client(db_store):
    with app_client(lambda: Referee(db_store, games=[PILE]), admin_token=ADMIN) as c:
        yield c, db_store


def _refused(answer, field: str, expected: str):
    assert answer.status_code == 400, answer.text
    body = answer.json()
    assert set(body) == {"code", "message", "detail"} and body["code"] == "request/invalid", body
    assert f"{field}: Expected `{expected}" in body["message"], body
    assert body["detail"]["errors"][0]["key"] == field
    return body


def _kinds(t: mi.Type) -> set[type]:
    if isinstance(t, mi.UnionType):
        return {k for x in t.types for k in _kinds(x)}
    if isinstance(t, mi.Metadata):
        return _kinds(t.type)
    return {type(t)}


def _body_routes(app):
    for route in app.routes:
        for handler in getattr(route, "route_handlers", []):
            data = handler.parsed_fn_signature.parameters.get("data")
            if data is not None:
                yield route.path, data.annotation


def test_every_integer_and_boolean_field_of_every_body_is_strict(client):
    c, store = client
    seen = 0
    for path, struct in _body_routes(c.app):
        url = path.replace("{match_id:str}", "abcd1234").replace("{tid:str}", "abcd1234").replace("{player:str}", "ann")
        for f in mi.type_info(struct).fields:
            kinds = _kinds(f.type)
            wrong = []
            if mi.IntType in kinds:
                wrong += [("1", "int"), (1.0, "int"), (True, "int")]
            if mi.BoolType in kinds:
                wrong += [("true", "bool"), (1, "bool")]
            for value, expected in wrong:
                answer = c.post(url, json={f.encode_name: value}, headers={"Authorization": f"Bearer {ADMIN}"})
                _refused(answer, f.encode_name, expected)
                seen += 1
    assert seen >= 30  # rounds, seed, table_size, expected_seq, to, at, entry, seq, round, table, dry_run, ...
    assert store.list_tournaments() == [] and store.list_matches() == []


def test_the_lenient_reading_no_longer_writes(client):
    c, store = client
    h = {"Authorization": f"Bearer {ADMIN}"}
    _refused(c.post("/tournaments", headers=h, json={"name": "Cup", "game": "pile", "rounds": "3", "players": ["a", "b"]}),
             "rounds", "int")
    _refused(c.post("/tournaments", headers=h, json={"name": "Cup", "game": "pile", "points": {"win": "3"}}),
             "points[...]", "int")
    _refused(c.post("/matches", json={"game": "pile", "players": ["a", "b"], "seed": "3"}), "seed", "int")
    assert store.list_tournaments() == [] and store.list_matches() == []
    made = c.post("/matches", json={"game": "pile", "players": ["alice", "bob"]}).json()
    mid, arbiter = made["match"]["id"], {"Authorization": f"Bearer {made['tokens']['arbiter']}"}
    _refused(c.post(f"/matches/{mid}/intents", headers=arbiter,
                    json={"intent": "start first=alice tokens=K01,K02", "seat": "alice", "expected_seq": 0.0}),
             "expected_seq", "int")
    _refused(c.post(f"/matches/{mid}/annotations", headers=arbiter, json={"seq": "0", "text": "hi"}), "seq", "int")
    assert store.head(mid) == 0 and store.annotations(mid) == []
    # the right types still pass
    ok = c.post(f"/matches/{mid}/intents", headers=arbiter,
                json={"intent": "start first=alice tokens=K01,K02", "seat": "alice", "expected_seq": 0})
    assert ok.status_code == 201, ok.text
    cup = c.post("/tournaments", headers=h, json={"name": "Cup", "game": "pile", "rounds": 3, "players": ["a", "b"]})
    assert cup.status_code == 201, cup.text
    org = {"Authorization": f"Bearer {cup.json()['tokens']['organiser']}"}
    _refused(c.post(f"/tournaments/{cup.json()['tournament']}/pair", headers=org, json={"dry_run": "false"}),
             "dry_run", "bool")
    assert len(store.tournament_events(cup.json()["tournament"])) == 3
