"""The HTTP service on the test game (tests/support/pile.py) through Litestar's TestClient: every
endpoint for every role, tokens, views, safe writes and the one error shape. Every test runs on both
backends (conftest's ``db``: a SQLite file, a PostgreSQL database)."""

from __future__ import annotations

import hashlib
import json
import os

import pytest
from litestar.testing import TestClient

from referee.service import Referee
from support.apps import app_client
from support.pile import PILE

ROLES = ("alice", "bob", "arbiter", "spectator")


def bearer(token: str | None) -> dict[str, str]:
    return {} if token is None else {"Authorization": f"Bearer {token}"}


class Table:
    """A match on the test server and its tokens."""

    def __init__(self, client: TestClient, **create) -> None:
        body = {"game": "pile", "players": ["alice", "bob"], **create}
        answer = client.post("/matches", json=body)
        assert answer.status_code == 201, answer.text
        data = answer.json()
        self.client = client
        self.id = data["match"]["id"]
        self.tokens = {**data["tokens"]["seats"], "arbiter": data["tokens"]["arbiter"],
                       "spectator": data["tokens"]["spectator"]}

    def h(self, role: str | None) -> dict[str, str]:
        return bearer(self.tokens[role] if role else None)

    def get(self, role: str | None, path: str, **params):
        return self.client.get(f"/matches/{self.id}{path}", params=params, headers=self.h(role))

    def post(self, role: str | None, path: str, body: dict, headers: dict | None = None):
        return self.client.post(f"/matches/{self.id}{path}", json=body, headers={**self.h(role), **(headers or {})})

    def play(self, seat: str, text: str, **extra):
        answer = self.post("arbiter", "/intents", {"intent": text, "seat": seat, **extra})
        assert answer.status_code == 201, answer.text
        return answer.json()


@pytest.fixture
def client(db_store):
    store = db_store
    with app_client(lambda: Referee(store, games=[PILE])) as c:
        yield c


@pytest.fixture
def started(client):
    t = Table(client)
    t.play("alice", "start first=alice tokens=K01,K02")
    return t


def assert_error(answer, status: int, code: str | None = None) -> dict:
    assert answer.status_code == status, answer.text
    body = answer.json()
    assert set(body) - {"said"} == {"code", "message", "detail"}, body
    assert body["message"] and isinstance(body["detail"], dict)
    if code is not None:
        assert body["code"] == code, body
    return body


# -- games and matches -----------------------------------------------------------------------------


def test_games_are_listed_and_described_without_a_token(client):
    games = client.get("/games").json()
    assert [g["id"] for g in games] == ["pile"]
    pile = client.get("/games/nim").json()
    assert pile["id"] == "pile" and [i["verb"] for i in pile["intents"]] == ["take", "start", "say", "guess", "refill"]
    assert [o["name"] for o in pile["options"]] == ["stones", "bans", "nicknames", "ending"]
    assert_error(client.get("/games/chess"), 404, "game/unknown")


def test_creating_a_match_answers_one_token_per_seat_and_role(client):
    t = Table(client, players=["alice", "bob", "carol"], title="table 7")
    assert set(t.tokens) == {"alice", "bob", "carol", "arbiter", "spectator"}
    assert len(set(t.tokens.values())) == 5 and all(len(v) >= 32 for v in t.tokens.values())
    info = t.get("carol", "").json()
    assert info["role"] == "seat" and info["seat"] == "carol"
    assert info["match"]["players"] == ["alice", "bob", "carol"] and info["match"]["title"] == "table 7"
    assert t.get("spectator", "").json()["role"] == "spectator"


@pytest.mark.parametrize("body,status,code", [
    ({"game": "chess", "players": ["a", "b"]}, 404, "game/unknown"),
    ({"game": "pile", "players": ["a"]}, 422, "match/bad_players"),
    ({"game": "pile", "players": ["a", "arbiter"]}, 422, "match/bad_players"),
    ({"game": "pile", "players": ["a", "b"], "options": {"stonez": 3}}, 422, "match/bad_option"),
    ({"game": "pile", "players": ["a", "b"], "cards": "/etc/passwd"}, 422, "cards/not_bundled"),
    ({"game": "pile", "players": ["a", "b"], "position": {"pile": "lots"}}, 422, "pile/position_invalid"),
    ({"game": "pile", "players": "a,b"}, 400, "request/invalid"),
    ({"game": "pile", "players": ["a", "b"], "colour": "red"}, 400, "request/invalid"),
])
def test_bad_matches_are_refused_in_the_one_error_shape(client, body, status, code):
    assert_error(client.post("/matches", json=body), status, code)


