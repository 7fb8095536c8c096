"""The hall page's snapshot per role (issue 25, item 4): the organiser's holds each table's state of the
round (playing, waiting on a confirmation, disputed, finished) with why, and says the next round may be
paired only once every table is finished; a spectator's holds the states and results but nothing of the
organiser's (no console, no why, no blocks), a player's their own table only. The states are read from
the matches' summaries, annotations and head entries: a snapshot folds no match and audits none."""

from __future__ import annotations

import msgspec
import pytest

from referee.service import Referee
from referee.tournament.access import Entrant, TournamentAccess
from referee.tournament.hall import snapshot
from schemas.tournament import CreateTournament, PairRequest
from support.pile import PILE

PLAYERS = ["ann", "ben", "cy", "dee", "eve", "fay"]


def _active(referee: Referee, mid: str) -> str:
    return str(referee.show(mid).state["active"])


def _cup(store):
    """Six players, round 1 paired: table 1 finished, table 2 waiting on a confirmation, table 3 disputed."""
    access = TournamentAccess(Referee(store, games=[PILE]))
    made = access.create(CreateTournament(name="Thursday <b>cup</b>", game="pile", rounds=2, seed=4,
                                          chance="digital", options={"stones": "3"}, players=PLAYERS))
    tid = made.tournament
    org = Entrant(tournament=tid, role="organiser")
    tables = access.pair(org, PairRequest(tokens=False)).tables
    ref = access.service.referee
    for t in tables:
        ref.submit(t.match_id, t.seats[0], "start")
    one, two, three = (t.match_id for t in tables)
    ref.submit(one, _active(ref, one), "take 3")  # takes the last stone: finished
    guesser = _active(ref, two)
    other = next(s for s in tables[1].seats if s != guesser)
    held = ref.submit(two, guesser, f"guess seat={other} token=K01", blind=True)
    assert held.held
    mover = _active(ref, three)
    moved = ref.submit(three, mover, "take 1").seq
    ref.annotate(three, moved, "was that their turn?", kind="disputed", by="cy")
    return access, tid, tables, (other, held.seq, moved)


def _snap(store, tid: str, role: str, player: str | None = None) -> dict:
    fresh = TournamentAccess(Referee(store, games=[PILE]))  # as a server's worker reads it: nothing kept
    return msgspec.json.decode(msgspec.json.encode(snapshot(fresh, Entrant(tournament=tid, role=role, player=player))))


def test_the_organiser_sees_each_tables_state_and_may_pair_only_a_complete_round(db_store):
    access, tid, tables, (confirmer, held, moved) = _cup(db_store)
    snap = _snap(db_store, tid, "organiser")
    assert snap["role"] == "organiser" and snap["round"] == 1
    states = {t["table"]: (t["state"], t["why"]) for t in snap["tables"]}
    assert states == {1: ("finished", ""), 2: ("waiting", f"entry {held} waits for {confirmer} to confirm it"),
                      3: ("disputed", f"an open dispute on entry {moved} (a ruling annotation on it settles it)")}
    first = snap["tables"][0]
    assert first["source"] == "log" and not first["recorded"] and "won" in first["result"]
    assert snap["console"] == {"open": True, "complete": False, "next_round": 2, "can_pair": False,
                               "can_close": False, "to_record": 1, "to_confirm": []}
    assert [b["table"] for b in snap["pairings"]["blocks"]] == [2, 3]
    assert snap["playing"] == 1 and snap["standings"]["after_round"] == 0  # round 1 is not complete

    # the confirmation given, the dispute ruled on, the last two matches played out: the round is complete
    ref = access.service.referee
    two, three = tables[1].match_id, tables[2].match_id
    ref.confirm(two, held, by=confirmer, accept=False)
    ref.annotate(three, moved, "it was", kind="ruling", by="organiser")
    for mid in (two, three):
        while ref.result(mid) is None:
            ref.submit(mid, _active(ref, mid), "take 1")
    snap = _snap(db_store, tid, "organiser")
    assert [t["state"] for t in snap["tables"]] == ["finished"] * 3
    assert snap["console"] == {"open": True, "complete": True, "next_round": 2, "can_pair": True,
                               "can_close": True, "to_record": 3, "to_confirm": []}
    assert snap["playing"] is None and snap["standings"]["after_round"] == 1

    # paired (which closes round 1, recording its results), then round 2 in play, the last of two
    access.pair(Entrant(tournament=tid, role="organiser"), PairRequest(tokens=False))
    snap = _snap(db_store, tid, "organiser")
    assert snap["round"] == 2 and [t["state"] for t in snap["tables"]] == ["playing"] * 3
    assert snap["console"] == {"open": True, "complete": False, "next_round": None, "can_pair": False,
                               "can_close": False, "to_record": 0, "to_confirm": []}


def test_a_spectators_snapshot_holds_nothing_of_the_organisers_and_a_players_their_own_table(db_store):
    access, tid, tables, (confirmer, held, moved) = _cup(db_store)
    spectator = _snap(db_store, tid, "spectator")
    assert spectator["role"] == "spectator" and "console" not in spectator and "player" not in spectator
    assert [t["state"] for t in spectator["tables"]] == ["finished", "waiting", "disputed"]
    assert all("why" not in t for t in spectator["tables"]) and spectator["pairings"]["blocks"] == []
    text = msgspec.json.encode(spectator).decode()
    for secret in ("console", "can_pair", "waits for", "open dispute", "was that their turn", '"why"', "seed"):
        assert secret not in text, secret
    # what the spectators' token reads over /pairings and /standings already: no more
    assert spectator["standings"] == msgspec.to_builtins(access.standings(Entrant(tid, "spectator"), 0, None, None))

    mine = tables[1].seats[0]
    player = _snap(db_store, tid, "player", mine)
    assert player["role"] == "player" and player["player"] == mine and "console" not in player
    assert [t["table"] for t in player["tables"]] == [2]
    assert [t["table"] for r in player["pairings"]["rounds"] for t in r["tables"]] == [2]


