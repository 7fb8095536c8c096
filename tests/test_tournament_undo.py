"""Tournament matches and undo (issue 23, point 2): the organiser chooses the undo policy the matches are
created with (default ``own_last``: a seat takes back only its own last action, before anyone else acts),
a tournament record field shown with the pairing; and a finished table's match, whose seed every role has
read, cannot be reopened by a seat: only its arbiter reopens it, from a fresh secret that no other role
reads over HTTP until the match is over again."""

from __future__ import annotations

import pytest

from referee.engine import core
from referee.service import Referee
from referee.tournament.events import Created, decode
from support.apps import app_client, live_server
from support.pile import PILE

#: the server's admin token: it alone creates tournaments over HTTP
ADMIN = "the-admin-token"

SECRET = 7_654_321_987_654_329


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_the_organiser_chooses_the_undo_policy_and_it_is_shown_with_the_pairing(cli, tmp_path):
    made = cli("tournament", "new", "Cup", "--game", "by_all_means", "--players", "ann,ben", "--seed", "3")
    assert made.code == 0 and "undo policy of the matches: own_last" in made.out, made.err
    tid = made.last_line
    paired = cli("tournament", "pair", tid)
    assert paired.code == 0 and "undo policy of the matches: own_last" in paired.out.splitlines()[0], paired.err
    shown = cli("tournament", "show", tid, "--json")
    assert shown.json["undo"] == "own_last"
    mid = shown.json["round"][0]["tables"][0]["match_id"]
    assert cli("export", mid, "--format", "json").json["match"]["undo"] == "own_last"
    for fmt in ("md", "html", "json"):
        assert "own_last" in cli("tournament", "export", tid, "--format", fmt).out, fmt
    strict = cli("tournament", "new", "Strict", "--game", "by_all_means", "--players", "ann,ben", "--undo-policy",
                 "arbiter", "--json")
    assert strict.code == 0 and strict.json["undo"] == "arbiter", strict.err
    bad = cli("tournament", "new", "Loose", "--game", "by_all_means", "--undo-policy", "sometimes")
    assert bad.code == 2 and "any, own_last or arbiter, not 'sometimes'" in bad.err
    assert len(bad.err.strip().splitlines()) == 1
    assert len(cli("tournament", "list", "--json").json) == 2  # nothing written for the refused one


def test_a_tournament_recorded_before_the_choice_reads_as_the_any_its_matches_had():
    old = (b'{"by":"organiser","event":{"cards":null,"chance":"physical","format":"swiss","game":"pile","name":"Old",'
           b'"options":{},"points":{"bye":3,"draw":1,"half":null,"loss":0,"places":[],"win":3},"rounds":0,"seed":1,'
           b'"table_size":2,"tiebreaks":["points"],"type":"created"},"n":1,"tournament":"t1","why":""}')
    event = decode(old).event
    assert isinstance(event, Created) and event.undo == "any"


def test_the_policy_over_http_and_in_client_mode(cli, db, db_store, monkeypatch):
    monkeypatch.setenv("REFEREE_DB", db)
    with live_server(lambda: Referee(db_store), admin_token=ADMIN) as server:
        made = cli("--server", server.url, "--token", ADMIN, "tournament", "new", "Cup", "--game", "by_all_means",
                   "--players", "ann,ben", "--undo-policy", "any", "--json")
        assert made.code == 0, made.err
        tid, org = made.json["tournament"], made.json["tokens"]["organiser"]
        paired = cli("--server", server.url, "--token", org, "tournament", "pair", tid, "--json")
        assert paired.code == 0 and paired.json["undo"] == "any", paired.err
        shown = cli("--server", server.url, "--token", org, "tournament", "show", tid, "--json")
        assert shown.json["undo"] == "any"
        assert cli("tournament", "show", tid, "--json").json == shown.json  # the same locally
    with app_client(lambda: Referee(db_store), admin_token=ADMIN) as c:
        bad = c.post("/tournaments", json={"name": "X", "game": "by_all_means", "undo": "sometimes"},
                     headers=bearer(ADMIN))
        assert 400 <= bad.status_code < 500 and "undo" in bad.text
        made = c.post("/tournaments", json={"name": "Y", "game": "by_all_means", "players": ["ann", "ben"]},
                      headers=bearer(ADMIN)).json()
        pairings = c.get(f"/tournaments/{made['tournament']}/pairings",
                         headers=bearer(made["tokens"]["spectator"])).json()
        assert pairings["undo"] == "own_last"


@pytest.fixture()
def table(db_store):
    """A digital pile tournament's first table played to its end (3 stones: start, 1, 2)."""
    with app_client(lambda: Referee(db_store, games=[PILE], fresh_secret=lambda: SECRET), poll=0.05,
                               admin_token=ADMIN) as c:
        made = c.post("/tournaments", json={"name": "Cup", "game": "pile", "seed": 4, "chance": "digital",
                                            "options": {"stones": "3"}, "players": ["ann", "ben"]},
                      headers=bearer(ADMIN)).json()
        t = c.post(f"/tournaments/{made['tournament']}/pair", json={},
                   headers=bearer(made["tokens"]["organiser"])).json()["tables"][0]
        mid, tokens = t["match_id"], t["tokens"]
        c.post(f"/matches/{mid}/intents", json={"intent": "start"}, headers=bearer(tokens[t["seats"][0]]))
        first = c.get(f"/matches/{mid}/state", headers=bearer(tokens["arbiter"])).json()["state"]["active"]
        second = next(s for s in t["seats"] if s != first)
        for seat, n in ((first, 1), (second, 2)):
            assert c.post(f"/matches/{mid}/intents", json={"intent": f"take {n}"},
                          headers=bearer(tokens[seat])).json()["verdict"] == "accepted"
        yield c, mid, tokens, t["seats"]


def _reads(c, mid, token) -> bytes:
    h = bearer(token)
    out = [c.get(f"/matches/{mid}/{what}", headers=h).content for what in ("state", "log", "replay", "legal", "audit")]
    out += [c.get(f"/matches/{mid}/export", params={"format": f}, headers=h).content for f in ("txt", "md", "html", "json")]
    out.append(c.get(f"/matches/{mid}/events", params={"follow": "false"}, headers=h).content)
    return b"\n".join(out)


def test_a_seat_cannot_reopen_a_finished_table_and_the_arbiters_fresh_secret_stays_his(table):
    c, mid, tokens, seats = table
    for seat in seats:
        state = c.get(f"/matches/{mid}/state", headers=bearer(tokens[seat])).json()
        assert state["outcome"] is not None and state["seed"] is not None  # every role has read the seed
        res = c.post(f"/matches/{mid}/undo", json={"to": 1}, headers=bearer(tokens[seat])).json()
        assert res["verdict"] == "rejected" and res["rejection"]["code"] == "match/over", res
    assert c.get(f"/matches/{mid}/state", headers=bearer(tokens["arbiter"])).json()["outcome"] is not None
    res = c.post(f"/matches/{mid}/undo", json={"to": 0}, headers=bearer(tokens["arbiter"])).json()
    assert res["verdict"] == "accepted"
    commitment = core.reseed_commitment(mid, res["seq"], SECRET)
    for role in (*seats, "spectator"):
        said = _reads(c, mid, tokens[role])
        assert commitment.encode() in said, role
        assert str(SECRET).encode() not in said, role
    assert str(SECRET).encode() in _reads(c, mid, tokens["arbiter"])