def test_only_token_hashes_are_stored(db, client):
    t = Table(client)
    assert t.get("bob", "/state").status_code == 200
    if db.startswith("postgresql://"):
        from support.pg import dump

        raw = repr(dump(db)).encode()
    else:
        raw = open(db, "rb").read() + (open(db + "-wal", "rb").read() if os.path.exists(db + "-wal") else b"")
    store = client.app.state.hall.access().referee.store
    for role, token in t.tokens.items():
        assert token.encode() not in raw
        digest = hashlib.sha256(token.encode()).hexdigest()
        row = store.find_token(digest)
        assert row is not None and row.match_id == t.id
        assert (row.seat if row.role == "seat" else row.role) == role


# -- auth ------------------------------------------------------------------------------------------


def test_missing_malformed_and_unknown_tokens_are_401(started):
    body = assert_error(started.get(None, "/state"), 401, "auth/missing")
    assert "Bearer" in body["message"]
    answer = started.client.get(f"/matches/{started.id}/state", headers={"Authorization": "Basic abc"})
    assert_error(answer, 401, "auth/malformed")
    assert answer.headers["www-authenticate"] == "Bearer"
    answer = started.client.get(f"/matches/{started.id}/state", headers=bearer("not-a-token"))
    assert_error(answer, 401, "auth/unknown_token")


def test_a_token_of_another_match_is_403(client, started):
    other = Table(client)
    for role in ROLES:
        answer = client.get(f"/matches/{started.id}/state", headers=other.h(role))
        assert_error(answer, 403, "auth/other_match")
    # and a match that does not exist is no different from someone else's
    assert_error(client.get("/matches/ffffffffffff/state", headers=other.h("arbiter")), 403, "auth/other_match")


def test_a_short_match_id_works_with_its_own_token(started):
    short = started.id[:4]
    answer = started.client.get(f"/matches/{short}/state", headers=started.h("alice"))
    assert answer.status_code == 200 and answer.json()["match_id"] == started.id


def test_a_seat_acts_only_as_itself(started):
    assert_error(started.post("bob", "/intents", {"intent": "take 1", "seat": "alice"}), 403, "auth/other_seat")
    own = started.post("alice", "/intents", {"intent": "take 1"})
    assert own.status_code == 201 and own.json()["actor"] == "alice" and own.json()["by"] == "alice"
    assert_error(started.post("spectator", "/intents", {"intent": "take 1", "seat": "bob"}), 403, "auth/forbidden")
    assert_error(started.post("arbiter", "/intents", {"intent": "take 1"}), 422, "intent/seat_required")


def test_the_arbiter_acts_for_a_seat_and_the_entry_says_so(started):
    answer = started.play("alice", "take 2")
    assert answer["actor"] == "alice" and answer["by"] == "arbiter" and answer["verdict"] == "accepted"
    entry = started.get("arbiter", "/log").json()["entries"][-1]
    assert entry["actor"] == "alice" and entry["meta"] == {"by": "arbiter"}
    mine = started.post("bob", "/intents", {"intent": "take 1"}).json()
    # typed by the seat itself, seeing only its own view: recorded, so the audit adjudicates it alike
    assert started.get("arbiter", "/log").json()["entries"][mine["seq"] - 1]["meta"] == {"blind": True}


# -- intents ---------------------------------------------------------------------------------------


def test_a_json_intent_object_is_the_same_as_its_notation(started):
    a = started.post("alice", "/intents", {"intent": {"type": "take", "count": 2}}).json()
    assert a["intent"] == "take count=2" and a["verdict"] == "accepted"
    assert a["events"] == [{"type": "taken", "seat": "alice", "count": 2}]
    body = assert_error(started.post("bob", "/intents", {"intent": {"type": "take", "count": "two"}}), 422, "input/invalid")
    assert "take" in body["message"]
    assert_error(started.post("bob", "/intents", {"intent": {"type": "fly"}}), 422, "input/invalid")


