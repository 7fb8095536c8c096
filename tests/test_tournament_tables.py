"""A table's match as the hall shows it (issue 14, item 7): the HTML step-through viewer of the match,
read with a tournament token in the role that token allows, and the stream that says when it changed.
Hidden information: the spectators' token and a player at another table see the public view only
(searched for the secret tokens the match dealt); a player sees their own secret; the organiser, the
match's arbiter, sees all."""

from __future__ import annotations

import pytest

from referee.service import Referee
from support.apps import app_client
from support.pile import PILE


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture()
def hall(db_store):
    store = db_store  # on each backend
    with app_client(lambda: Referee(store, games=[PILE]), poll=0.05, admin_token="adm") as c:
        made = c.post("/tournaments", headers={"Authorization": "Bearer adm"}, json={
            "name": "Cup", "game": "pile", "rounds": 1, "seed": 4, "chance": "digital",
            "options": {"stones": "5"}, "players": ["ann", "ben", "cy", "dee"]}).json()
        tid, tokens = made["tournament"], made["tokens"]
        tables = c.post(f"/tournaments/{tid}/pair", json={}, headers=bearer(tokens["organiser"])).json()["tables"]
        for t in tables:  # each match deals its secret tokens
            c.post(f"/matches/{t['match_id']}/intents", json={"intent": "start", "seat": t["seats"][0]},
                   headers=bearer(t["tokens"]["arbiter"]))
        yield c, tid, tokens, tables


def secrets(c, table) -> dict[str, str]:
    state = c.get(f"/matches/{table['match_id']}/state", headers=bearer(table["tokens"]["arbiter"])).json()["state"]
    return state["tokens"]


def test_each_role_reads_a_table_as_the_token_allows_and_never_a_hidden_token(hall):
    c, tid, tokens, tables = hall
    t = tables[0]
    mid = t["match_id"]
    dealt = secrets(c, t)
    assert len(set(dealt.values())) == 2
    url = f"/tournaments/{tid}/matches/{mid}/viewer"
    seen = c.get(url, headers=bearer(tokens["spectator"]))
    assert seen.status_code == 200 and seen.headers["content-type"].startswith("text/html")
    assert "Seen as a spectator" in seen.text and 'id="slider"' in seen.text
    for secret in dealt.values():
        assert secret.encode() not in seen.content
    other = next(p for p in tokens["players"] if p not in t["seats"])  # a player at the other table
    as_other = c.get(url, headers=bearer(tokens["players"][other]))
    assert "Seen as a spectator" in as_other.text and not any(s.encode() in as_other.content for s in dealt.values())
    me = t["seats"][0]
    mine = c.get(url, headers=bearer(tokens["players"][me])).content
    assert dealt[me].encode() in mine and dealt[t["seats"][1]].encode() not in mine
    everything = c.get(url, headers=bearer(tokens["organiser"]))
    assert "Seen as the arbiter" in everything.text and all(s.encode() in everything.content for s in dealt.values())
    # the stream that says when to fetch it again carries no more than the head and a count
    one = c.get(f"/tournaments/{tid}/matches/{mid[:8]}/events", params={"follow": "false"},
                headers=bearer(tokens["spectator"]))
    assert one.status_code == 200 and "event: table" in one.text and f'"match_id":"{mid}","head":1,"notes":0' in one.text
    assert not any(s in one.text for s in dealt.values())


def test_a_match_of_no_table_and_a_token_of_another_tournament_are_refused(hall):
    c, tid, tokens, tables = hall
    other = c.post("/tournaments", json={"name": "Other", "game": "pile", "players": ["x", "y"]},
                   headers={"Authorization": "Bearer adm"}).json()
    stranger = c.post("/matches", json={"game": "pile", "players": ["a", "b"]}).json()["match"]["id"]
    r = c.get(f"/tournaments/{tid}/matches/{stranger}/viewer", headers=bearer(tokens["spectator"]))
    assert r.status_code == 404 and r.json()["code"] == "tournament/no_such_table"
    r = c.get(f"/tournaments/{tid}/matches/{tables[0]['match_id']}/viewer",
              headers=bearer(other["tokens"]["spectator"]))
    assert r.status_code == 403 and r.json()["code"] == "auth/other_tournament"
    r = c.get(f"/tournaments/{tid}/matches/{tables[0]['match_id']}/events", params={"follow": "false"})
    assert r.status_code == 401
    page = c.get(f"/hall/{tid}/matches/<script>x")
    assert page.status_code == 200 and "<script>x" not in page.text and "&lt;script&gt;x" in page.text
    assert "blob:" in page.headers["content-security-policy"]


def test_screens_reading_a_table_as_one_role_share_one_rendering(hall, monkeypatch):
    from referee.access import Access

    c, tid, tokens, tables = hall
    rendered: list[str] = []
    real = Access.export_chunks

    def counting(self, p, fmt, *, as_=None):
        rendered.append(p.name)
        return real(self, p, fmt, as_=as_)

    monkeypatch.setattr(Access, "export_chunks", counting)
    t = tables[0]
    url = f"/tournaments/{tid}/matches/{t['match_id']}/viewer"
    other = next(p for p in tokens["players"] if p not in t["seats"])
    pages = [c.get(url, headers=bearer(token)).content
             for token in (tokens["spectator"], tokens["spectator"], tokens["players"][other])]
    assert rendered == ["spectator"] and pages[0] == pages[1] == pages[2]  # three screens, one rendering
    assert b"Seen as the arbiter" in c.get(url, headers=bearer(tokens["organiser"])).content
    assert rendered == ["spectator", "arbiter"]  # a role of its own, a rendering of its own
    arbiter = bearer(t["tokens"]["arbiter"])
    c.post(f"/matches/{t['match_id']}/annotations", json={"seq": 1, "text": "a note", "kind": "comment"},
           headers=arbiter)
    assert b"a note" in c.get(url, headers=bearer(tokens["spectator"])).content  # a change renders again
    first = c.get(f"/matches/{t['match_id']}/state", headers=arbiter).json()["state"]["active"]
    c.post(f"/matches/{t['match_id']}/intents", json={"intent": "take 1", "seat": first}, headers=arbiter)
    assert b"take count=1" in c.get(url, headers=bearer(tokens["spectator"])).content
    assert rendered == ["spectator", "arbiter", "spectator", "spectator"]
