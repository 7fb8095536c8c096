"""A NUL character (U+0000) in anything a person types: PostgreSQL cannot store one in a text column
(psycopg refuses the statement), SQLite would. So the service refuses it before any store sees it, on
every backend alike: the one bad-input answer (``input/bad_text``, naming what holds it and where),
422 in the JSON error shape over HTTP, exit 2 with one line from the CLI, and nothing written. Each
test runs on both backends (conftest's ``db``)."""

from __future__ import annotations

import os

import pytest

from conftest import ROOT
from referee.errors import BadInput
from referee.service import Referee
from referee.tournament.service import Tournaments
from support.apps import app_client
from support.pile import PILE

NUL = "a\x00b"


def contents(db: str):
    """Everything the database holds, to show that nothing was written."""
    if db.startswith("postgresql://"):
        from support.pg import dump

        return dump(db)
    from conftest import dump

    return dump(db)


@pytest.fixture
def hall(db_store):
    r = Referee(db_store, games=[PILE])
    m = r.new_match("pile", ["alice", "bob"])
    r.submit(m.id, "alice", "start first=alice tokens=K01,K02")
    t = Tournaments(r).create("Cup", "pile", players=["ann", "ben", "cy"])
    return r, m.id, t.id


CALLS = {
    "a match's title": lambda r, mid, tid: r.new_match("pile", ["alice", "bob"], title=NUL),
    "a player's name": lambda r, mid, tid: r.new_match("pile", ["alice", NUL]),
    "an event name": lambda r, mid, tid: r.new_match("pile", ["alice", "bob"], meta={"event": NUL}),
    "an option's value": lambda r, mid, tid: r.new_match("pile", ["alice", "bob"], options={"nicknames": f"alice:{NUL}"}),
    "an option's key": lambda r, mid, tid: r.new_match("pile", ["alice", "bob"], options={"nicknames": {NUL: "Al"}}),
    "an intent": lambda r, mid, tid: r.submit(mid, "alice", f"say note={NUL}"),
    "a whole intent": lambda r, mid, tid: r.submit(mid, "alice", NUL),
    "an annotation": lambda r, mid, tid: r.annotate(mid, 1, NUL),
    "an annotation's author": lambda r, mid, tid: r.annotate(mid, 1, "fine", by=NUL),
    "an undo's reason": lambda r, mid, tid: r.undo(mid, by="arbiter", reason=NUL),
    "a ruling's reason": lambda r, mid, tid: r.rule_stands(mid, 1, reason=NUL),
    "a fork's name": lambda r, mid, tid: r.fork(mid, at=1, name=NUL),
    "a match id": lambda r, mid, tid: r.info(r.resolve(mid[:6] + "\x00")),
    "a tournament's name": lambda r, mid, tid: Tournaments(r).create(NUL, "pile", players=["x", "y"]),
    "a tournament player": lambda r, mid, tid: Tournaments(r).add_player(tid, NUL),
    "a display name": lambda r, mid, tid: Tournaments(r).rename(tid, "ann", NUL),
    "a tournament id": lambda r, mid, tid: Tournaments(r).resolve(tid[:6] + "\x00"),
}


@pytest.mark.parametrize("what", sorted(CALLS))
def test_the_service_refuses_a_nul_as_bad_input_and_writes_nothing(db, hall, what):
    r, mid, tid = hall
    before = contents(db)
    with pytest.raises(BadInput) as exc:
        CALLS[what](r, mid, tid)
    assert exc.value.code == "input/bad_text", exc.value.message
    assert "NUL (U+0000)" in exc.value.message and exc.value.exit_code == 2
    assert contents(db) == before


def test_over_http_a_nul_is_422_in_the_error_shape(db, db_store):
    with app_client(lambda: Referee(db_store, games=[PILE]), admin_token="adm") as c:
        made = c.post("/matches", json={"game": "pile", "players": ["alice", "bob"]}).json()
        mid, arbiter = made["match"]["id"], {"Authorization": f"Bearer {made['tokens']['arbiter']}"}
        assert c.post(f"/matches/{mid}/intents", json={"intent": "start first=alice tokens=K01,K02", "seat": "alice"},
                      headers=arbiter).status_code == 201
        cup = c.post("/tournaments", json={"name": "Cup", "game": "pile", "players": ["ann", "ben"]},
                     headers={"Authorization": "Bearer adm"}).json()
        organiser = {"Authorization": f"Bearer {cup['tokens']['organiser']}"}
        before = contents(db)
        answers = [
            c.post("/matches", json={"game": "pile", "players": ["alice", "bob"], "title": NUL}),
            c.post("/matches", json={"game": "pile", "players": [NUL, "bob"]}),
            c.post(f"/matches/{mid}/intents", json={"intent": f"say note={NUL}", "seat": "alice"}, headers=arbiter),
            c.post(f"/matches/{mid}/intents", json={"intent": {"type": "say", "note": NUL}, "seat": "alice"}, headers=arbiter),
            c.post(f"/matches/{mid}/annotations", json={"seq": 1, "text": NUL}, headers=arbiter),
            c.post(f"/matches/{mid}/undo", json={"to": 0, "reason": NUL}, headers=arbiter),
            c.post(f"/matches/{mid}/fork", json={"at": 1, "name": NUL}, headers=arbiter),
            c.post("/tournaments", json={"name": NUL, "game": "pile", "players": ["ann", "ben"]}, headers={"Authorization": "Bearer adm"}),
            c.post(f"/tournaments/{cup['tournament']}/players", json={"player": NUL}, headers=organiser),
        ]
        for answer in answers:
            assert answer.status_code == 422, (answer.request.url, answer.text)
            body = answer.json()
            assert set(body) - {"said"} == {"code", "message", "detail"} and body["code"] == "input/bad_text", body
            assert "NUL (U+0000)" in body["message"]
        assert contents(db) == before


def test_the_cli_refuses_a_nul_with_exit_2_and_one_line(cli, db, monkeypatch, tmp_path):
    monkeypatch.setenv("REFEREE_DB", db)
    made = cli("new", "by_all_means", "--players", "alice,bob", "--seed", "3", "--json")
    assert made.code == 0, made.err
    mid = made.json["id"]
    before = contents(db)
    with open(os.path.join(ROOT, "replays", "by_all_means", "club-night.txt"), encoding="utf-8") as f:
        transcript = f.read()
    (tmp_path / "nul.txt").write_text(transcript.replace("! buffers the Quiet", "! buffers\x00 the Quiet"), encoding="utf-8")
    for args in (("new", "by_all_means", "--players", f"alice,{NUL}"),
                 ("new", "by_all_means", "--players", "alice,bob", "--title", NUL),
                 ("annotate", mid, "0", NUL),
                 ("show", mid[:6] + "\x00"),
                 ("tournament", "new", NUL, "--game", "by_all_means", "--players", "ann,ben"),
                 ("import", str(tmp_path / "nul.txt"))):
        done = cli(*args)
        assert done.code == 2, (args, done.out, done.err)
        assert "NUL (U+0000)" in done.err and len(done.err.strip().splitlines()) == 1, (args, done.err)
    assert contents(db) == before