def test_a_rejected_intent_is_logged_and_answered_with_its_rule(started):
    answer = started.post("alice", "/intents", {"intent": "take 7"})
    assert answer.status_code == 201
    data = answer.json()
    assert data["verdict"] == "rejected" and data["rejection"]["code"] == "pile/bad_count"
    assert data["rejection"]["rule"] == "R-TAKE" and "7" in data["rejection"]["message"]
    assert started.get("bob", "/log").json()["entries"][-1]["verdict"] == "rejected"


@pytest.mark.parametrize("text,code", [("tkae 1", "input/unknown_verb"), ("take", "input/missing_argument"),
                                       ('say note="open', "input/invalid"), ("", "input/invalid")])
def test_unreadable_intents_are_422_and_write_nothing(started, text, code):
    assert_error(started.post("alice", "/intents", {"intent": text}), 422, code)
    assert started.get("arbiter", "/state").json()["seq"] == 1


def test_a_stale_expected_seq_is_409_with_the_head(started):
    assert started.post("alice", "/intents", {"intent": "take 1", "expected_seq": 1}).status_code == 201
    body = assert_error(started.post("bob", "/intents", {"intent": "take 1", "expected_seq": 1}), 409, "match/stale_seq")
    assert body["detail"] == {"head": 2}
    assert started.post("bob", "/intents", {"intent": "take 1", "expected_seq": 2}).status_code == 201
    assert started.get("arbiter", "/log").json()["total"] == 3


def test_a_retried_request_is_applied_once(started):
    key = {"Idempotency-Key": "table-7-move-12"}
    first = started.post("alice", "/intents", {"intent": "take 2"}, key)
    again = started.post("alice", "/intents", {"intent": "take 2"}, key)
    assert first.status_code == 201 and again.status_code == 200
    assert again.headers["idempotent-replayed"] == "true"
    assert again.json() == first.json()
    assert started.get("arbiter", "/log").json()["total"] == 2
    # the key belongs to that request: another request with it is refused, and nothing is written
    assert_error(started.post("alice", "/intents", {"intent": "take 3"}, key), 422, "request/key_reused")
    assert_error(started.post("bob", "/intents", {"intent": "take 2"}, key), 422, "request/key_reused")
    assert started.get("arbiter", "/log").json()["total"] == 2
    # a request refused before anything was written leaves the key unused
    bad = {"Idempotency-Key": "k2"}
    assert_error(started.post("bob", "/intents", {"intent": "take 2", "expected_seq": 0}, bad), 409)
    assert started.post("bob", "/intents", {"intent": "take 2"}, bad).status_code == 201


def test_a_replayed_answer_is_redacted_like_the_first(client):
    t = Table(client, seed=4)
    first = t.post("alice", "/intents", {"intent": "start"}, {"Idempotency-Key": "s"})
    again = t.post("alice", "/intents", {"intent": "start"}, {"Idempotency-Key": "s"})
    assert first.json() == again.json()
    tokens = t.get("arbiter", "/state").json()["state"]["tokens"]
    assert tokens["alice"] in first.text and tokens["bob"] not in first.text


# -- reading ---------------------------------------------------------------------------------------


def test_state_is_the_view_of_the_role_asking(started):
    seen = {role: started.get(role, "/state").json() for role in ROLES}
    assert seen["alice"]["state"]["tokens"] == {"alice": "K01", "bob": "?"}
    assert seen["bob"]["state"]["tokens"] == {"alice": "?", "bob": "K02"}
    assert seen["spectator"]["state"]["tokens"] == {"alice": "?", "bob": "?"}
    assert seen["arbiter"]["state"]["tokens"] == {"alice": "K01", "bob": "K02"}
    assert seen["arbiter"]["as"] == "referee" and seen["spectator"]["as"] == "spectator"
    assert seen["arbiter"]["state_hash"] and not any(seen[r]["state_hash"] for r in ("alice", "bob", "spectator"))
    assert all(seen[r]["state"]["pile"] == 10 for r in ROLES)


