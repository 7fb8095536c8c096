"""Every HTTP endpoint that takes an entry takes ``line:N`` too, the entry read from line N of the imported
transcript, as the CLI's commands do (issue 24 item 3): in a query (``at``, ``from``, ``to``, ``other_at``,
``after``) and in a body (``to``, ``undo``, ``entry``, ``seq``, ``at``). A line that produced no entry is
a 422 in the one error shape naming the nearest lines that did, and nothing is written. Both backends."""

from __future__ import annotations

import pytest
from litestar.testing import TestClient

from referee.service import Referee
from support.apps import app_client
from support.pile import PILE

ROLES = ("alice", "bob", "arbiter", "spectator")
#: the transcript as imported: (its line, seat, intent); entries 1..5 in this order
SHEET = ((3, "alice", "start first=alice tokens=K01,K02"), (5, "alice", "take 2"), (6, "bob", "take 1"),
         (8, "alice", "take 5"), (9, "alice", "take 1"))


class Imported:
    """A match made over HTTP (its tokens) whose entries record the transcript lines they were read from,
    written as ``referee import`` writes them (``meta.line``)."""

    def __init__(self, client: TestClient, store) -> None:
        made = client.post("/matches", json={"game": "pile", "players": ["alice", "bob"]})
        assert made.status_code == 201, made.text
        self.client, self.store = client, store
        self.id = made.json()["match"]["id"]
        tokens = made.json()["tokens"]
        self.tokens = {**tokens["seats"], "arbiter": tokens["arbiter"], "spectator": tokens["spectator"]}
        referee = Referee(store, games=[PILE])
        for line, seat, text in SHEET:
            referee.submit(self.id, seat, text, meta={"line": line})

    def h(self, role: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[role]}"}

    def get(self, role: str, path: str, **params):
        return self.client.get(f"/matches/{self.id}{path}", params=params, headers=self.h(role))

    def post(self, role: str, path: str, body: dict):
        return self.client.post(f"/matches/{self.id}{path}", json=body, headers=self.h(role))


@pytest.fixture
def imported(db_store):
    with app_client(lambda: Referee(db_store, games=[PILE])) as c:
        yield Imported(c, db_store)


def no_line(answer, line: int = 7) -> dict:
    """The refusal of a line that produced no entry: 422, the one error shape, the nearest lines named."""
    assert answer.status_code == 422, answer.text
    body = answer.json()
    assert set(body) - {"said"} == {"code", "message", "detail"} and body["code"] == "input/no_such_line", body
    assert f"line {line} of match" in body["message"], body
    assert "line:6 (entry 3) and line:8 (entry 4)" in body["message"], body
    return body


def test_reading_at_a_line_is_reading_at_its_entry_for_every_role(imported):
    for role in ROLES:
        by_line = imported.get(role, "/state", at="line:6")
        assert by_line.status_code == 200, by_line.text
        assert by_line.json() == imported.get(role, "/state", at=3).json()
        assert by_line.json()["state"]["pile"] == 7
        no_line(imported.get(role, "/state", at="line:7"))
    for bad in ("line:", "line:x", "LINE:6", "6.0", "-1", "entry:3"):
        answer = imported.get("alice", "/state", at=bad)
        assert answer.status_code == 400 and answer.json()["code"] == "request/invalid", (bad, answer.text)


def test_the_log_replay_and_events_start_and_end_at_lines(imported):
    page = imported.get("bob", "/log", **{"from": "line:6"}, limit=2).json()
    assert [e["seq"] for e in page["entries"]] == [3, 4] and page["offset"] == 2
    assert [e["seq"] for e in imported.get("bob", "/log", **{"from": 3}, limit=1).json()["entries"]] == [3]
    both = imported.get("bob", "/log", **{"from": "line:6"}, offset=1)
    assert both.status_code == 422 and both.json()["code"] == "input/bad_page", both.text
    no_line(imported.get("bob", "/log", **{"from": "line:7"}))
    steps = imported.get("alice", "/replay", **{"from": "line:5", "to": "line:6"}).json()
    assert [s["entry"]["seq"] for s in steps] == [2, 3]
    no_line(imported.get("alice", "/replay", **{"from": "line:7"}))
    no_line(imported.get("alice", "/replay", to="line:7"))
    text = imported.get("spectator", "/events", follow="false", after="line:8").text
    assert [line for line in text.splitlines() if line.startswith("id:")] == ["id: 5"]
    no_line(imported.get("spectator", "/events", follow="false", after="line:7"))


