"""The round clock (issue 26 item 4): the organiser starts, stops and resumes it as records of the
tournament, each with the server's time as data; the fold reads those times as values (the same records
give the same clock, whatever the time is when they are read); what is left and which tables are past
time is computed from a given "now"; the hall's snapshot carries the clock for every role; only the
organiser's token may set it; ``referee tournament clock`` does the same from the organiser's database."""

from __future__ import annotations

import json

import msgspec
import pytest

from referee.errors import BadInput
from referee.service import Referee
from referee.tournament import clock as rc
from referee.tournament.access import Entrant, TournamentAccess
from referee.tournament.fold import fold
from referee.tournament.hall import snapshot
from schemas.tournament import ClockRequest, CreateTournament, PairRequest
from support.pile import PILE

T0 = "2026-11-28T15:00:00Z"


def _cup(store, times: list[str]):
    access = TournamentAccess(Referee(store, games=[PILE]))
    access.service.clock = lambda: times[0]
    tid = access.create(CreateTournament(name="Cup", game="pile", rounds=2, seed=4, chance="digital",
                                         options={"stones": "3"}, players=["ann", "ben", "cy", "dee"])).tournament
    org = Entrant(tournament=tid, role="organiser")
    tables = access.pair(org, PairRequest(tokens=False)).tables
    return access, tid, org, tables


def test_the_clocks_records_fold_to_the_same_clock_whenever_they_are_read(db_store, monkeypatch):
    # every record's time comes from the service's clock: 15:00 started, stopped at 15:10, resumed at 15:13
    access, tid, org, _ = _cup(db_store, [T0])
    start = len(access.service.records(tid))
    for at, req in (("15:00", ClockRequest(action="start", minutes=50)), ("15:10", ClockRequest(action="stop")),
                    ("15:13", ClockRequest(action="resume", reason="a fire drill"))):
        access.service.clock = lambda at=at: f"2026-11-28T{at}:00Z"
        access.clock(org, req)
    records = access.service.records(tid)
    assert [msgspec.to_builtins(r.event) for r in records[start:]] == [
        {"type": "clock_started", "round": 1, "minutes": 50, "at": "2026-11-28T15:00:00Z"},
        {"type": "clock_stopped", "at": "2026-11-28T15:10:00Z"},
        {"type": "clock_resumed", "at": "2026-11-28T15:13:00Z"}]
    assert records[-1].why == "a fire drill" and records[-1].by == "organiser"

    # the fold never reads a clock: with time itself broken, the same records fold to the same clock
    import time

    def no_clock() -> float:
        raise AssertionError("the fold read the clock")

    monkeypatch.setattr(time, "time", no_clock)
    one, two = fold(records), fold(list(records))
    assert one.clock == two.clock and one.clock is not None
    assert (one.clock.started, one.clock.paused, one.clock.stopped) == ("2026-11-28T15:00:00Z", 180, None)
    # shown at a given time: the same answer each time, the three minutes stopped added to the end
    at = rc.shown(one, "2026-11-28T15:40:00Z")
    assert at == rc.shown(two, "2026-11-28T15:40:00Z")
    assert msgspec.to_builtins(at) == {
        "round": 1, "minutes": 50, "started_at": "2026-11-28T15:00:00Z", "paused": 180, "running": True,
        "ends_at": "2026-11-28T15:53:00Z", "stopped_at": None, "remaining": None, "over": False}
    assert rc.remaining(one.clock, "2026-11-28T15:40:00Z") == 13 * 60


def test_past_time_is_computed_from_a_given_now():
    from referee.tournament.fold import Clock

    running = Clock(round=1, minutes=50, started=T0)
    assert not rc.past_time(running, "2026-11-28T15:49:59Z") and rc.past_time(running, "2026-11-28T15:50:00Z")
    assert rc.remaining(running, "2026-11-28T15:52:30Z") == -150
    # stopped at 15:30 with 20 minutes left: still 20 minutes left at any later time, never past time
    stopped = Clock(round=1, minutes=50, started=T0, stopped="2026-11-28T15:30:00Z")
    assert rc.remaining(stopped, "2026-11-28T18:00:00Z") == 20 * 60 and not rc.past_time(stopped, "2026-11-28T18:00:00Z")
    assert not rc.past_time(None, "2026-11-28T18:00:00Z")
    shown = msgspec.to_builtins(rc.shown(_state_with(stopped), "2026-11-28T18:00:00Z"))
    assert shown["running"] is False and shown["ends_at"] is None and shown["remaining"] == 1200