def test_state_at_n(started):
    started.play("alice", "take 3")
    assert started.get("bob", "/state", at=0).json()["state"]["pile"] == 10
    assert started.get("bob", "/state", at=2).json()["state"]["pile"] == 7
    assert_error(started.get("bob", "/state", at=3), 422, "match/bad_seq")
    assert_error(started.get("bob", "/state", at=-1), 400, "request/invalid")


def test_who_may_look_as_whom(started):
    assert started.get("arbiter", "/state", **{"as": "bob"}).json()["state"]["tokens"] == {"alice": "?", "bob": "K02"}
    assert started.get("alice", "/state", **{"as": "spectator"}).json()["state"]["tokens"] == {"alice": "?", "bob": "?"}
    assert_error(started.get("alice", "/state", **{"as": "bob"}), 403, "auth/other_view")
    assert_error(started.get("spectator", "/state", **{"as": "alice"}), 403, "auth/other_view")
    assert_error(started.get("alice", "/log", **{"as": "arbiter"}), 403, "auth/other_view")
    assert_error(started.get("arbiter", "/state", **{"as": "carol"}), 422, "match/unknown_seat")


def test_the_log_is_paginated(started):
    for i in range(7):
        started.play("alice" if i % 2 == 0 else "bob", "take 1")
    page = started.get("bob", "/log", offset=2, limit=3).json()
    assert (page["total"], page["head"], page["offset"], page["limit"]) == (8, 8, 2, 3)
    assert [e["seq"] for e in page["entries"]] == [3, 4, 5]
    assert started.get("bob", "/log", offset=8).json()["entries"] == []
    assert_error(started.get("bob", "/log", limit=0), 400)
    assert_error(started.get("bob", "/log", limit=5000), 400)
    full = started.get("arbiter", "/log").json()["entries"]
    assert all(e["hash"] for e in full) and not any(e["hash"] for e in started.get("bob", "/log").json()["entries"])


def test_legal_intents(started):
    # the arbiter's list names the game's other actors too (Pile's ``table``), as `referee legal` does
    assert started.get("arbiter", "/legal").json()["legal"] == {
        "alice": ["take count=1", "take count=2", "take count=3"], "bob": [], "table": []}
    assert started.get("alice", "/legal").json()["legal"] == {"alice": ["take count=1", "take count=2", "take count=3"]}
    assert started.get("arbiter", "/legal", seat="bob").json()["legal"] == {"bob": []}
    assert_error(started.get("bob", "/legal", seat="alice"), 403, "auth/other_seat")
    assert_error(started.get("spectator", "/legal"), 403, "auth/forbidden")


def test_undo_redo_and_rulings(started):
    started.play("alice", "take 5")  # rejected: pile/bad_count
    started.play("alice", "take 1")
    undo = started.post("bob", "/undo", {"reason": "misread"}).json()
    assert undo["kind"] == "undo" and undo["actor"] == "bob" and undo["verdict"] == "accepted"
    assert started.get("bob", "/state").json()["state"]["pile"] == 10
    redo = started.post("alice", "/redo", {}).json()
    assert redo["kind"] == "redo" and redo["verdict"] == "accepted"
    assert started.get("bob", "/state").json()["state"]["pile"] == 9
    assert_error(started.post("spectator", "/undo", {}), 403)
    assert_error(started.post("bob", "/rulings", {"entry": 2}), 403)
    # entry 2 was rejected before alice's take 1: played now, it would be played on another state
    assert_error(started.post("arbiter", "/rulings", {"entry": 2, "reason": "house rule"}), 422, "ruling/not_last")
    late = started.play("alice", "take 5")  # rejected again, and nothing played since
    ruling = started.post("arbiter", "/rulings", {"entry": late["seq"], "reason": "house rule"}).json()
    assert ruling["kind"] == "ruling" and ruling["actor"] == "arbiter" and ruling["seq"] == late["seq"] + 1
    assert_error(started.post("arbiter", "/rulings", {"entry": 1}), 422, "ruling/not_rejected")
    assert_error(started.post("arbiter", "/undo", {"to": 99}), 422, "match/bad_seq")


