"""A write's JSON body is decoded once (issue 27): read strictly against the route's Struct before the route
(:func:`referee.httpbody.strict_body`), and that reading is what the route is handed; Litestar does not
decode the bytes again. Bodies that are not JSON are still Litestar's own to refuse."""

from __future__ import annotations

import litestar.connection.request as litestar_request
import pytest

from referee.service import Referee
from support.apps import app_client
from support.pile import PILE

ADMIN = "adm"


@pytest.fixture
def client(db_store):
    with app_client(lambda: Referee(db_store, games=[PILE]), admin_token=ADMIN) as c:
        yield c, db_store


@pytest.fixture
def decodes(monkeypatch):
    """Every body Litestar's request decodes itself (its ``Request.json``)."""
    seen: list[bytes] = []
    real = litestar_request.decode_json

    def counting(value, *args, **kwargs):
        seen.append(value)
        return real(value, *args, **kwargs)

    monkeypatch.setattr(litestar_request, "decode_json", counting)
    return seen


def test_a_write_is_handed_the_body_read_strictly_and_decodes_it_no_more(client, decodes):
    c, store = client
    made = c.post("/matches", json={"game": "pile", "players": ["alice", "bob"], "title": "once"})
    assert made.status_code == 201, made.text
    mid, arbiter = made.json()["match"]["id"], {"Authorization": f"Bearer {made.json()['tokens']['arbiter']}"}
    assert made.json()["match"]["title"] == "once" and store.get_match(mid).title == "once"
    ok = c.post(f"/matches/{mid}/intents", headers=arbiter,
                json={"intent": "start first=alice tokens=K01,K02", "seat": "alice", "expected_seq": 0})
    assert ok.status_code == 201, ok.text
    assert ok.json()["seq"] == 1 and ok.json()["verdict"] == "accepted" and store.head(mid) == 1
    noted = c.post(f"/matches/{mid}/annotations", headers=arbiter, json={"seq": 1, "text": "a fine start"})
    assert noted.status_code == 201, noted.text
    assert [a.text for a in store.annotations(mid)] == ["a fine start"]
    cup = c.post("/tournaments", headers={"Authorization": f"Bearer {ADMIN}"},
                 json={"name": "Cup", "game": "pile", "rounds": 3, "players": ["a", "b"]})
    assert cup.status_code == 201, cup.text
    assert decodes == []


def test_a_body_that_is_not_json_is_still_litestars_to_refuse(client, decodes):
    c, store = client
    bad = c.post("/matches", content=b'{"game": "pile", "players": [', headers={"Content-Type": "application/json"})
    assert bad.status_code == 400, bad.text
    assert set(bad.json()) == {"code", "message", "detail"}
    assert decodes == [b'{"game": "pile", "players": [']
    assert store.list_matches() == []