def _state_with(clock):
    from referee.tournament.events import Created, Points, Table
    from referee.tournament.fold import Round, Tournament

    state = Tournament(id="t", config=Created(name="x", game="pile", format="swiss", rounds=1, tiebreaks=(),
                                              points=Points(), seed=1))
    state.rounds.append(Round(number=1, tables=(Table(table=1, seats=("a", "b")),), byes=()))
    state.clock = clock
    return state


def _snap(store, tid: str, role: str, now: str) -> dict:
    fresh = TournamentAccess(Referee(store, games=[PILE]))
    return msgspec.json.decode(msgspec.json.encode(snapshot(fresh, Entrant(tournament=tid, role=role), now)))


def test_the_halls_snapshot_carries_the_clock_and_flags_tables_past_time(db_store):
    access, tid, org, tables = _cup(db_store, [T0])
    assert _snap(db_store, tid, "spectator", T0)["clock"] is None
    access.clock(org, ClockRequest(action="start", minutes=50))
    ref = access.service.referee
    one = tables[0].match_id
    ref.submit(one, tables[0].seats[0], "start")
    while ref.result(one) is None:
        ref.submit(one, str(ref.show(one).state["active"]), "take 3")
    before = _snap(db_store, tid, "organiser", "2026-11-28T15:49:59Z")
    later = _snap(db_store, tid, "organiser", "2026-11-28T15:50:30Z")
    assert before["clock"]["over"] is False and [t["past_time"] for t in before["tables"]] == [False, False]
    # past time: the finished table is not flagged, the one still playing is
    assert later["clock"]["over"] is True and [(t["state"], t["past_time"]) for t in later["tables"]] == [
        ("finished", False), ("playing", True)]
    # the same for the spectators (the clock is everyone's), and the snapshot does not change by the second
    spectator = _snap(db_store, tid, "spectator", "2026-11-28T15:50:30Z")
    assert spectator["clock"] == later["clock"] and spectator["tables"][1]["past_time"] is True
    assert _snap(db_store, tid, "spectator", "2026-11-28T15:51:30Z") == spectator
    assert _snap(db_store, tid, "spectator", "2026-11-28T15:10:00Z") == _snap(db_store, tid, "spectator",
                                                                              "2026-11-28T15:20:00Z")


def test_setting_the_clock_refuses_what_cannot_be_and_writes_nothing(db_store):
    access = TournamentAccess(Referee(db_store, games=[PILE]))
    tid = access.create(CreateTournament(name="Cup", game="pile", rounds=1, seed=4, players=["ann", "ben"])).tournament
    org = Entrant(tournament=tid, role="organiser")
    n = len(access.service.records(tid))
    with pytest.raises(BadInput, match="no round is being played"):
        access.clock(org, ClockRequest(action="start", minutes=50))
    access.pair(org, PairRequest(tokens=False))
    n = len(access.service.records(tid))
    for req, said in ((ClockRequest(action="stop"), "never started"), (ClockRequest(action="resume"), "never started"),
                      (ClockRequest(action="start"), "needs the round's time"),
                      (ClockRequest(action="stop", minutes=5), "goes with \"start\" only")):
        with pytest.raises(BadInput, match=said):
            access.clock(org, req)
    assert len(access.service.records(tid)) == n
    access.clock(org, ClockRequest(action="start", minutes=50))
    with pytest.raises(BadInput, match="is not stopped"):
        access.clock(org, ClockRequest(action="resume"))
    with pytest.raises(BadInput, match="1 to 1440 whole minutes"):
        rc.start(access.service, tid, 0)
    assert len(access.service.records(tid)) == n + 1