def test_a_match_not_imported_names_entries_by_number_only(imported):
    made = imported.client.post("/matches", json={"game": "pile", "players": ["alice", "bob"]}).json()
    answer = imported.client.get(f"/matches/{made['match']['id']}/state", params={"at": "line:3"},
                                 headers={"Authorization": f"Bearer {made['tokens']['arbiter']}"})
    assert answer.status_code == 422 and answer.json()["code"] == "input/no_such_line"
    assert "give the entry's number instead" in answer.json()["message"]


def test_writes_name_their_entry_by_line(imported):
    note = imported.post("alice", "/annotations", {"seq": "line:5", "text": "two at once"})
    assert note.status_code == 201, note.text
    log = imported.get("spectator", "/log").json()["entries"]
    assert [n["text"] for n in log[1]["annotations"]] == ["two at once"]
    # line 8 was refused (take 5) and line 9 played since: a ruling on it names entry 4, as entry 4 would
    ruled = imported.post("arbiter", "/rulings", {"entry": "line:8", "reason": "house rule"})
    assert ruled.status_code == 422 and ruled.json()["code"] == "ruling/not_last", ruled.text
    assert ruled.json() == imported.post("arbiter", "/rulings", {"entry": 4, "reason": "house rule"}).json()
    fork = imported.post("arbiter", "/fork", {"at": "line:6", "name": "what if"})
    assert fork.status_code == 201 and fork.json()["match"]["fork_seq"] == 3, fork.text
    fid = fork.json()["match"]["id"]
    diff = imported.get("arbiter", "/diff", other=fid, at="line:6", other_at="line:6").json()
    assert diff["same_state"] is True
    assert imported.get("arbiter", "/diff", other=fid, at="line:9", other_at="line:6").json()["same_state"] is False
    beyond = imported.get("arbiter", "/diff", other=fid, other_at="line:7")  # looked up in the fork's own log
    assert beyond.status_code == 422 and beyond.json()["code"] == "input/no_such_line", beyond.text
    assert beyond.json()["message"].endswith("the nearest that did: line:6 (entry 3)")
    undone = imported.post("bob", "/undo", {"to": "line:5", "reason": "misread"})
    assert undone.status_code == 201 and undone.json()["verdict"] == "accepted", undone.text
    assert imported.get("bob", "/state").json()["state"]["pile"] == 8  # as after entry 2 (line 5)


def test_a_line_that_made_no_entry_writes_nothing(imported):
    head = imported.store.head(imported.id)
    notes = imported.store.annotations(imported.id)
    matches = len(imported.store.list_matches())
    no_line(imported.post("alice", "/annotations", {"seq": "line:7", "text": "hi"}))
    no_line(imported.post("arbiter", "/rulings", {"entry": "line:7"}))
    no_line(imported.post("arbiter", "/undo", {"to": "line:7"}))
    no_line(imported.post("arbiter", "/redo", {"undo": "line:7"}))
    no_line(imported.post("arbiter", "/confirmations", {"entry": "line:7"}))
    no_line(imported.post("arbiter", "/fork", {"at": "line:7"}))
    for path, body in (("/annotations", {"seq": "6", "text": "hi"}), ("/undo", {"to": "line 5"}),
                       ("/fork", {"at": "line:-1"})):
        answer = imported.post("arbiter", path, body)
        assert answer.status_code == 400 and answer.json()["code"] == "request/invalid", (path, answer.text)
    said = imported.post("arbiter", "/undo", {"to": "5"}).json()["message"]
    assert said.endswith("to: Expected `int` (an entry number) or a `str` line:N (the entry read from line N of the "
                         "imported transcript)"), said
    # the role comes first: a spectator may not annotate, whatever entry it names
    answer = imported.post("spectator", "/annotations", {"seq": "line:7", "text": "hi"})
    assert answer.status_code == 403 and answer.json()["code"] == "auth/forbidden", answer.text
    assert imported.post("bob", "/rulings", {"entry": "line:7"}).status_code == 403
    assert imported.store.head(imported.id) == head and imported.store.annotations(imported.id) == notes
    assert len(imported.store.list_matches()) == matches