def test_undo_policy_refusals_are_entries_too(client):
    t = Table(client, undo="arbiter")
    t.play("alice", "start first=alice tokens=K01,K02")
    t.play("alice", "take 1")
    refused = t.post("alice", "/undo", {})
    assert refused.status_code == 201 and refused.json()["verdict"] == "rejected"
    assert t.post("arbiter", "/undo", {}).json()["verdict"] == "accepted"


def test_annotations(started):
    note = started.post("alice", "/annotations", {"seq": 1, "text": "nice start", "kind": "good"})
    assert note.status_code == 201 and note.json()["by"] == "alice"
    assert started.post("arbiter", "/annotations", {"seq": 1, "text": "checked"}).json()["by"] == "arbiter"
    assert_error(started.post("spectator", "/annotations", {"seq": 1, "text": "hi"}), 403)
    assert_error(started.post("bob", "/annotations", {"seq": 9, "text": "hi"}), 422, "match/bad_seq")
    assert_error(started.post("bob", "/annotations", {"seq": 1, "text": "hi", "kind": "shout"}), 400)
    notes = started.get("spectator", "/log").json()["entries"][0]["annotations"]
    assert [(n["by"], n["text"]) for n in notes] == [("alice", "nice start"), ("arbiter", "checked")]


def test_fork_mints_new_tokens_and_diff_compares_with_forks(client, started):
    started.play("alice", "take 3")
    assert_error(started.post("alice", "/fork", {"at": 1}), 403)
    made = started.post("arbiter", "/fork", {"at": 1, "name": "what if"})
    assert made.status_code == 201
    fork = made.json()
    fid, ftokens = fork["match"]["id"], fork["tokens"]
    assert fork["match"]["parent"] == started.id and fork["match"]["fork_seq"] == 1
    assert_error(client.get(f"/matches/{fid}/state", headers=started.h("arbiter")), 403, "auth/other_match")
    answer = client.post(f"/matches/{fid}/intents", json={"intent": "take 1"}, headers=bearer(ftokens["seats"]["alice"]))
    assert answer.status_code == 201 and answer.json()["seq"] == 2
    diff = started.get("arbiter", "/diff", other=fid).json()
    assert diff["same_state"] is False and diff["diverge"]["seq"] == 2
    assert [c["path"] for c in diff["changes"]] == ["pile"]
    assert_error(started.get("alice", "/diff", other=fid), 403)
    unrelated = Table(client)
    assert_error(started.get("arbiter", "/diff", other=unrelated.id), 404, "match/unknown")
    # a prefix of another match's id is answered like a prefix of nothing: no full id, no count
    answer = assert_error(started.get("arbiter", "/diff", other=unrelated.id[:4]), 404, "match/unknown")
    nothing = assert_error(started.get("arbiter", "/diff", other="zzzz"), 404, "match/unknown")
    assert unrelated.id not in str(answer) and answer == nothing | {"message": answer["message"], "said": answer["said"]}
    assert answer["said"]["template"] == nothing["said"]["template"]  # its values: what the caller typed
    # the fork's arbiter may not diff back into the parent
    assert_error(client.get(f"/matches/{fid}/diff", params={"other": started.id}, headers=bearer(ftokens["arbiter"])), 404)


def test_audit_for_every_role(started):
    for role in ROLES:
        report = started.get(role, "/audit").json()
        assert report["clean"] is True and report["entries"] == 1
        # the head hash covers hidden information: the arbiter's answer only
        assert (len(report["head_hash"]) == 64) == (role == "arbiter"), role


def test_replay(started):
    started.play("alice", "take 2")
    steps = started.get("bob", "/replay", **{"from": 2}).json()
    assert [s["entry"]["seq"] for s in steps] == [2]
    assert {"path": "pile", "before": 10, "after": 8} in steps[0]["changes"]
    assert_error(started.get("bob", "/replay", **{"from": 5}), 422, "match/bad_seq")


def test_export_formats(started):
    for fmt, media in (("txt", "text/plain"), ("md", "text/markdown"), ("html", "text/html"), ("json", "application/json")):
        answer = started.get("alice", "/export", format=fmt)
        assert answer.status_code == 200 and answer.headers["content-type"].startswith(media)
    doc = started.get("spectator", "/export", format="json").json()
    assert doc["role"] == "spectator"
    assert_error(started.get("alice", "/export", format="pdf"), 400)