def test_over_http_only_the_organiser_sets_the_clock_and_every_token_reads_it(db_store):
    from support.apps import app_client

    with app_client(lambda: Referee(db_store, games=[PILE]), admin_token="adm") as c:
        made = c.post("/tournaments", json={"name": "Cup", "game": "pile", "players": ["ann", "ben"]},
                      headers={"Authorization": "Bearer adm"}).json()
        tid, tokens = made["tournament"], made["tokens"]

        def auth(token: str) -> dict[str, str]:
            return {"Authorization": f"Bearer {token}"}

        org, spec, ann = auth(tokens["organiser"]), auth(tokens["spectator"]), auth(tokens["players"]["ann"])
        assert c.post(f"/tournaments/{tid}/pair", json={}, headers=org).status_code == 201
        assert c.get(f"/tournaments/{tid}/clock", headers=spec).json() is None
        for who in (spec, ann):
            refused = c.post(f"/tournaments/{tid}/clock", json={"action": "start", "minutes": 50}, headers=who)
            assert refused.status_code == 403 and "only the organiser" in refused.json()["message"]
        bad = c.post(f"/tournaments/{tid}/clock", json={"action": "start", "minutes": "50"}, headers=org)
        assert bad.status_code in (400, 422) and "minutes" in bad.text
        bad = c.post(f"/tournaments/{tid}/clock", json={"action": "rewind"}, headers=org)
        assert bad.status_code in (400, 422) and "action" in bad.text
        stop = c.post(f"/tournaments/{tid}/clock", json={"action": "stop"}, headers=org)
        assert stop.status_code == 422 and stop.json()["code"] == "tournament/bad_clock" and "never started" in stop.json()["message"]
        started = c.post(f"/tournaments/{tid}/clock", json={"action": "start", "minutes": 50}, headers=org)
        assert started.status_code == 201 and started.json()["running"] and started.json()["minutes"] == 50
        read = c.get(f"/tournaments/{tid}/clock", headers=ann).json()
        assert read["started_at"] == started.json()["started_at"] and read["ends_at"] == started.json()["ends_at"]
        one = c.get(f"/tournaments/{tid}/events", params={"follow": "false"}, headers=spec)
        snap = json.loads(one.text.split("data:", 1)[1].split("\n\n", 1)[0])
        assert snap["clock"]["ends_at"] == read["ends_at"]


def test_the_clock_command(cli):
    made = cli("tournament", "new", "Cup", "--game", "by_all_means", "--rounds", "1", "--players", "ann,ben")
    tid = made.last_line
    early = cli("tournament", "clock", tid, "start", "--minutes", "50")
    assert early.code == 2 and "no round is being played" in early.err
    assert cli("tournament", "pair", tid).code == 0
    started = cli("tournament", "clock", tid, "start", "--minutes", "50")
    assert started.code == 0 and "round 1: 50 min from" in started.out and "running" in started.out
    assert cli("tournament", "clock", tid, "stop").code == 0
    again = cli("tournament", "clock", tid, "stop")
    assert again.code == 2 and "is not running (it is stopped)" in again.err
    assert cli("tournament", "clock", tid, "resume").code == 0
    shown = json.loads(cli("tournament", "clock", tid, "show", "--json").out)
    assert shown["round"] == 1 and shown["minutes"] == 50 and shown["running"] is True
    wrong = cli("tournament", "clock", tid, "rewind")
    assert wrong.code == 2 and "start, stop, resume, show" in wrong.err
    log = cli("tournament", "log", tid).out
    assert "clock_started" in log and "clock_stopped" in log and "clock_resumed" in log


def test_the_clock_command_through_a_server(cli, db_store):
    from support.apps import live_server

    with live_server(lambda: Referee(db_store, games=[PILE]), admin_token="adm") as server:
        made = TournamentAccess(Referee(db_store, games=[PILE])).create(CreateTournament(
            name="Cup", game="pile", rounds=1, seed=4, players=["ann", "ben"]))
        tid = made.tournament
        org = ("--server", server.url, "--token", made.tokens.organiser)
        spectator = ("--server", server.url, "--token", made.tokens.spectator)
        assert cli(*org, "tournament", "pair", tid).code == 0
        started = cli(*org, "tournament", "clock", tid, "start", "--minutes", "30", "--json")
        assert started.code == 0 and json.loads(started.out)["minutes"] == 30
        refused = cli(*spectator, "tournament", "clock", tid, "stop")
        assert refused.code != 0 and "only the organiser" in refused.err
        shown = cli(*spectator, "tournament", "clock", tid, "show")
        assert shown.code == 0 and "round 1: 30 min from" in shown.out and "left" in shown.out
        assert cli(*org, "tournament", "clock", tid, "stop").code == 0
        again = cli(*org, "tournament", "clock", tid, "stop")
        assert again.code != 0 and "is not running" in again.err
