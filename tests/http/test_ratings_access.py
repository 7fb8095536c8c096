"""Who may read ``GET /ratings`` (issue 23): the server's admin token only, as for the list of every
match (ratings name the seats of every finished match on the server); a match's or a tournament's
token is refused, and a server without an admin token answers none. Only finished matches count: a
match being played is neither rated nor counted, and its seats are named nowhere. Both backends."""

from __future__ import annotations

import pytest

from referee.service import Referee
from support.apps import app_client
from support.pile import PILE

ADMIN = "adm"


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


def _finished(ref, players):
    m = ref.new_match("pile", players, options={"stones": "2"})
    ref.submit(m.id, players[0], f"start first={players[0]} tokens={','.join(f'K0{i + 1}' for i in range(len(players)))}")
    ref.submit(m.id, players[0], "take 2")
    return m


def _refused(answer, status, code):
    assert answer.status_code == status, answer.text
    body = answer.json()
    assert set(body) - {"said"} == {"code", "message", "detail"} and body["code"] == code, body
    assert "ann" not in answer.text and "secret_sam" not in answer.text
    return body


@pytest.fixture
def ref(db_store):
    ref = Referee(db_store, games=[PILE])
    _finished(ref, ["ann", "ben"])
    _finished(ref, ["ben", "cy"])
    ref.new_match("pile", ["secret_sam", "ann"])  # still being played
    return ref


def test_only_the_servers_admin_token_reads_the_ratings(ref):
    with app_client(lambda: Referee(ref.store, games=[PILE]), admin_token=ADMIN) as c:
        _refused(c.get("/ratings"), 401, "auth/missing")
        _refused(c.get("/ratings", headers=bearer("guess")), 403, "auth/not_admin")
        match = c.post("/matches", json={"game": "pile", "players": ["x", "y"]}).json()
        for token in match["tokens"]["seats"]["x"], match["tokens"]["arbiter"], match["tokens"]["spectator"]:
            _refused(c.get("/ratings", headers=bearer(token)), 403, "auth/not_admin")
        cup = c.post("/tournaments", json={"name": "Cup", "game": "pile", "players": ["p", "q"]}, headers=bearer(ADMIN))
        _refused(c.get("/ratings", headers=bearer(cup.json()["tokens"]["organiser"])), 403, "auth/not_admin")
        got = c.get("/ratings", headers=bearer(ADMIN))
        assert got.status_code == 200, got.text
        body = got.json()
        assert body["rated"] == 2 and body["skipped"] == {}  # unfinished matches (three of them) are not counted
        assert sorted(r["player"] for r in body["players"]) == ["ann", "ben", "cy"]
        assert "secret_sam" not in got.text
    with app_client(lambda: Referee(ref.store, games=[PILE])) as c:  # no admin token: off
        off = _refused(c.get("/ratings", headers=bearer(ADMIN)), 403, "auth/no_admin")
        assert "reading the ratings is off" in off["message"]