def test_events_backlog_and_resume(started):
    started.play("alice", "take 1")
    started.play("bob", "take 1")
    text = started.get("spectator", "/events", follow="false").text
    assert [line for line in text.splitlines() if line.startswith("id:")] == ["id: 1", "id: 2", "id: 3"]
    assert "event: entry" in text
    resumed = started.client.get(f"/matches/{started.id}/events", params={"follow": "false"},
                                 headers={**started.h("bob"), "Last-Event-ID": "2"}).text
    assert [line for line in resumed.splitlines() if line.startswith("id:")] == ["id: 3"]
    after = started.get("alice", "/events", follow="false", after=1).text
    data = [json.loads(line[5:]) for line in after.splitlines() if line.startswith("data:")]
    assert [d["seq"] for d in data] == [2, 3]
    bad = started.client.get(f"/matches/{started.id}/events", headers={**started.h("bob"), "Last-Event-ID": "x"})
    assert_error(bad, 422, "events/bad_last_event_id")
    assert_error(started.get(None, "/events"), 401)


def test_listing_matches_needs_the_admin_token(client):
    assert_error(client.get("/matches", headers=bearer("anything")), 403, "auth/no_admin")
    store = client.app.state.hall.access().referee.store
    with app_client(lambda: Referee(store, games=[PILE]), admin_token="s3cret") as c:
        t = Table(c)
        assert_error(c.get("/matches"), 401)
        assert_error(c.get("/matches", headers=t.h("arbiter")), 403, "auth/not_admin")
        assert [m["id"] for m in c.get("/matches", headers=bearer("s3cret")).json()] == [t.id]


def test_listing_matches_pages_with_limit_and_offset(client):
    store = client.app.state.hall.access().referee.store
    with app_client(lambda: Referee(store, games=[PILE]), admin_token="s3cret") as c:
        ids = [Table(c).id for _ in range(4)]
        admin = bearer("s3cret")
        listed = [m["id"] for m in c.get("/matches", headers=admin).json()]
        assert sorted(listed) == sorted(ids)
        assert [m["id"] for m in c.get("/matches?limit=2", headers=admin).json()] == listed[:2]
        assert [m["id"] for m in c.get("/matches?limit=2&offset=3", headers=admin).json()] == listed[3:]
        assert c.get("/matches?offset=9", headers=admin).json() == []
        assert_error(c.get("/matches?limit=-1", headers=admin), 400)
        assert_error(c.get("/matches?offset=x", headers=admin), 400)


def test_routes_methods_and_bodies_that_do_not_fit_get_the_error_shape(started):
    c = started.client
    assert_error(c.get("/nowhere"), 404, "route/not_found")
    assert_error(c.delete(f"/matches/{started.id}/log", headers=started.h("alice")), 405, "route/method_not_allowed")
    answer = c.post(f"/matches/{started.id}/intents", content=b"{not json", headers={**started.h("alice"), "Content-Type": "application/json"})
    assert_error(answer, 400)
    assert_error(started.post("alice", "/intents", {"intent": "take 1", "expected_seq": -1}), 400, "request/invalid")
    assert_error(started.post("alice", "/intents", {"move": "take 1"}), 400, "request/invalid")
    assert_error(started.get("alice", "/state", at="x"), 400, "request/invalid")
    assert_error(started.get("alice", "/state", at=2**60), 400, "request/invalid")
    assert c.get("/schema/openapi.json").json()["info"]["title"] == "Referee"


# -- every endpoint x every role -------------------------------------------------------------------

ALLOWED = {  # endpoint -> roles that may use it (the others get 403)
    "info": ROLES, "state": ROLES, "log": ROLES, "replay": ROLES, "audit": ROLES, "export": ROLES, "events": ROLES,
    "legal": ("alice", "bob", "arbiter"), "intent": ("alice", "bob", "arbiter"), "undo": ("alice", "bob", "arbiter"),
    "redo": ("alice", "bob", "arbiter"), "annotate": ("alice", "bob", "arbiter"), "diff": ("arbiter",),
    "ruling": ("arbiter",), "fork": ("arbiter",),
}