def test_a_dispute_meant_for_the_arbiter_alone_is_not_shown_to_the_spectators(db_store):
    access, tid, tables, (confirmer, held, moved) = _cup(db_store)
    three = tables[2].match_id
    access.service.referee.annotate(three, moved, "it was", kind="ruling", by="organiser")
    access.service.referee.annotate(three, 1, "the start looked odd", kind="disputed", by="organiser", audience="arbiter")
    assert _snap(db_store, tid, "organiser")["tables"][2]["state"] == "disputed"
    assert _snap(db_store, tid, "spectator")["tables"][2]["state"] == "playing"


def test_a_snapshot_folds_no_match_and_audits_none(db_store, monkeypatch):
    from referee.history import History

    access, tid, tables, _ = _cup(db_store)

    def refused(*args, **kwargs):
        raise AssertionError("the hall's snapshot folded or audited a match")

    monkeypatch.setattr(History, "state_at", refused)
    monkeypatch.setattr(History, "folded", refused)
    monkeypatch.setattr(Referee, "audit", refused)
    for role in ("organiser", "spectator"):
        assert [t["state"] for t in _snap(db_store, tid, role)["tables"]] == ["finished", "waiting", "disputed"]


def test_the_page_is_one_shell_for_every_role(db_store):
    from support.apps import app_client

    with app_client(lambda: Referee(db_store, games=[PILE]), admin_token="adm") as c:
        made = c.post("/tournaments", json={"name": "Cup", "game": "pile", "players": ["ann", "ben"]},
                      headers={"Authorization": "Bearer adm"}).json()
        tid = made["tournament"]
        page = c.get(f"/hall/{tid}")
        assert page.status_code == 200 and made["tokens"]["organiser"] not in page.text
        assert page.text == c.get(f"/hall/{tid}", headers={"Authorization": f"Bearer {made['tokens']['organiser']}"}).text
        for role, token in (("organiser", made["tokens"]["organiser"]), ("spectator", made["tokens"]["spectator"])):
            one = c.get(f"/tournaments/{tid}/events", params={"follow": "false"},
                        headers={"Authorization": f"Bearer {token}"})
            assert one.status_code == 200 and f'"role":"{role}"' in one.text
            assert ('"console"' in one.text) is (role == "organiser")


@pytest.mark.parametrize("tables", [50])
def test_a_snapshot_of_a_big_hall_reads_each_table_once(tables):
    """Fifty tables: the snapshot reads each match's summary and annotations once and folds none."""
    from referee.store.memory import MemoryStore

    store = MemoryStore()
    access = TournamentAccess(Referee(store, games=[PILE]))
    made = access.create(CreateTournament(name="Big", game="pile", rounds=3, seed=1, chance="digital",
                                          options={"stones": "3"}, players=[f"p{i:03}" for i in range(2 * tables)]))
    access.pair(Entrant(made.tournament, "organiser"), PairRequest(tokens=False))
    reads: dict[str, int] = {}
    real = (store.summary, store.annotations)

    def counted(kind, fn):
        def read(mid):
            reads[kind] = reads.get(kind, 0) + 1
            return fn(mid)
        return read

    store.summary = counted("summary", real[0])  # type: ignore[method-assign]
    store.annotations = counted("annotations", real[1])  # type: ignore[method-assign]
    snap = _snap(store, made.tournament, "organiser")
    assert len(snap["tables"]) == tables and reads == {"summary": tables, "annotations": tables}


def test_the_console_before_the_first_round_and_after_the_last(db_store):
    access = TournamentAccess(Referee(db_store, games=[PILE]))
    tid = access.create(CreateTournament(name="Short", game="pile", rounds=1, seed=2, chance="digital",
                                         options={"stones": "3"}, players=["ann", "ben"])).tournament
    snap = _snap(db_store, tid, "organiser")
    assert snap["round"] == 0 and snap["tables"] == [] and snap["playing"] is None
    assert snap["console"] == {"open": False, "complete": True, "next_round": 1, "can_pair": True,
                               "can_close": False, "to_record": 0, "to_confirm": []}
    org = Entrant(tournament=tid, role="organiser")
    mid = access.pair(org, PairRequest(tokens=False)).tables[0].match_id
    ref = access.service.referee
    ref.submit(mid, "ann", "start")
    ref.submit(mid, _active(ref, mid), "take 3")
    assert _snap(db_store, tid, "organiser")["console"] == {
        "open": True, "complete": True, "next_round": None, "can_pair": False, "can_close": True, "to_record": 1, "to_confirm": []}
    access.close(org, "the evening is over")
    snap = _snap(db_store, tid, "organiser")
    assert snap["console"] == {"open": False, "complete": True, "next_round": None, "can_pair": False,
                               "can_close": False, "to_record": 0, "to_confirm": []}
    assert snap["tables"][0]["recorded"] and snap["tables"][0]["source"] == "log"
    assert snap["standings"]["after_round"] == 1