def call(t: Table, endpoint: str, role: str | None, token_of: Table | None = None):
    """Call one endpoint as ``role`` (a token of ``token_of``'s match, default ``t``'s)."""
    owner = token_of or t
    h = owner.h(role)
    c, base = t.client, f"/matches/{t.id}"
    seat = {"seat": "alice"} if role not in ("alice", "bob") else {}
    return {
        "info": lambda: c.get(base, headers=h),
        "state": lambda: c.get(base + "/state", headers=h),
        "log": lambda: c.get(base + "/log", headers=h),
        "replay": lambda: c.get(base + "/replay", headers=h),
        "audit": lambda: c.get(base + "/audit", headers=h),
        "export": lambda: c.get(base + "/export", params={"format": "json"}, headers=h),
        "events": lambda: c.get(base + "/events", params={"follow": "false"}, headers=h),
        "legal": lambda: c.get(base + "/legal", headers=h),
        "diff": lambda: c.get(base + "/diff", params={"other": t.id}, headers=h),
        "intent": lambda: c.post(base + "/intents", json={"intent": "say note=hello", **seat}, headers=h),
        "undo": lambda: c.post(base + "/undo", json={"to": 3}, headers=h),
        "redo": lambda: c.post(base + "/redo", json={}, headers=h),
        "annotate": lambda: c.post(base + "/annotations", json={"seq": 1, "text": "noted"}, headers=h),
        "ruling": lambda: c.post(base + "/rulings", json={"entry": 2}, headers=h),
        "fork": lambda: c.post(base + "/fork", json={"at": 2}, headers=h),
    }[endpoint]()


def prepared(client: TestClient, **create) -> Table:
    """alice starts (K01, bob K02), a rejected take, a take, an undo of it: every endpoint has work."""
    t = Table(client, **create)
    t.play("alice", "start first=alice tokens=K01,K02")
    t.play("alice", "take 5")
    t.play("alice", "take 1")
    t.post("arbiter", "/undo", {"to": 2})
    return t


@pytest.mark.parametrize("endpoint", sorted(ALLOWED))
def test_every_endpoint_for_every_role(client, endpoint):
    for role in ROLES:
        t = prepared(client)
        answer = call(t, endpoint, role)
        if role in ALLOWED[endpoint]:
            assert answer.status_code in (200, 201), (endpoint, role, answer.text)
        else:
            assert_error(answer, 403)
    t = prepared(client)
    assert_error(call(t, endpoint, None), 401, "auth/missing")
    other = Table(client)
    assert_error(call(t, endpoint, "arbiter", token_of=other), 403, "auth/other_match")


# -- nothing of another seat's hidden tokens, anywhere ----------------------------------------------


@pytest.mark.parametrize("create", [{}, {"seed": 5}], ids=["physical", "digital"])
def test_no_answer_leaks_another_seats_hidden_token(client, create):
    t = Table(client, **create)
    t.play("alice", "start" if create else "start first=alice tokens=K01,K02")
    secret = t.get("arbiter", "/state").json()["state"]["tokens"]
    active = t.get("arbiter", "/state").json()["state"]["active"]
    t.play(active, "take 1")
    # the arbiter's note naming the deal is for the arbiter alone; a seat's note is everyone's
    t.post("arbiter", "/annotations", {"seq": 1, "text": f"dealt {secret['alice']} and {secret['bob']}",
                                       "audience": "arbiter"})
    t.post("alice", "/annotations", {"seq": 1, "text": "a good start"})
    forbidden = {"alice": [secret["bob"]], "bob": [secret["alice"]], "spectator": [secret["alice"], secret["bob"]]}
    for role, hidden in forbidden.items():
        answers = [call(t, endpoint, role) for endpoint in sorted(ALLOWED) if role in ALLOWED[endpoint]
                   and endpoint not in ("fork", "ruling", "diff")]
        for fmt in ("txt", "md", "html", "json"):
            answers.append(t.get(role, "/export", format=fmt))
        answers.append(t.get(role, "/state", at=1))
        answers.append(t.get(role, "/state", **{"as": "spectator"}))
        for answer in answers:
            assert answer.status_code < 300 or answer.request.method == "POST", answer.text
            assert answer.status_code < 500
            for token in hidden:
                assert token.encode() not in answer.content, (role, str(answer.url), answer.text)
        seen = t.get(role, "/state").content
        if role != "spectator":
            assert secret[role].encode() in seen  # a seat sees its own token


def test_no_answer_leaks_a_by_all_means_hand(db_store):
    """The issue's example: two opening hands; nobody else's answer may name a card in them."""
    from referee.games.by_all_means import GAME as BY_ALL_MEANS

    store = db_store
    with app_client(lambda: Referee(store, games=[PILE, BY_ALL_MEANS])) as c:
        t = Table(c, game="by_all_means", cards="spec")
        for seat, hand in (("alice", "TR1,TR2,AG1,PL2"), ("bob", "TR3,TR3,GA1,GF1")):
            answer = t.post("arbiter", "/intents", {"intent": f"draw_opening_hand cards={hand}", "seat": seat})
            assert answer.status_code == 201 and answer.json()["verdict"] == "accepted", answer.text
        forbidden = {"alice": ["GA1", "GF1", "TR3"], "bob": ["TR1", "TR2", "AG1", "PL2"],
                     "spectator": ["GA1", "GF1", "TR3", "TR1", "TR2", "AG1", "PL2"]}
        for role, hidden in forbidden.items():
            answers = [call(t, endpoint, role) for endpoint in sorted(ALLOWED) if role in ALLOWED[endpoint]
                       and endpoint not in ("fork", "ruling", "diff")]
            answers += [t.get(role, "/export", format=fmt) for fmt in ("txt", "md", "html", "json")]
            answers += [t.get(role, "/state", at=n) for n in (1, 2)]
            for answer in answers:
                assert answer.status_code < 500, answer.text
                for card in hidden:
                    assert f'"{card}"'.encode() not in answer.content and f"={card}".encode() not in answer.content \
                        and not _names(answer.text, card), (role, str(answer.url), card)


def _names(text: str, card: str) -> bool:
    import re

    return re.search(rf"(?<![A-Za-z0-9_]){re.escape(card)}(?![A-Za-z0-9_])", text) is not None


# -- one token holder cannot take the server for itself ---------------------------------------------------


def test_a_token_with_its_heavy_requests_running_gets_429_with_when_to_retry(client, started):
    from referee.httphall import HEAVY_PER_TOKEN

    hall = client.app.state.hall
    spectator = hall.access().authenticate(f"Bearer {started.tokens['spectator']}", started.id)
    held = [hall.take_slot(spectator) for _ in range(HEAVY_PER_TOKEN)]
    try:
        for path, params in (("/export", {"format": "json"}), ("/replay", {}), ("/audit", {})):
            answer = started.get("spectator", path, **params)
            body = assert_error(answer, 429, "request/busy")
            assert answer.headers["Retry-After"] == str(body["detail"]["retry_after"])
        assert started.get("alice", "/export", format="json").status_code == 200  # another token is not held up
        assert started.get("spectator", "/state").status_code == 200  # nor a cheap read
        assert started.get("spectator", "/log").status_code == 200  # nor a log page (it costs what it shows)
    finally:
        for key in held:
            hall.give_slot(key)
    for _ in range(HEAVY_PER_TOKEN + 2):  # slots come back when a stream ends
        assert started.get("spectator", "/export", format="md").status_code == 200


def test_exports_are_streamed_in_pieces(started):
    from referee.export import export_chunks

    for _ in range(20):
        started.play(started.get("arbiter", "/state").json()["state"]["active"] or "alice", "say note=x")
    referee = started.client.app.state.hall.access().referee
    for fmt in ("txt", "md", "html", "json"):
        pieces = list(export_chunks(referee, started.id, fmt, "spectator"))
        assert len(pieces) > 20, fmt  # a piece (at least) per entry: nothing is built whole
        assert "".join(pieces) == started.get("spectator", "/export", format=fmt).text


def test_replay_answers_a_page_at_a_time(started):
    started.play("alice", "take 1")
    assert [s["entry"]["seq"] for s in started.get("alice", "/replay").json()] == [1, 2]
    assert_error(started.get("alice", "/replay", **{"from": 1, "to": 5000}), 422, "replay/too_many")
